"""Altair charts of the report, each returned as a Vega-Lite spec (a dict).

Every chart takes small, already aggregated data (a few hundred rows at most),
so the page stays small whatever the size of the annotation; tooltips on every
mark, and zoom and pan (``interactive``) on continuous axes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from accord.reporting._page import _require

__all__ = [
    "alignment_chart",
    "bar_chart",
    "bootstrap_chart",
    "distribution_chart",
    "heatmap_chart",
    "line_chart",
    "stacked_bars_chart",
]

THRESHOLDS = (0.667, 0.800)


def _alt() -> Any:
    return _require("altair")


def _finish(chart: Any, height: int | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"width": "container"}
    if height is not None:
        props["height"] = height
    spec = chart.properties(**props).configure_view(strokeWidth=0).to_dict()
    spec.pop("$schema", None)  # vega-embed reads the version from it; vl-convert too, so keep v5 implicit
    return responsive_legends(spec)


def responsive_legends(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with its legends' columns and label widths left to the page.

    The page's script lays every legend out in as many columns as the chart's box holds, with labels
    never cut (see ``report.js``), so no legend of the spec fixes ``columns`` or ``labelLimit``.
    """

    def fix(obj: Any) -> Any:
        if isinstance(obj, dict):
            out = {}
            for k, v in obj.items():
                if k == "legend" and isinstance(v, dict):
                    v = {a: b for a, b in v.items() if a not in ("columns", "labelLimit", "direction")}
                out[k] = fix(v)
            return out
        if isinstance(obj, list):
            return [fix(v) for v in obj]
        return obj

    return fix(spec)


def _tip(t: Any) -> Any:
    """A tooltip field: ``"field:T"``, or ``("field:T", "title the reader sees")``."""
    alt = _alt()
    return alt.Tooltip(t[0], title=t[1]) if isinstance(t, tuple) else alt.Tooltip(t)


def _count_axis(title: str) -> Any:
    """A quantitative axis of counts: ticks on whole numbers only."""
    return _alt().Axis(title=title, tickMinStep=1, format="d")


def _height(n_rows: int, per_row: int = 22, low: int = 120, high: int = 520) -> int:
    return int(min(high, max(low, per_row * n_rows)))


def stacked_bars_chart(df: pd.DataFrame, *, y: str, x: str, color: str, title_x: str) -> dict[str, Any]:
    """Horizontal stacked bars: one bar per *y*, split by *color* (e.g. values per coder)."""
    alt = _alt()
    n = df[y].nunique()
    chart = alt.Chart(df).mark_bar().encode(
        y=alt.Y(f"{y}:N", title=None, sort=list(dict.fromkeys(df[y]))),
        x=alt.X(f"{x}:Q", stack="zero", axis=_count_axis(title_x)),
        color=alt.Color(f"{color}:N", title=color, sort=list(dict.fromkeys(df[color])),
                        scale=alt.Scale(scheme="tableau20" if df[color].nunique() > 10 else "tableau10"),
                        legend=alt.Legend(orient="bottom")),
        order=alt.Order("_order:Q"),
        tooltip=[alt.Tooltip(f"{y}:N"), alt.Tooltip(f"{color}:N"), alt.Tooltip(f"{x}:Q")],
    )
    return _finish(chart, _height(n, 26, 90))


def heatmap_chart(df: pd.DataFrame, *, x: str, y: str, value: str, text: str, tooltip: list[Any],
                  domain: tuple[float, float] | None = (-0.2, 1.0), scheme: str = "redyellowgreen",
                  title: str = "alpha", x_order: list[str] | None = None,
                  y_order: list[str] | None = None) -> dict[str, Any]:
    """A heatmap (e.g. coder x coder), the value written in each cell; its rows and columns in the order
    given (that of the page's text and tables), else in the order of the data."""
    alt = _alt()
    x_order = list(x_order) if x_order is not None else list(dict.fromkeys(df[x]))
    y_order = list(y_order) if y_order is not None else list(dict.fromkeys(df[y]))
    n = max(len(x_order), len(y_order))
    scale = alt.Scale(scheme=scheme, domain=list(domain)) if domain else alt.Scale(scheme=scheme)
    base = alt.Chart(df).encode(
        x=alt.X(f"{x}:N", title=None, sort=x_order, scale=alt.Scale(domain=x_order),
                axis=alt.Axis(labelAngle=-40, labelLimit=200)),
        y=alt.Y(f"{y}:N", title=None, sort=y_order, scale=alt.Scale(domain=y_order),
                axis=alt.Axis(labelLimit=200)),
    )
    rect = base.mark_rect().encode(
        color=alt.Color(f"{value}:Q", title=title, scale=scale),
        tooltip=[_tip(t) for t in tooltip],
    )
    label = base.mark_text(fontSize=11 if n <= 10 else 8).encode(text=alt.Text(f"{text}:N"))
    return _finish(rect + label, _height(n, 34, 120, 560))


def bar_chart(df: pd.DataFrame, *, category: str, value: str, title_value: str, tooltip: list[Any],
              reference: float | None = None, reference_label: str = "", thresholds: bool = False,
              color: str | None = None, domain: tuple[float, float] | None = None,
              counts: bool = False) -> dict[str, Any]:
    """Horizontal bars of *value* per *category* (in the order of the data), with an optional reference line
    and Krippendorff's thresholds; ``counts``: the values are counts, ticked on whole numbers."""
    alt = _alt()
    n = df[category].nunique()
    xscale = alt.Scale(domain=list(domain)) if domain else alt.Undefined
    enc: dict[str, Any] = dict(
        y=alt.Y(f"{category}:N", title=None, sort=list(dict.fromkeys(df[category])), axis=alt.Axis(labelLimit=200)),
        x=alt.X(f"{value}:Q", scale=xscale, axis=_count_axis(title_value) if counts else alt.Axis(title=title_value)),
        tooltip=[_tip(t) for t in tooltip],
    )
    if color:
        enc["color"] = alt.Color(f"{color}:N", title=None, sort=list(dict.fromkeys(df[color])),
                                 legend=alt.Legend(orient="bottom"))
        enc["yOffset"] = alt.YOffset(f"{color}:N")
        n = n * max(1, df[color].nunique())
    layers = [alt.Chart(df).mark_bar().encode(**enc)]
    rules = []
    if thresholds:
        rules += [{"x": t, "label": f"{t:.3f}".lstrip("0"), "kind": "Krippendorff threshold"} for t in THRESHOLDS]
    if reference is not None and np.isfinite(reference):
        rules.append({"x": float(reference), "label": reference_label, "kind": reference_label})
    if rules:
        rdf = pd.DataFrame(rules)
        layers.append(alt.Chart(rdf).mark_rule(strokeDash=[4, 3], color="#555").encode(
            x="x:Q", tooltip=[alt.Tooltip("kind:N"), alt.Tooltip("x:Q", format=".3f")]))
    return _finish(alt.layer(*layers), _height(n, 24, 90))


def distribution_chart(df: pd.DataFrame) -> dict[str, Any]:
    """Each coder's share of each value, coloured by its difference from the pooled share.

    *df* has columns ``coder``, ``value``, ``share``, ``pooled``, ``difference``, ``label``.
    """
    alt = _alt()
    n = df["coder"].nunique()
    lim = float(max(0.05, np.nanmax(np.abs(df["difference"].to_numpy(dtype=float)))) if len(df) else 0.05)
    base = alt.Chart(df).encode(
        x=alt.X("value:N", title="value", sort=list(dict.fromkeys(df["value"])),
                axis=alt.Axis(labelAngle=-40, labelLimit=200)),
        y=alt.Y("coder:N", title=None, sort=list(dict.fromkeys(df["coder"])), axis=alt.Axis(labelLimit=200)),
    )
    rect = base.mark_rect().encode(
        color=alt.Color("difference:Q", title="share - pooled", scale=alt.Scale(scheme="blueorange",
                                                                                 domain=[-lim, lim])),
        tooltip=[alt.Tooltip("coder:N"), alt.Tooltip("value:N"), alt.Tooltip("share:Q", format=".1%"),
                 alt.Tooltip("pooled:Q", format=".1%", title="pooled share"),
                 alt.Tooltip("difference:Q", format="+.1%")],
    )
    if df["value"].nunique() > 8:  # cells too narrow to hold their share: the tooltip gives it
        return _finish(rect, _height(n, 30, 100))
    text = base.mark_text(fontSize=10).encode(text="label:N")
    return _finish(rect + text, _height(n, 30, 100))


def _histogram_range(s: np.ndarray) -> tuple[float, float] | None:
    """The histogram's range: the data's, widened to 0.01 around them when the resamples (nearly) coincide.

    Resamples that differ only in their last bits (every resample drawing the same value up to rounding) leave
    no room for finite-sized bins, which NumPy 2.4 refuses ("Too many bins for data range")."""
    if not len(s):
        return None
    lo, hi = float(s.min()), float(s.max())
    if hi - lo > 1e-9 * max(1.0, abs(lo), abs(hi)):
        return None
    mid = (lo + hi) / 2
    return mid - 0.005, mid + 0.005


def bootstrap_chart(samples: np.ndarray, *, estimate: float, interval: tuple[float, float] | None,
                    label: str = "alpha", bins: int = 40, thresholds: bool = True) -> dict[str, Any]:
    """Histogram of bootstrap resamples (binned here, so the spec stays small) with the interval marked."""
    alt = _alt()
    s = np.asarray(samples, dtype=float)
    s = s[np.isfinite(s)]
    counts, edges = np.histogram(s, bins=bins, range=_histogram_range(s))
    hist = pd.DataFrame({"start": edges[:-1], "end": edges[1:], "resamples": counts})
    bars = alt.Chart(hist).mark_bar(color="#8fa8cf").encode(
        x=alt.X("start:Q", title=f"bootstrap {label}", scale=alt.Scale(zero=False)),
        x2="end:Q",
        y=alt.Y("resamples:Q", axis=_count_axis("resamples"),
                scale=alt.Scale(domain=[0, int(counts.max(initial=1) * 1.08) + 1])),
        y2=alt.datum(0),
        tooltip=[alt.Tooltip("start:Q", format=".3f", title="from"), alt.Tooltip("end:Q", format=".3f", title="to"),
                 alt.Tooltip("resamples:Q")],
    )
    whole = f"{label}, all the data"
    marks = [{"x": float(estimate), "what": whole}]
    colors = ["#1d2330"]
    if interval is not None:
        marks += [{"x": float(interval[0]), "what": "the interval's ends"},
                  {"x": float(interval[1]), "what": "the interval's ends"}]
        colors += ["#b3261e"]
    if thresholds:
        lo, hi = (float(s.min()), float(s.max())) if len(s) else (0.0, 1.0)
        shown = [t for t in THRESHOLDS if lo - 0.1 <= t <= hi + 0.1]
        marks += [{"x": t, "what": f"Krippendorff's {t:.3f}".replace("0.", ".")} for t in shown]
        colors += ["#a86400" if t < 0.8 else "#1b7f3b" for t in shown]
    mdf = pd.DataFrame(marks)
    rules = alt.Chart(mdf).mark_rule(strokeWidth=2).encode(
        x="x:Q",
        color=alt.Color("what:N", title=None, legend=alt.Legend(orient="bottom"),
                        scale=alt.Scale(domain=list(dict.fromkeys(m["what"] for m in marks)), range=colors)),
        strokeDash=alt.condition(alt.datum.what == whole, alt.value([1, 0]), alt.value([5, 3])),
        tooltip=[alt.Tooltip("what:N"), alt.Tooltip("x:Q", format=".4f")],
    )
    return _finish(alt.layer(bars, rules).interactive(bind_y=False), 220)


def line_chart(df: pd.DataFrame, *, x: str, y: str, series: str | None, title_x: str, title_y: str,
               points: pd.DataFrame | None = None, point_label: str = "", tooltip: list[str] | None = None,
               dashed: str | None = None, x_counts: bool = False) -> dict[str, Any]:
    """Lines of *y* against *x* (one per *series*), optionally with highlighted points; zoomable;
    ``x_counts``: *x* counts things, ticked on whole numbers."""
    alt = _alt()
    enc: dict[str, Any] = dict(
        x=alt.X(f"{x}:Q", scale=alt.Scale(zero=False),
                axis=_count_axis(title_x) if x_counts else alt.Axis(title=title_x)),
        y=alt.Y(f"{y}:Q", title=title_y, scale=alt.Scale(zero=False)),
        tooltip=[alt.Tooltip(t) for t in (tooltip or [x, y] + ([series] if series else []))],
    )
    if series:
        enc["color"] = alt.Color(f"{series}:N", title=None, sort=list(dict.fromkeys(df[series])),
                                 legend=alt.Legend(orient="bottom"))
    if dashed:
        enc["strokeDash"] = alt.StrokeDash(f"{dashed}:N", legend=None)
    layers = [alt.Chart(df).mark_line(point=alt.OverlayMarkDef(size=25)).encode(**enc)]
    if points is not None and len(points):
        layers.append(alt.Chart(points).mark_point(size=160, filled=True, color="#b3261e", shape="diamond").encode(
            x=f"{x}:Q", y=f"{y}:Q", tooltip=[alt.Tooltip(c) for c in points.columns]))
        if point_label:
            layers.append(alt.Chart(points).mark_text(dx=10, dy=-10, align="left", color="#b3261e").encode(
                x=f"{x}:Q", y=f"{y}:Q", text=alt.value(point_label)))
    return _finish(alt.layer(*layers).interactive(), 260)


def alignment_chart(units: pd.DataFrame, links: pd.DataFrame, annotators: list[str]) -> dict[str, Any]:
    """A best alignment drawn: one row per annotator, each unit a bar over its stretch (coloured by category,
    outlined in red when left alone), and the units of each unitary alignment joined by a line through their
    middles; zoom and pan along the text.

    *units* has columns ``annotator``, ``start``, ``end``, ``category``, ``alignment``, ``aligned`` (bool),
    ``disorder``, ``text``; *links* has ``alignment``, ``annotator``, ``middle``, ``disorder`` (one row per
    unit of an alignment of two units or more, in annotator order).
    """
    alt = _alt()
    y = alt.Y("annotator:N", title=None, sort=annotators, scale=alt.Scale(domain=annotators, paddingInner=0.45),
              axis=alt.Axis(labelLimit=200))
    x_scale = alt.Scale(zero=False, nice=False)
    cats = list(dict.fromkeys(sorted(units["category"].astype(str)))) if len(units) else []
    bars = alt.Chart(units).mark_bar(cornerRadius=2).encode(
        x=alt.X("start:Q", title="position (character offset or time)", scale=x_scale),
        x2="end:Q",
        y=y,
        color=alt.Color("category:N", title="category", sort=cats,
                        scale=alt.Scale(scheme="tableau20" if len(cats) > 10 else "tableau10"),
                        legend=alt.Legend(orient="bottom", symbolStrokeWidth=0)),
        stroke=alt.condition(alt.datum.aligned, alt.value("#1d2330"), alt.value("#b3261e")),
        strokeWidth=alt.condition(alt.datum.aligned, alt.value(0.5), alt.value(2.5)),
        strokeDash=alt.condition(alt.datum.aligned, alt.value([1, 0]), alt.value([3, 2])),
        tooltip=[alt.Tooltip("annotator:N"), alt.Tooltip("category:N"), alt.Tooltip("start:Q"),
                 alt.Tooltip("end:Q"), alt.Tooltip("text:N", title="covers"),
                 alt.Tooltip("alignment:Q", title="unitary alignment"),
                 alt.Tooltip("partners:N", title="aligned with"),
                 alt.Tooltip("disorder:Q", format=".3f", title="its disorder")],
    )
    lines = alt.Chart(links).mark_line(color="#1d2330", strokeWidth=1.2, opacity=0.7, point=alt.OverlayMarkDef(
        size=18, color="#1d2330")).encode(
        x=alt.X("middle:Q", scale=x_scale),
        y=y,
        detail="alignment:N",
        order=alt.Order("row:Q"),
        tooltip=[alt.Tooltip("alignment:Q", title="unitary alignment"),
                 alt.Tooltip("disorder:Q", format=".3f", title="its disorder")],
    )
    chart = alt.layer(bars, lines).interactive(bind_y=False)
    return _finish(chart, _height(len(annotators), 46, 120, 520))
