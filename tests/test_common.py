"""Properties every agreement coefficient must have (in the manner of scikit-learn's test_common).

Unit order, coder order and what the labels are called must not change any coefficient; perfect
agreement gives 1; the result is a frozen dataclass with a JSON-ready to_dict().
"""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import Annotations, alpha
from accord.coefficients._fleiss import bennett_s, fleiss_kappa, multi_kappa, scott_pi
from accord.coefficients._kappa import cohen_kappa, percent_agreement

ANY_CODERS = {
    "alpha": lambda d: alpha(d).alpha,
    "percent_agreement": lambda d: percent_agreement(d).percent_agreement,
    "bennett_s": lambda d: bennett_s(d).kappa,
    "fleiss_kappa": lambda d: fleiss_kappa(d).kappa,
    "multi_kappa": lambda d: multi_kappa(d).kappa,
}
TWO_CODERS = {
    "cohen_kappa": lambda d: cohen_kappa(d).kappa,
    "scott_pi": lambda d: scott_pi(d).kappa,
}


def _value(func, data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(data)


matrices = st.tuples(st.integers(2, 5), st.integers(3, 25), st.integers(2, 5), st.integers(0, 2**32 - 1))


def _matrix(coders, units, cats, seed, force_two=False):
    rng = np.random.default_rng(seed)
    c = 2 if force_two else coders
    m = rng.integers(0, cats, size=(c, units))
    agree = rng.random((c, units)) < 0.5
    m[agree] = np.broadcast_to(m[0], m.shape)[agree]
    return m


@pytest.mark.parametrize("name", [*ANY_CODERS, *TWO_CODERS])
@settings(max_examples=30, deadline=None)
@given(params=matrices)
def test_invariant_to_unit_and_coder_order_and_labels(name, params):
    func = {**ANY_CODERS, **TWO_CODERS}[name]
    m = _matrix(*params, force_two=name in TWO_CODERS)
    rng = np.random.default_rng(params[3] + 1)
    base = _value(func, Annotations.from_matrix(m))
    shuffled = m[rng.permutation(m.shape[0])][:, rng.permutation(m.shape[1])]
    as_text = np.vectorize(lambda x: f"category-{(x * 37) % 101}", otypes=[object])(m)
    for other in (shuffled, as_text):
        got = _value(func, Annotations.from_matrix(other))
        if np.isnan(base):
            assert np.isnan(got)
        else:
            assert got == pytest.approx(base, abs=1e-12)


@pytest.mark.parametrize("name", [*ANY_CODERS, *TWO_CODERS])
def test_perfect_agreement_is_one(name):
    func = {**ANY_CODERS, **TWO_CODERS}[name]
    row = ["a", "b", "c", "a", "b", "b"]
    m = [row, row] if name in TWO_CODERS else [row, row, row]
    assert _value(func, Annotations.from_matrix(m)) == 1.0


@pytest.mark.parametrize(
    "call",
    [
        lambda d: alpha(d),
        lambda d: percent_agreement(d),
        lambda d: bennett_s(d),
        lambda d: fleiss_kappa(d),
        lambda d: multi_kappa(d),
        lambda d: cohen_kappa(d, coders=(0, 1)),
        lambda d: scott_pi(d, coders=(0, 1)),
    ],
)
def test_results_are_frozen_dataclasses_with_json_dicts(call):
    d = Annotations.from_matrix([["a", "b", "a", "c"], ["a", "b", "b", "c"], ["a", "a", "b", "c"]])
    res = call(d)
    assert dataclasses.is_dataclass(res)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.n_coders = 9
    json.dumps(res.to_dict(), allow_nan=False)
