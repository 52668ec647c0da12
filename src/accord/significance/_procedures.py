"""The tests of a significance study: one-way ANOVA, Tukey's HSD, Pearson's r, rankings.

Each works on the integer-coded scores of :mod:`accord.significance._table` and
returns a result of :mod:`accord.significance._results`: the one-way ANOVA by a
factor, Tukey-Kramer comparisons and the significantly distinct groups of
Passonneau (2010, Tables 7-9), the power of the system ANOVA, Pearson's r with
its Fisher interval, and the comparison of two annotations' rankings.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.lazy import stats
from accord.significance._power import _power, _q_critical, _solve_n
from accord.significance._results import (
    AnovaPower,
    OneWayAnova,
    PairVerdict,
    PearsonCorrelation,
    RankingComparison,
    TukeyGroup,
    TukeyHSD,
    Verdict,
    _fisher_interval,
)


def _split(y: np.ndarray, codes: np.ndarray, k: int) -> list[np.ndarray]:
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=k))[:-1]
    return np.split(y[order], bounds)


def _one_way_anova(y: np.ndarray, codes: np.ndarray, levels: tuple[Hashable, ...], factor: str) -> OneWayAnova:
    k = len(levels)
    n_i = np.bincount(codes, minlength=k)
    sums = np.bincount(codes, weights=y, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / n_i
    grand = y.mean()
    ss_between = float(np.sum(n_i * (means - grand) ** 2))
    ss_within = float(np.sum((y - means[codes]) ** 2))
    df_b, df_w = k - 1, int(y.size - k)
    ms_b = ss_between / df_b
    ms_w = ss_within / df_w if df_w > 0 else math.nan
    reason = None
    if df_w < 1:
        reason = f"no residual degrees of freedom: {y.size} scores in {k} {factor} groups"
    elif ss_within <= 64 * np.finfo(float).eps * float(np.sum(y * y)):
        reason = f"scores are constant within every {factor} group (no within-group variance)"
    if reason is not None:
        warn_undefined(f"the ANOVA with {factor} as factor", reason)
        f_stat = p = math.nan
    else:
        res = stats.f_oneway(*_split(y, codes, k))
        f_stat, p = float(res.statistic), float(res.pvalue)
    return OneWayAnova(
        factor=factor,
        levels=levels,
        n_per_level=tuple(int(v) for v in n_i),
        means=tuple(float(v) for v in means),
        statistic=f_stat,
        pvalue=p,
        df_between=df_b,
        df_within=df_w,
        ss_between=ss_between,
        ss_within=ss_within,
        mean_square_between=ms_b,
        mean_square_within=ms_w,
        reason=reason,
    )


def _tukey_groups(systems: tuple[Hashable, ...], means: np.ndarray, significant: np.ndarray) -> tuple[TukeyGroup, ...]:
    """Group systems by the set of systems they significantly beat (Tables 7-9)."""
    beats = significant & (means[:, None] > means[None, :])
    by_set: dict[tuple[int, ...], list[int]] = {}
    for i in np.argsort(-means, kind="stable"):
        won = tuple(int(j) for j in np.flatnonzero(beats[i])[np.argsort(-means[beats[i]], kind="stable")])
        if won:
            by_set.setdefault(won, []).append(int(i))
    rows = [
        TukeyGroup(
            systems=tuple(systems[i] for i in left),
            mean=float(means[left].mean()),
            better_than=tuple(systems[j] for j in right),
            better_than_mean=float(means[list(right)].mean()),
        )
        for right, left in by_set.items()
    ]
    rows.sort(key=lambda g: (-g.mean, -len(g.better_than)))
    return tuple(rows)


def _tukey(
    y: np.ndarray, codes: np.ndarray, systems: tuple[Hashable, ...], anova: OneWayAnova, alpha: float
) -> TukeyHSD:
    """Tukey-Kramer comparisons, as :func:`scipy.stats.tukey_hsd` computes them.

    The studentized range survival function is evaluated once per unordered
    pair (it is the costly part: a numerical integral per value), not on the
    full k x k matrix as ``tukey_hsd`` does; the tests check the two agree.
    """
    k = len(systems)
    means = np.asarray(anova.means)
    n_i = np.asarray(anova.n_per_level, dtype=float)
    mse, df = anova.mean_square_within, anova.df_within
    diffs = means[:, None] - means[None, :]
    se = np.sqrt(mse / 2.0 * (1.0 / n_i[:, None] + 1.0 / n_i[None, :]))
    i, j = np.triu_indices(k, k=1)
    pvalues = np.ones((k, k))
    upper = stats.studentized_range.sf(np.abs(diffs[i, j]) / se[i, j], k, df)
    pvalues[i, j] = pvalues[j, i] = upper
    n_h = float(stats.hmean(n_i))
    q = _q_critical(k, df, 1.0 - alpha)
    hsd = q * math.sqrt(mse / n_h)
    sig = pvalues < alpha
    np.fill_diagonal(sig, False)
    return TukeyHSD(
        systems=systems,
        means=anova.means,
        n_per_system=anova.n_per_level,
        mean_differences=diffs,
        pvalues=pvalues,
        alpha=alpha,
        q_critical=q,
        hsd=hsd,
        df_within=df,
        mean_square_within=mse,
        groups=_tukey_groups(systems, means, sig),
        _standard_errors=se,
    )


def _study_power(anova: OneWayAnova, target: float, sig_level: float) -> AnovaPower:
    k = len(anova.levels)
    n_h = float(stats.hmean(np.asarray(anova.n_per_level, dtype=float)))
    between = float(np.var(np.asarray(anova.means), ddof=1))
    within = anova.mean_square_within
    reason = None
    n_req = p_obs = math.nan
    if anova.reason is not None:
        reason = anova.reason
    elif between <= 64 * np.finfo(float).eps * float(np.max(np.square(anova.means))):
        reason = "the system means are all equal (no between-group variance)"
    else:
        p_obs = _power(k, n_h, between / within, sig_level) if n_h > 1 else math.nan
        try:
            n_req = _solve_n(k, between / within, target, sig_level)
        except AccordError as exc:
            reason = str(exc)
    if reason is not None:
        warn_undefined("the sample size for the ANOVA power", reason)
    return AnovaPower(
        groups=k,
        n=n_h,
        between_var=between,
        within_var=within,
        sig_level=sig_level,
        target_power=target,
        n_required=n_req,
        power_observed=p_obs,
        reason=reason,
    )


def _pearson(x: np.ndarray, y: np.ndarray, label: Hashable, confidence_level: float) -> PearsonCorrelation:
    n = int(x.size)
    reason = None
    if n < 3:
        reason = f"{n} paired scores; at least 3 are needed"
    elif np.ptp(x) == 0 or np.ptp(y) == 0:
        reason = "the scores of one annotation are constant"
    if reason is not None:
        return PearsonCorrelation(label, math.nan, math.nan, n, confidence_level, math.nan, math.nan, reason)
    res = stats.pearsonr(x, y)
    low, high = _fisher_interval(res, n, confidence_level)
    return PearsonCorrelation(label, float(res.statistic), float(res.pvalue), n, confidence_level, low, high, None, res)


def _verdict(diff: float, p: float, alpha: float) -> Verdict:
    if p < alpha:
        return "first better" if diff > 0 else "second better"
    return "not significant"


def _compare_rankings(a: TukeyHSD, b: TukeyHSD, annotations: tuple[Hashable, Hashable]) -> RankingComparison:
    k = len(a.systems)
    i, j = np.triu_indices(k, k=1)
    da, db = a.mean_differences[i, j], b.mean_differences[i, j]
    pa, pb = a.pvalues[i, j], b.pvalues[i, j]
    sa, sb = pa < a.alpha, pb < b.alpha
    va = np.where(sa, np.sign(da), 0)
    vb = np.where(sb, np.sign(db), 0)
    differ = va != vb
    order = np.sign(da) != np.sign(db)
    tau = stats.kendalltau(np.asarray(a.means), np.asarray(b.means))
    pairs = tuple(
        PairVerdict(
            first=a.systems[i[m]],
            second=a.systems[j[m]],
            mean_difference=(float(da[m]), float(db[m])),
            pvalue=(float(pa[m]), float(pb[m])),
            verdict=(_verdict(da[m], pa[m], a.alpha), _verdict(db[m], pb[m], b.alpha)),
            order_differs=bool(order[m]),
        )
        for m in np.flatnonzero(differ)
    )
    n_pairs = int(i.size)
    return RankingComparison(
        annotations=annotations,
        n_pairs=n_pairs,
        n_differ=int(differ.sum()),
        n_significance_differs=int((sa != sb).sum()),
        n_opposite_significant=int((sa & sb & (va != vb)).sum()),
        n_order_differs=int(order.sum()),
        fraction_differ=float(differ.sum() / n_pairs),
        kendall_tau=float(tau.statistic),
        kendall_pvalue=float(tau.pvalue),
        differing_pairs=pairs,
    )
