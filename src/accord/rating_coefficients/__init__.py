"""Coefficients for numeric ratings (Likert scales, scores, clinical scales).

They read the units x coders matrix of numbers rather than pairs of values: intraclass correlations
(McGraw & Wong's ten forms, Shrout & Fleiss' six among them), Kendall's W and Lin's concordance
correlation coefficient.  Their classical forms need complete data: units some coder left out are
dropped, counted in ``n_units_dropped`` and said in an :class:`~accord.AccordWarning`.
"""

from __future__ import annotations

from accord.coefficients._concordance import CCCResult, KendallWResult, kendall_w, lin_ccc
from accord.coefficients._icc import ICC_FORMS, ICCResult, ICCTable, icc, icc_table

__all__ = ["ICC_FORMS", "CCCResult", "ICCResult", "ICCTable", "KendallWResult", "icc", "icc_table", "kendall_w",
           "lin_ccc"]
