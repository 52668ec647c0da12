"""The judge audit (issue 33): Zheng et al.'s position-bias shares, McNemar and Wilson (statsmodels), the
prediction-powered estimate (ppi-python, the authors' package), Rogan-Gladen by hand, repeatability, agreement
with humans, the alt-test at the end, and the refusals of bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import AccordError
from accord.models_vs_humans import judge_audit
from accord.models_vs_humans._ppi import ppi_mean, rogan_gladen
from accord.models_vs_humans._proportions import mcnemar_test, wilson_interval

# ------------------------------------------------------------------ Wilson and McNemar against statsmodels


@pytest.mark.parametrize("seed", range(5))
def test_wilson_equals_statsmodels(seed: int) -> None:
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(seed)
    for _ in range(50):
        n = int(rng.integers(1, 500))
        k = int(rng.integers(0, n + 1))
        level = float(rng.uniform(0.5, 0.999))
        lo, hi = proportion_confint(k, n, alpha=1 - level, method="wilson")
        ours = wilson_interval(k, n, confidence_level=level)
        assert ours == pytest.approx((lo, hi), abs=1e-12)


def test_wilson_of_no_items_is_undefined() -> None:
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


@pytest.mark.parametrize("exact,correction", [(True, True), (False, True), (False, False)])
def test_mcnemar_equals_statsmodels(exact: bool, correction: bool) -> None:
    from statsmodels.stats.contingency_tables import mcnemar

    rng = np.random.default_rng(7)
    for _ in range(100):
        a, b, c, d = (int(x) for x in rng.integers(0, 40, 4))
        if b + c == 0:
            continue
        ref = mcnemar(np.array([[a, b], [c, d]]), exact=exact, correction=correction)
        ours = mcnemar_test(b, c, exact=exact, correction=correction)
        assert ours.statistic == pytest.approx(float(ref.statistic), abs=1e-12)
        assert ours.p_value == pytest.approx(float(ref.pvalue), abs=1e-12)


def test_mcnemar_chi_square_without_discordant_pairs_is_undefined() -> None:
    t = mcnemar_test(0, 0, exact=False)
    assert math.isnan(t.p_value) and "0 / 0" in t.undefined_reason
    assert mcnemar_test(0, 0).p_value == 1.0


# ------------------------------------------------------------------ prediction-powered inference: ppi-python


def _ppi_data(seed: int, binary: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n, big_n = int(rng.integers(20, 200)), int(rng.integers(50, 2000))
    if binary:
        y = rng.binomial(1, 0.4, n).astype(float)
        flip = rng.random(n) < 0.2
        yhat = np.where(flip, 1 - y, y)
        yhat_unl = rng.binomial(1, 0.45, big_n).astype(float)
    else:
        y = rng.normal(3, 1, n)
        yhat = y + rng.normal(0.3, 0.7, n)
        yhat_unl = rng.normal(3.3, 1.2, big_n)
    return y, yhat, yhat_unl


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("binary", [True, False])
def test_ppi_classic_equals_ppi_python(seed: int, binary: bool) -> None:
    ppi_py = pytest.importorskip("ppi_py")
    y, yhat, yhat_unl = _ppi_data(seed, binary)
    est = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, yhat, yhat_unl, lam=1)))
    lo, hi = (float(np.squeeze(x)) for x in ppi_py.ppi_mean_ci(y, yhat, yhat_unl, alpha=0.1, lam=1))
    ours = ppi_mean(y, yhat, yhat_unl, confidence_level=0.9)
    assert ours.lam == 1.0
    assert ours.estimate == pytest.approx(est, abs=1e-9)
    assert (ours.ci_low, ours.ci_high) == pytest.approx((lo, hi), abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("binary", [True, False])
def test_ppi_power_tuned_equals_ppi_python(seed: int, binary: bool) -> None:
    ppi_py = pytest.importorskip("ppi_py")
    y, yhat, yhat_unl = _ppi_data(100 + seed, binary)
    est = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, yhat, yhat_unl)))
    lo, hi = (float(np.squeeze(x)) for x in ppi_py.ppi_mean_ci(y, yhat, yhat_unl, alpha=0.05))
    ours = ppi_mean(y, yhat, yhat_unl, power_tuned=True)
    assert 0.0 <= ours.lam <= 1.0
    assert ours.estimate == pytest.approx(est, abs=1e-9)
    assert (ours.ci_low, ours.ci_high) == pytest.approx((lo, hi), abs=1e-9)


def test_ppi_undefined_without_unlabelled_items_or_labels() -> None:
    assert "adds nothing" in ppi_mean([1, 0], [1, 0], []).undefined_reason
    assert "two or more" in ppi_mean([1], [1], [0, 1]).undefined_reason


# ------------------------------------------------------------------ Rogan-Gladen, by hand


def test_rogan_gladen_and_its_delta_interval_by_hand() -> None:
    # judge passes 60 of 100 items; of 20 items people pass it passes 18 (Se = .9); of 20 people fail it
    # fails 16 (Sp = .8).  pi = (q + Sp - 1) / (Se + Sp - 1) = (.6 + .8 - 1) / .7 = 4/7.
    r = rogan_gladen(60, 100, 18, 20, 16, 20)
    assert r.estimate == pytest.approx(4 / 7, abs=1e-15)
    # d pi / d q = 1/J, d pi / d Se = -pi/J, d pi / d Sp = (1 - pi)/J, J = .7; the variances of the three
    # proportions: .6 * .4 / 100 = .0024, .9 * .1 / 20 = .0045, .8 * .2 / 20 = .008
    var = (0.0024 + (4 / 7) ** 2 * 0.0045 + (3 / 7) ** 2 * 0.008) / 0.49
    assert r.standard_error == pytest.approx(math.sqrt(var), abs=1e-15)
    assert var == pytest.approx(0.0108954, abs=1e-7)
    z = 1.959963984540054
    assert (r.ci_low, r.ci_high) == pytest.approx((4 / 7 - z * math.sqrt(var), 4 / 7 + z * math.sqrt(var)),
                                                  abs=1e-12)


def test_rogan_gladen_delta_method_matches_numerical_derivatives() -> None:
    q, se, sp, nq, npos, nneg = 0.35, 0.85, 0.9, 400, 60, 90

    def pi(q_: float, se_: float, sp_: float) -> float:
        return (q_ + sp_ - 1) / (se_ + sp_ - 1)

    h = 1e-6
    grads = [(pi(q + h, se, sp) - pi(q - h, se, sp)) / (2 * h), (pi(q, se + h, sp) - pi(q, se - h, sp)) / (2 * h),
             (pi(q, se, sp + h) - pi(q, se, sp - h)) / (2 * h)]
    variances = [q * (1 - q) / nq, se * (1 - se) / npos, sp * (1 - sp) / nneg]
    expected = math.sqrt(sum(g * g * v for g, v in zip(grads, variances, strict=True)))
    r = rogan_gladen(round(q * nq), nq, round(se * npos), npos, round(sp * nneg), nneg)
    assert r.standard_error == pytest.approx(expected, rel=1e-6)


def test_rogan_gladen_truncates_and_says_when_undefined() -> None:
    r = rogan_gladen(5, 100, 18, 20, 16, 20)  # q below 1 - Sp: the estimate is negative before truncation
    assert r.unclipped < 0 and r.estimate == 0.0 and r.ci_low == 0.0
    assert "no better than chance" in rogan_gladen(50, 100, 10, 20, 10, 20).undefined_reason
    assert "sensitivity" in rogan_gladen(50, 100, 0, 0, 10, 20).undefined_reason


def test_rogan_gladen_bootstrap_is_reproducible() -> None:
    a = rogan_gladen(60, 100, 18, 20, 16, 20, n_boot=500, rng=3)
    b = rogan_gladen(60, 100, 18, 20, 16, 20, n_boot=500, rng=3)
    assert a == b and a.method == "bootstrap"
    assert a.ci_low < a.estimate < a.ci_high


# ------------------------------------------------------------------ position consistency: Zheng et al.


def _pairs(rows: list[tuple[object, str, str]], judge: str = "llm") -> pd.DataFrame:
    """(item, verdict in the canonical order AB, verdict in the swapped order BA) -> long rows."""
    out = []
    for item, v0, v1 in rows:
        out.append((item, judge, "AB", v0))
        out.append((item, judge, "BA", v1))
    return pd.DataFrame(out, columns=["item", "coder", "order", "verdict"])


# Ten items, by hand (verdicts name positions): consistent when the same option wins in both orders.
ZHENG = [
    (1, "first", "second"),  # A in both orders: consistent
    (2, "second", "first"),  # B in both: consistent
    (3, "tie", "tie"),  # consistent
    (4, "first", "first"),  # the first position both times: biased toward first
    (5, "second", "second"),  # biased toward second
    (6, "tie", "first"),  # first in one order, a tie in the other: biased toward first
    (7, "second", "tie"),  # biased toward second
    (8, "error", "first"),  # the judge failed to answer: error
    (9, "first", None),  # an empty verdict: error
    (10, "first", "tie"),  # biased toward first
]


def _with_humans(df: pd.DataFrame, humans: dict[str, list[str]]) -> pd.DataFrame:
    extra = [(i + 1, h, None, v) for h, vs in humans.items() for i, v in enumerate(vs)]
    return pd.concat([df, pd.DataFrame(extra, columns=df.columns)], ignore_index=True)


def test_zheng_shares_on_hand_built_items() -> None:
    df = _with_humans(_pairs(ZHENG), {"ann": ["first"] * 9 + [None]})
    res = judge_audit(df, judges="llm", position="order", verdict_refers_to="position")
    assert res.n_missing == 1  # the human's empty verdict is left out, and said
    p = res["llm"].position
    assert p.n_pairs == 10
    assert (p.consistency.count, p.biased_first.count, p.biased_second.count, p.error.count) == (3, 3, 2, 2)
    assert p.consistency.estimate + p.biased_first.estimate + p.biased_second.estimate + p.error.estimate == 1
    assert (p.mcnemar.count_first, p.mcnemar.count_second) == (3, 2)
    assert p.mcnemar.p_value == pytest.approx(1.0)
    flips = {f.unit: f for f in p.flips}
    assert sorted(flips) == [4, 5, 6, 7, 8, 9, 10]
    assert (flips[4].canonical, flips[4].swapped, flips[4].leans) == ("A", "B", "first")
    assert (flips[6].canonical, flips[6].swapped, flips[6].leans) == ("tie", "B", "first")
    assert flips[9].leans == "error" and flips[9].swapped == "error"


def test_verdicts_naming_options_give_the_same_shares() -> None:
    # the same judgments written as options: in the swapped order BA, the position "first" is option B
    swap = {"first": "second", "second": "first"}
    as_options = [(i, v0, swap.get(v1, v1) if v1 is not None else None) for i, v0, v1 in ZHENG]
    a = judge_audit(_with_humans(_pairs(ZHENG), {"ann": ["first"] * 10}), judges="llm", position="order",
                    verdict_refers_to="position")["llm"]
    b = judge_audit(_with_humans(_pairs(as_options), {"ann": ["first"] * 10}), judges="llm", position="order",
                    verdict_refers_to="option")["llm"]
    assert a.position == b.position
    assert a.humans == b.humans


def test_a_judge_that_always_prefers_the_first_position() -> None:
    # 12 items, verdict "first" in both orders: never consistent, always biased toward first; McNemar's exact
    # p = 2 * 0.5 ** 12; by Zheng's rule each item reads as a tie
    df = _with_humans(_pairs([(i, "first", "first") for i in range(1, 13)]), {"ann": ["first", "second"] * 6})
    audit = judge_audit(df, judges="llm", position="order", verdict_refers_to="position")["llm"]
    p = audit.position
    assert p.consistency.estimate == 0.0 and p.biased_first.estimate == 1.0
    assert p.mcnemar.p_value == pytest.approx(2 * 0.5 ** 12)
    assert p.verdict == "position bias"
    chi = judge_audit(df, judges="llm", position="order", verdict_refers_to="position", mcnemar="chi-square")
    assert chi["llm"].position.mcnemar.statistic == pytest.approx((12 - 1) ** 2 / 12)
    maj = audit.humans.with_majority
    assert maj.accuracy.estimate == 0.0  # the judge's verdict is a tie on every item
    assert maj.accuracy_without_ties.n == 0
    assert len(audit.disagreements) == 12


def test_canonical_order_can_be_named() -> None:
    df = _pairs([(1, "first", "first"), (2, "first", "second")])
    df["order"] = df["order"].map({"AB": "swapped", "BA": "original"})
    df = _with_humans(df, {"ann": ["first", "first"]})
    a = judge_audit(df, judges="llm", position="order", verdict_refers_to="position")
    assert a.positions == ("original", "swapped")
    b = judge_audit(df, judges="llm", position="order", verdict_refers_to="position", positions=("swapped",
                                                                                                  "original"))
    assert b.positions == ("swapped", "original")
    # item 2: "first" shown AB-swapped... the consistent item is consistent whichever order is canonical
    assert a["llm"].position.consistency.count == b["llm"].position.consistency.count == 1


# ------------------------------------------------------------------ repeatability across runs


def test_a_judge_that_flips_between_runs() -> None:
    # 4 items, 3 runs; items 1 and 3 flip: every run agrees on 2 of 4 items
    runs = {1: ["yes", "yes", "no", "no"], 2: ["no", "yes", "yes", "no"], 3: ["yes", "yes", "no", "no"]}
    rows = [(i + 1, "llm", r, v) for r, vs in runs.items() for i, v in enumerate(vs)]
    rows += [(i + 1, "ann", None, v) for i, v in enumerate(["yes", "yes", "no", "no"])]
    df = pd.DataFrame(rows, columns=["item", "coder", "run", "label"])
    audit = judge_audit(df, judges="llm", run="run")["llm"]
    r = audit.repeatability
    assert (r.n_runs, r.n_items, r.all_agree.count) == (3, 4, 2)
    assert [f.unit for f in r.flips] == [1, 3]
    assert r.flips[0].verdicts == ((1, "yes"), (2, "no"), (3, "yes"))
    # alpha with the runs as coders equals alpha of the runs x items matrix
    from accord import alpha

    m = pd.DataFrame(runs).T.to_numpy(dtype=object)
    assert r.alpha == pytest.approx(alpha(m).alpha, abs=1e-12)
    assert r.alpha_ci_low <= r.alpha <= r.alpha_ci_high
    again = judge_audit(df, judges="llm", run="run", rng=4)["llm"].repeatability
    assert again == judge_audit(df, judges="llm", run="run", rng=4)["llm"].repeatability
    # the item verdict is the runs' majority: yes, yes, no, no, as the human
    assert audit.humans.with_humans[0].accuracy.estimate == 1.0
    assert audit.position.undefined_reason.startswith("no position column")


def test_runs_and_orders_together() -> None:
    rows = []
    for run in (1, 2):
        for item in range(1, 6):
            rows.append((item, "llm", "AB", run, "first"))
            rows.append((item, "llm", "BA", run, "second" if run == 1 or item > 2 else "first"))
    df = pd.DataFrame(rows, columns=["item", "coder", "order", "run", "verdict"])
    df = pd.concat([df, pd.DataFrame([(i, "ann", None, None, "first") for i in range(1, 6)], columns=df.columns)])
    audit = judge_audit(df, judges="llm", position="order", run="run", verdict_refers_to="position")["llm"]
    assert audit.position.n_pairs == 10 and audit.position.consistency.count == 8
    assert {(f.unit, f.run) for f in audit.position.flips} == {(1, 2), (2, 2)}
    assert audit.repeatability.n_items == 10  # (item, order) pairs with two runs
    assert {(f.unit, f.position) for f in audit.repeatability.flips} == {(1, "BA"), (2, "BA")}


# ------------------------------------------------------------------ agreement with humans, pass rate, alt-test


def _binary(seed: int, n: int = 120, n_humans: int = 3, labelled: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.random(n) < 0.4
    rows = []
    for i in range(n):
        judge = truth[i] if rng.random() < 0.85 else not truth[i]
        rows.append((i, "llm", "pass" if judge else "fail"))
        if i < labelled:
            for h in range(n_humans):
                v = truth[i] if rng.random() < 0.9 else not truth[i]
                rows.append((i, f"h{h}", "pass" if v else "fail"))
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


def test_a_judge_that_copies_one_human() -> None:
    df = _binary(1)
    copy = df[df.annotator == "h0"].assign(annotator="copycat")
    df = pd.concat([df, copy], ignore_index=True)
    res = judge_audit(df, judges="copycat,llm", min_items=30)
    cat = res["copycat"]
    h0 = next(a for a in cat.humans.with_humans if a.other == "h0")
    assert h0.accuracy.estimate == 1.0 and h0.kappa == pytest.approx(1.0)
    assert h0.true_positive_rate.estimate == 1.0 and h0.precision.estimate == 1.0
    assert res.judges == ["llm", "copycat"]  # in the order of the data
    assert cat.alt_test is not None and cat.alt_test.n_humans == 3
    # against h0 left out, the copy and h0 score the same on every item: d = 0 < epsilon, the copy wins
    assert next(c for c in cat.alt_test.comparisons if c.human == "h0").model_wins


def test_pass_rate_equals_its_parts() -> None:
    ppi_py = pytest.importorskip("ppi_py")
    df = _binary(2)
    audit = judge_audit(df, judges="llm", min_items=30)["llm"]
    pr = audit.pass_rate
    wide = df.pivot(index="item", columns="annotator", values="label")
    judge = (wide["llm"] == "pass").to_numpy(dtype=float)
    hum = wide[["h0", "h1", "h2"]]
    labelled = hum.notna().all(axis=1).to_numpy()
    maj = ((hum == "pass").sum(axis=1) >= 2).to_numpy(dtype=float)
    assert pr.positive == "pass" and pr.n_labeled == 60 and pr.n_unlabeled == 60
    assert pr.raw.estimate == pytest.approx(judge.mean())
    y, f = maj[labelled], judge[labelled]
    ref = rogan_gladen(int(judge.sum()), len(judge), int(((y == 1) & (f == 1)).sum()), int((y == 1).sum()),
                       int(((y == 0) & (f == 0)).sum()), int((y == 0).sum()))
    assert pr.rogan_gladen == ref
    est = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, f, judge[~labelled], lam=1)))
    assert pr.ppi.estimate == pytest.approx(est, abs=1e-12)
    tpr = audit.humans.with_majority.true_positive_rate
    assert tpr.count == int(((y == 1) & (f == 1)).sum()) and tpr.n == int((y == 1).sum())
    from sklearn.metrics import cohen_kappa_score

    assert audit.humans.with_majority.kappa == pytest.approx(cohen_kappa_score(y, f), abs=1e-12)
    h1 = next(a for a in audit.humans.with_humans if a.other == "h1")
    both = wide[["llm", "h1"]].dropna()
    assert h1.kappa == pytest.approx(cohen_kappa_score(both["llm"], both["h1"]), abs=1e-12)
    assert h1.kappa_ci_low < h1.kappa < h1.kappa_ci_high
    hum = audit.humans
    assert hum.humans_alpha_ci_low < hum.humans_alpha < hum.humans_alpha_ci_high
    assert audit.alt_test is not None


def test_bootstrap_and_power_tuned_options() -> None:
    df = _binary(3)
    a = judge_audit(df, judges="llm", pass_rate_interval="bootstrap", n_boot=300, power_tuned=True, rng=1)
    b = judge_audit(df, judges="llm", pass_rate_interval="bootstrap", n_boot=300, power_tuned=True, rng=1)
    assert a["llm"].pass_rate == b["llm"].pass_rate
    assert a["llm"].pass_rate.rogan_gladen.method == "bootstrap" and a["llm"].pass_rate.ppi.power_tuned


def test_scores_get_the_prediction_powered_mean() -> None:
    ppi_py = pytest.importorskip("ppi_py")
    rng = np.random.default_rng(5)
    rows = []
    for i in range(80):
        rows.append((i, "llm", int(rng.integers(1, 6))))
        if i < 40:
            rows += [(i, "h1", int(rng.integers(1, 6))), (i, "h2", int(rng.integers(1, 6)))]
    df = pd.DataFrame(rows, columns=["item", "rater", "score"])
    pr = judge_audit(df, judges="llm")["llm"].pass_rate
    wide = df.pivot(index="item", columns="rater", values="score")
    y = wide[["h1", "h2"]].iloc[:40].mean(axis=1).to_numpy()
    f = wide["llm"].to_numpy(dtype=float)
    est = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, f[:40], f[40:], lam=1)))
    assert pr.rogan_gladen is None and "scores" in pr.undefined_reason
    assert pr.ppi.estimate == pytest.approx(est, abs=1e-12)
    assert pr.raw_mean == pytest.approx(f.mean())


def test_humans_ceiling_and_zheng_pooled_agreement_by_hand() -> None:
    # 2 items; humans: item 1 A, A, B; item 2 tie, B, B.  Judge: A, B.
    rows = [(1, "llm", "first"), (2, "llm", "second"),
            (1, "h1", "first"), (1, "h2", "first"), (1, "h3", "second"),
            (2, "h1", "tie"), (2, "h2", "second"), (2, "h3", "second")]
    res = judge_audit(pd.DataFrame(rows, columns=["item", "coder", "verdict"]), judges="llm")
    h = res["llm"].humans
    assert (h.pooled.count, h.pooled.n) == (4, 6)  # judge with each of 6 votes: agrees with 2 + 2
    assert (h.pooled_without_ties.count, h.pooled_without_ties.n) == (4, 5)
    assert (h.humans_pooled.count, h.humans_pooled.n) == (2, 6)  # pairs: item 1 (AA) 1 of 3, item 2 (BB) 1 of 3
    assert (h.humans_pooled_without_ties.count, h.humans_pooled_without_ties.n) == (2, 4)
    assert h.with_majority.accuracy.estimate == 1.0
    from accord import alpha

    humans = pd.DataFrame(rows[2:], columns=["item", "coder", "verdict"]).pivot(index="coder", columns="item")
    assert h.humans_alpha == pytest.approx(alpha(humans.to_numpy(dtype=object)).alpha, abs=1e-12)
    assert res["llm"].alt_test is None and "three or more humans" not in (res["llm"].alt_test_reason or "x")


def test_alt_test_is_said_not_to_apply_with_two_humans() -> None:
    res = judge_audit(_binary(4, n_humans=2), judges="llm")
    assert res["llm"].alt_test is None
    assert "three or more humans; the data has 2" in res["llm"].alt_test_reason


def test_to_dict_is_plain_json() -> None:
    import json

    res = judge_audit(_binary(6), judges="llm")
    json.dumps(res.to_dict())
    json.dumps(res["llm"].to_dict())
    assert list(res.summary()["judge"]) == ["llm"]


# ------------------------------------------------------------------ bad input: one clear line


def test_position_column_must_hold_two_orders(tmp_path) -> None:
    df = _pairs([(1, "first", "first")])
    df.loc[len(df)] = (2, "llm", "CA", "first")
    with pytest.raises(AccordError, match=r"position column 'order' holds 3 distinct values \('AB', 'BA', 'CA'\)"):
        judge_audit(df, judges="llm", position="order", verdict_refers_to="position")
    df2 = _pairs([(1, "first", "first")])
    df2.loc[1, "order"] = None
    with pytest.raises(AccordError, match=r"judge 'llm' has no position in column 'order' \(row 2\)"):
        judge_audit(df2, judges="llm", position="order", verdict_refers_to="position")


def test_a_run_with_one_item_judged_twice(tmp_path) -> None:
    f = tmp_path / "j.csv"
    f.write_text("item,coder,run,label\n1,llm,1,yes\n1,llm,1,no\n1,ann,,yes\n")
    with pytest.raises(AccordError, match=r"j.csv: judge 'llm' judges unit 1 twice in run 1 \(lines 2 and 3\)"):
        judge_audit(f, judges="llm", run="run")


def test_a_verdict_that_is_neither_position_nor_option() -> None:
    df = _pairs([(1, "first", "maybe")])
    with pytest.raises(AccordError, match=r"coder 'llm' on unit 1 \(row 2\): verdict 'maybe' names neither a "
                                          r"position nor an option"):
        judge_audit(df, judges="llm", position="order", verdict_refers_to="position")


def test_an_unknown_judge() -> None:
    with pytest.raises(AccordError, match=r"judges names 'gpt-5', which no coder matches"):
        judge_audit(_binary(1), judges="gpt-5")


def test_position_needs_verdict_refers_to_and_options_are_checked() -> None:
    with pytest.raises(AccordError, match="verdict_refers_to='position' or 'option'"):
        judge_audit(_pairs([(1, "first", "first")]), judges="llm", position="order")
    with pytest.raises(AccordError, match="verdict_refers_to must be one of position, option"):
        judge_audit(_pairs([(1, "first", "first")]), judges="llm", position="order", verdict_refers_to="slot")
    with pytest.raises(AccordError, match=r"verdict_refers_to='option' says what a verdict names .* \(position=\)"):
        judge_audit(_binary(1), judges="llm", verdict_refers_to="option")
    with pytest.raises(AccordError, match="mcnemar must be one of exact, chi-square"):
        judge_audit(_binary(1), judges="llm", mcnemar="fisher")
    with pytest.raises(AccordError, match="missing column 'pos'"):
        judge_audit(_pairs([(1, "first", "first")]), judges="llm", position="pos", verdict_refers_to="option")


def test_a_judge_twice_on_an_item_without_run_or_position(tmp_path) -> None:
    f = tmp_path / "j.csv"
    f.write_text("item,coder,label\n1,llm,yes\n1,llm,no\n1,ann,yes\n")
    with pytest.raises(AccordError, match="run="):
        judge_audit(f, judges="llm")


def test_file_with_orders_and_runs(tmp_path) -> None:
    f = tmp_path / "judgments.csv"
    lines = ["question,annotator,order,run,winner"]
    for run in (1, 2):
        for q in range(1, 4):
            lines += [f"q{q},judge,AB,{run},first", f"q{q},judge,BA,{run},second"]
    lines += [f"q{q},{h},,,first" for q in range(1, 4) for h in ("ann", "bob")]
    f.write_text("\n".join(lines) + "\n")
    res = judge_audit(f, judges="judge", position="order", run="run", verdict_refers_to="position")
    a = res["judge"]
    assert a.position.consistency.estimate == 1.0 and a.repeatability.all_agree.estimate == 1.0
    assert a.humans.with_majority.accuracy.estimate == 1.0
    assert res.source == str(f)


def test_a_judge_without_humans_gets_its_order_and_run_checks() -> None:
    df = _pairs([(1, "first", "second"), (2, "first", "first")])
    a = judge_audit(df, judges="llm", position="order", verdict_refers_to="position")["llm"]
    assert a.position.consistency.count == 1 and a.position.biased_first.count == 1
    assert a.humans.undefined_reason == "no human in the data"
    assert "three or more humans; the data has 0" in a.alt_test_reason


_VERDICTS = ["first", "second", "tie", "error"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_VERDICTS), st.sampled_from(_VERDICTS)), min_size=1, max_size=12))
def test_the_four_shares_do_not_depend_on_which_order_is_canonical(pairs: list[tuple[str, str]]) -> None:
    # the position a verdict follows is where the answer was shown, whichever order is called canonical
    df = _pairs([(i, a, b) for i, (a, b) in enumerate(pairs)])
    shares = []
    for canonical in (("AB", "BA"), ("BA", "AB")):
        p = judge_audit(df, judges="llm", position="order", verdict_refers_to="position",
                        positions=canonical)["llm"].position
        counts = (p.consistency.count, p.biased_first.count, p.biased_second.count, p.error.count)
        assert sum(counts) == p.n_pairs == len(pairs)
        shares.append(counts)
    assert shares[0] == shares[1]


def test_polars_frames_are_read_as_pandas_ones() -> None:
    pl = pytest.importorskip("polars")
    df = _with_humans(_pairs(ZHENG), {"ann": ["first"] * 10})
    a = judge_audit(df, judges="llm", position="order", verdict_refers_to="position")
    b = judge_audit(pl.from_pandas(df), judges="llm", position="order", verdict_refers_to="position")
    assert a == b
