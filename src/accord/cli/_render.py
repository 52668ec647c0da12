"""Renderers the commands share: tables that fit the terminal, numbers as the tables show them, the
coefficients' names, the ICC's table.

A command turns the result of its one library call into text with these (and its own tables); nothing here
computes or decides.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Collection, Iterable
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.table import Table

from accord._shared.errors import plural
from accord._shared.names import coefficient as coefficient_name
from accord._shared.sanitize import terminal_safe
from accord.cli._common import console, said

__all__ = ["finite", "fmt", "label", "print_extra", "print_table", "table", "value_of"]


def table(title: str | None, columns: Iterable[str], *, numbers: Collection[str] = (), centered: Collection[str] = (),
          optional: Collection[str] = (), **options: Any) -> Table:
    """A table that reads whole in a narrow terminal: text (labels, names, files) folds onto more lines, a
    number column (each of *numbers*, right-aligned; *centered* ones centred) never wraps nor is cut.

    Rich narrows the text columns first and cuts a no-wrap column only when the rest cannot give way, so a
    table whose number columns fit keeps every number whole (print it with :func:`print_table`).  The columns
    *optional* are shown where the table fits the terminal with them; :func:`print_table` drops them otherwise,
    and says so under the table.
    """
    t = Table(title=title, **options)
    for col in columns:
        if col in numbers or col in centered:
            t.add_column(col, justify="center" if col in centered else "right", no_wrap=True)
        else:
            t.add_column(col, overflow="fold")
    t.optional = tuple(optional)  # type: ignore[attr-defined]
    return t


def _drop_optional(t: Table, out: Any) -> None:
    """Drop *t*'s optional columns (:func:`table`) when it is wider than *out* with them, and say which."""
    optional = getattr(t, "optional", ())
    if not optional or out.measure(t, options=out.options.update_width(10_000)).maximum <= out.width:
        return
    t.columns = [c for c in t.columns if c.header not in optional]
    note = f"{' and '.join(optional)}: in a wider terminal, or --json"
    t.caption = f"{t.caption}; {note}" if t.caption else note


def print_table(t: Table, *, out: Any = None) -> None:
    """Print *t* on *out* (the console) so that it fits the terminal with its numbers whole.

    When the table is wider than the terminal: each number column's header is broken onto lines as wide as its
    widest cell (``units used`` over ``units`` / ``used``), so a header does not widen a column that cannot wrap;
    if the number columns still leave the text too little room, the table loses its borders (columns two spaces
    apart, a rule under the header), which gives each column three characters back; then the text columns share
    the room left, each given at least its longest word up to 20 characters (the others' down to 12, then 8,
    when the room is short, before the first column's, which names the row), so a name folds inside a word only
    when nothing else fits.
    """
    out = out or console
    width = out.width
    _drop_optional(t, out)
    if out.measure(t, options=out.options.update_width(10_000)).maximum > width:
        for col in t.columns:
            if col.no_wrap and isinstance(col.header, str) and " " in col.header:
                widest = max((cell_len(line) for c in col.cells for line in terminal_safe(str(c)).splitlines()),
                             default=0)
                col.header = "\n".join(textwrap.wrap(col.header, max(widest, 1), break_long_words=False))
        if t.box is not None and _text_widths(t, width, first=8, floor=8) is None:
            t.box, t.show_edge, t.pad_edge, t.padding = box.SIMPLE_HEAD, False, False, (0, 1, 0, 0)
        for first, floor in ((20, 20), (20, 12), (20, 8), (12, 8), (8, 8)):
            widths = _text_widths(t, width, first=first, floor=floor)
            if widths is not None:
                for col, w in zip((c for c in t.columns if not c.no_wrap), widths, strict=True):
                    col.width = w
                break
    out.print(t)


def _lines(col: Any) -> list[str]:
    """The lines of *col*'s header and cells as the console shows them (control characters escaped)."""
    return [line for c in (col.header, *col.cells) for line in terminal_safe(str(c)).splitlines()]


def _text_widths(t: Table, width: int, *, first: int, floor: int) -> list[int] | None:
    """Widths of *t*'s text columns that fill *width* beside its number columns (whole), each at least its
    longest word or *floor* (*first* for the first, which names the row), whichever is less, and at most its
    widest line; None if they cannot (or, with no text column, if the numbers alone do not fit)."""
    n = len(t.columns)
    top, right, bottom, left = t.padding
    pads = n * (left + right) - (0 if t.pad_edge else left + right)
    room = width - pads - ((n - 1) + (2 if t.show_edge else 0) if t.box is not None else 0)
    text = []
    for col in t.columns:
        lines = _lines(col)
        widest = max((cell_len(line) for line in lines), default=0)
        if col.no_wrap:
            room -= widest
        else:
            word = max((cell_len(w) for line in lines for w in line.split()), default=0)
            text.append((min(word, floor if text else first, widest), widest))
    if sum(lo for lo, _ in text) > room:
        return None
    if not text:
        return []
    level = 0  # the water level: each column as wide as the level, within its least and widest
    while level < max(hi for _, hi in text) and sum(min(hi, max(lo, level + 1)) for lo, hi in text) <= room:
        level += 1
    return [min(hi, max(lo, level)) for lo, hi in text]


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
        chosen = tab[tab.form]
        numbers = ("ICC", "F (df)", "p", f"{level} interval")
        t = table(f"Intraclass correlations of {plural(tab.n_units, 'unit')} by {plural(tab.n_coders, 'coder')} "
                  "(McGraw & Wong 1996; S&F: Shrout & Fleiss 1979); two-way models random unless mixed; A: absolute "
                  "agreement, C: consistency; 1: single, k: average rating",
                  ("form, model (S&F form)", *numbers), numbers=numbers,
                  caption=f"* the ICC's value: {_form_words(chosen)} (--icc-form to choose another)")
        for r in tab.forms:
            iv = r.confidence_interval(confidence) if not math.isnan(r.icc) else None
            form = f"{r.form}{' *' if r is chosen else ''} {r.model.replace(' random', '')}"
            t.add_row(form + (f" (S&F {r.shrout_fleiss})" if r.shrout_fleiss else ""), _num(r.icc),
                      f"{r.f_statistic:.3f} ({r.df1:g}, {r.df2:.4g})", f"{r.p_value:.3g}",
                      f"[{iv[0]:.3f}, {iv[1]:.3f}]" if iv else "-")
        print_table(t)
    for name, why in left_out.items():
        console.print(f"left out: {coefficient_name(name)} {said(why)}", highlight=False)


def _form_words(r: Any) -> str:
    """A form by both names and its model: ``ICC(A,1), two-way random (Shrout & Fleiss ICC(2,1))``."""
    return f"{r.form}, {r.model}" + (f" (Shrout & Fleiss {r.shrout_fleiss})" if r.shrout_fleiss else "")


def _num(x: float) -> str:
    return "undefined" if math.isnan(x) else f"{x:.4f}"
