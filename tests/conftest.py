"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so CI cannot pass or fail by luck.
settings.register_profile("accord", derandomize=True, deadline=None)
settings.load_profile("accord")


def random_matrix(rng: np.random.Generator, coders: int, units: int, categories: int,
                  missing: float) -> np.ndarray:
    """A coders x units float matrix of integer codes with NaN for missing cells."""
    m = rng.integers(1, categories + 1, size=(coders, units)).astype(float)
    # correlate coders a little so alpha is not always near 0
    agree = rng.random((coders, units)) < 0.5
    m[agree] = np.broadcast_to(m[0], m.shape)[agree]
    m[rng.random(m.shape) < missing] = np.nan
    return m


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261122)
