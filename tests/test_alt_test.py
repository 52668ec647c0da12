"""The alternative annotator test (Calderon, Reichart & Dror 2025) on cases worked out by hand, its parts against
other libraries (SciPy's t-test, statsmodels' Benjamini-Yekutieli), the model-vs-panel reads, the guidance
simulation, the CLI and the humans-and-models report page.

The Student t CDFs of the hand cases come from the closed forms of Abramowitz & Stegun 26.7.3 (odd degrees of
freedom) and 26.7.4 (even), not from SciPy.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord import AccordError, Annotations
from accord.models_vs_humans import (
    alt_test,
    alt_test_guidance,
    benjamini_yekutieli,
    coder_roles,
    one_sided_t_test,
    panel_agreement,
    panel_departures,
)


def t_cdf(t: float, nu: int) -> float:
    """Student's t CDF in closed form (Abramowitz & Stegun 26.7.3 and 26.7.4)."""
    if math.isinf(t):
        return 0.0 if t < 0 else 1.0
    theta = math.atan(abs(t) / math.sqrt(nu))
    s, c = math.sin(theta), math.cos(theta)
    if nu % 2:  # odd: A = (2/pi)(theta + sin(theta)(cos + 2/3 cos^3 + ... ))
        total, term = 0.0, c
        for k in range(1, (nu - 1) // 2 + 1):
            if k == 1:
                term = c
            else:
                term *= c * c * (2 * k - 2) / (2 * k - 1)
            total += term
        a = 2 / math.pi * (theta + (s * total if nu > 1 else 0.0))
    else:  # even: A = sin(theta)(1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...)
        total, term = 1.0, 1.0
        for k in range(1, nu // 2):
            term *= c * c * (2 * k - 1) / (2 * k)
            total += term
        a = s * total
    return 0.5 + math.copysign(a / 2, t)


def by_rows(rows: list[str], coders: list[str]) -> Annotations:
    """Items as strings of one character per coder (``-``: no value)."""
    return Annotations.from_records([(i, c, v) for i, row in enumerate(rows) for c, v in zip(coders, row, strict=True)
                                     if v != "-"])


H3M = ["h1", "h2", "h3", "llm"]


def test_t_cdf_closed_forms_match_scipy() -> None:
    from scipy.stats import t as student

    for nu in (1, 2, 3, 4, 5, 11, 12):
        for x in (-3.4467, -1.8, -0.4, 0.0, 0.2, 2.5):
            assert t_cdf(x, nu) == pytest.approx(student.cdf(x, nu), rel=1e-12)


# ----------------------------------------------------------------------------------------------- hand cases
def test_hand_case_ties_and_a_human_who_wins() -> None:
    # item: h1 h2 h3 llm.  Leaving out h1: item 0 the human wins (d = +1), items 1-3 tie (both win, d = 0).
    data = by_rows(["aaab", "bbbb", "abaa", "ccac"], H3M)
    res = alt_test(data, models="llm", epsilon=0.2, min_items=4)["llm"]
    assert [c.human for c in res.comparisons] == ["h1", "h2", "h3"]
    assert [c.rho_model for c in res.comparisons] == [0.75, 0.75, 0.75]
    assert [c.rho_human for c in res.comparisons] == [1.0, 0.75, 0.75]
    # h1: d = [1, 0, 0, 0]: mean 1/4, s = 1/2, t = (1/4 - 0.2) / (1/2 / 2) = 0.2
    # h2: d = [1, 0, -1, 0], h3: d = [1, 0, 0, -1]: mean 0, s^2 = 2/3, t = -0.2 / (sqrt(2/3) / 2)
    t2 = -0.2 / (math.sqrt(2 / 3) / 2)
    assert [c.t_statistic for c in res.comparisons] == pytest.approx([0.2, t2, t2], rel=1e-12)
    assert [c.p_value for c in res.comparisons] == pytest.approx([t_cdf(0.2, 3), t_cdf(t2, 3), t_cdf(t2, 3)],
                                                                 rel=1e-12)
    assert res.omega == 0.0 and res.rho == 0.75 and res.passes is False
    assert not any(c.model_wins for c in res.comparisons)


def _majority_block(times: int) -> list[str]:
    # each human departs from the other two once per block; the model always gives the majority label
    return ["aaba", "abaa", "baaa", "aaaa"] * times


def test_hand_case_a_model_that_always_gives_the_majority_label_passes() -> None:
    data = by_rows(_majority_block(3), H3M)
    res = alt_test(data, models="llm", epsilon=0.2, min_items=12)["llm"]
    # per human: d = -1 on the 3 items it departs, 0 (tie) on the 9 others
    mean, var = -0.25, (3 * 0.75**2 + 9 * 0.25**2) / 11
    t = (mean - 0.2) / math.sqrt(var / 12)
    for c in res.comparisons:
        assert c.n_items == 12 and c.rho_model == 1.0 and c.rho_human == 0.75
        assert c.t_statistic == pytest.approx(t, rel=1e-12)
        assert c.p_value == pytest.approx(t_cdf(t, 11), rel=1e-12)
    # BY, m = 3, c(3) = 11/6: the largest p (all equal) against 3/3 * 0.05 / (11/6)
    assert t_cdf(t, 11) <= 0.05 / (11 / 6)
    assert res.omega == 1.0 and res.rho == 1.0 and res.passes is True
    assert res.n_wins == 3


def test_hand_case_a_model_that_copies_one_human() -> None:
    rows = [r[:3] + r[0] for r in _majority_block(3)]  # the model gives h1's labels
    data = by_rows(rows, H3M)
    res = alt_test(data, models="llm", epsilon=0.2, min_items=12)["llm"]
    h1, h2, h3 = res.comparisons
    # against h1 the scores are equal on every item: d = 0 throughout, t = -inf, p = 0: the model wins
    assert (h1.rho_model, h1.rho_human, h1.t_statistic, h1.p_value) == (1.0, 1.0, -math.inf, 0.0)
    # against h2 (h3): h1's label ties h2's except where h2 departs (model wins): as the majority model
    t = (-0.25 - 0.2) / math.sqrt((3 * 0.75**2 + 9 * 0.25**2) / 11 / 12)
    for c in (h2, h3):
        assert (c.rho_model, c.rho_human) == (1.0, 0.75)
        assert c.p_value == pytest.approx(t_cdf(t, 11), rel=1e-12)
    assert res.omega == 1.0 and res.passes
    # with epsilon = 0 the test against h1 is undefined (d = 0 = epsilon), said, and not a win
    res0 = alt_test(data, models="llm", epsilon=0.0, min_items=12)["llm"]
    c = res0.comparisons[0]
    assert math.isnan(c.p_value) and math.isnan(c.p_adjusted) and not c.model_wins
    assert "equal to epsilon" in c.note


def test_hand_case_items_missing_for_some_humans() -> None:
    coders = ["h1", "h2", "h3", "h4", "llm"]
    rows = ["aaa-a",  # 0
            "ab-bb",  # 1
            "-aaab",  # 2
            "b-bbb",  # 3
            "aa--a",  # 4: two humans
            "a---a",  # 5: one human: not an item of the test
            "aaaa-"]  # 6: no model value: not an item of the test
    data = by_rows(rows, coders)
    res = alt_test(data, models="llm", epsilon=0.2, min_items=2)["llm"]
    assert res.n_items == 5
    got = {c.human: c for c in res.comparisons}
    # h1 on items 0, 1, 3, 4: d = [0, -1, 0, 0]; h2 on 0, 1, 2, 4: [0, 0, +1, 0]; h3 on 0, 2, 3 and h4 on 1, 2, 3:
    # [0, +1, 0]
    assert {h: (c.n_items, c.rho_model, c.rho_human) for h, c in got.items()} == {
        "h1": (4, 1.0, 0.75), "h2": (4, 0.75, 1.0), "h3": (3, 2 / 3, 1.0), "h4": (3, 2 / 3, 1.0)}
    assert got["h1"].t_statistic == pytest.approx(-1.8, rel=1e-12)
    assert got["h2"].t_statistic == pytest.approx(0.2, rel=1e-12)
    assert got["h3"].t_statistic == pytest.approx(0.4, rel=1e-12)
    assert got["h1"].p_value == pytest.approx(t_cdf(-1.8, 3), rel=1e-12)
    assert got["h2"].p_value == pytest.approx(t_cdf(0.2, 3), rel=1e-12)
    assert got["h3"].p_value == got["h4"].p_value == pytest.approx(t_cdf(0.4, 2), rel=1e-12)
    assert res.rho == pytest.approx((1 + 0.75 + 2 / 3 + 2 / 3) / 4, rel=1e-12) and res.omega == 0.0
    # with min_items=4, h3 and h4 are not tested but remain among the humans the others are compared with
    res4 = alt_test(data, models="llm", epsilon=0.2, min_items=4, min_humans=2)["llm"]
    assert [c.human for c in res4.comparisons] == ["h1", "h2"]
    assert [(s.human, s.n_items) for s in res4.not_tested] == [("h3", 3), ("h4", 3)]
    assert res4.comparisons[0].t_statistic == pytest.approx(-1.8, rel=1e-12)  # item 3 still has h3, h4 left
    # ... and with the default min_humans=3, two humans tested are too few: refused, with the counts
    with pytest.raises(AccordError, match=r"only 2 humans share at least min_items=4 items.*'h3': 3"):
        alt_test(data, models="llm", epsilon=0.2, min_items=4)


def test_hand_case_numeric_ratings() -> None:
    data = Annotations.from_records([(i, c, v) for i, row in enumerate([(1, 2, 3, 2), (4, 4, 4, 5), (2, 3, 3, 3)])
                                     for c, v in zip(H3M, row, strict=True)])
    res = alt_test(data, models="llm", epsilon=0.2, min_items=3)
    assert res.scoring == "neg_rmse"  # auto: numbers
    t = res["llm"]
    # h1: squared errors against the others: model wins items 0 and 2, loses 1: d = [-1, 1, -1]
    # h2: ties on 0 and 2, loses 1: d = [0, 1, 0];  h3: d = [-1, 1, 0]
    assert [(c.rho_model, c.rho_human) for c in t.comparisons] == [(2 / 3, 1 / 3), (2 / 3, 1.0), (2 / 3, 2 / 3)]
    assert t.comparisons[0].t_statistic == pytest.approx(-0.8, rel=1e-12)
    assert t.comparisons[0].p_value == pytest.approx(t_cdf(-0.8, 2), rel=1e-12)
    assert t.rho == pytest.approx(2 / 3, rel=1e-12)


def test_hand_case_label_sets() -> None:
    rows = [({"a"}, {"a", "b"}, {"a"}, {"a", "b"}), ({"c"}, {"c"}, {"d"}, {"c"})]
    data = Annotations.from_records([(i, c, v) for i, row in enumerate(rows) for c, v in zip(H3M, row, strict=True)])
    res = alt_test(data, models="llm", epsilon=0.2, min_items=2)
    assert res.scoring == "jaccard"
    t = res["llm"]
    # h1, h2: mean Jaccard similarity ties on both items: d = [0, 0], p = 0; h3: ties item 0, loses item 1
    # ({d} against {c}, {c}): d = [0, -1], t = -0.7 / 0.5 = -1.4 on 1 degree of freedom
    assert [c.p_value for c in t.comparisons[:2]] == [0.0, 0.0]
    assert t.comparisons[2].t_statistic == pytest.approx(-1.4, rel=1e-12)
    assert t.comparisons[2].p_value == pytest.approx(0.5 + math.atan(-1.4) / math.pi, rel=1e-12)
    # BY, m = 3: 0 and 0 are below 1/3 and 2/3 of 0.05 / (11/6); 0.197 is above 0.05 / (11/6): omega = 2/3
    assert [c.model_wins for c in t.comparisons] == [True, True, False]
    assert t.omega == pytest.approx(2 / 3) and t.passes and t.rho == 1.0


def test_rank_scoring_is_neg_rmse_over_ranks() -> None:
    raw = [(10, 1, 5, 0.1), (20, 3, 6, 0.3), (30, 2, 7, 0.2), (40, 4, 8, 0.4)]
    ranks = [(1, 1, 1, 1), (2, 3, 2, 3), (3, 2, 3, 2), (4, 4, 4, 4)]  # each coder's values ranked by hand
    a = alt_test(Annotations.from_records([(i, c, v) for i, r in enumerate(raw) for c, v in zip(H3M, r, strict=True)]),
                 models="llm", scoring="rank", min_items=4)
    b = alt_test(Annotations.from_records([(i, c, v) for i, r in enumerate(ranks)
                                           for c, v in zip(H3M, r, strict=True)]),
                 models="llm", scoring="neg_rmse", min_items=4)
    assert a["llm"].to_frame().equals(b["llm"].to_frame())


def test_a_user_function_scores_as_the_builtin_one() -> None:
    data = by_rows(_majority_block(3), H3M)

    def share_equal(value: object, others: list[object]) -> float:
        return sum(value == o for o in others) / len(others)

    a = alt_test(data, models="llm", scoring=share_equal, min_items=12)
    b = alt_test(data, models="llm", scoring="accuracy", min_items=12)
    assert a.scoring == "share_equal"
    assert a["llm"].to_frame().equals(b["llm"].to_frame())
    with pytest.raises(AccordError, match="must return a number"):
        alt_test(data, models="llm", scoring=lambda v, o: "x", min_items=12)


def test_several_models_side_by_side() -> None:
    rows = [r + r[0] for r in _majority_block(3)]  # "llm" the majority, "copy" h1's labels
    data = by_rows(rows, ["h1", "h2", "h3", "llm", "copy"])
    res = alt_test(data, models="llm,copy", min_items=12)
    assert res.models == ["copy", "llm"] and res.humans == ("h1", "h2", "h3")
    assert res.summary()["passes"].tolist() == [True, True]
    assert res.best().model in ("copy", "llm")
    frame = res.to_frame()
    assert len(frame) == 6 and set(frame["model"]) == {"copy", "llm"}
    assert json.loads(json.dumps(res.to_dict()))["tests"][0]["model"] == "copy"
    # each model is tested against the humans alone (the other model is neither a human nor a remaining one)
    alone = alt_test(by_rows(_majority_block(3), H3M), models="llm", min_items=12)
    assert res["llm"].to_frame().equals(alone["llm"].to_frame())


def test_models_by_pattern_and_by_name() -> None:
    data = by_rows(_majority_block(3), ["h1", "h2", "h3", "gpt-4o"])
    assert alt_test(data, models="gpt-*", min_items=12).models == ["gpt-4o"]
    assert alt_test(data, models=["gpt-4o"], min_items=12).models == ["gpt-4o"]
    roles = coder_roles(data, "gpt-4o")
    assert roles.human_names == ["h1", "h2", "h3"]


# ----------------------------------------------------------------------------------------------- refusals
def test_refuses_what_the_test_does_not_support() -> None:
    data = by_rows(_majority_block(10), H3M)
    two = data.select_coders([True, True, False, True])
    with pytest.raises(AccordError, match="at least 3 humans with values; found 2"):
        alt_test(two, models="llm")
    with pytest.raises(AccordError, match=r"only 0 humans share at least min_items=30 items"):
        alt_test(by_rows(_majority_block(3), H3M), models="llm")
    with pytest.raises(AccordError, match="no coder matches.*did you mean 'llm'"):
        alt_test(data, models="lm")
    with pytest.raises(AccordError, match="names every coder"):
        alt_test(data, models="*")
    with pytest.raises(AccordError, match=r"epsilon must be a number in \[0, 1\)"):
        alt_test(data, models="llm", epsilon=1.0)
    with pytest.raises(AccordError, match=r"alpha must be a number in \(0, 1\)"):
        alt_test(data, models="llm", alpha=0)
    with pytest.raises(AccordError, match="scoring must be one of"):
        alt_test(data, models="llm", scoring="f1")
    with pytest.raises(AccordError, match="min_items must be an integer >= 2"):
        alt_test(data, models="llm", min_items=1)
    with pytest.raises(AccordError, match="compares numbers"):
        alt_test(data, models="llm", scoring="neg_rmse")
    with pytest.raises(AccordError, match="compares label sets"):
        alt_test(data, models="llm", scoring="jaccard")


def test_a_model_with_too_few_items_is_undefined_beside_one_that_is_tested() -> None:
    rows = [r + ("b" if i < 5 else "-") for i, r in enumerate(_majority_block(10))]
    data = by_rows(rows, ["h1", "h2", "h3", "llm", "short"])
    res = alt_test(data, models="llm,short")
    short = res["short"]
    assert math.isnan(short.omega) and math.isnan(short.rho) and short.passes is None
    assert short.verdict == "undefined" and res["llm"].verdict == "passes"
    assert "only 0 humans share at least min_items=30" in short.undefined_reason
    assert res["llm"].passes is True


# ----------------------------------------------------------------------------------------------- the parts
def test_benjamini_yekutieli_equals_statsmodels() -> None:
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(7)
    for m in (1, 2, 3, 5, 10, 40):
        for _ in range(30):
            p = rng.random(m) ** rng.uniform(1, 6)
            if m > 2:
                p[rng.integers(m)] = p[0]  # ties
            for q in (0.01, 0.05, 0.2):
                rejected, adjusted = benjamini_yekutieli(p, alpha=q)
                ref_rej, ref_adj, _, _ = multipletests(p, alpha=q, method="fdr_by")
                assert rejected.tolist() == ref_rej.tolist()
                assert adjusted == pytest.approx(ref_adj, rel=1e-12)


def test_benjamini_yekutieli_counts_an_undefined_p_value_and_never_rejects_it() -> None:
    rejected, adjusted = benjamini_yekutieli([0.001, float("nan"), 0.01], alpha=0.05)
    # m = 3: 0.001 <= 1/3 * 0.05 / (11/6); 0.01 > 2/3 * 0.05 / (11/6) = 0.0182?  no: 0.01 <= 0.0182: rejected
    assert rejected.tolist() == [True, False, True]
    assert math.isnan(adjusted[1])
    assert adjusted[0] == pytest.approx(0.001 * 3 * 11 / 6, rel=1e-12)


def test_one_sided_t_test_equals_scipy() -> None:
    from scipy.stats import ttest_1samp

    rng = np.random.default_rng(3)
    for n in (2, 3, 10, 30, 200):
        for eps in (0.0, 0.1, 0.2):
            d = rng.integers(-1, 2, size=n).astype(float)
            if np.all(d == d[0]):
                continue
            t, p, _ = one_sided_t_test(d, eps)
            ref = ttest_1samp(d, eps, alternative="less")
            assert t == pytest.approx(ref.statistic, rel=1e-12)
            assert p == pytest.approx(ref.pvalue, rel=1e-12)


# ----------------------------------------------------------------------------------------------- panel
def test_panel_agreement_calls_alpha() -> None:
    from accord import alpha

    data = by_rows(["aaab", "bbbb", "abaa", "ccac"], H3M)
    pa = panel_agreement(data, models="llm")
    assert pa.humans.alpha == alpha(data.select_coders([True, True, True, False])).alpha
    assert pa.with_models[0].alpha == alpha(data).alpha
    frame = pa.to_frame()
    assert frame["coders"].tolist() == ["humans", "humans + llm"]
    assert frame["change"].iloc[1] == pytest.approx(alpha(data).alpha - pa.humans.alpha)


def test_panel_departures_by_hand() -> None:
    coders = ["h1", "h2", "h3", "h4", "llm"]
    rows = ["aaaab",  # unanimous a, model b: a departure
            "aaabb",  # a 3 of 4, model b: a departure (near-unanimous)
            "aabbb",  # split: no panel
            "aaaaa",  # model agrees
            "ab--b",  # two humans split: no panel
            "aa--b",  # two humans agree: unanimous panel of 2, model departs
            "abbbc"]  # b 3 of 4, model c
    data = by_rows(rows, coders)
    dep = panel_departures(data, models="llm")
    frame = dep.to_frame()
    assert frame[["unit", "model_value", "panel_value", "n_agree", "n_panel", "unanimous"]].values.tolist() == [
        [0, "b", "a", 4, 4, True], [5, "b", "a", 2, 2, True], [1, "b", "a", 3, 4, False],
        [6, "c", "b", 3, 4, False]]
    assert dep.n_panel_items == {"llm": 5} and dep.n_departures == {"llm": 4}
    only = panel_departures(data, models="llm", max_dissent=0)
    assert only.to_frame()["unit"].tolist() == [0, 5] and only.n_panel_items == {"llm": 3}
    assert panel_departures(data, models="llm", max_dissent=0, min_panel=3).to_frame()["unit"].tolist() == [0]


# ----------------------------------------------------------------------------------------------- guidance
def test_guidance_is_seeded_and_follows_the_noise() -> None:
    kw = dict(sizes=[30, 100], epsilons=[0.0, 0.2], n_datasets=3, n_boots=3)
    a = alt_test_guidance(rng=5, **kw)
    assert a.to_frame().equals(alt_test_guidance(rng=5, **kw).to_frame())
    good = alt_test_guidance(noise_humans=0.3, noise_model=0.05, rng=5, **kw).to_frame()
    bad = alt_test_guidance(noise_humans=0.3, noise_model=0.9, rng=5, **kw).to_frame()
    assert (good["rho"] > bad["rho"]).all()
    assert good["omega_0.2"].iloc[-1] >= bad["omega_0.2"].iloc[-1]
    # a larger epsilon never makes the model lose more often
    assert (a.to_frame()["omega_0.2"] >= a.to_frame()["omega_0"]).all()
    assert set(a.items_needed()) == {0.0, 0.2}
    with pytest.raises(AccordError, match="noise_model must be a number in"):
        alt_test_guidance(noise_model=2)


def test_guidance_agrees_with_the_authors_simulation() -> None:
    """The authors' simulation (the notebook of github.com/nitaytech/AltTest, its cells 6-7 run outside accord
    with numpy.random.seed(12345): 40 datasets x 10 draws, 4 labels, 3 of 6 humans, noise 0.3 for the humans and
    the model, 500 items) gave these mean winning rates and advantage probability; accord's simulation, with
    its own random numbers, agrees within the Monte Carlo error of 400 draws over 40 datasets."""
    authors = {30: ({0.0: 0.0208, 0.05: 0.0742, 0.1: 0.1667, 0.2: 0.5225}, 0.8749),
               100: ({0.0: 0.0133, 0.05: 0.1175, 0.1: 0.49, 0.2: 0.9775}, 0.8751)}
    g = alt_test_guidance(sizes=[30, 100], epsilons=[0.0, 0.05, 0.1, 0.2], n_datasets=40, n_boots=10, rng=1)
    for row in g.to_frame().to_dict("records"):
        omegas, rho = authors[row["size"]]
        for eps, omega in omegas.items():
            assert abs(row[f"omega_{eps:g}"] - omega) < 0.1, (row["size"], eps)
        assert abs(row["rho"] - rho) < 0.02
        assert abs(row["alpha_humans"] - 0.48) < 0.05  # the paper: noise 0.3 gives an IAA of about 0.48


# ----------------------------------------------------------------------------------------------- properties
@given(seed=st.integers(0, 2**32 - 1), n_humans=st.integers(3, 6), k=st.integers(2, 4))
def test_properties_of_the_test(seed: int, n_humans: int, k: int) -> None:
    """Renaming the labels or reordering the coders changes nothing; a larger epsilon never makes the model lose
    against a human it won against; rho_model + rho_human - 1 is the share of ties, in [0, 1]."""
    rng = np.random.default_rng(seed)
    n = 12
    gold = rng.integers(k, size=n)
    values = np.where(rng.random((n_humans + 1, n)) < 0.6, gold, rng.integers(k, size=(n_humans + 1, n)))
    names = [f"h{j}" for j in range(n_humans)] + ["llm"]
    recs = [(i, names[c], int(values[c, i])) for c in range(n_humans + 1) for i in range(n)
            if c == n_humans or rng.random() > 0.1]
    data = Annotations.from_records(recs)
    try:
        base = alt_test(data, models="llm", scoring="accuracy", min_items=4, epsilon=0.1)["llm"]
    except AccordError:
        return  # too few items shared with three humans: refused, as it should be
    renamed = Annotations.from_records([(i, "z" + c if c != "llm" else c, f"label-{v}") for i, c, v in recs[::-1]])
    other = alt_test(renamed, models="llm", min_items=4, epsilon=0.1)["llm"]
    assert other.omega == base.omega and other.rho == pytest.approx(base.rho, abs=1e-15)
    mine = {c.human: c.p_value for c in base.comparisons}
    assert {c.human[1:]: c.p_value for c in other.comparisons} == pytest.approx(mine, rel=1e-12, nan_ok=True)
    wider = alt_test(data, models="llm", scoring="accuracy", min_items=4, epsilon=0.3)["llm"]
    assert wider.omega >= base.omega
    for c, w in zip(base.comparisons, wider.comparisons, strict=True):
        assert w.model_wins or not c.model_wins
        assert 0 <= c.rho_model + c.rho_human - 1 <= 1
