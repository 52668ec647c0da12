"""The bootstrap interval of relation alpha (issue 32): documents resampled, as the span measures resample them.

Oracles: with one candidate per document the document bootstrap is alpha's own unit bootstrap
(AccordResult.confidence_interval) on the same candidate Annotations, drawn with the same seed, so the intervals
are equal; with several candidates per document, alpha on a resample (document weights) equals krippendorff's
alpha on the reliability matrix with each document's candidates repeated as often as it was drawn.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from typer.testing import CliRunner

from accord import AccordError, AccordWarning, alpha
from accord.cli import app
from accord.relations import Relation, RelationAnnotations, agreement, read_relations
from accord.spans import Span

ROUND1 = Path(__file__).resolve().parent.parent / "docs" / "examples" / "relations" / "round1"
TYPES = ("Part", "Cause", "Owns")


def _rel(doc: str, coder: str, typ: str, a: tuple[int, int], b: tuple[int, int]) -> Relation:
    return Relation(doc, coder, typ, Span(doc, *a, "E", coder), Span(doc, *b, "E", coder))


def _random_project(seed: int, n_docs: int, per_doc: int, coders: str = "abc", p_same: float = 0.7
                    ) -> RelationAnnotations:
    """*per_doc* candidate pairs per document, each related by every coder: mostly one type, sometimes another."""
    rng = np.random.default_rng(seed)
    rels = []
    for d in range(n_docs):
        doc = f"d{d:03d}"
        for k in range(per_doc):
            a, b = (20 * k, 20 * k + 4), (20 * k + 10, 20 * k + 14)
            typ = str(rng.choice(TYPES))
            for c in coders:
                rels.append(_rel(doc, c, typ if rng.random() < p_same else str(rng.choice(TYPES)), a, b))
    return RelationAnnotations.from_relations(rels)


@pytest.mark.parametrize(("seed", "n_docs", "coders"), [(0, 30, "abc"), (1, 12, "ab"), (2, 50, "abcd")])
def test_one_candidate_per_document_is_alphas_own_unit_bootstrap(seed: int, n_docs: int, coders: str) -> None:
    res = agreement(_random_project(seed, n_docs, 1, coders), bootstrap=400, rng=seed)
    assert res.n_candidates == res.n_pairable == res.n_documents == n_docs
    ref = alpha(res.candidates)
    assert res.alpha == pytest.approx(ref.alpha, abs=1e-12)
    lo, hi = ref.confidence_interval(0.95, n_resamples=400, rng=seed)
    assert (res.alpha_ci_low, res.alpha_ci_high) == pytest.approx((lo, hi), abs=1e-12)
    for method in ("basic", "BCa"):
        assert res.confidence_interval(0.9, n_resamples=200, method=method, rng=7) == pytest.approx(
            ref.confidence_interval(0.9, n_resamples=200, method=method, rng=7), abs=1e-12)


def test_a_resample_is_alpha_on_the_documents_drawn() -> None:
    """Several candidates per document: the statistic at document weights w equals krippendorff's alpha on the
    candidates of each document repeated w times (random weights, a test-side construction)."""
    from accord.relations._bootstrap import alpha_statistic

    res = agreement(_random_project(5, 9, 3, p_same=0.6))
    cand = res.candidates
    doc_of, n_docs = res._documents
    assert n_docs == 9
    stat = alpha_statistic(cand, doc_of, n_docs)
    assert stat(np.ones(n_docs)) == pytest.approx(res.alpha, abs=1e-12)
    # the matrix coders x candidates, values as codes
    frame = res.candidates_frame()
    codes = {v: i for i, v in enumerate(sorted(frame["value"].unique()))}
    coders = sorted(frame["coder"].unique())
    matrix = np.full((len(coders), res.n_candidates), np.nan)
    for row in frame.itertuples(index=False):
        matrix[coders.index(row.coder), row.candidate] = codes[row.value]
    doc_of_column = [int(doc_of[u]) for u in range(res.n_candidates)]
    rng = np.random.default_rng(11)
    for _ in range(5):
        w = rng.multinomial(n_docs, np.full(n_docs, 1 / n_docs))
        cols = [u for u in range(res.n_candidates) for _ in range(w[doc_of_column[u]])]
        want = krippendorff.alpha(reliability_data=matrix[:, cols], level_of_measurement="nominal")
        assert stat(w.astype(float)) == pytest.approx(want, abs=1e-12)


def test_the_interval_is_reproducible_with_a_seed_and_holds_the_estimate() -> None:
    data = _random_project(3, 25, 2)
    a = agreement(data, bootstrap=300, rng=42)
    b = agreement(data, bootstrap=300, rng=42)
    c = agreement(data, bootstrap=300, rng=43)
    assert (a.alpha_ci_low, a.alpha_ci_high) == (b.alpha_ci_low, b.alpha_ci_high)
    assert (a.alpha_ci_low, a.alpha_ci_high) != (c.alpha_ci_low, c.alpha_ci_high)
    assert a.alpha_ci_low <= a.alpha <= a.alpha_ci_high
    assert a.confidence_interval(0.95, n_resamples=300, rng=42) == (a.alpha_ci_low, a.alpha_ci_high)
    wide = agreement(data, bootstrap=300, rng=42, confidence=0.99)
    assert wide.alpha_ci_low <= a.alpha_ci_low and wide.alpha_ci_high >= a.alpha_ci_high
    d = a.to_dict()
    assert (d["bootstrap"], d["confidence"], d["interval_undefined_reason"]) == (300, 0.95, None)
    assert (d["alpha_ci_low"], d["alpha_ci_high"]) == (a.alpha_ci_low, a.alpha_ci_high)


def test_without_bootstrap_no_interval_is_drawn() -> None:
    res = agreement(_random_project(3, 5, 1))
    assert res.bootstrap == 0 and math.isnan(res.alpha_ci_low) and math.isnan(res.alpha_ci_high)
    assert res.interval_undefined_reason is None


def test_an_interval_that_cannot_be_drawn_says_why() -> None:
    one_doc = _random_project(4, 1, 6)
    res = agreement(one_doc, bootstrap=100, rng=1)
    assert not math.isnan(res.alpha) and math.isnan(res.alpha_ci_low)
    assert res.interval_undefined_reason == ("a confidence interval for relation alpha resamples documents and needs "
                                             "at least two; the data have 1")
    with pytest.raises(AccordError, match="needs at least two; the data have 1"):
        res.confidence_interval()
    # every coder gives every pair the same type: alpha undefined, and so its interval
    same = RelationAnnotations.from_relations([_rel(f"d{d}", c, "Part", (0, 4), (10, 14)) for d in range(4)
                                              for c in "ab"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        res = agreement(same, bootstrap=100, rng=1)
    assert math.isnan(res.alpha)
    assert res.interval_undefined_reason == (f"relation alpha is undefined ({res.undefined_reason}); no confidence "
                                             "interval")
    assert res.to_dict()["alpha_ci_low"] is None


@pytest.mark.parametrize(("options", "message"), [
    ({"bootstrap": -1}, "bootstrap must be a whole number >= 0 (resamples of documents; 0: no interval); got -1"),
    ({"bootstrap": True}, "bootstrap must be a whole number >= 0"),
    ({"bootstrap": 10.0}, "bootstrap must be a whole number >= 0"),
    ({"confidence": 1.5}, "confidence must be a number in (0, 1); got 1.5"),
])
def test_bad_bootstrap_options_are_refused(options: dict, message: str) -> None:
    with pytest.raises(AccordError) as err:
        agreement(_random_project(3, 5, 1), **options)
    assert str(err.value) == message or str(err.value).startswith(message)


def test_command_line_bootstrap_and_seed(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["relations", str(ROUND1), "--from", "brat", "--bootstrap", "300", "--seed", "3"]
    out = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    data, _ = read_relations(ROUND1, tool="brat")
    ref = agreement(data, bootstrap=300, rng=3)
    assert (out["alpha_ci_low"], out["alpha_ci_high"]) == (ref.alpha_ci_low, ref.alpha_ci_high)
    assert (out["bootstrap"], out["confidence"]) == (300, 0.95)
    again = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert again["alpha_ci_low"] == out["alpha_ci_low"]
    text = " ".join(runner.invoke(app, [*args, "--show", "0"]).stdout.split())
    assert (f"{ref.alpha:.4f} [{ref.alpha_ci_low:.4f}, {ref.alpha_ci_high:.4f}] (95%, 300 resamples of documents)"
            in text)
    bad = runner.invoke(app, ["relations", str(ROUND1), "--from", "brat", "--bootstrap", "-2"])
    assert bad.exit_code == 2
    assert bad.stderr.strip() == ("accord: error: --bootstrap must be a whole number >= 0 (resamples of documents; "
                                  "0: no interval); got -2")


def test_report_page_shows_the_interval(tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    from accord.reporting import build_report

    data = _random_project(8, 20, 2)
    rep = build_report(data, bootstrap=200, seed=2)
    ref = agreement(data, bootstrap=200, rng=2)
    head = rep.headline[0]
    assert head.interval == (ref.alpha_ci_low, ref.alpha_ci_high)
    assert "bootstrap interval over documents, 200 resamples, seed 2" in head.interval_note
    assert build_report(data, bootstrap=0).headline[0].interval is None
    one = build_report(_random_project(8, 1, 4), bootstrap=100, seed=1).headline[0]
    assert one.interval is None and "needs at least two" in one.interval_note


# --- Cohen's kappa's interval (two coders): the same document bootstrap ------------------------------------------

def test_a_kappa_resample_is_cohens_kappa_on_the_documents_drawn() -> None:
    """The kappa statistic at document weights w equals sklearn's Cohen's kappa on the candidates both coders
    valued, each document's repeated w times (random weights; candidates one coder did not value included)."""
    from sklearn.metrics import cohen_kappa_score

    from accord.relations._bootstrap import kappa_statistic

    data = _random_project(6, 10, 3, coders="ab", p_same=0.6)
    # a few relations only coder a made, on spans b did not mark: candidates with one value
    extra = [_rel(f"d{d:03d}", "a", "Part", (500, 504), (510, 514)) for d in range(0, 10, 3)]
    data = RelationAnnotations.from_relations([*data.relations, *extra])
    res = agreement(data)
    doc_of, n_docs = res._documents
    stat = kappa_statistic(res.candidates, doc_of, n_docs)
    assert stat(np.ones(n_docs)) == pytest.approx(res.kappa, abs=1e-12)
    frame = res.candidates_frame().pivot(index="candidate", columns="coder", values="value").dropna()
    rng = np.random.default_rng(3)
    for _ in range(5):
        w = rng.multinomial(n_docs, np.full(n_docs, 1 / n_docs))
        rows = [u for u in frame.index for _ in range(w[int(doc_of[u])])]
        want = cohen_kappa_score(frame.loc[rows, "a"], frame.loc[rows, "b"])
        assert stat(w.astype(float)) == pytest.approx(want, abs=1e-12)


def test_kappa_interval_with_two_coders_on_alphas_resamples() -> None:
    data = _random_project(7, 20, 2, coders="ab", p_same=0.7)
    res = agreement(data, bootstrap=300, rng=5)
    assert res.kappa_interval_undefined_reason is None
    assert res.kappa_ci_low <= res.kappa <= res.kappa_ci_high
    assert res.confidence_interval(n_resamples=300, rng=5, coefficient="kappa") == (res.kappa_ci_low,
                                                                                   res.kappa_ci_high)
    # alpha's interval is what it was before kappa's was drawn: the same seed gives the same interval
    assert res.confidence_interval(n_resamples=300, rng=5) == (res.alpha_ci_low, res.alpha_ci_high)
    d = res.to_dict()
    assert (d["kappa_ci_low"], d["kappa_ci_high"], d["kappa_interval_undefined_reason"]) == (
        res.kappa_ci_low, res.kappa_ci_high, None)
    # with one candidate per document it is kappa's unit bootstrap: the same as a percentile over resampled units
    one = agreement(_random_project(8, 40, 1, coders="ab", p_same=0.6), bootstrap=200, rng=2)
    assert one.kappa_ci_low <= one.kappa <= one.kappa_ci_high


def test_kappa_interval_undefined_says_why() -> None:
    three = agreement(_random_project(3, 10, 2), bootstrap=50, rng=1)
    assert math.isnan(three.kappa_ci_low) and three.kappa_interval_undefined_reason is None  # not asked: 3 coders
    with pytest.raises(AccordError, match="relation kappa is undefined .*two coders; there are 3"):
        three.confidence_interval(coefficient="kappa")
    with pytest.raises(AccordError, match="coefficient must be one of"):
        three.confidence_interval(coefficient="gamma")
    one_doc = agreement(_random_project(4, 1, 6, coders="ab"), bootstrap=50, rng=1)
    assert one_doc.kappa_interval_undefined_reason == ("a confidence interval for relation kappa resamples "
                                                       "documents and needs at least two; the data have 1")


def test_cli_shows_kappas_interval(tmp_path: Path) -> None:
    import shutil

    for coder in ("alice", "bob"):  # two coders of the example: kappa is given, and its interval
        shutil.copytree(ROUND1 / coder, tmp_path / "two" / coder)
    args = ["relations", str(tmp_path / "two"), "--from", "brat", "--show", "0", "--bootstrap", "200", "--seed", "1"]
    out = CliRunner().invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    d = json.loads(out.stdout)
    res = agreement(read_relations(tmp_path / "two", tool="brat")[0], bootstrap=200, rng=1)
    assert (d["kappa_ci_low"], d["kappa_ci_high"], d["kappa_interval_undefined_reason"]) == (
        res.to_dict()["kappa_ci_low"], res.to_dict()["kappa_ci_high"], res.kappa_interval_undefined_reason)
    text = " ".join(CliRunner().invoke(app, args).stdout.split())
    shown = (f"[{res.kappa_ci_low:.4f}, {res.kappa_ci_high:.4f}] (95%, same resamples)"
             if res.kappa_interval_undefined_reason is None else "no interval")
    assert "Cohen's kappa over the same candidates:" in text and shown in text
