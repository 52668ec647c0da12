"""Mutated fixtures of every input kind through the CLI in process (issue 29): no traceback, no hang, no silent change.

The fixtures, the mutations and the runner are ``tests/_mutation.py``'s (shared with the long campaign,
``scripts/mutation_campaign.py`` / ``make mutate``).  Three properties, each drawn by hypothesis at a small
budget (derandomized: the same cases on every run):

* damage (byte flips, truncation, deleted or duplicated lines, lines repeated up to 100-900 KB, swapped JSON
  value types, dropped keys, huge numbers, a 140,000-character cell, unicode traps, corrupted zip members, the
  wrong ``--from``) ends in a success or in one ``accord: error:`` line with exit 2: never a traceback, never a
  run over 5 s (of CPU time, so that a loaded machine does not fail it) on an input under 1 MB, never JSON
  output mixed with something else;
* damage no reader can take as the whole file (a JSON document, a DUCView file or a spreadsheet's cells cut
  short; a CoNLL or CoNLL-U token line deleted from one of the files aligned; a column the command reads
  repeated under the same header) is refused, not read in part;
* meaning-preserving rewrites (line endings, JSON indentation, key order and escaping, row and record order,
  CSV quoting, zip recompression, Parquet row groups and compression, surrounding spaces in id and label cells,
  integral ids written as text or as x.0) give the same numbers in ``--json`` as the intact file (up to 1e-9
  relative: a float sum taken in another order), outside the import report (whose line numbers move).

The cases of each property that fail before the fixes of issue 29 are marked ``xfail(strict=True)`` below with
the defect and the branch that fixes it; once that branch is merged the mark must go (a strict xfail that
passes fails the suite).
"""

from __future__ import annotations

import _mutation as M
import pytest
from hypothesis import HealthCheck, Phase, given, reject, settings

SETTINGS = dict(deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much,
                                       HealthCheck.too_slow])

DAMAGE = tuple(M.DAMAGING) + (M.WRONG_FROM,)

# --- what still fails (issue 29), each with its defect: a fix removes its line (none is left) ------------------
#: kind -> the defect its damage property finds.
XFAIL_DAMAGE: dict[str, str] = {}
#: (kind, mutation) -> the defect its must-refuse property finds.
XFAIL_REFUSE: dict[tuple[str, str], str] = {}
#: (kind, mutation) -> the defect its meaning-preserving property finds.
XFAIL_PRESERVE: dict[tuple[str, str], str] = {}


def _marked(cases, xfails):
    out = []
    for case in cases:
        key = case if isinstance(case, str) else tuple(case)
        reason = xfails.get(key)
        marks = [pytest.mark.xfail(strict=True, reason=f"issue 29: {reason}")] if reason else []
        out.append(pytest.param(*(case if isinstance(case, tuple) else (case,)), marks=marks,
                                id=key if isinstance(key, str) else "-".join(key)))
    return out


def _applicable(mutations):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        return [(t.kind, m) for t in M.TARGETS for m in mutations if not t.campaign_only and M.applies(t, m, Path(tmp))]


REFUSE_CASES = _applicable(tuple(M.MUST_REFUSE))
PRESERVE_CASES = _applicable(M.PRESERVING)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("mutation")


def _run(kind, mutation, seed, workdir):
    res = M.run_mutant(M.TARGET_BY_KIND[kind], mutation, seed, workdir / "case")
    if res is None:
        reject()
    m, out = res
    case = f"{kind}/{mutation}/{seed} ({m.file}: {m.detail}): {M.command_line(m)}"
    return out, case


def test_every_input_kind_is_covered():
    """Each importer (``--from``; INCEpTION's agreement table is guessed), each table format and each reader of the
    command line has a target, and each mutation applies to at least one."""
    assert set(M.TOOLS) - {"inception-agreement"} <= {t.tool for t in M.TARGETS}
    suffixes = {M.Path(f.removeprefix("derived:")).suffix for t in M.TARGETS for f in t.files}
    assert {".csv", ".tsv", ".jsonl", ".json", ".parquet", ".xlsx", ".ods", ".zip", ".conll", ".conllu", ".pyr",
            ".pan", ".ann"} <= suffixes
    commands = {t.argv[0] if t.argv[0] != "pyramid" else " ".join(t.argv[:2]) for t in M.TARGETS}
    assert {"agree", "spans", "coref", "import", "multilabel", "significance", "alt-test", "gold", "report",
            "pyramid show", "pyramid score", "pyramid agree", "pyramid agree-peers"} <= commands
    for k in ("brat", "argilla", "coref-brat", "spans-table", "confusion", "multilabel", "significance", "mturk",
              "inception-diagnosis", "inception-zip", "inception-tsv", "doccano-zip", "label-studio-min"):
        assert k in M.TARGET_BY_KIND
    assert {m for _, m in PRESERVE_CASES} == set(M.PRESERVING)
    assert {m for _, m in REFUSE_CASES} == set(M.MUST_REFUSE)


@pytest.mark.parametrize("kind", _marked([t.kind for t in M.TARGETS if not t.campaign_only], XFAIL_DAMAGE))
@settings(max_examples=10, **SETTINGS)
@given(case=M.strategy(DAMAGE))
def test_damage_is_refused_in_one_line_or_read(kind, case, workdir):
    mutation, seed = case
    out, where = _run(kind, mutation, seed, workdir)
    assert out.outcome not in M.FAILURES, f"{out.outcome}: {out.detail}\n  {where}"


@pytest.mark.parametrize(("kind", "mutation"), _marked(REFUSE_CASES, XFAIL_REFUSE))
@settings(max_examples=4, **SETTINGS)
@given(case=M.strategy(("",)))
def test_damage_that_cannot_be_read_whole_is_refused(kind, mutation, case, workdir):
    _, seed = case
    out, where = _run(kind, mutation, seed, workdir)
    assert out.outcome == "refusal", f"{out.outcome}: {out.detail}\n  {where}"


@pytest.mark.parametrize(("kind", "mutation"), _marked(PRESERVE_CASES, XFAIL_PRESERVE))
@settings(max_examples=3, **SETTINGS)
@given(case=M.strategy(("",)))
def test_meaning_preserving_rewrites_give_the_same_numbers(kind, mutation, case, workdir):
    _, seed = case
    out, where = _run(kind, mutation, seed, workdir)
    assert out.outcome in ("same-numbers", "success"), f"{out.outcome}: {out.detail}\n  {where}"
