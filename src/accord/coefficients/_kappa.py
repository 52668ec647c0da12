r"""The kappa family: one observed term, different chance terms.

All coefficients here have the form

.. math:: \kappa = 1 - \frac{D_o}{D_e} = \frac{A_o - A_e}{1 - A_e} \quad (\text{nominal}),

with the observed disagreement D_o counted by the pair engine exactly as for
alpha (pairs of values within units), and the expected disagreement D_e from a
model of chance (Artstein & Poesio 2008, sections 2-3):

========================  ============================================  ============
coefficient               chance model                                  coders
========================  ============================================  ============
percent agreement         none (A_o)                                    any
Bennett's S               uniform over q categories                     any
Scott's pi                one pooled distribution                       2
Fleiss' kappa / S&C K     one pooled distribution                       any, complete
Cohen's kappa (weighted)  one distribution per coder                    2
multi-kappa               per coder, averaged over coder pairs          any, complete
========================  ============================================  ============

With a distance other than nominal, D_o and D_e are weighted by delta (Cohen
1968 for two coders; Artstein & Poesio's weighted generalisation otherwise).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np

from accord._shared.errors import AccordError, plural, warn_undefined
from accord._shared.lazy import stats
from accord._shared.names import shown, shown_list
from accord._shared.results import Coefficient as CoefficientResult
from accord.coefficients._alpha import check_annotations
from accord.coefficients._pairs import UnitCounts, count_values, observed_sum
from accord.coefficients._weights import PreparedMatrix, check_weight_scores, on_categories, resolve_weights
from accord.data._annotations import Annotations, Layout, as_annotations
from accord.distances import Distance, DistanceFunction, get_distance
from accord.distances._scalar import _PreparedNominal

__all__ = ["AgreementResult", "KappaResult", "cohen_kappa", "percent_agreement", "weighted_kappa"]

Coefficient = Literal["cohen_kappa", "scott_pi", "fleiss_kappa", "multi_kappa", "bennett_s"]


@dataclass(frozen=True)
class AgreementResult(CoefficientResult):
    """Observed agreement without chance correction.

    Attributes
    ----------
    percent_agreement : float
        Share of agreeing pairs of values within units (pairs of coders on the
        same unit), 1 - D_o with the nominal distance.  For two coders, the
        share of units on which they agree.
    n_units_unanimous : int
        Pairable units on which every value is the same.
    n_pairable_units, n_pairable : int
    """

    _value_field: ClassVar[str] = "percent_agreement"
    _coefficient_id: ClassVar[str] = "percent_agreement"
    _aliases: ClassVar[Mapping[str, str]] = {"observed_agreement": "percent_agreement"}

    percent_agreement: float
    n_units_unanimous: int
    n_pairable_units: int
    n_pairable: int
    n_coders: int


@dataclass(frozen=True)
class KappaResult(CoefficientResult):
    """A chance-corrected agreement coefficient of the kappa family.

    Attributes
    ----------
    coefficient : str
        Which one (``"cohen_kappa"``, ``"scott_pi"``, ``"fleiss_kappa"``,
        ``"multi_kappa"``, ``"bennett_s"``).
    kappa : float
        The coefficient, 1 - D_o / D_e; NaN when undefined.
    observed_agreement, expected_agreement : float
        A_o = 1 - D_o and A_e = 1 - D_e, on the scale of the distance
        normalised to a maximum of 1 (plain agreements for nominal).
    observed_disagreement, expected_disagreement : float
        D_o and D_e as the distance measures them.
    standard_error : float
        Large-sample standard error where the literature gives one (Cohen's
        kappa: Fleiss, Cohen & Everitt 1969; Fleiss' kappa with
        ``missing="gwet"``: Gwet's (2014) linearised one, with a Student-t
        p-value and interval; otherwise NaN).
    standard_error_null : float
        Standard error under the null hypothesis kappa = 0 (Cohen's kappa:
        Fleiss, Cohen & Everitt 1969; Fleiss' kappa: Fleiss, Nee & Landis 1979).
    p_value : float
        Two-sided p-value of kappa = 0 from ``standard_error_null``.
    n_units : int
        Units used.
    n_units_dropped : int
        Units left out (not coded by both coders, for two-coder coefficients).
    """

    _value_field: ClassVar[str] = "kappa"

    coefficient: str
    kappa: float
    observed_agreement: float
    expected_agreement: float
    observed_disagreement: float
    expected_disagreement: float
    distance: str
    n_units: int
    n_coders: int
    n_units_dropped: int = 0
    standard_error: float = math.nan
    standard_error_null: float = math.nan
    p_value: float = math.nan
    undefined_reason: str | None = None
    #: degrees of freedom of the Student t behind ``p_value`` and the interval (Gwet's variance); None: normal
    _df: float | None = field(default=None, repr=False, compare=False)

    @property
    def z(self) -> float:
        """kappa over the standard error its p-value is tested with: ``standard_error_null`` where there is
        one (Cohen's, Fleiss'), else ``standard_error``; NaN without a test."""
        se = self.standard_error_null if math.isfinite(self.standard_error_null) else self.standard_error
        return self.kappa / se if math.isfinite(se) and se > 0 and math.isfinite(self.kappa) else math.nan

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation interval kappa +/- z * standard_error, cut to kappa's range [-1, 1].

        Only where a large-sample standard error is known (Cohen's kappa);
        raises :class:`~accord.AccordError` otherwise.  A true kappa lies in
        [-1, 1], so cutting the approximation there loses no coverage (as for
        Gwet's AC, whose interval Gwet (2014) caps at 1); an end at -1 or 1
        says the approximation reached past the range.
        """
        if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
            raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
        if math.isnan(self.standard_error):
            raise AccordError(
                f"{self.coefficient} has no large-sample standard error here; "
                "use alpha with a bootstrap interval"
            )
        if self._df is not None:  # Gwet's (2014, 5.3) variance: Student's t with n - 1 degrees of freedom
            z = stats.t.ppf(0.5 + confidence_level / 2, self._df)
        else:
            z = stats.norm.ppf(0.5 + confidence_level / 2)
        return (max(-1.0, self.kappa - z * self.standard_error), min(1.0, self.kappa + z * self.standard_error))


# ---------------------------------------------------------------- internals
def _observed(data: Annotations, dist: Distance) -> tuple[float, float, Any, Any]:
    return _observed_counts(count_values(data), data.values, dist, data.source)


def _observed_counts(
    uc: UnitCounts, values: np.ndarray, dist: Distance, source: str | None
) -> tuple[float, float, UnitCounts, Any]:
    """D_o from the engine's counts (units, or a weighted signature histogram)."""
    if uc.n_pairable_units == 0:
        raise AccordError(f"{source or 'data'}: no unit holds two or more values (no pairable unit)")
    marg = uc.marginals()
    prepared = dist.prepare(values, marg)
    d_o = observed_sum(uc, prepared) / uc.n
    return d_o, uc.n, uc, prepared


def _delta_max(prepared: Any, present: np.ndarray) -> float:
    if isinstance(prepared, (_PreparedNominal, PreparedMatrix)):  # nominal, or 1 - w from agreement weights
        return 1.0
    idx = np.flatnonzero(present)
    if len(idx) < 2:
        return 1.0
    ii, jj = np.meshgrid(idx, idx, indexing="ij")
    dmax = float(prepared.pairs(ii.ravel(), jj.ravel()).max())
    return dmax if dmax > 0 else 1.0


def _coder_marginals(data: Annotations) -> np.ndarray:
    v = len(data.values)
    flat = np.bincount(data.coder_index * v + data.value_index, minlength=data.n_coders * v)
    return flat.reshape(data.n_coders, v).astype(float)


def _finish(
    coefficient: str,
    d_o: float,
    d_e: float,
    dmax: float,
    dist: Distance,
    *,
    n_units: int,
    n_coders: int,
    **extra: Any,
) -> KappaResult:
    reason = None
    if d_e <= 0:
        reason = "no expected disagreement: all values are the same"
        warn_undefined(coefficient, reason, stacklevel=4)
        value = math.nan
    else:
        value = 1.0 - d_o / d_e
    return KappaResult(
        coefficient=coefficient,
        kappa=value,
        observed_agreement=1.0 - d_o / dmax,
        expected_agreement=1.0 - d_e / dmax,
        observed_disagreement=d_o,
        expected_disagreement=d_e,
        distance=dist.name,
        n_units=n_units,
        n_coders=n_coders,
        undefined_reason=reason,
        **extra,
    )


def _two_coders(data: Annotations, coders: tuple[Any, Any] | None, name: str) -> tuple[Annotations, int]:
    """Restrict to two coders and to the units both coded."""
    data = check_annotations(data)
    if coders is None:
        present = np.unique(data.coder_index)
        if len(present) != 2:
            head = (f"{name} is for two coders; the data have {len(present)} "
                    f"({shown_list(data.coders[present].tolist())})")
            raise AccordError(f"{head}: pass coders=(a, b), or use fleiss_kappa / multi_kappa / alpha",
                              cli=f"{head}: use --coefficient fleiss, multi-kappa or alpha "
                                  "(or --layout wide --coders a,b)")
        keep_codes = present
    else:
        if len(coders) != 2:
            raise AccordError(f"coders must name two coders; got {coders!r}")
        labels = data.coders.tolist()
        keep_codes = []
        for c in coders:
            if c not in labels:
                raise AccordError(f"coders: {c!r} is not a coder in the data; coders are {labels!r}")
            keep_codes.append(labels.index(c))
        if keep_codes[0] == keep_codes[1]:
            raise AccordError(f"coders must be two different coders; got {coders!r}")
    keep = np.zeros(data.n_coders, dtype=bool)
    keep[list(keep_codes)] = True
    sub = data.select_coders(keep)
    per_unit = np.bincount(sub.unit_index, minlength=sub.n_units)
    both = per_unit == 2
    coded = per_unit > 0
    mask = both[sub.unit_index]
    sub = Annotations(
        unit_index=sub.unit_index[mask],
        coder_index=sub.coder_index[mask],
        value_index=sub.value_index[mask],
        units=sub.units,
        coders=sub.coders,
        values=sub.values,
        n_missing=sub.n_missing,
        source=sub.source,
    )
    if not both.any():
        raise AccordError(f"{data.source or 'data'}: no unit was coded by both coders")
    return sub, int(coded.sum() - both.sum())


def _complete(data: Annotations, name: str) -> int:
    """Check that every coded unit has the same number of values; return it."""
    per_unit = np.bincount(data.unit_index, minlength=data.n_units)
    coded = per_unit[per_unit > 0]
    if len(coded) == 0:
        raise AccordError(f"{data.source or 'data'}: no values")
    if coded.min() != coded.max():
        u = int(np.flatnonzero(per_unit == coded.min())[0]) if coded.min() > 0 else 0
        raise AccordError(
            f"{name} needs every unit coded by the same number of coders; unit {shown(data.units[u])} has "
            f"{plural(per_unit[u], 'value')}, others up to {coded.max()}: use alpha, which handles missing values"
        )
    if coded.min() < 2:
        raise AccordError(f"{name} needs at least two values per unit")
    return int(coded.min())


def _distance_or_weights(
    data: Annotations, distance: Any, weights: Any, categories: Any, name: str, weight_scores: str = "values"
) -> tuple[Annotations, Distance]:
    """The data (over *categories* when given) and the distance: *distance*, or 1 - w for agreement *weights*."""
    check_weight_scores(weight_scores, weights)
    if weights is None or (isinstance(weights, str) and weights == "identity"):
        return on_categories(data, categories), get_distance(distance)
    if not (isinstance(distance, str) and distance == "nominal"):
        raise AccordError(f"{name}: pass either distance or weights, not both")
    return resolve_weights(data, weights, categories, scores=weight_scores)


# ------------------------------------------------------------------ public
def percent_agreement(data: Annotations, *, layout: Layout = "coders-by-units") -> AgreementResult:
    """Observed agreement: the share of agreeing pairs of values within units.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b"], ["a", "b", "b"]])
    >>> round(percent_agreement(d).percent_agreement, 4)
    0.6667
    """
    data = as_annotations(data, layout=layout)
    data = check_annotations(data)
    return _percent_from_counts(count_values(data), data.values, n_coders=data.n_coders, source=data.source)


def _percent_from_counts(uc: UnitCounts, values: np.ndarray, *, n_coders: int, source: str | None) -> AgreementResult:
    d_o, n, uc, _ = _observed_counts(uc, values, get_distance("nominal"), source)
    k = np.bincount(uc.unit, minlength=uc.n_rows)
    return AgreementResult(
        percent_agreement=1.0 - d_o,
        n_units_unanimous=int(round(float(uc.unit_weight[k == 1].sum()))),
        n_pairable_units=uc.n_pairable_units,
        n_pairable=int(n),
        n_coders=n_coders,
    )


def cohen_kappa(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction = "nominal",
    weights: Any = None,
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    coders: tuple[Any, Any] | None = None,
    layout: Layout = "coders-by-units",
) -> KappaResult:
    r"""Cohen's kappa for two coders, weighted by a distance when one is given.

    Parameters
    ----------
    data : Annotations or array-like
        Two coders (or more, with *coders* naming two).  Units not coded by
        both are left out and counted in ``n_units_dropped``.
    distance : str, Distance or callable
        ``"nominal"`` gives Cohen's (1960) kappa; any other distance gives the
        weighted kappa of Cohen (1968) with disagreement weights delta.
    weights : str or array-like, optional
        Instead of a distance, agreement weights w by name (``"linear"``,
        ``"quadratic"``, ``"ordinal"``, ``"radical"``, ``"ratio"``,
        ``"circular"``, ``"bipolar"``, as irrCAC defines them:
        :func:`accord.kappa_weights`) or as a q x q matrix; delta = 1 - w.
    categories : sequence, optional
        The categories in order, for named weights over text labels (and
        categories nobody chose, which change the weights of the others).
    weight_scores : {"values", "ranks"}, keyword-only
        What named weights measure distances on.  ``"values"`` (default, irrCAC's): numeric codes by
        their values (codes 1, 2, 5: 5 is three steps from 2), since the codes are the scale the user
        chose.  ``"ranks"``: the categories one step apart, those some rating uses (or *categories*,
        in their order), R irr's ``kappa2(weight="equal" | "squared")`` convention
        (:func:`accord.kappa_weights`).
    coders : (a, b), optional
        The two coders to compare.
    layout : {"coders-by-units", "units-by-coders"}, keyword-only
        Orientation of *data* when it is a matrix (see :func:`accord.as_annotations`);
        ``"units-by-coders"`` is irrCAC's and R's.

    Notes
    -----
    With p_ij the share of units that coder 1 put in value i and coder 2 in j,
    and p_i., p_.j the coders' marginal shares:

    .. math:: \kappa_w = 1 - \frac{\sum_{ij} p_{ij}\delta_{ij}}{\sum_{ij} p_{i.}p_{.j}\delta_{ij}}

    Standard errors (``standard_error``, ``standard_error_null``) are the
    large-sample ones of Fleiss, Cohen & Everitt (1969), with agreement weights
    w = 1 - delta / max(delta).

    Weights may have a direction (Cohen 1968): a non-symmetric matrix w[k, l] is
    the credit when the *first* coder says k and the second l, in observed and
    chance agreement alike (as irrCAC's ``table.CAC.cohen`` reads it).  The first
    coder is ``coders[0]`` when *coders* is given, else the first of the data's
    coder table (the rows of :meth:`Annotations.from_confusion`).  Coefficients
    of any number of coders have no first coder: given such a matrix they use
    its symmetric part (w + w^T) / 2, as irrCAC's raw-data functions do.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. EPM 20, 37-46.
    Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213-220.
    Fleiss, J. L., Cohen, J., & Everitt, B. S. (1969). Large sample standard errors
    of kappa and weighted kappa. Psychological Bulletin 72(5), 323-327.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"]])
    >>> round(cohen_kappa(d).kappa, 4)
    0.5
    >>> r = Annotations.from_matrix([["lo", "mid", "hi", "hi"], ["lo", "hi", "hi", "mid"]])
    >>> round(cohen_kappa(r, weights="linear", categories=["lo", "mid", "hi"]).kappa, 4)
    0.4286
    """
    data = as_annotations(data, layout=layout)
    sub, dropped = _two_coders(data, coders, "cohen_kappa")
    # the categories and weights are those of the two coders compared, not of every coder in the data
    sub, dist = _distance_or_weights(sub, distance, weights, categories, "cohen_kappa", weight_scores)
    return _cohen_from_counts(count_values(sub), _pair_table(sub, _first_second(sub, coders)), sub.values, dist,
                              dropped=dropped, source=sub.source)


def _first_second(sub: Annotations, coders: tuple[Any, Any] | None) -> np.ndarray:
    """The codes of the first coder (rows of the table, rows of directional weights) and the second: the
    order of *coders* when given, else the data's coder table's."""
    if coders is not None:
        labels = sub.coders.tolist()
        return np.array([labels.index(c) for c in coders], dtype=np.int64)
    return np.flatnonzero(np.bincount(sub.coder_index, minlength=sub.n_coders))


def _directional(prepared: Any) -> np.ndarray | None:
    """The disagreement matrix of non-symmetric agreement weights (Cohen 1968), else None."""
    if isinstance(prepared, PreparedMatrix):
        delta = prepared.matrix()
        if not np.allclose(delta, delta.T, rtol=0.0, atol=1e-12):
            return delta
    return None


def _cohen_from_counts(
    uc: UnitCounts, table: np.ndarray, values: np.ndarray, dist: Distance, *, dropped: int, source: str | None
) -> KappaResult:
    """Cohen's kappa from the counts of the units both coders coded and their V x V contingency table."""
    d_o, n, uc, prepared = _observed_counts(uc, values, dist, source)
    r1, r2 = table.sum(axis=1), table.sum(axis=0)
    p1, p2 = r1 / r1.sum(), r2 / r2.sum()
    delta = _directional(prepared)
    if delta is not None:  # weights with a direction: w[k, l] is the first coder's k against the second's l
        d_o = float((table * delta).sum() / table.sum())
    d_e = prepared.cross_sum(p1, p2)
    present = (p1 + p2) > 0
    dmax = _delta_max(prepared, present)
    n_units = uc.n_pairable_units
    res = _finish("cohen_kappa", d_o, d_e, dmax, dist, n_units=n_units, n_coders=2, n_units_dropped=dropped)
    if math.isnan(res.kappa):
        return res
    se, se0 = _fce_standard_errors(table, prepared, present, dmax, res.kappa)
    p_value = float(2 * stats.norm.sf(abs(res.kappa) / se0)) if se0 > 0 else math.nan
    return _replace(res, standard_error=se, standard_error_null=se0, p_value=p_value)


def _pair_table(sub: Annotations, rows: np.ndarray) -> np.ndarray:
    """V x V table of the units both coders coded: coder rows[0]'s value by coder rows[1]'s value."""
    v = len(sub.values)
    first = sub.coder_index == rows[0]
    second = sub.coder_index == rows[1]
    u1, v1 = sub.unit_index[first], sub.value_index[first]
    u2, v2 = sub.unit_index[second], sub.value_index[second]
    o1, o2 = np.argsort(u1, kind="stable"), np.argsort(u2, kind="stable")
    flat = np.bincount(v1[o1] * v + v2[o2], minlength=v * v)
    return flat.reshape(v, v).astype(float)


def _replace(res: KappaResult, **changes: Any) -> KappaResult:
    import dataclasses

    return dataclasses.replace(res, **changes)


def _fce_standard_errors(
    full_table: np.ndarray, prepared: Any, present: np.ndarray, dmax: float, kappa: float
) -> tuple[float, float]:
    """Fleiss, Cohen & Everitt (1969) standard errors of (weighted) kappa, from the V x V contingency table."""
    cats = np.flatnonzero(present)
    k = len(cats)
    table = full_table[np.ix_(cats, cats)]
    n = table.sum()
    p = table / n
    pr, pc = p.sum(axis=1), p.sum(axis=0)
    ii, jj = np.meshgrid(cats, cats, indexing="ij")
    w = 1.0 - prepared.pairs(ii.ravel(), jj.ravel()).reshape(k, k) / dmax
    pe = float(pr @ w @ pc)
    wr = w @ pc  # mean weight of row category i over coder 2's marginals
    wc = pr @ w  # mean weight of column category j over coder 1's marginals
    term = (w - (wr[:, None] + wc[None, :]) * (1 - kappa)) ** 2
    var = (float((p * term).sum()) - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2)
    term0 = (w - (wr[:, None] + wc[None, :])) ** 2
    var0 = (float((np.outer(pr, pc) * term0).sum()) - pe**2) / (n * (1 - pe) ** 2)
    return math.sqrt(max(var, 0.0)), math.sqrt(max(var0, 0.0))


def weighted_kappa(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction | None = None,
    weights: Any = None,
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    coders: tuple[Any, Any] | None = None,
    layout: Layout = "coders-by-units",
) -> KappaResult:
    """Cohen's (1968) weighted kappa with disagreement weights from *distance*, or agreement *weights*.

    Same as :func:`cohen_kappa` with a distance or weights; one of them is required here.

    Examples
    --------
    >>> d = Annotations.from_matrix([[1, 2, 3, 3], [1, 3, 3, 2]])
    >>> round(weighted_kappa(d, distance="interval").kappa, 4)
    0.6364
    >>> round(weighted_kappa(d, weights="quadratic").kappa, 4)
    0.6364
    """
    if (distance is None) == (weights is None):
        raise AccordError("weighted_kappa needs a distance or weights (one of them)")
    data = as_annotations(data, layout=layout)
    return cohen_kappa(data, distance=distance if distance is not None else "nominal", weights=weights,
                       categories=categories, weight_scores=weight_scores, coders=coders)
