"""Pyramid scores (Passonneau 2010, section 2.4) under each named convention, by hand-worked values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from accord._shared.errors import AccordError, AccordWarning
from accord.pyramid import (
    CONVENTIONS,
    PSE,
    SCU,
    Contributor,
    ModelSummary,
    PeerAnnotation,
    Pyramid,
    ScoringConvention,
    Span,
    average_scus_per_model,
    jackknife_scores,
    max_score,
    round_x,
    score_peer,
    score_peers,
    tier_table,
    zipf_fit,
)

D30042 = [3, 2, 2, 2, 4, 5, 4, 4, 11, 16]  # Table 1, weights 10 ... 1


def synthetic_pyramid(weights: dict[int, int], n_models: int, extra: dict[int, int] | None = None) -> Pyramid:
    """A pyramid whose SCU ``i`` has contributors from models 0..weights[i]-1, one word each.

    ``extra[i] = m`` adds a second contributor from model m to SCU i (DUCView counts it).
    """
    extra = extra or {}
    texts, offs = [], {}
    pos = 0
    models = []
    for m in range(n_models):
        words = []
        for sid, w in weights.items():
            reps = 1 + (extra.get(sid) == m)
            for r in range(reps):
                if m < w or (r == 1):
                    tok = f"u{sid}r{r}m{m}"
                    offs.setdefault(sid, []).append(
                        (m, pos + len(" ".join(words)) + (1 if words else 0), tok)
                    )
                    words.append(tok)
        t = " ".join(words) or "empty"
        models.append(ModelSummary(m, pos, pos + len(t)))
        texts.append(t)
        pos += len(t) + 1
    text = "\n".join(texts)
    scus = []
    for sid in weights:
        cs = tuple(Contributor((Span(s, s + len(tok)),), label=tok) for _, s, tok in offs[sid])
        scus.append(SCU(sid, f"SCU {sid}", cs))
    return Pyramid(text, tuple(models), tuple(scus))


def peer_of(ids: list[int]) -> PeerAnnotation:
    return PeerAnnotation(
        "p" * (2 * len(ids) + 1), tuple(PSE(i, ((2 * k, 2 * k + 1),)) for k, i in enumerate(ids))
    )


# ------------------------------------------------------------------ seed 002 section 2.4
def test_max_is_90_for_d30042_and_eleven_pses():
    # Passonneau 2010, section 2.4: 3x10 + 2x9 + 2x8 + 2x7 + 2x6 = 90.
    assert max_score(D30042, 11) == 90
    assert max_score(dict(zip(range(10, 0, -1), D30042, strict=True)), 11) == 90


def test_d30042_pyramid_object_figure2_peer():
    # Table 1 tiers as a pyramid of 10 models; the Figure 2 peer's SCUs carry the printed weights
    # (SCU1 W=10, SCU3 W=9, SCU4 W=9, SCU7 W=8, SCU17 W=4, SCU19 W=4, SCU23 W=3, SCU34 W=2).
    named = {1: 10, 3: 9, 4: 9, 7: 8, 17: 4, 19: 4, 23: 3, 34: 2}
    weights, next_id = dict(named), 100
    for w, size in zip(range(10, 0, -1), D30042, strict=True):
        for _ in range(size - sum(1 for v in named.values() if v == w)):
            weights[next_id] = w
            next_id += 1
    pyr = synthetic_pyramid(weights, 10)
    assert pyr.tiers() == dict(zip(range(10, 0, -1), D30042, strict=True))
    # Figure 2: eleven PSEs, SCUs 1, 3 and 17 twice each.
    peer = peer_of([23, 3, 17, 1, 34, 4, 3, 7, 17, 1, 19])
    s = score_peer(peer, pyr)
    assert s.n_pses == 11 and s.max_original == 90
    assert s.raw == 10 + 9 + 9 + 8 + 4 + 4 + 3 + 2  # duplicates count once
    assert s.original == pytest.approx(49 / 90)
    # X_a (equation 2) for D30042: (10x3 + 9x2 + 8x2 + 7x2 + 6x4 + 5x5 + 4x4 + 3x4 + 2x11 + 1x16) / 10.
    assert s.x_a == pytest.approx(193 / 10)
    assert average_scus_per_model(pyr) == pytest.approx(19.3)
    # Max at 19.3: the 13 SCUs of weights 10-6 (30 + 18 + 16 + 14 + 24 = 102), 5 of weight 5 (25)
    # and the remaining 1.3 at weight 4.
    assert s.max_modified == pytest.approx(102 + 25 + 1.3 * 4)


def test_zero_weight_pses_count_in_x():
    pyr = synthetic_pyramid({1: 2, 2: 1}, 2)
    s = score_peer(peer_of([1, 0, 0]), pyr)
    assert (
        s.n_pses == 3 and s.n_zero_weight == 2 and s.max_original == 3 and s.original == pytest.approx(2 / 3)
    )


# -------------------------------------------------------------- rounding rules by hand
# Four models; SCU weights A=4, B=3, C=2, D=2, E=1, F=1, G=1: sum i|T_i| = 14, X_a = 3.5.
# Peer PSEs A, B, C, C, E and one zero-weight PSE: X = 6, raw = 4 + 3 + 2 + 1 = 10,
# Max(6) = 4 + 3 + 2 + 2 + 1 + 1 = 13.
W = {1: 4, 2: 3, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1}
PEER = [1, 2, 3, 3, 5, 0]


@pytest.mark.parametrize(
    ("rounding", "x_used", "max_mod"),
    [
        ("fractional", 3.5, 4 + 3 + 2 + 0.5 * 2),  # remainder at the next tier's weight: 10
        ("floor", 3, 4 + 3 + 2),  # 9
        ("half-up", 4, 4 + 3 + 2 + 2),  # 11
        ("ceil", 4, 11),
    ],
)
def test_each_rounding_rule(rounding, x_used, max_mod):
    pyr = synthetic_pyramid(W, 4)
    conv = ScoringConvention("custom", "models", rounding, False)
    s = score_peer(peer_of(PEER), pyr, convention=conv)
    assert (s.raw, s.n_pses, s.max_original) == (10, 6, 13)
    assert s.original == pytest.approx(10 / 13)
    assert s.x_a == 3.5 and s.x_a_used == x_used
    assert s.max_modified == pytest.approx(max_mod)
    assert s.modified == pytest.approx(10 / max_mod)


def test_half_up_is_not_bankers_rounding():
    assert round_x(2.5, "half-up") == 3 and round(2.5) == 2
    assert round_x(3.49, "half-up") == 3 and round_x(3.0, "ceil") == 3


def test_presets_on_fractional_pyramid():
    pyr = synthetic_pyramid(W, 4)
    mod = {name: score_peer(peer_of(PEER), pyr, convention=name).modified for name in CONVENTIONS}
    assert mod["paper"] == pytest.approx(1.0)  # Max(3.5) = 10
    assert mod["pyreval"] == pytest.approx(1.0)
    assert mod["sacrerouge"] == pytest.approx(10 / 11)  # ceil -> 4
    assert mod["nist-duc"] == pytest.approx(10 / 11)  # half up -> 4
    assert mod["ducview-1.4"] == mod["nist-duc"]
    assert mod["ducview-1.5"] == pytest.approx(1.0)  # floor -> 3: 10 / 9, capped at 1


def test_weight_by_contributors_changes_duc_presets_only():
    # SCU 2 gets a second contributor from model 0: DUCView weight 4, paper weight 3.
    pyr = synthetic_pyramid(W, 4, extra={2: 0})
    assert pyr.weights()[2] == 3 and pyr.weights(by="contributors")[2] == 4
    paper = score_peer(peer_of(PEER), pyr, convention="paper")
    assert paper.raw == 10 and paper.modified == pytest.approx(1.0)
    # Contributor tiers 4:2, 2:2, 1:3 -> X_a = 15 / 4 = 3.75; raw = 4 + 4 + 2 + 1 = 11.
    nist = score_peer(peer_of(PEER), pyr, convention="nist-duc")
    assert (nist.raw, nist.x_a, nist.x_a_used, nist.max_modified) == (11, 3.75, 4, 12)
    assert nist.modified == pytest.approx(11 / 12)
    assert nist.max_original == 4 + 4 + 2 + 2 + 1 + 1
    d15 = score_peer(peer_of(PEER), pyr, convention="ducview-1.5")
    assert (d15.x_a_used, d15.max_modified, d15.modified) == (3, 10, 1.0)  # 11 / 10 capped


def test_uncapped_modified_can_exceed_one():
    pyr = synthetic_pyramid(W, 4)
    s = score_peer(peer_of([1, 2, 3, 4, 5, 6, 7]), pyr, convention="nist-duc")
    assert s.modified == pytest.approx(14 / 11)


def test_unknown_scu_and_bad_convention():
    pyr = synthetic_pyramid(W, 4)
    with pytest.raises(AccordError, match="SCU 99"):
        score_peer(peer_of([99]), pyr)
    with pytest.raises(AccordError, match="convention"):
        score_peer(peer_of([1]), pyr, convention="duc")
    with pytest.raises(AccordError, match="pyramid"):
        score_peer(peer_of([1]))
    with pytest.raises(AccordError, match="x"):
        max_score(D30042, -1)


def test_no_pses_is_undefined_with_reason():
    pyr = synthetic_pyramid(W, 4)
    with pytest.warns(AccordWarning, match="undefined"):
        s = score_peer(PeerAnnotation("", ()), pyr)
    assert math.isnan(s.original) and s.reason and "Max(X=0)" in s.reason
    assert s.to_dict()["original"] is None


def test_score_peers_frame():
    pyr = synthetic_pyramid(W, 4)
    t = score_peers([peer_of(PEER), peer_of([1])], pyr, convention="sacrerouge")
    df = t.to_frame()
    assert list(df["raw"]) == [10, 4] and set(df["convention"]) == {"sacrerouge"}


# ------------------------------------------------------------------------ jackknifing
def test_jackknife_models_and_peers_by_hand():
    # Three models: SCU 1 in all, SCU 2 in models 0 and 2, SCU 3 only in model 1.
    pyr = synthetic_pyramid({1: 3, 2: 2, 3: 1}, 3)
    assert pyr.weights() == {1: 3, 2: 2, 3: 1}
    res = jackknife_scores(pyr, [peer_of([1, 3])])
    # Leave model 0 out: models 1, 2 -> SCU1 w2, SCU2 w1 (model 1), SCU3 vanishes (only in model 0).
    # Model 0 as peer: PSEs for SCU1, SCU2, SCU3->0: raw 3, X_a = (2 + 1) / 2 = 1.5, Max(1.5) = 2 + 0.5 = 2.5.
    m0 = res.model_scores[0]
    assert (m0.raw, m0.n_pses, m0.x_a) == (3, 3, 1.5) and m0.modified == pytest.approx(3 / 2.5)
    # Model 2 (only SCU1): others 0, 1 -> SCU1 w2, SCU2 w2, SCU3 w1; X_a = 5 / 2; Max = 2 + 2 + 0.5 = 4.5.
    m2 = res.model_scores[2]
    assert m2.raw == 2 and m2.modified == pytest.approx(2 / 4.5)
    # The peer (SCUs 1 and 3) averaged over the three leave-one-out pyramids:
    # raws 2 (SCU3 gone), 3, 3; modified 2/2.5, 3/3, 3/4.5.
    p = res.peer_scores[0]
    assert p.raw == pytest.approx(8 / 3)
    assert p.modified == pytest.approx((2 / 2.5 + 3 / 3 + 3 / 4.5) / 3)
    assert len(res.to_frame()) == 4


def test_jackknife_needs_two_models():
    with pytest.raises(AccordError, match="at least 2 models"):
        jackknife_scores(synthetic_pyramid({1: 1}, 1))


# ------------------------------------------------------------------- tiers and Zipf
def test_tier_table_and_zipf_fit_d30042():
    t = tier_table(dict(zip(range(10, 0, -1), D30042, strict=True)))
    assert t.n_scus == 53 and t.x_a == pytest.approx(19.3) and t.to_frame()["n_scus"].tolist() == D30042
    f = zipf_fit(D30042)
    slope, intercept = np.polyfit(np.log(np.arange(10, 0, -1)), np.log(D30042), 1)
    assert f.exponent == pytest.approx(-slope) and f.log_c == pytest.approx(intercept)
    lo, hi = f.confidence_interval(0.95)
    assert lo < f.exponent < hi
    assert f.exponent > 0  # tiers shrink as the weight grows (section 2.2)


def test_zipf_fit_skips_empty_tiers_d31041():
    # Table 1, D31041: no SCU of weight 10 or 9.
    f = zipf_fit([0, 0, 1, 3, 3, 4, 3, 12, 10, 28])
    assert f.n_points == 8 and f.weights[0] == 8


def test_zipf_fit_undefined():
    with pytest.warns(AccordWarning):
        f = zipf_fit([0, 0, 5])
    assert math.isnan(f.exponent) and f.reason
