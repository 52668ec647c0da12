"""Seeded random cases for the alternative annotator test, shared by the test and by the scratch script that
ran the authors' reference implementation on them (outside the project) to get the expected values.

Every case is drawn from ``numpy.random.default_rng(seed)`` by :func:`make_case`, so the data of an expected
value in ``test_alt_test_reference.py`` is regenerated inside the test, never stored.
"""

from __future__ import annotations

from typing import Any

import numpy as np

EPSILONS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)


def make_case(*, seed: int, n_humans: int, n_models: int, kind: str, n_items: int, missing: float = 0.0,
              sparse_human: bool = False, copy_human: bool = False
              ) -> tuple[dict[str, dict[int, Any]], dict[str, dict[int, Any]]]:
    """``(humans, models)``, each ``{coder: {item: value}}`` as the authors' ``alt_test`` takes them.

    kind: ``categorical`` (2 to 5 labels 0..K-1), ``ratings`` (integers 1..5) or ``continuous`` (floats).
    Each annotator keeps the gold value with its own noise (humans 0.2 to 0.7, models 0.1 to 0.7); with
    *missing*, each human's cell is dropped with that probability and each model's with half of it; with
    *sparse_human*, the last human annotates only the first 20 items (too few to be tested; it still serves
    as a remaining human); with *copy_human*, model ``m0`` gives the first human's annotations (the test against
    that human has constant differences: p = 0, or undefined at epsilon = 0).
    """
    rng = np.random.default_rng(seed)
    if kind == "categorical":
        k = int(rng.integers(2, 6))
        gold = rng.integers(k, size=n_items)

        def annotate(noise: float) -> list[Any]:
            keep = rng.random(n_items) >= noise
            return np.where(keep, gold, rng.integers(k, size=n_items)).tolist()
    elif kind == "ratings":
        gold = rng.integers(1, 6, size=n_items)

        def annotate(noise: float) -> list[Any]:
            off = rng.integers(-2, 3, size=n_items) * (rng.random(n_items) < noise)
            return np.clip(gold + off, 1, 5).tolist()
    elif kind == "continuous":
        gold = rng.normal(size=n_items)

        def annotate(noise: float) -> list[Any]:
            return (gold + rng.normal(scale=noise, size=n_items)).tolist()
    else:
        raise ValueError(kind)
    humans: dict[str, dict[int, Any]] = {}
    for j in range(n_humans):
        values = annotate(float(rng.uniform(0.2, 0.7)))
        present = rng.random(n_items) >= missing
        if sparse_human and j == n_humans - 1:
            present[20:] = False
        humans[f"h{j}"] = {i: v for i, (v, ok) in enumerate(zip(values, present, strict=True)) if ok}
    models: dict[str, dict[int, Any]] = {}
    for m in range(n_models):
        values = annotate(float(rng.uniform(0.1, 0.7)))
        present = rng.random(n_items) >= missing / 2
        models[f"m{m}"] = {i: v for i, (v, ok) in enumerate(zip(values, present, strict=True)) if ok}
    if copy_human:
        models["m0"] = dict(humans["h0"])
    return humans, models


def records(humans: dict[str, dict[int, Any]], models: dict[str, dict[int, Any]]) -> list[tuple[int, str, Any]]:
    """The long records (item, coder, value) of a case, for :class:`accord.Annotations`."""
    return [(i, c, v) for group in (humans, models) for c, anns in group.items() for i, v in anns.items()]


def _cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for i in range(36):
        kind = ("categorical", "ratings", "continuous")[i % 3]
        missing = 0.15 if i % 4 == 3 else 0.0
        data = {"seed": 1000 + i, "n_humans": 3 + i % 8, "n_models": 1 + i % 3, "kind": kind,
                "n_items": (60 if missing else 30) + 10 * (i % 5), "missing": missing, "sparse_human": i % 6 == 5,
                "copy_human": i % 9 == 4}
        epsilons = [0.0, 0.2] if i % 9 == 4 else [EPSILONS[i % 7], EPSILONS[(i + 3) % 7]]
        out[f"case{i:02d}"] = {"data": data, "epsilons": epsilons,
                               "scoring": "accuracy" if kind == "categorical" else "neg_rmse"}
    return out


#: name -> {"data": make_case's arguments, "epsilons": [...], "scoring": the authors' name of the score}
CASES = _cases()
