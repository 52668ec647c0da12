"""``accord agree``'s coefficients by their authors' names, for ratings, weighted, and from a confusion matrix.

Kept apart from :mod:`accord.cli._agree` so that command stays about reading and printing: this module
computes the coefficients a run asks for (with ``--weights`` and ``--categories``), says which ones
``--coefficient all`` leaves out and why, and prints the ones whose shape is not the kappa family's
(the ten ICC forms, Kendall's W with its test, intervals).
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.names import COEFFICIENTS
from accord._shared.names import coefficient as coefficient_name
from accord.cli._common import console, said
from accord.coefficients._registry import WEIGHTED, compute_chosen

__all__ = ["LABELS", "check_icc_form", "compute_named", "interval_of", "label", "load_confusion", "print_extra",
           "scale_categories", "with_intervals"]

LABELS = COEFFICIENTS


def label(name: str, res: Any) -> str:
    """The row label of a result in ``accord agree``'s table."""
    return coefficient_name(name, res)


def load_confusion(file: Path) -> tuple[Any, list[Any]]:
    """The two coders' annotations of a confusion-matrix CSV, and its categories in the table's order."""
    from accord.data._confusion import from_confusion, read_confusion
    from accord.data._confusion_records import _label

    frame = read_confusion(file)
    data = from_confusion(frame, source=str(file))
    return data, [_label(x) for x in frame.index]


def scale_categories(text: str | None, data: Any) -> int | None:
    """``--categories``: the number of categories of the scale, or the categories themselves (comma-separated
    labels, every value of the data among them): q for bennett and brennan-prediger.

    Examples
    --------
    >>> import accord
    >>> d = accord.as_annotations([["a", "b"], ["a", "a"]])
    >>> scale_categories("5", d), scale_categories("a, b, c", d)
    (5, 3)
    """
    if text is None:
        return None
    from accord.cli._options import order_items, parse_order

    if text.strip().isdigit():
        return int(text.strip())
    items = order_items(parse_order(text) or [], data.values)
    def key(x: Any) -> Any:  # 2 and 2.0 are one category
        return float(x) if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) else str(x)

    if not items or len({key(x) for x in items}) != len(items):
        raise AccordError(f"--categories takes a number or the categories once each, comma-separated; got {text!r}")
    named = {key(x) for x in items}
    missing = [v for v in data.values[np.unique(data.value_index)].tolist() if key(v) not in named]
    if missing:
        shown = f"{missing[0]:g}" if isinstance(missing[0], float) else str(missing[0])
        raise AccordError(f"--categories: the data hold the value {shown}, which is not among the categories "
                          f"{', '.join(map(str, items))}")
    return len(items)


def compute_named(
    data: Any, coefficient: str, distance: str, *, weights: str | None, n_categories: int | None,
    categories: list[Any] | None, weight_scores: str = "values", icc_form: str | None = None,
) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """The results, what ``all`` left out (name -> why) and the warnings' messages."""
    if weights is not None and coefficient != "all" and coefficient not in WEIGHTED:
        raise AccordError(f"--weights apply to {', '.join(WEIGHTED)}; not to --coefficient {coefficient}")
    if weight_scores != "values" and weights is None:
        raise AccordError(f"--weight-scores {weight_scores} says how named weights space the categories: "
                          "pass it with --weights (linear, quadratic...)")
    if icc_form is not None:
        icc_form = check_icc_form(icc_form, coefficient)
    if n_categories is not None and coefficient not in ("all", "bennett", "brennan-prediger"):
        raise AccordError("--categories is the number of categories (or the categories) of bennett and "
                          f"brennan-prediger; not of --coefficient {coefficient}")
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        # one rule and one dispatch for this command and the agreement report (accord.coefficients._registry)
        results, left = compute_chosen(data, coefficient, distance, weights=weights, n_categories=n_categories,
                                       categories=categories, weight_scores=weight_scores, icc_form=icc_form)
        notes += [said(x.message) for x in caught if issubclass(x.category, AccordWarning)]
    if weights is not None and coefficient == "all":
        plain = [n for n in results if n not in WEIGHTED]
        if plain:
            notes.append(f"--weights {weights} apply to "
                         f"{', '.join(coefficient_name(n, results[n]) for n in results if n in WEIGHTED)}; "
                         f"{', '.join(coefficient_name(n, results[n]) for n in plain)} use the distance {distance}")
    for name in ("bennett", "brennan-prediger"):
        res = results.get(name)
        if res is not None and n_categories is None:
            q = getattr(res, "n_categories", None)
            if q is None:
                q = len({v for v in data.values[data.value_index].tolist()})
            notes.append(f"{coefficient_name(name)}: q = {q}, the categories observed (pass --categories N for a "
                         "scale with more)")
    return results, {k: said(why) for k, why in left.items()}, notes


def check_icc_form(text: str, coefficient: str) -> str:
    """``--icc-form``: a form's name as :func:`accord.icc` takes it (McGraw & Wong's or Shrout & Fleiss'), for
    ``--coefficient icc`` or ``all``.

    Examples
    --------
    >>> check_icc_form("icc(3,1)", "icc"), check_icc_form("ICC(C,K)", "all"), check_icc_form("ICC2", "icc")
    ('ICC(3,1)', 'ICC(C,k)', 'ICC(2,1)')
    """
    from accord.coefficients._icc import _SF, ICC_FORMS, _resolve

    if coefficient not in ("icc", "all"):
        raise AccordError(f"--icc-form chooses the form of the ICC (--coefficient icc or all); not of --coefficient "
                          f"{coefficient}")
    try:
        mw, model = _resolve(text, None)
    except AccordError:
        names = [f[0] for f in ICC_FORMS[:6]] + [f[4] for f in ICC_FORMS if f[4]]
        raise AccordError(f"--icc-form must be one of {', '.join(dict.fromkeys(names))} (McGraw & Wong's or "
                          f"Shrout & Fleiss' names); got {text!r}") from None
    if text.replace(" ", "").upper() in _SF:  # Shrout & Fleiss' name (or psych's) as they write it
        return next(f[4] for f in ICC_FORMS if f[0] == mw and f[1] == model and f[4])
    return mw


def interval_of(res: Any, confidence: float) -> tuple[float, float] | None:
    """The analytic interval of a result where it has one (not alpha's or Light's bootstrap), else None."""
    if (not hasattr(res, "confidence_interval") or hasattr(res, "bootstrap_distribution")
            or hasattr(res, "forms")):
        return None
    try:
        lo, hi = res.confidence_interval(confidence)
    except (AccordError, TypeError):
        return None
    return float(lo), float(hi)


def with_intervals(name: str, res: Any, confidence: float) -> dict[str, Any]:
    """``res.to_dict()`` with the analytic interval(s) at *confidence* for the coefficients of this module.

    Every coefficient's object carries ``coefficient`` and ``value`` (:class:`accord._shared.results.Coefficient`);
    the ICC's forms each carry their own, and its ``value`` is the form asked for (``form``).
    """
    out = res.to_dict()
    if name == "icc":
        for form, d in zip(res.forms, out["forms"], strict=True):
            d["confidence_interval"] = list(form.confidence_interval(confidence)) if not math.isnan(form.icc) else None
        out["confidence_level"] = confidence
    elif hasattr(res, "confidence_interval") and not hasattr(res, "bootstrap_distribution"):
        # the analytic interval the Python result gives (Cohen's kappa, Gwet's AC1/AC2...), null where it has none
        iv = interval_of(res, confidence)
        out["confidence_interval"] = list(iv) if iv else None
        out["confidence_level"] = confidence
    return out


def print_extra(results: dict[str, Any], left_out: dict[str, str], confidence: float) -> None:
    """The ICC table, Kendall's test, and what ``all`` left out."""
    level = f"{confidence * 100:g}%"
    if "kendall-w" in results:
        r = results["kendall-w"]
        console.print(f"Kendall's W: chi-square({r.df}) = {r.chi_square:.4f}, p = {r.p_value:.4g} "
                      f"({'tie-corrected' if r.tie_correction else 'no tie correction'}, "
                      f"{plural(r.n_units, 'unit')} ranked "
                      f"by {plural(r.n_coders, 'coder')})")
    if "icc" in results:
        tab = results["icc"]
        t = Table(title=f"Intraclass correlations of {plural(tab.n_units, 'unit')} by "
                        f"{plural(tab.n_coders, 'coder')} (McGraw & Wong 1996; "
                  "S&F: Shrout & Fleiss 1979); two-way models random unless mixed; A: absolute agreement, "
                  "C: consistency; 1: single, k: average rating")
        chosen = tab[tab.form]
        t.caption = f"* the ICC's value: {_form_words(chosen)} (--icc-form to choose another)"
        for col in ("McGraw & Wong", "model", "S&F", "ICC", "F (df)", "p", f"{level} interval"):
            t.add_column(col, justify="right" if col in ("ICC", "p") else "left")
        for r in tab.forms:
            iv = r.confidence_interval(confidence) if not math.isnan(r.icc) else None
            t.add_row(f"{r.form} *" if r is chosen else r.form,
                      r.model.replace(" random", "").replace(" mixed", ", mixed"), r.shrout_fleiss or "-",
                      _num(r.icc), f"{r.f_statistic:.3f} ({r.df1:g}, {r.df2:.4g})", f"{r.p_value:.3g}",
                      f"[{iv[0]:.3f}, {iv[1]:.3f}]" if iv else "-")
        console.print(t)
    for name, why in left_out.items():
        console.print(f"left out: {coefficient_name(name)} {said(why)}", highlight=False)


def _form_words(r: Any) -> str:
    """A form by both names and its model: ``ICC(A,1), two-way random (Shrout & Fleiss ICC(2,1))``."""
    return f"{r.form}, {r.model}" + (f" (Shrout & Fleiss {r.shrout_fleiss})" if r.shrout_fleiss else "")


def _num(x: float) -> str:
    return "undefined" if math.isnan(x) else f"{x:.4f}"
