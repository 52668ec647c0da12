"""One entry point: read a path, a glob or a frame with the engine asked for, and compute coefficients."""

from __future__ import annotations

import os
from typing import Any

from accord._shared.errors import AccordError
from accord.coefficients._registry import COEFFICIENTS, applicable_to, compute_with
from accord.engines import _coefficients as coefficients
from accord.engines._reductions import Reductions, reduce

__all__ = ["COEFFICIENTS", "agree", "applicable", "compute", "reduce"]


def compute(red: Reductions, coefficient: str, distance: Any = "nominal") -> Any:
    """One coefficient by its name (:data:`accord.coefficients._registry.COEFFICIENTS`), from the reductions."""
    return compute_with(coefficients, red, coefficient, distance)


def applicable(red: Reductions) -> list[str]:
    """The coefficients that apply to the data (as ``accord agree --coefficient all`` chooses them)."""
    return applicable_to(red.n_coders, red.signatures.m)


def agree(
    source: Any,
    *,
    coefficients: str | tuple[str, ...] | list[str] = ("alpha",),
    distance: Any = "nominal",
    engine: str = "auto",
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    memory_limit: str | None = None,
    temp_dir: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
    spark_master: str | None = None,
) -> dict[str, Any]:
    """Coefficients of *source* (files, a glob or a lazy frame), each from the same reductions.

    Parameters
    ----------
    coefficients : "all", a name, or names
        Among ``alpha``, ``percent``, ``cohen``, ``scott``, ``fleiss``,
        ``multi-kappa``, ``bennett``, ``gwet``; ``"all"``: those that apply.
    Other parameters as in :func:`reduce`.

    Returns
    -------
    dict
        Coefficient name -> result object (the in-memory result classes).

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"unit": [1, 1, 2, 2, 3, 3], "coder": ["a", "b"] * 3, "value": [1, 1, 2, 2, 1, 2]})
    >>> res = agree(lf, coefficients=("alpha", "cohen"))
    >>> round(res["alpha"].alpha, 4), round(res["cohen"].kappa, 4)
    (0.4444, 0.4)
    """
    red = source if isinstance(source, Reductions) else reduce(
        source, engine=engine, unit=unit, coder=coder, value=value, memory_limit=memory_limit, temp_dir=temp_dir,
        scheduler=scheduler, spark_master=spark_master,
    )
    if coefficients == "all":
        names = applicable(red)
    elif isinstance(coefficients, str):
        names = [coefficients]
    else:
        names = list(coefficients)
    for name in names:
        if name not in COEFFICIENTS:
            raise AccordError(f"coefficients must be among {', '.join(COEFFICIENTS)} or 'all'; got {name!r}")
    return {name: compute(red, name, distance) for name in names}
