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

# --- what fails before the fixes (issue 29), by branch ------------------------------------------------------
IMP = "fixed on branch h29imp (importers, ids, whitespace)"
READERS = "fixed on branch h29readers (coref, spans and pyramid readers)"
TABLES = "fixed on the table-readers branch of issue 29 (io.read_table, spreadsheets)"

_UTF8 = "UnicodeDecodeError on non-UTF-8 bytes, not one error line"
_PAD = "surrounding spaces in id and label cells change the numbers or refuse the file"
_IDS = "an integral id written as text or as x.0 (7, \"7\", 7.0) is another unit, task or annotator"
_REPEAT = "a repeated header of a column the command reads is not refused"

#: kind -> the defect its damage property finds.
XFAIL_DAMAGE: dict[str, str] = {
    "ods": f"odfpy swallows the XML error of a damaged member and prints 'SAX FAILED TO PARSE' and the XML on "
           f"stdout (importers/spreadsheet.py), which breaks --json; {TABLES}",
    "parquet": f"a corrupt Parquet file: pyarrow's ArrowInvalid / OSError passes through io.read_table; {TABLES}",
    "prodigy-choice": f"JSON value types unchecked: an object as _input_hash is unhashable (TypeError in "
                      f"importers/_common.py item); {IMP}",
    "coref-conll": f"{_UTF8} (coref/readers.py _read_conll); {READERS}",
    "coref-conll-key": f"{_UTF8} (coref/readers.py _read_conll); {READERS}",
    "coref-conllu": f"{_UTF8} (coref/corefud.py read_corefud); {READERS}; past it, the regex _CHUNK of "
                    f"coref/corefud.py is quadratic on a long Entity= value (30 s of CPU on 140 KB)",
    "coref-brat": f"{_UTF8} (coref/readers.py _read_brat); {READERS}",
    "coref-brat-ann": f"{_UTF8} (coref/readers.py _read_brat); {READERS}",
    "coref-jsonl": f"{_UTF8} (coref/readers.py _read_jsonl); {READERS}",
    "spans-table": f"the csv module's field-size error on a 140,000-character cell, and {_UTF8} "
                   f"(spans/readers.py _rows); {READERS}; past them, repeated span rows are slow (13 s of CPU "
                   f"on 722 KB: spans/matching.py _diagnose, spans/_arrays.py overlap_pairs)",
}
#: (kind, mutation) -> the defect its must-refuse property finds.
XFAIL_REFUSE: dict[tuple[str, str], str] = {
    ("ods", "truncate-structured"): f"odfpy swallows the XML error of a truncated content.xml, prints 'SAX FAILED "
                                    f"TO PARSE' on stdout, and the sheet is read in part or not found; {TABLES}",
    ("coref-conll", "drop-token"): f"CoNLL mentions placed by line number, the files' tokens not compared "
                                   f"(coref/readers.py _conll_document); {READERS}",
    ("coref-conll-key", "drop-token"): f"CoNLL mentions placed by line number, the response's and the key's tokens "
                                       f"not compared (coref/readers.py _conll_document); {READERS}",
    ("coref-conllu", "drop-token"): f"CoNLL-U token ids not compared between the files (coref/corefud.py); {READERS}",
    **{(k, "repeat-header"): f"{_REPEAT} (io.read_table; pandas renames it NAME.1 or the first is used); {TABLES}"
       for k in ("csv-long", "csv-ratings", "csv-sets", "csv-wide", "csv-ordinal", "tsv-long", "xlsx-long",
                 "xlsx-wide", "alt-test", "gold")},
    ("multilabel", "repeat-header"): f"{_REPEAT} (multilabel/readers.py); {TABLES}",
    ("significance", "repeat-header"): f"{_REPEAT} (cli/significance.py _read_scores); {TABLES}",
    ("coref-csv", "repeat-header"): f"{_REPEAT} (coref/readers.py, the CSV reader); {READERS}",
    ("spans-table", "repeat-header"): f"{_REPEAT} (spans/readers.py: csv.DictReader keeps the last); {READERS}",
}
#: (kind, mutation) -> the defect its meaning-preserving property finds.
XFAIL_PRESERVE: dict[tuple[str, str], str] = {
    **{(k, "pad"): f"{_PAD}; {IMP}" for k in (
        "csv-long", "csv-ratings", "csv-sets", "csv-wide", "csv-ordinal", "tsv-long", "jsonl-long", "xlsx-long",
        "significance", "alt-test", "gold", "label-studio-json", "label-studio-spans", "label-studio-min",
        "label-studio-project", "prodigy-choice", "prodigy-ner", "prodigy-binary", "doccano-cls", "doccano-ner",
        "argilla", "argilla-flat", "mturk", "crowd-csv",
        "inception-diagnosis")},
    ("doccano-zip", "zip-member-pad"): f"{_PAD}; {IMP}",
    **{(k, "id-form"): f"{_IDS}; {IMP}" for k in (
        "label-studio-json", "label-studio-spans", "label-studio-min", "label-studio-project", "prodigy-choice",
        "prodigy-ner", "prodigy-binary", "doccano-cls", "doccano-ner")},
    ("doccano-zip", "zip-member-id-form"): f"{_IDS}; {IMP}",
    ("coref-jsonl", "pad"): f"{_PAD} (doc_key; coref/readers.py); {READERS}",
    ("coref-csv", "pad"): f"{_PAD} (coref/readers.py); {READERS}",
    ("spans-table", "pad"): f"{_PAD} (spans/readers.py); {READERS}",
    ("inception-diagnosis", "csv-requote"): f"a fully quoted header defeats the guess of --from inception-agreement: "
                                            f"read as a plain table, 'missing column unit'; {IMP}",
}


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
