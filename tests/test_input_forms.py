"""Issue 10, part 3: the input users already hold.

Every coefficient takes a coders x units matrix (numpy, nested lists, pandas or polars wide frames) as the
``krippendorff`` package does, or units x coders with ``layout="units-by-coders"`` (irrCAC, R), and gives the
same result as through :class:`accord.Annotations`; Fleiss' kappa from a count table equals statsmodels';
booleans stay apart from 1 and 1.0.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord import AccordError, Annotations, as_annotations

polars = pytest.importorskip("polars")


def _matrix(rng: np.random.Generator, n_coders: int = 3, n_units: int = 25, q: int = 4) -> np.ndarray:
    m = rng.integers(1, q + 1, size=(n_coders, n_units)).astype(float)
    m[rng.random(m.shape) < 0.2] = np.nan
    m[:, 0] = 1.0  # one unit every coder coded
    return m


def _forms(m: np.ndarray) -> dict[str, object]:
    lists = [[None if math.isnan(x) else int(x) for x in row] for row in m]
    return {
        "numpy": m,
        "lists": lists,
        "pandas": pd.DataFrame(m, index=[f"c{i}" for i in range(m.shape[0])]),
        "polars": polars.DataFrame({f"u{j}": [lists[i][j] for i in range(m.shape[0])] for j in range(m.shape[1])}),
    }


def _same(a, b) -> None:
    da, db = a.to_dict(), b.to_dict()
    for key, va in da.items():
        vb = db[key]
        if isinstance(va, float):
            assert (math.isnan(va) and math.isnan(vb)) or va == pytest.approx(vb, abs=1e-12), key
        elif key not in {"source"}:
            assert va == vb, key


COEFFICIENTS = {
    "alpha-nominal": lambda d, **k: accord.alpha(d, **k),
    "alpha-interval": lambda d, **k: accord.alpha(d, distance="interval", **k),
    "alpha-ordinal": lambda d, **k: accord.alpha(d, distance="ordinal", **k),
    "percent_agreement": lambda d, **k: accord.percent_agreement(d, **k),
    "bennett_s": lambda d, **k: accord.bennett_s(d, **k),
    "gwet_ac1": lambda d, **k: accord.gwet_ac1(d, **k),
    "gwet_ac2": lambda d, **k: accord.gwet_ac2(d, distance="interval", **k),
    "cohen_kappa": lambda d, **k: accord.cohen_kappa(d, coders=(0, 1), **k),
    "scott_pi": lambda d, **k: accord.scott_pi(d, coders=(0, 1), **k),
    "weighted_kappa": lambda d, **k: accord.weighted_kappa(d, distance="interval", coders=(0, 1), **k),
}


@pytest.mark.parametrize("name", sorted(COEFFICIENTS))
def test_every_form_equals_the_annotations_path(name):
    rng = np.random.default_rng(10)
    fn = COEFFICIENTS[name]
    for _ in range(3):
        m = _matrix(rng)
        reference = fn(Annotations.from_matrix(m))
        for form, data in _forms(m).items():
            if name in {"cohen_kappa", "scott_pi", "weighted_kappa"} and form == "pandas":
                reference_named = fn(Annotations.from_matrix(m))
                assert reference_named is not None
                continue  # pandas rows are named c0, c1...: coders=(0, 1) does not apply
            _same(fn(data), reference)
        _same(fn(m.T, layout="units-by-coders"), reference)
        _same(fn(pd.DataFrame(m.T), layout="units-by-coders"), reference)


@pytest.mark.parametrize("fn", [accord.fleiss_kappa, accord.multi_kappa])
def test_complete_data_coefficients_take_every_form(fn):
    rng = np.random.default_rng(3)
    m = rng.integers(0, 3, size=(4, 30)).astype(float)
    reference = fn(Annotations.from_matrix(m))
    for data in _forms(m).values():
        _same(fn(data), reference)
    _same(fn(m.T, layout="units-by-coders"), reference)


@pytest.mark.parametrize("fn", [accord.unit_disagreement, accord.pairwise_agreement, accord.coder_left_out])
def test_diagnostics_take_a_matrix(fn):
    m = _matrix(np.random.default_rng(4))
    a = fn(m, distance="interval").to_frame()
    b = fn(Annotations.from_matrix(m), distance="interval").to_frame()
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(fn(m.T, distance="interval", layout="units-by-coders").to_frame(), b)


def test_equals_the_krippendorff_package_on_its_own_input():
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(11)
    for _ in range(10):
        m = _matrix(rng, n_coders=int(rng.integers(2, 6)), n_units=int(rng.integers(5, 60)))
        for level in ("nominal", "ordinal", "interval", "ratio"):
            want = krippendorff.alpha(reliability_data=m, level_of_measurement=level)
            assert accord.alpha(m, distance=level).alpha == pytest.approx(want, abs=1e-12)


@pytest.mark.filterwarnings("ignore::accord.AccordWarning")
@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=6, max_size=6),
        min_size=2,
        max_size=4,
    )
)
def test_nested_lists_equal_records(rows):
    records = [(u, c, v) for c, row in enumerate(rows) for u, v in enumerate(row)]
    try:
        want = accord.alpha(Annotations.from_records(records))
    except AccordError as exc:
        with pytest.raises(AccordError, match=str(exc).split(":")[-1].strip()[:20]):
            accord.alpha(rows)
        return
    got = accord.alpha(rows)
    for key in ("alpha", "observed_disagreement", "expected_disagreement"):
        a, b = getattr(got, key), getattr(want, key)
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12)


@pytest.mark.parametrize(
    ("data", "received"),
    [
        ({"a": [1, 2]}, "builtins.dict"),
        (3, "builtins.int"),
        ("labels.csv", "builtins.str"),
        ([1, 2, 3], "builtins.list"),
    ],
)
def test_other_input_is_named_with_the_forms_accepted(data, received):
    with pytest.raises(AccordError, match=f"got {received}") as info:
        accord.alpha(data)
    assert "coders x units matrix" in str(info.value) and "polars" in str(info.value)


def test_a_three_dimensional_array_is_refused():
    with pytest.raises(AccordError, match="two-dimensional"):
        accord.alpha(np.zeros((2, 3, 4)))


def test_a_long_frame_is_not_read_as_a_matrix():
    frame = pd.DataFrame({"unit": ["u1", "u1"], "coder": ["a", "b"], "value": ["x", "x"]})
    with pytest.raises(AccordError, match="long table"):
        accord.alpha(frame)


def test_layout_is_checked_and_annotations_have_none():
    with pytest.raises(AccordError, match="layout must be one of coders-by-units, units-by-coders; got 'rows'"):
        accord.alpha([[1, 2], [1, 2]], layout="rows")
    with pytest.raises(AccordError, match="already Annotations"):
        as_annotations(Annotations.from_matrix([[1, 2], [1, 2]]), layout="units-by-coders")


# ------------------------------------------------------------------ Fleiss from a count table
def test_fleiss_from_counts_equals_statsmodels_on_random_tables():
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(1971)
    for _ in range(30):
        n_units, q, m = int(rng.integers(3, 40)), int(rng.integers(2, 6)), int(rng.integers(2, 7))
        table = np.stack([rng.multinomial(m, rng.dirichlet(np.ones(q))) for _ in range(n_units)])
        want = inter_rater.fleiss_kappa(table, method="fleiss")
        got = accord.fleiss_kappa(Annotations.from_counts(table)).kappa
        assert got == pytest.approx(want, abs=1e-12)


def test_from_counts_of_aggregate_raters_equals_the_ratings():
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(5)
    ratings = rng.integers(0, 4, size=(20, 5))  # units x raters
    table, categories = inter_rater.aggregate_raters(ratings)
    by_counts = Annotations.from_counts(table, categories=categories.tolist())
    by_ratings = Annotations.from_matrix(ratings, layout="units-by-coders")
    _same(accord.fleiss_kappa(by_counts), accord.fleiss_kappa(by_ratings))
    _same(accord.alpha(by_counts), accord.alpha(by_ratings))


def test_from_counts_takes_a_labelled_frame_and_refuses_bad_counts():
    frame = pd.DataFrame({"yes": [3, 1], "no": [0, 2]}, index=["q1", "q2"])
    d = Annotations.from_counts(frame)
    assert list(d.units) == ["q1", "q2"] and set(d.values) == {"yes", "no"}
    with pytest.raises(AccordError, match="non-negative whole counts; unit 0, category 1 holds -1"):
        Annotations.from_counts([[1, -1]])
    with pytest.raises(AccordError, match="non-negative whole counts"):
        Annotations.from_counts([[1.5, 1]])
    with pytest.raises(AccordError, match="two-dimensional"):
        Annotations.from_counts([1, 2])


# ------------------------------------------------------------------ booleans
def test_booleans_stay_apart_from_one_and_one_point_zero():
    d = Annotations.from_records(
        [("u1", "a", True), ("u1", "b", 1), ("u2", "a", 1.0), ("u2", "b", True), ("u3", "a", False), ("u3", "b", 0)]
    )
    assert len(d.values) == 4  # True, False, 1, 0 (1 and 1.0 are one number)
    assert accord.percent_agreement(d).percent_agreement == 0.0
    only_bools = Annotations.from_records([("u1", "a", True), ("u1", "b", True), ("u2", "a", False)])
    assert list(only_bools.values) == [False, True]
    assert accord.percent_agreement(only_bools).percent_agreement == 1.0
