"""The coefficients by name: which apply to a data set, and one computed by its name.

``accord agree --coefficient``, the reliability report and :mod:`accord.engines` name the coefficients
alike; this module holds the names, the rule that says which of them apply to a data set, and the
dispatch from a name to the function, for in-memory :class:`~accord.data.Annotations` here and for the
reductions of a lazy engine in :mod:`accord.engines` (same rule, same dispatch, other functions).

Examples
--------
>>> import accord
>>> from accord.coefficients import applicable, compute
>>> data = accord.as_annotations([[1, 2, 2], [1, 2, 3]])  # coders x units
>>> applicable(data)
['alpha', 'percent', 'cohen', 'scott', 'fleiss', 'multi-kappa', 'bennett', 'gwet']
>>> round(compute(data, "cohen").kappa, 4)
0.5
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from accord.errors import AccordError, choice_error

__all__ = ["COEFFICIENTS", "applicable", "compute"]

#: Every coefficient's name, in the order tables list them.
COEFFICIENTS = ("alpha", "percent", "cohen", "scott", "fleiss", "multi-kappa", "bennett", "gwet")


def applicable_to(n_coders: int, values_per_unit: np.ndarray) -> list[str]:
    """The coefficients that apply to *n_coders* coders whose units hold *values_per_unit* values each.

    Alpha, percent agreement, Bennett's S and Gwet's AC1/AC2 take any data; Cohen's kappa and Scott's pi
    need exactly two coders; Fleiss' kappa needs the same number (two or more) of values in every unit;
    multi-kappa needs every coder in every unit.
    """
    m = np.asarray(values_per_unit)
    m = m[m > 0]
    complete = len(m) > 0 and m.min() == m.max() and m.min() >= 2
    out = ["alpha", "percent", "bennett", "gwet"]
    if n_coders == 2:
        out += ["cohen", "scott"]
    if complete:
        out += ["fleiss"]
        if m.min() == n_coders:
            out += ["multi-kappa"]
    return [c for c in COEFFICIENTS if c in out]


def compute_with(functions: Any, data: Any, coefficient: str, distance: Any = "nominal") -> Any:
    """The coefficient named *coefficient* of *data*, from the namespace *functions* (``alpha``,
    ``percent_agreement``, ``cohen_kappa``, ``scott_pi``, ``fleiss_kappa``, ``multi_kappa``, ``bennett_s``,
    ``gwet_ac1``, ``gwet_ac2``): accord's in-memory functions or :mod:`accord.engines.coefficients`.

    ``gwet`` is AC1 under the nominal distance and AC2 under any other.
    """
    if coefficient not in COEFFICIENTS:
        raise choice_error("coefficient", coefficient, COEFFICIENTS)
    from accord.distances import get_distance

    dist = get_distance(distance)
    f = functions
    if coefficient == "percent":
        return f.percent_agreement(data)
    if coefficient == "gwet":
        return f.gwet_ac1(data) if dist.name == "nominal" else f.gwet_ac2(data, distance=dist)
    func = {"alpha": f.alpha, "cohen": f.cohen_kappa, "scott": f.scott_pi, "fleiss": f.fleiss_kappa,
            "multi-kappa": f.multi_kappa, "bennett": f.bennett_s}[coefficient]
    return func(data, distance=dist)


def _memory_functions() -> Any:
    from accord.alpha import alpha
    from accord.gwet import gwet_ac1, gwet_ac2
    from accord.kappa import bennett_s, cohen_kappa, fleiss_kappa, multi_kappa, percent_agreement, scott_pi

    return SimpleNamespace(alpha=alpha, percent_agreement=percent_agreement, cohen_kappa=cohen_kappa,
                           scott_pi=scott_pi, fleiss_kappa=fleiss_kappa, multi_kappa=multi_kappa,
                           bennett_s=bennett_s, gwet_ac1=gwet_ac1, gwet_ac2=gwet_ac2)


def applicable(data: Any) -> list[str]:
    """The coefficients that apply to *data* (as ``accord agree --coefficient all`` chooses them).

    Parameters
    ----------
    data : Annotations
        The annotations.

    Returns
    -------
    list of str
        Names among :data:`COEFFICIENTS`, in its order.
    """
    from accord.data import Annotations

    if not isinstance(data, Annotations):
        raise AccordError(f"data must be accord.Annotations; got {type(data).__name__}")
    n_coders = len(np.unique(data.coder_index))
    return applicable_to(n_coders, np.bincount(data.unit_index, minlength=data.n_units))


def compute(data: Any, coefficient: str, distance: Any = "nominal") -> Any:
    """One coefficient of *data* by its name (a name of :data:`COEFFICIENTS`).

    Parameters
    ----------
    data : Annotations
        The annotations.
    coefficient : str
        One of :data:`COEFFICIENTS`; ``gwet`` is AC1 under the nominal distance, AC2 under any other.
    distance : str or Distance
        The distance (ignored by percent agreement).

    Returns
    -------
    The coefficient's result (``AlphaResult``, ``KappaResult``, ``AgreementResult`` or ``GwetResult``).
    """
    return compute_with(_memory_functions(), data, coefficient, distance)
