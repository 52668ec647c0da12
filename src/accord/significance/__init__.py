"""Paradigmatic reliability: significance tests of scores beside agreement.

An agreement coefficient alone does not say whether annotations are reliable
enough for their use.  Passonneau (2006, section 3.1) calls the simultaneous
study of agreement and of significance tests on what the annotations are used
for a *paradigmatic reliability study*; Passonneau (2010, sections 4.2 and 5)
carries it out for pyramid scores: the scores that two independent annotations
give to the same peer systems on the same document sets are compared by

* a one-way ANOVA with the annotation as the factor (an *acceptance* test: a
  non-significant result means the score means do not differ),
* Pearson's correlation per peer between the two annotations' scores (a
  *rejection* test, Table 5),
* a one-way ANOVA with the peer system as the factor (Table 6) and Tukey's
  honest significant difference over systems, printed as the significantly
  distinct groups of peers (Tables 7-9), once per annotation,
* the comparison of the two rankings: of all pairs of systems, how many get a
  different verdict (section 5.2.1, "2 of 120 comparisons"),
* the power of the system ANOVA: how many document sets per peer a power and a
  significance level need (Table 10), with the convention of R's
  ``power.anova.test``.

Everything takes a long table of scores with one row per (system, document
set, annotation): :func:`significance_study` does the whole study in one call.
:func:`anova_power` and :func:`anova_sample_size` are the power computation on
its own, and :func:`tukey_hsd_value` the HSD threshold.

References
----------
Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
method for summary content evaluation. *Natural Language Engineering* 16(2),
107-131. doi:10.1017/S1351324909990305

Passonneau, R. J. (2006). Measuring agreement on set-valued items (MASI) for
semantic and pragmatic annotation. *Proceedings of LREC 2006*, section 3.1.
"""

from __future__ import annotations

from accord.significance._files import significance_file
from accord.significance._power import anova_power, anova_sample_size, tukey_hsd_value
from accord.significance._results import (
    AnnotationAnalysis,
    AnovaPower,
    Exclusion,
    OneWayAnova,
    PairVerdict,
    PearsonCorrelation,
    RankingComparison,
    SignificanceStudy,
    TukeyGroup,
    TukeyHSD,
)
from accord.significance._results import Verdict as Verdict
from accord.significance._study import significance_study

__all__ = [
    "AnnotationAnalysis",
    "AnovaPower",
    "Exclusion",
    "OneWayAnova",
    "PairVerdict",
    "PearsonCorrelation",
    "RankingComparison",
    "SignificanceStudy",
    "TukeyGroup",
    "TukeyHSD",
    "anova_power",
    "anova_sample_size",
    "significance_file",
    "significance_study",
    "tukey_hsd_value",
]
