"""The unit bootstrap of alpha computes many resamples at once (fixed distances): every resampled alpha must
equal alpha recomputed on the resampled units themselves, drawn as scipy.stats.bootstrap draws them."""

from __future__ import annotations

import numpy as np
import pytest

from accord import Annotations, alpha


@pytest.mark.parametrize("distance", ["nominal", "interval"])
def test_batched_bootstrap_equals_alpha_of_each_resample(rng, distance):
    m = rng.integers(1, 5, size=(3, 60)).astype(float)
    copy = rng.random(60) < 0.5  # coders 2 and 3 copy coder 1 on about half the units
    m[1:, copy] = m[0, copy]
    m[rng.random(m.shape) < 0.1] = np.nan
    data = Annotations.from_matrix(m)
    res = alpha(data, distance=distance)
    boot = res.bootstrap_distribution(n_resamples=40, rng=7)
    pairable = np.flatnonzero((~np.isnan(m)).sum(axis=0) >= 2)
    draws = np.random.default_rng(7).integers(0, len(pairable), size=(40, len(pairable)))
    expected = [alpha(Annotations.from_matrix(m[:, pairable[d]]), distance=distance).alpha for d in draws]
    np.testing.assert_allclose(boot, expected, rtol=1e-12, atol=1e-12)
