"""Fast paths of the pair engine against the general computation (issue 10, parts 3-5).

- the ordinal distance's cross sum through mid-point cumulative counts (O(V) after the sort) against
  the blocked sum over the whole V x V domain;
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import Annotations, alpha
from accord.distances import Ordinal, PreparedDistance
from accord.engine import count_values, unit_disagreement_sums


@settings(max_examples=60)
@given(
    st.integers(min_value=1, max_value=300),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_ordinal_cross_sum_equals_the_blocked_domain_sum(v: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = np.sort(rng.choice(10 * v + 10, size=v, replace=False)).astype(float)
    counts = rng.integers(0, 30, size=v).astype(float)
    prepared = Ordinal().prepare(values, counts)
    a, b = rng.random(v) * 10, rng.random(v) * 10
    for x, y in ((counts, counts), (a, b), (counts, b)):
        fast = prepared.cross_sum(x, y)
        slow = PreparedDistance.cross_sum(prepared, x, y)
        assert fast == pytest.approx(slow, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_ordinal_alpha_on_many_distinct_values_equals_the_general_path(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m = rng.integers(0, 3000, size=(3, 1500)).astype(float)
    m[1] = np.where(rng.random(1500) < 0.6, m[0], m[1])
    m[rng.random(m.shape) < 0.1] = np.nan
    data = Annotations.from_matrix(m)
    res = alpha(data, distance="ordinal")
    uc = count_values(data)
    marg = uc.marginals()
    prepared = Ordinal().prepare(data.values, marg)
    n = uc.n
    d_o = float(unit_disagreement_sums(uc, prepared) @ (1.0 / (uc.m - 1.0))) / n
    d_e = PreparedDistance.cross_sum(prepared, marg, marg) / (n * (n - 1.0))
    assert res.expected_disagreement == pytest.approx(d_e, rel=1e-12)
    assert res.alpha == pytest.approx(1.0 - d_o / d_e, abs=1e-12)
