"""What a person reads: the names of coefficients, scores and columns as the literature writes them.

One table for every place accord speaks to a person (the report's pages, the command line's tables,
notes and warnings), so that a coefficient has one name wherever it is shown.  The keys are accord's
own names: the ``--coefficient`` names of ``accord agree`` (:data:`COEFFICIENTS`), the names the
estimators give themselves in results and warnings (:data:`ESTIMATORS`, mostly the Python functions'),
the coreference scores' attributes (:data:`COREF_METRICS`), the multi-label item classes
(:data:`ITEM_CLASSES`) and the columns of the diagnostics' frames (:data:`COLUMNS`).  JSON output keeps
the keys; only what is printed for a reader uses the names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["COEFFICIENTS", "COLUMNS", "CONLL", "COREF_METRICS", "ESTIMATORS", "ITEM_CLASSES", "coefficient",
           "column", "shown", "shown_list", "spoken"]

#: ``accord agree --coefficient NAME`` -> the coefficient's name (Gwet's is AC1 or AC2 by its result).
COEFFICIENTS = {
    "alpha": "Krippendorff's alpha", "percent": "percent agreement", "cohen": "Cohen's kappa",
    "scott": "Scott's pi", "fleiss": "Fleiss' kappa (S&C K)", "multi-kappa": "multi-kappa", "bennett": "Bennett's S",
    "gwet": "Gwet's AC", "conger": "Conger's kappa", "brennan-prediger": "Brennan-Prediger",
    "light": "Light's kappa", "icc": "intraclass correlation", "kendall-w": "Kendall's W", "ccc": "Lin's CCC",
}

#: the names estimators give themselves in warnings and results -> the names a reader knows them by
ESTIMATORS = {
    "cohen_kappa": "Cohen's kappa", "scott_pi": "Scott's pi", "fleiss_kappa": "Fleiss' kappa",
    "multi_kappa": "multi-kappa", "bennett_s": "Bennett's S", "ac1": "Gwet's AC1", "ac2": "Gwet's AC2",
    "gwet_ac1": "Gwet's AC1", "gwet_ac2": "Gwet's AC2", "weighted_kappa": "weighted kappa",
    "siegel_castellan_k": "Siegel & Castellan's K", "conger_kappa": "Conger's kappa",
    "brennan_prediger": "Brennan-Prediger", "light_kappa": "Light's kappa", "kendall_w": "Kendall's W",
    "lin_ccc": "Lin's CCC", "percent_agreement": "percent agreement",
    "max_disagreements": "the largest number of disagreements",
}

#: the coreference scores' attributes (:class:`accord.CorefScores`) -> their names in the literature
COREF_METRICS = {"muc": "MUC", "b_cubed": "B³", "ceaf_m": "CEAF-m", "ceaf_e": "CEAF-e", "blanc": "BLANC",
                 "lea": "LEA"}
#: the CoNLL-2012 average, which has no recall or precision of its own
CONLL = "CoNLL F1 (mean of MUC, B³, CEAF-e)"

#: the classes of :func:`accord.classify_items` (Rosenberg & Binkowski 2004), the paper's four in its order
ITEM_CLASSES = {"constant_high": "constant high", "constant_low": "constant low", "better_at_p1": "better at p = 1",
                "better_at_p05": "better at p = 0.5", "unpaired": "labelled by one annotator"}

#: columns of the diagnostics' frames (``to_frame()``) -> a table's header; any other loses its underscores
COLUMNS = {"n_values": "values", "coder_a": "coder a", "coder_b": "coder b", "percent_agreement": "percent agreement",
           "n_shared_units": "shared units", "alpha_without": "alpha without", "n_units": "units"}

_ESTIMATOR = re.compile(r"\b(" + "|".join(map(re.escape, ESTIMATORS)) + r")\b")
# a quoted name from the user's data ('ac1', a coder or a column) is theirs and kept: a quote that opens
# after no letter (so not the apostrophe of Cohen's) and closes before none
_QUOTED = re.compile(r"(?<![\w'])'[^'\n]*'(?!\w)")


def coefficient(name: str, result: object = None) -> str:
    """The name of ``accord agree``'s coefficient *name*, Gwet's as AC1 or AC2 by its *result*.

    Examples
    --------
    >>> coefficient("cohen"), coefficient("fleiss"), coefficient("unknown-one")
    ("Cohen's kappa", "Fleiss' kappa (S&C K)", 'unknown-one')
    """
    if name == "gwet" and result is not None:
        return "Gwet's AC1" if getattr(result, "coefficient", "") == "ac1" else "Gwet's AC2"
    if name == "ccc" and getattr(result, "n_coders", 2) > 2:
        return "overall CCC"
    return COEFFICIENTS.get(name, name)


def column(name: str) -> str:
    """A frame's column as a table's header.

    Examples
    --------
    >>> column("n_shared_units"), column("disagreement"), column("some_thing")
    ('shared units', 'disagreement', 'some thing')
    """
    return COLUMNS.get(name, name.replace("_", " "))


def spoken(text: object) -> str:
    """*text* (a warning, a note) with the estimators' own names (``cohen_kappa``) as a reader knows them;
    a quoted name (``'ac1'``, a column or coder of the user's) is left as it is.

    Examples
    --------
    >>> spoken("cohen_kappa is undefined: no expected disagreement")
    "Cohen's kappa is undefined: no expected disagreement"
    >>> spoken("column 'percent_agreement' of kendall_w")
    "column 'percent_agreement' of Kendall's W"
    """
    text = str(text)
    out, at = [], 0
    for m in _QUOTED.finditer(text):
        out += [_ESTIMATOR.sub(lambda n: ESTIMATORS[n.group(1)], text[at:m.start()]), m.group(0)]
        at = m.end()
    out.append(_ESTIMATOR.sub(lambda n: ESTIMATORS[n.group(1)], text[at:]))
    return "".join(out)


def shown(value: Any) -> str:
    """A value, label or name of the user's as a message shows it: text in quotes, numbers as numbers (a whole
    float without ``.0``), sets in braces; never a Python or numpy repr (``np.float64(4.0)``, ``frozenset({...})``).

    Examples
    --------
    >>> import numpy as np
    >>> shown(np.float64(4.0)), shown(2.5), shown(np.int64(3)), shown("pos"), shown(np.str_("a b"))
    ('4', '2.5', '3', "'pos'", "'a b'")
    >>> shown(frozenset({"b", "a"})), shown(frozenset()), shown(None), shown(True), shown(float("nan"))
    ("{'a', 'b'}", '{}', 'none', 'true', 'NaN')
    """
    if hasattr(value, "item") and not isinstance(value, (str, bytes)) and getattr(value, "ndim", 1) == 0:
        value = value.item()  # a numpy scalar: the Python value it holds
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "infinity" if value > 0 else "-infinity"
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    if isinstance(value, (frozenset, set)):
        return "{" + ", ".join(sorted(shown(v) for v in value)) + "}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(shown(v) for v in value) + ")"
    return str(value)


def shown_list(values: Iterable[Any], limit: int = 10) -> str:
    """Values as :func:`shown` writes them, comma-separated, the first *limit* and how many in all.

    Examples
    --------
    >>> shown_list([1.0, "a", frozenset({"x"})])
    "1, 'a', {'x'}"
    >>> shown_list(range(12), limit=3)
    '0, 1, 2, ... (12 in all)'
    """
    items = list(values)
    out = ", ".join(shown(v) for v in items[:limit])
    return out + (f", ... ({len(items)} in all)" if len(items) > limit else "")
