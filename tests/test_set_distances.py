"""Set distances: published values, NLTK as oracle, the sparse path against the dense one."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import AccordError, Annotations, alpha
from accord.distances import (
    DENSE_LIMIT,
    MASI2006,
    MASI2010,
    Dice,
    Jaccard,
    SetRelation,
    get_distance,
    multiset_value,
    set_relation,
)

F = frozenset


def test_the_two_masi_forms_differ_as_the_issue_says():
    """{A} vs {A, B}: 1 - J*M = 1 - 1/2 * 2/3 = 2/3 (Passonneau 2006); (1 - J)*M = 1/2 * 1/3 = 1/6 (2010)."""
    assert MASI2006()(F("A"), F("AB")) == pytest.approx(2 / 3)
    assert MASI2010()(F("A"), F("AB")) == pytest.approx(1 / 6)
    with pytest.raises(AccordError, match="ambiguous"):
        get_distance("masi")


@pytest.mark.parametrize("dist", [Jaccard(), Dice(), MASI2006(), MASI2010(), SetRelation()])
def test_two_empty_sets_are_identical(dist):
    assert dist(F(), F()) == 0.0


def test_empty_against_nonempty():
    """DESIGN.md: disjoint for Jaccard, Dice and 1 - J*M (1), a subset for set-relation and (1 - J)*M (1/3)."""
    e, a = F(), F("a")
    assert Jaccard()(e, a) == Dice()(e, a) == MASI2006()(e, a) == 1.0
    assert SetRelation()(e, a) == pytest.approx(1 / 3) == MASI2010()(e, a)
    assert set_relation(e, a) == "subset"


def test_set_relation_scale_exact_and_printed():
    """Passonneau (2004), section 3.3: 0 identity, .33 subsumption, .67 intersection, 1 disjunction."""
    pairs = [(F("HJK"), F("HJK")), (F("HJK"), F("H")), (F("GK"), F("CHK")), (F("G"), F("CHJ"))]
    assert [SetRelation()(a, b) for a, b in pairs] == pytest.approx([0, 1 / 3, 2 / 3, 1])
    assert [SetRelation(exact=False)(a, b) for a, b in pairs] == [0, 0.33, 0.67, 1]


def test_passonneau2006_figure2_and_figure3_means():
    """Passonneau (2006), section 3.3: Figure 2 mean Jaccard 5/9 and mean MASI 10/27, Figure 3 mean Jaccard 4/9.

    The means are of the sets as printed (the unit not removed: with it removed every column of Figure 2
    gives MASI 1/3).  The paper's 6/27 for Figure 3's mean MASI does not follow from its printed sets:
    x {x,y}/{x} gives 1/2 * 2/3, y {x,y}/{y,z} gives 1/3 * 1/3, z {z}/{y,z} gives 1/2 * 2/3, a mean of
    7/27; the text's per-column Jaccard values (2/3 for y, 1/3 for x and z) also contradict the sets.
    """
    fig2 = [(F("xy"), F("xyz")), (F("xy"), F("xyz")), (F("x"), F("xyz"))]
    fig3 = [(F("xy"), F("x")), (F("xy"), F("yz")), (F("z"), F("yz"))]

    def mean_sim(dist, cols):
        return Fraction(sum(Fraction(1 - dist(a, b)).limit_denominator(100) for a, b in cols), 3)

    assert mean_sim(Jaccard(), fig2) == Fraction(5, 9)
    assert mean_sim(MASI2006(), fig2) == Fraction(10, 27)
    assert mean_sim(Jaccard(), fig3) == Fraction(4, 9)
    assert mean_sim(MASI2006(), fig3) == Fraction(7, 27)  # printed 6/27: see docstring


def test_passonneau2010_figures_5_and_6():
    """Passonneau (2010), section 4.1.4: (1 - 23/38) * 1/3 = 0.13 (subset), (1 - 7/61) * 2/3 = 0.59 (overlap)."""
    subset_a, subset_b = F(range(23)), F(range(38))
    assert MASI2010()(subset_a, subset_b) == pytest.approx((1 - 23 / 38) / 3)
    assert round(MASI2010()(subset_a, subset_b), 2) == 0.13
    # two sets with 7 in common and a union of 61 (sizes 30 and 38)
    over_a, over_b = F(range(30)), F(range(23, 61))
    assert len(over_a & over_b) == 7 and len(over_a | over_b) == 61
    assert MASI2010()(over_a, over_b) == pytest.approx((1 - 7 / 61) * 2 / 3)
    assert round(MASI2010()(over_a, over_b), 2) == 0.59


def test_multiset_values_count_partial_agreement():
    """Passonneau (2010), Figure 4: an SCU found twice is {y1, y2}; Dice against {y1} is 1 - 2/3."""
    assert Dice()(multiset_value({"y": 2}), multiset_value({"y": 1})) == pytest.approx(1 / 3)
    with pytest.raises(AccordError, match="non-negative integer"):
        multiset_value({"y": -1})


def random_sets(rng, coders, units, items=20, max_size=4, p_empty=0.0):
    out = []
    for _ in range(coders):
        row = []
        for _ in range(units):
            if rng.random() < p_empty:
                row.append(F())
            else:
                k = int(rng.integers(1, max_size + 1))
                row.append(F(rng.choice(items, size=k, replace=False).tolist()))
        out.append(row)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_alpha_equals_nltk_with_masi_jaccard(seed):
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import jaccard_distance, masi_distance

    rng = np.random.default_rng(seed)
    rows = random_sets(rng, 3, 40, items=8, max_size=3)
    # correlate coders so alpha is informative
    rows[1] = [a if rng.random() < 0.5 else b for a, b in zip(rows[0], rows[1], strict=True)]
    records = [(f"c{c}", f"u{u}", rows[c][u]) for c in range(3) for u in range(40)]
    data = Annotations.from_records([(u, c, v) for c, u, v in records])
    for ours, theirs in (("masi-2006", masi_distance), ("jaccard", jaccard_distance)):
        task = AnnotationTask(data=records, distance=theirs)
        assert alpha(data, distance=ours).alpha == pytest.approx(task.alpha(), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["jaccard", "dice", "masi-2006", "masi-2010", "set-relation"]),
       st.floats(0, 0.3))
def test_sparse_expected_sum_equals_dense(seed, name, p_empty):
    rng = np.random.default_rng(seed)
    values = np.empty(60, dtype=object)
    vals = random_sets(rng, 1, 60, items=12, max_size=4, p_empty=p_empty)[0]
    values[:] = list(dict.fromkeys(vals))[:60] + [F()] * (60 - len(dict.fromkeys(vals)))
    values = np.array(list(dict.fromkeys(values.tolist())), dtype=object)
    a = rng.integers(0, 4, len(values)).astype(float)
    b = rng.integers(0, 4, len(values)).astype(float)
    prepared = get_distance(name).prepare(values, a + b)
    dense = super(type(prepared), prepared).cross_sum(a, b)
    sparse = prepared._sparse_cross_sum(a, b)
    subsets = prepared._subset_cross_sum(a, b)
    assert sparse == pytest.approx(dense, rel=1e-12, abs=1e-9)
    assert subsets == pytest.approx(dense, rel=1e-10, abs=1e-9)


def test_large_domain_alpha_uses_sparse_path_and_agrees_with_small(rng):
    """Above DENSE_LIMIT distinct sets the inverted-index path runs; both paths give the same alpha."""
    rows = random_sets(rng, 3, 3000, items=40, max_size=4)
    data = Annotations.from_matrix(rows)
    assert len(data.values) > DENSE_LIMIT
    res = alpha(data, distance="masi-2006")
    prepared = MASI2006().prepare(data.values, np.ones(len(data.values)))
    marg = np.bincount(data.value_index, minlength=len(data.values)).astype(float)
    dense = super(type(prepared), prepared).cross_sum(marg, marg)
    n = marg.sum()
    assert res.expected_disagreement == pytest.approx(dense / (n * (n - 1)), rel=1e-12)


def test_set_distance_refuses_scalars():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(AccordError, match="needs set values"):
            alpha(Annotations.from_matrix([[1, 2], [1, 3]]), distance="dice")
