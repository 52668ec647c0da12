"""The results of a significance study: frozen dataclasses, one per test.

:class:`SignificanceStudy` is what :func:`~accord.significance.significance_study`
returns; it holds a :class:`OneWayAnova` with the annotation as factor,
:class:`PearsonCorrelation` per peer, pooled and over the system means, one
:class:`AnnotationAnalysis` per annotation (system ANOVA, :class:`TukeyHSD`
with its :class:`TukeyGroup` rows, :class:`AnovaPower`), a
:class:`RankingComparison` of :class:`PairVerdict` and the :class:`Exclusion`
list.  ``Verdict`` names the three outcomes of a Tukey comparison.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError
from accord._shared.results import Result
from accord.significance._power import _check_fraction, _q_critical

Verdict = Literal["first better", "second better", "not significant"]


@dataclass(frozen=True)
class Exclusion(Result):
    """Something left out of a study, and why."""

    what: str
    reason: str


@dataclass(frozen=True)
class OneWayAnova(Result):
    """A one-way analysis of variance of scores by one factor.

    ``statistic`` and ``pvalue`` come from :func:`scipy.stats.f_oneway`; the
    sums of squares are kept so that the mean square within groups (the MSE)
    can serve Tukey's HSD and the power analysis.
    """

    factor: str
    levels: tuple[Hashable, ...]
    n_per_level: tuple[int, ...]
    means: tuple[float, ...]
    statistic: float
    pvalue: float
    df_between: int
    df_within: int
    ss_between: float
    ss_within: float
    mean_square_between: float
    mean_square_within: float
    reason: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """The ANOVA table, laid out like ``statsmodels``' ``anova_lm`` (rows: factor, Residual)."""
        return pd.DataFrame(
            {
                "df": [float(self.df_between), float(self.df_within)],
                "sum_sq": [self.ss_between, self.ss_within],
                "mean_sq": [self.mean_square_between, self.mean_square_within],
                "F": [self.statistic, np.nan],
                "PR(>F)": [self.pvalue, np.nan],
            },
            index=[self.factor, "Residual"],
        )


@dataclass(frozen=True)
class PearsonCorrelation(Result):
    """Pearson's r between two annotations' scores, with its p-value and Fisher interval.

    ``ci_low``/``ci_high`` are the Fisher z interval at ``confidence_level``;
    :meth:`confidence_interval` gives it at any level.
    """

    label: Hashable
    r: float
    pvalue: float
    n: int
    confidence_level: float
    ci_low: float
    ci_high: float
    reason: str | None = None
    _scipy: Any = None

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Fisher z confidence interval of r (:meth:`scipy.stats.PearsonRResult.confidence_interval`)."""
        _check_fraction(confidence_level, "confidence_level")
        return _fisher_interval(self._scipy, self.n, confidence_level)


@dataclass(frozen=True)
class TukeyGroup(Result):
    """One row of Passonneau (2010) Tables 7-9: peers significantly better than other peers.

    ``systems`` all beat exactly the systems in ``better_than``; ``mean`` and
    ``better_than_mean`` are the mean of the respective systems' mean scores.
    """

    systems: tuple[Hashable, ...]
    mean: float
    better_than: tuple[Hashable, ...]
    better_than_mean: float


@dataclass(frozen=True, eq=False)
class TukeyHSD(Result):
    """Tukey's honest significant difference over systems (Tukey-Kramer when unbalanced).

    ``mean_differences[i, j]`` is mean(i) - mean(j) and ``pvalues[i, j]`` its
    adjusted p-value (as :func:`scipy.stats.tukey_hsd` gives it: the
    studentized range survival function of |difference| / SE with
    SE = sqrt(MSE / 2 (1 / n_i + 1 / n_j))), in the order of ``systems``.
    ``hsd`` is q(1 - alpha; k, df) * sqrt(MSE / n) with n the harmonic mean of
    the group sizes (exact when balanced).
    """

    systems: tuple[Hashable, ...]
    means: tuple[float, ...]
    n_per_system: tuple[int, ...]
    mean_differences: np.ndarray
    pvalues: np.ndarray
    alpha: float
    q_critical: float
    hsd: float
    df_within: int
    mean_square_within: float
    groups: tuple[TukeyGroup, ...]
    _standard_errors: np.ndarray | None = None

    def significant(self) -> np.ndarray:
        """Boolean matrix: the pair (i, j) differs at ``alpha``."""
        out = self.pvalues < self.alpha
        np.fill_diagonal(out, False)
        return out

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Simultaneous intervals of the mean differences, as (low, high) matrices."""
        level = _check_fraction(confidence_level, "confidence_level")
        q = _q_critical(len(self.systems), self.df_within, level)
        half = q * self._standard_errors
        return self.mean_differences - half, self.mean_differences + half

    def to_frame(self) -> pd.DataFrame:
        """One row per unordered pair (i < j): means, difference, adjusted p-value, verdict."""
        i, j = np.triu_indices(len(self.systems), k=1)
        return pd.DataFrame(
            {
                "system_1": [self.systems[a] for a in i],
                "system_2": [self.systems[b] for b in j],
                "mean_1": np.asarray(self.means)[i],
                "mean_2": np.asarray(self.means)[j],
                "meandiff": self.mean_differences[i, j],
                "pvalue": self.pvalues[i, j],
                "reject": self.pvalues[i, j] < self.alpha,
            }
        )


@dataclass(frozen=True)
class AnovaPower(Result):
    """Power of the one-way ANOVA over systems (Passonneau 2010, Table 10).

    ``n_required`` is the number of observations (document sets) per system
    that reach ``target_power`` at ``sig_level``, from R's ``power.anova.test``
    convention (fractional, as R reports it); ``power_observed`` is the power
    at the ``n`` observed per system.
    """

    groups: int
    n: float
    between_var: float
    within_var: float
    sig_level: float
    target_power: float
    n_required: float
    power_observed: float
    reason: str | None = None


@dataclass(frozen=True)
class AnnotationAnalysis(Result):
    """The functional assessment of one annotation: system ANOVA, Tukey's HSD, power."""

    annotation: Hashable
    system_anova: OneWayAnova
    tukey: TukeyHSD | None
    power: AnovaPower | None


@dataclass(frozen=True)
class PairVerdict(Result):
    """One pair of systems compared under two annotations.

    A verdict is ``"first better"``, ``"second better"`` or
    ``"not significant"`` (Tukey's HSD at the study's alpha).
    """

    first: Hashable
    second: Hashable
    mean_difference: tuple[float, float]
    pvalue: tuple[float, float]
    verdict: tuple[Verdict, Verdict]
    order_differs: bool


@dataclass(frozen=True)
class RankingComparison(Result):
    """How far two annotations rank the systems alike (Passonneau 2010, section 5.2.1).

    ``n_differ`` counts the pairs whose Tukey verdict differs (significant in
    one annotation and not the other, or significant in both in opposite
    directions): the paper's "2 of 120 comparisons".  ``n_order_differs``
    counts the pairs whose mean difference changes sign, significant or not.
    """

    annotations: tuple[Hashable, Hashable]
    n_pairs: int
    n_differ: int
    n_significance_differs: int
    n_opposite_significant: int
    n_order_differs: int
    fraction_differ: float
    kendall_tau: float
    kendall_pvalue: float
    differing_pairs: tuple[PairVerdict, ...]


@dataclass(frozen=True)
class SignificanceStudy(Result):
    """A paradigmatic reliability study of scores from one or two annotations.

    With two annotations: ``annotation_anova`` (annotation as factor),
    ``peer_correlations`` (per system, over the document sets scored in both),
    ``pooled_correlation`` (all paired scores), ``system_mean_correlation`` (the
    systems' mean scores), ``mean_difference`` and ``mean_absolute_difference``
    (first minus second annotation over paired scores) and
    ``ranking_comparison``.  With one or two: ``analyses``, one
    :class:`AnnotationAnalysis` per annotation.  ``exclusions`` lists rows and
    systems left out and why.
    """

    columns: dict[str, str | None]
    annotations: tuple[Hashable, ...]
    systems: tuple[Hashable, ...]
    n_docsets: int
    n_scores: int
    alpha: float
    annotation_anova: OneWayAnova | None
    analyses: tuple[AnnotationAnalysis, ...]
    peer_correlations: tuple[PearsonCorrelation, ...]
    pooled_correlation: PearsonCorrelation | None
    system_mean_correlation: PearsonCorrelation | None
    mean_difference: float
    mean_absolute_difference: float
    ranking_comparison: RankingComparison | None
    exclusions: tuple[Exclusion, ...]

    def analysis(self, annotation: Hashable) -> AnnotationAnalysis:
        """The :class:`AnnotationAnalysis` of one annotation label."""
        for a in self.analyses:
            if a.annotation == annotation:
                return a
        raise AccordError(f"annotation must be one of {list(self.annotations)!r}; got {annotation!r}")

    def to_frame(self) -> pd.DataFrame:
        """One row per system: mean score per annotation, and r, p, CI between annotations."""
        data: dict[str, Any] = {"system": list(self.systems)}
        for a in self.analyses:
            data[f"mean[{a.annotation}]"] = list(a.system_anova.means)
        if self.peer_correlations:
            data["r"] = [c.r for c in self.peer_correlations]
            data["pvalue"] = [c.pvalue for c in self.peer_correlations]
            data["ci_low"] = [c.ci_low for c in self.peer_correlations]
            data["ci_high"] = [c.ci_high for c in self.peer_correlations]
            data["n_paired"] = [c.n for c in self.peer_correlations]
        return pd.DataFrame(data)


def _fisher_interval(res: Any, n: int, confidence_level: float) -> tuple[float, float]:
    if res is None or n <= 3 or not math.isfinite(float(res.statistic)):
        return (math.nan, math.nan)
    ci = res.confidence_interval(confidence_level=confidence_level)
    return (float(ci.low), float(ci.high))
