"""Coefficients from the reductions: the in-memory code, fed the signature histogram and the small tables.

Nothing is re-implemented here: each function turns :class:`Reductions` into
the structure the in-memory estimator's core reads (a weighted
:class:`~accord.coefficients._pairs.UnitCounts`, a contingency table, coder marginals)
and calls that core, so both paths give the same numbers to rounding.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, plural, words
from accord.coefficients._alpha import AlphaResult, alpha_from_counts
from accord.coefficients._diagnostics import CoderLeftOut, CoderPairs
from accord.coefficients._gwet import GwetResult
from accord.coefficients._kappa import AgreementResult, KappaResult
from accord.coefficients._pairs import UnitCounts
from accord.distances import Distance, DistanceFunction, get_distance
from accord.engines._reductions import Reductions, reduce

__all__ = [
    "alpha",
    "bennett_s",
    "coder_left_out",
    "cohen_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "gwet_ac2",
    "left_out_counts",
    "multi_kappa",
    "pairwise_agreement",
    "percent_agreement",
    "scott_pi",
    "table_counts",
    "top_units",
]

DistanceArg = str | Distance | DistanceFunction


def _check(red: Any, min_coders: int = 2) -> Reductions:
    """Reductions as given, or computed from a frame or a path (:func:`accord.engines.reduce`)."""
    if not isinstance(red, Reductions):
        red = reduce(red)
    if red.n_coders < min_coders:
        raise AccordError(
            f"{red.source}: agreement needs at least {min_coders} coders with values; found {red.n_coders} "
            f"({', '.join(map(repr, red.coders.tolist()))})"
        )
    return red


def _with_source(red: Reductions, func: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return func(*args, **kwargs)
    except AccordError as exc:
        if not str(exc).startswith(red.source):
            raise AccordError(words(f"{red.source}: ", exc)) from None
        raise


def alpha(red: Reductions, *, distance: DistanceArg = "nominal") -> AlphaResult:
    """Krippendorff's alpha from the signature histogram (:func:`accord.alpha` on the same counts).

    The result's :meth:`~accord.AlphaResult.confidence_interval` resamples the
    signature histogram with multinomial weights (:mod:`accord.coefficients._signature_bootstrap`).
    """
    red = _check(red)
    return _with_source(red, alpha_from_counts, red.pairable(), red.values, get_distance(distance),
                        n_coders=red.n_coders)


def percent_agreement(red: Reductions) -> AgreementResult:
    """Share of agreeing pairs of values within units (:func:`accord.percent_agreement`)."""
    from accord.coefficients._kappa import _percent_from_counts

    red = _check(red)
    return _percent_from_counts(red.pairable(), red.values, n_coders=red.n_coders, source=red.source)


def bennett_s(
    red: Reductions, *, n_categories: int | None = None, distance: DistanceArg = "nominal"
) -> KappaResult:
    """Bennett, Alpert & Goldstein's S (:func:`accord.bennett_s`)."""
    from accord.coefficients._fleiss import _bennett_from_counts

    red = _check(red)
    return _bennett_from_counts(red.pairable(), red.values, get_distance(distance), n_categories=n_categories,
                                n_coders=red.n_coders, source=red.source)


def _complete(red: Reductions, name: str) -> int:
    m = red.signatures.m
    lo, hi = int(m.min()), int(m.max())
    if lo != hi:
        raise AccordError(
            f"{name} needs every unit coded by the same number of coders; some units have "
            f"{plural(lo, 'value')}, others "
            f"up to {hi}: use alpha, which handles missing values"
        )
    if lo < 2:
        raise AccordError(f"{name} needs at least two values per unit")
    return lo


def fleiss_kappa(red: Reductions, *, distance: DistanceArg = "nominal") -> KappaResult:
    """Fleiss' kappa / Siegel & Castellan's K (:func:`accord.fleiss_kappa`); complete data only."""
    from accord.coefficients._fleiss import _fleiss_from_counts

    red = _check(red)
    m = _complete(red, "fleiss_kappa")
    return _fleiss_from_counts(red.pairable(), red.values, get_distance(distance), m=m, n_coders=red.n_coders,
                               source=red.source)


def multi_kappa(red: Reductions, *, distance: DistanceArg = "nominal") -> KappaResult:
    """Artstein & Poesio's multi-kappa (:func:`accord.multi_kappa`); every coder codes every unit."""
    from accord.coefficients._fleiss import _multi_from_counts

    red = _check(red)
    m = _complete(red, "multi_kappa")
    if m != red.n_coders:
        raise AccordError(
            f"multi_kappa needs every coder to code every unit ({plural(red.n_coders, 'coder')}, "
            f"{plural(m, 'value')} per unit)"
        )
    return _multi_from_counts(red.pairable(), red.values, get_distance(distance), red.coder_values,
                              source=red.source)


def table_counts(table: np.ndarray, *, n_units: int) -> UnitCounts:
    """The signature histogram of the units two coders both coded, from their V x V contingency table.

    Cell (i, j) holding t units is the signature {i: 1, j: 1} ({i: 2} on the diagonal) with weight t.
    """
    ii, jj = np.nonzero(table)
    s = len(ii)
    diag = ii == jj
    rows = np.concatenate([np.arange(s), np.flatnonzero(~diag)])
    vals = np.concatenate([ii, jj[~diag]])
    counts = np.concatenate([np.where(diag, 2.0, 1.0), np.ones(int((~diag).sum()))])
    order = np.argsort(rows, kind="stable")
    return UnitCounts(
        unit=rows[order].astype(np.int64),
        value=vals[order].astype(np.int64),
        count=counts[order],
        unit_ids=np.arange(s, dtype=np.int64),
        m=np.full(s, 2.0),
        n_values=table.shape[0],
        n_units=n_units,
        n_unpairable_values=0,
        weight=table[ii, jj].astype(float),
    )


def _two(red: Reductions, coders: tuple[Any, Any] | None, name: str) -> tuple[int, int]:
    labels = red.coders.tolist()
    if coders is None:
        if red.n_coders != 2:
            head = f"{name} is for two coders; the data have {red.n_coders} ({', '.join(map(repr, labels))})"
            raise AccordError(f"{head}: pass coders=(a, b), or use fleiss_kappa / multi_kappa / alpha",
                              cli=f"{head}: use --coefficient fleiss, multi-kappa or alpha "
                                  "(or --layout wide --coders a,b)")
        return 0, 1
    if len(coders) != 2:
        raise AccordError(f"coders must name two coders; got {coders!r}")
    codes = []
    for c in coders:
        if c not in labels:
            raise AccordError(f"coders: {c!r} is not a coder in the data; coders are {labels!r}")
        codes.append(labels.index(c))
    if codes[0] == codes[1]:
        raise AccordError(f"coders must be two different coders; got {coders!r}")
    return codes[0], codes[1]


def _two_coder_counts(red: Reductions, a: int, b: int) -> tuple[UnitCounts, np.ndarray, int]:
    table = red.pair_table(a, b)
    both = int(table.sum())
    if both == 0:
        raise AccordError(f"{red.source}: no unit was coded by both coders")
    coded_a, coded_b = red.coder_values[a].sum(), red.coder_values[b].sum()
    dropped = int(round(coded_a + coded_b - 2 * both))
    return table_counts(table, n_units=red.n_units), table, dropped


def cohen_kappa(
    red: Reductions, *, distance: DistanceArg = "nominal", coders: tuple[Any, Any] | None = None
) -> KappaResult:
    """Cohen's (weighted) kappa with Fleiss, Cohen & Everitt's standard errors, from the coders' table."""
    from accord.coefficients._kappa import _cohen_from_counts

    red = _check(red)
    a, b = _two(red, coders, "cohen_kappa")
    uc, table, dropped = _two_coder_counts(red, a, b)
    return _cohen_from_counts(uc, table, red.values, get_distance(distance), dropped=dropped, source=red.source)


def scott_pi(
    red: Reductions, *, distance: DistanceArg = "nominal", coders: tuple[Any, Any] | None = None
) -> KappaResult:
    """Scott's pi for two coders, from their contingency table."""
    from accord.coefficients._fleiss import _scott_from_counts

    red = _check(red)
    a, b = _two(red, coders, "scott_pi")
    uc, _, dropped = _two_coder_counts(red, a, b)
    return _scott_from_counts(uc, red.values, get_distance(distance), dropped=dropped, source=red.source)


def _gwet(
    red: Reductions, *, distance: DistanceArg, weights: Any, categories: Sequence[Hashable] | None,
    population_size: float, name: str,
) -> GwetResult:
    from accord.coefficients._gwet import _category_codes, _gwet_distance, _gwet_from_counts

    red = _check(red)
    if not (isinstance(population_size, (int, float)) and population_size > 0):
        raise AccordError(f"population_size must be a positive number (or math.inf); got {population_size!r}")
    uc, values = red.signatures, red.values
    if categories is not None:
        remap, values = _category_codes(red.values, categories)
        uc = UnitCounts(unit=uc.unit, value=remap[uc.value], count=uc.count, unit_ids=uc.unit_ids, m=uc.m,
                        n_values=len(values), n_units=uc.n_units, n_unpairable_values=uc.n_unpairable_values,
                        weight=uc.weight)
    dist = _gwet_distance(name, distance, weights, values)
    if population_size < red.n_units:
        raise AccordError(f"population_size ({population_size}) is smaller than the number of rated subjects")
    return _gwet_from_counts(uc, values, dist, user_weights=weights is not None, population_size=population_size,
                             name=name, n_coders=red.n_coders, source=red.source)


def gwet_ac1(
    red: Reductions, *, categories: Sequence[Hashable] | None = None, population_size: float = math.inf
) -> GwetResult:
    """Gwet's AC1 (:func:`accord.gwet_ac1`) from the signature histogram of every rated subject."""
    return _gwet(red, distance="nominal", weights=None, categories=categories, population_size=population_size,
                 name="ac1")


def gwet_ac2(
    red: Reductions, *, distance: DistanceArg = "nominal", weights: Any = None,
    categories: Sequence[Hashable] | None = None, population_size: float = math.inf,
) -> GwetResult:
    """Gwet's AC2 (:func:`accord.gwet_ac2`) from the signature histogram of every rated subject."""
    return _gwet(red, distance=distance, weights=weights, categories=categories, population_size=population_size,
                 name="ac2")


def pairwise_agreement(red: Reductions, *, distance: DistanceArg = "nominal") -> CoderPairs:
    """Alpha and percent agreement of every pair of coders (:func:`accord.pairwise_agreement`), from pair tables."""
    red = _check(red)
    dist = get_distance(distance)
    c = red.n_coders
    a = np.full((c, c), np.nan)
    pa = np.full((c, c), np.nan)
    shared = np.zeros((c, c), dtype=np.int64)
    for (i, j), table in red.pair_tables().items():
        k = int(table.sum())
        shared[i, j] = shared[j, i] = k
        if k == 0:
            continue
        pa[i, j] = pa[j, i] = float(np.trace(table)) / k
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a[i, j] = a[j, i] = alpha_from_counts(table_counts(table, n_units=red.n_units), red.values, dist,
                                                  n_coders=2).alpha
    return CoderPairs(coders=red.coders, alpha=a, percent_agreement=pa, n_shared_units=shared, distance=dist.name)


def left_out_counts(red: Reductions, coder: int) -> UnitCounts:
    """The signature histogram of the data without coder *coder* (a code): each unit less that coder's value."""
    sig = red.signatures
    cc, vv, rows, n = red.coder_signature_table()
    mine = cc == coder
    rows, vv, n = rows[mine], vv[mine], n[mine]
    # units the coder did not code keep their signature
    kept = sig.unit_weight - np.bincount(rows, weights=n, minlength=sig.n_rows)
    # units the coder coded: their signature with one count of the coder's value removed
    k = np.bincount(sig.unit, minlength=sig.n_rows)
    start = np.concatenate([[0], np.cumsum(k)[:-1]])
    reps = k[rows]
    new_row = np.repeat(np.arange(len(rows)), reps)
    entry = np.repeat(start[rows], reps) + (np.arange(reps.sum()) - np.repeat(np.cumsum(reps) - reps, reps))
    value = sig.value[entry]
    count = sig.count[entry] - (value == vv[new_row])
    nz = count > 0
    s = sig.n_rows
    total_w = np.concatenate([kept, n])
    m = np.concatenate([sig.m, sig.m[rows] - 1.0])
    uc = UnitCounts(
        unit=np.concatenate([sig.unit, s + new_row[nz]]),
        value=np.concatenate([sig.value, value[nz]]),
        count=np.concatenate([sig.count, count[nz]]),
        unit_ids=np.arange(s + len(rows), dtype=np.int64),
        m=m,
        n_values=sig.n_values,
        n_units=sig.n_units,
        n_unpairable_values=0,
        weight=total_w,
    )
    present = (total_w > 0) & (m >= 1)
    uc = uc.select(present)
    return UnitCounts(unit=uc.unit, value=uc.value, count=uc.count, unit_ids=uc.unit_ids, m=uc.m,
                      n_values=uc.n_values, n_units=uc.n_pairable_units, n_unpairable_values=0, weight=uc.weight)


def coder_left_out(red: Reductions, *, distance: DistanceArg = "nominal") -> CoderLeftOut:
    """Alpha with each coder left out in turn (:func:`accord.coder_left_out`), from the coder-signature table."""
    red = _check(red, min_coders=3)
    dist = get_distance(distance)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = alpha(red, distance=dist).alpha
        out = np.full(red.n_coders, np.nan)
        for i in range(red.n_coders):
            uc = left_out_counts(red, i)
            pairable = uc.select(uc.m >= 2)
            if pairable.n_pairable_units:
                try:
                    out[i] = alpha_from_counts(pairable, red.values, dist, n_coders=red.n_coders - 1).alpha
                except AccordError:
                    pass
    return CoderLeftOut(coders=red.coders, alpha_all=full, alpha_without=out, change=out - full, distance=dist.name)


def top_units(red: Reductions, *, distance: DistanceArg = "nominal", n: int = 10) -> Any:
    """The *n* units with most observed disagreement (the head of :func:`accord.unit_disagreement`'s frame).

    The disagreement of a unit is a function of its signature, so the signatures are ranked locally and
    one query fetches up to *n* units of the top signatures (ties in any order).
    """
    import pandas as pd

    from accord.coefficients._pairs import unit_disagreement_sums

    red = _check(red)
    if not isinstance(n, int) or n < 1:
        raise AccordError(f"n must be a positive integer; got {n!r}")
    dist = get_distance(distance)
    sig = red.signatures
    pairable = sig.select(sig.m >= 2)
    if pairable.n_rows == 0:
        raise AccordError(f"{red.source}: no unit holds two or more values (no pairable unit)")
    prepared = dist.prepare(red.values, pairable.marginals())
    sums = unit_disagreement_sums(pairable, prepared)
    per_unit = sums / (pairable.m * (pairable.m - 1.0))
    contrib = sums / (pairable.m - 1.0)
    total = float(contrib @ pairable.unit_weight)
    order = np.argsort(-per_unit, kind="stable")
    k = int(np.searchsorted(np.cumsum(pairable.unit_weight[order]), n)) + 1
    chosen = order[:k]  # the fewest top signatures that hold n units
    rows = np.flatnonzero(sig.m >= 2)[chosen]  # their rows in the full signature table
    frame = red.unit_frame(rows, n)
    chosen_idx = chosen[frame["__rank"].to_numpy().astype(np.int64)]
    out = pd.DataFrame({
        "unit": frame["__unit"].to_numpy(),
        "n_values": pairable.m[chosen_idx].astype(np.int64),
        "disagreement": per_unit[chosen_idx],
        "share": contrib[chosen_idx] / total if total > 0 else np.zeros(len(chosen_idx)),
    })
    return out.sort_values("disagreement", ascending=False, kind="stable").head(n).reset_index(drop=True)
