"""Renderers the commands share: numbers as the tables show them, the coefficients' names, the ICC's table.

A command turns the result of its one library call into text with these (and its own tables); nothing here
computes or decides.
"""

from __future__ import annotations

import math
from typing import Any

from rich.table import Table

from accord._shared.errors import plural
from accord._shared.names import coefficient as coefficient_name
from accord.cli._common import console, said

__all__ = ["finite", "fmt", "label", "print_extra", "value_of"]


def value_of(res: Any) -> float:
    """The value of a coefficient's result (alpha, kappa, percent agreement, AC, W, CCC)."""
    for name in ("alpha", "kappa", "percent_agreement", "ac", "w", "ccc"):
        if hasattr(res, name):
            return float(getattr(res, name))
    return math.nan


def finite(x: Any) -> float | None:
    """*x* as a float when it is a finite number, else None."""
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def fmt(x: Any) -> str:
    """A cell of a table: ``-`` for nothing, ``undefined`` for NaN, four decimals for a float."""
    if x is None:
        return "-"
    if isinstance(x, float):
        return "undefined" if math.isnan(x) else f"{x:.4f}"
    return str(x)


def label(name: str, res: Any) -> str:
    """The row label of a result in ``accord agree``'s table."""
    return coefficient_name(name, res)


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
