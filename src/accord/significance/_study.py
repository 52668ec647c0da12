"""The paradigmatic reliability study in one call: :func:`significance_study`.

It reads the long score table (:mod:`accord.significance._table`), runs the
tests of :mod:`accord.significance._procedures` per annotation and between the
two annotations, and gathers them in a
:class:`~accord.SignificanceStudy`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, warn_undefined
from accord.significance._power import _check_fraction
from accord.significance._procedures import _compare_rankings, _one_way_anova, _pearson, _study_power, _tukey
from accord.significance._results import AnnotationAnalysis, PearsonCorrelation, SignificanceStudy
from accord.significance._table import _read_table


def significance_study(
    scores: Any,
    *,
    system: str,
    docset: str,
    annotation: str | None,
    score: str,
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    power: float = 0.99,
    power_sig_level: float = 0.01,
) -> SignificanceStudy:
    """Significance tests of the scores two annotations give, beside their agreement.

    Parameters
    ----------
    scores : pandas.DataFrame or polars.DataFrame
        Long table, one row per (system, document set, annotation) with a
        numeric score.  Rows without a score are left out (see ``exclusions``).
    system, docset, annotation, score : str
        Column names.  ``annotation`` names a column with exactly two values
        (the two annotations compared), or is ``None`` for one annotation only
        (then only the per-annotation parts are computed).
    alpha : float
        Significance level of Tukey's HSD and of the verdicts compared between
        rankings.
    confidence_level : float
        Level of the Fisher intervals of the correlations (Table 5 uses 0.95).
    power, power_sig_level : float
        Target power and significance level of the sample-size computation
        (Table 10 uses 0.99 and 0.01).

    Returns
    -------
    SignificanceStudy
        The annotation ANOVA, per-peer, pooled and system-mean correlations,
        one :class:`AnnotationAnalysis` (system ANOVA, Tukey HSD, power) per
        annotation, the ranking comparison and the exclusions.

    Raises
    ------
    AccordError
        A column is missing, the score is not numeric, a (system, docset,
        annotation) cell has two scores, the annotation column does not hold
        exactly two values, or fewer than two systems are scored in both
        annotations.  A system scored in one annotation only is left out and
        listed in ``exclusions`` (with an :class:`~accord.AccordWarning`).

    Notes
    -----
    One-way ANOVA of scores y_ij in k groups: F = [SS_b / (k - 1)] / [SS_w / (N - k)]
    (:func:`scipy.stats.f_oneway`); MSE = SS_w / (N - k).  Pearson's r with
    the t-test p-value and the Fisher interval tanh(artanh r +- z / sqrt(n - 3))
    (:func:`scipy.stats.pearsonr`); per peer it pairs the document sets scored
    in both annotations.  Tukey's HSD (Tukey-Kramer when unbalanced,
    :func:`scipy.stats.tukey_hsd`); the printed HSD is
    q(1 - alpha; k, N - k) sqrt(MSE / n_h) with n_h the harmonic mean of the
    group sizes.  The groups of Tables 7-9 gather the systems that
    significantly beat the same set of systems.  Power: R's
    ``power.anova.test`` with between_var the variance of the system means
    (denominator k - 1) and within_var the MSE (:func:`anova_sample_size`).
    Two rankings differ on a pair when Tukey's verdict (first better, second
    better, not significant) differs.

    References
    ----------
    Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
    method for summary content evaluation. *Natural Language Engineering*
    16(2), sections 4.2 and 5, Tables 5-10. doi:10.1017/S1351324909990305

    Passonneau, R. J. (2006). Measuring agreement on set-valued items (MASI).
    *LREC 2006*, section 3.1 (paradigmatic reliability study).

    Examples
    --------
    Four peers of true quality 0.3-0.7 scored on 8 document sets, each score
    annotated twice with a small annotation noise:

    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> quality = {"p1": 0.3, "p2": 0.4, "p3": 0.6, "p4": 0.7}
    >>> true = {(p, d): q + rng.normal(0, 0.1) for p, q in quality.items() for d in range(8)}
    >>> df = pd.DataFrame([(p, d, a, t + rng.normal(0, 0.03)) for (p, d), t in true.items() for a in "AB"],
    ...                   columns=["peer", "docset", "annotator", "score"])
    >>> res = significance_study(df, system="peer", docset="docset", annotation="annotator", score="score")
    >>> round(res.annotation_anova.pvalue, 3)  # acceptance test: the annotations' means do not differ
    0.935
    >>> [round(c.r, 2) for c in res.peer_correlations]
    [0.93, 0.88, 0.75, 0.85]
    >>> res.analysis("A").tukey.groups[0].systems, res.analysis("A").tukey.groups[0].better_than
    (('p4', 'p3'), ('p1', 'p2'))
    >>> round(res.analysis("A").power.n_required, 2)  # document sets per peer for power .99 at .01
    3.33
    >>> res.ranking_comparison.n_differ, res.ranking_comparison.n_pairs
    (0, 6)
    """
    alpha = _check_fraction(alpha, "alpha")
    confidence_level = _check_fraction(confidence_level, "confidence_level")
    target = _check_fraction(power, "power")
    power_sig_level = _check_fraction(power_sig_level, "power_sig_level")
    if target <= power_sig_level:
        raise AccordError(f"power must exceed power_sig_level ({power_sig_level!r}); got {power!r}")
    for name, col in (("system", system), ("docset", docset), ("score", score)):
        if not isinstance(col, str):
            raise AccordError(f"{name} must be a column name (str); got {col!r}")
    if annotation is not None and not isinstance(annotation, str):
        raise AccordError(f"annotation must be a column name (str) or None; got {annotation!r}")
    t = _read_table(scores, system=system, docset=docset, annotation=annotation, score=score)

    k, n_docs = len(t.systems), len(t.docsets)
    analyses = []
    for a_code, a_label in enumerate(t.annotations):
        mask = t.ann == a_code
        anova = _one_way_anova(t.y[mask], t.sys[mask], t.systems, "system")
        tukey = pw = None
        if anova.reason is None:
            tukey = _tukey(t.y[mask], t.sys[mask], t.systems, anova, alpha)
            pw = _study_power(anova, target, power_sig_level)
        analyses.append(AnnotationAnalysis(a_label, anova, tukey, pw))

    annotation_anova = pooled = mean_corr = ranking = None
    peer_corrs: tuple[PearsonCorrelation, ...] = ()
    mean_diff = mean_abs = math.nan
    if len(t.annotations) == 2:
        annotation_anova = _one_way_anova(t.y, t.ann, t.annotations, "annotation")
        # paired matrix systems x docsets for each annotation (NaN where not scored)
        grid = np.full((2, k, n_docs), np.nan)
        grid[t.ann, t.sys, t.doc] = t.y
        paired = np.isfinite(grid).all(axis=0)
        first, second = grid[0], grid[1]
        undefined = []
        corrs = []
        for s in range(k):
            c = _pearson(first[s, paired[s]], second[s, paired[s]], t.systems[s], confidence_level)
            if c.reason is not None:
                undefined.append(f"{t.systems[s]!r} ({c.reason})")
            corrs.append(c)
        peer_corrs = tuple(corrs)
        if undefined:
            warn_undefined("Pearson's r for some systems", "; ".join(undefined[:5]))
        pooled = _pearson(first[paired], second[paired], "pooled", confidence_level)
        mean_corr = _pearson(
            np.asarray(analyses[0].system_anova.means),
            np.asarray(analyses[1].system_anova.means),
            "system means",
            confidence_level,
        )
        for c in (pooled, mean_corr):
            if c.reason is not None:
                warn_undefined(f"Pearson's r of the {c.label} scores", c.reason)
        if paired.any():
            d = first[paired] - second[paired]
            mean_diff, mean_abs = float(d.mean()), float(np.abs(d).mean())
        ta, tb = analyses[0].tukey, analyses[1].tukey
        if ta is not None and tb is not None:
            ranking = _compare_rankings(ta, tb, (t.annotations[0], t.annotations[1]))

    return SignificanceStudy(
        columns={"system": system, "docset": docset, "annotation": annotation, "score": score},
        annotations=t.annotations,
        systems=t.systems,
        n_docsets=n_docs,
        n_scores=int(t.y.size),
        alpha=alpha,
        annotation_anova=annotation_anova,
        analyses=tuple(analyses),
        peer_correlations=peer_corrs,
        pooled_correlation=pooled,
        system_mean_correlation=mean_corr,
        mean_difference=mean_diff,
        mean_absolute_difference=mean_abs,
        ranking_comparison=ranking,
        exclusions=t.exclusions,
    )
