"""The augmented-kappa sweep as a chart: K' against p, overall and per class of items.

:func:`sweep_chart` returns an Altair chart (a Vega-Lite spec) that the
reliability report embeds as it is; :func:`plot_sweep` saves the same chart
as SVG, PNG, PDF or HTML through :func:`accord._shared.charts.save_chart` (no
browser).  Altair and vl-convert-python are the optional extra
``accord[report]``, imported only here.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80 (section 6, the classes of items).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from accord._shared.charts import check_chart_path, import_altair, save_chart
from accord._shared.errors import AccordError
from accord.multilabel._sweep import ITEM_CLASSES, AugmentedKappaSweep, ItemClasses

__all__ = ["plot_sweep", "sweep_chart"]

_OVERALL = "K' (all items)"
_CLASS_TITLES = {
    "constant_high": "constant high (class 1)",
    "constant_low": "constant low (class 2)",
    "better_at_p1": "better at p = 1 (class 3)",
    "better_at_p05": "better at p = 0.5 (class 4)",
}
# black for K', then one colour a class (Vega's category10, colour-blind distinguishable in this order)
_COLOURS = ("#000000", "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e")


def _value(x: float) -> float | None:
    """A JSON-safe number: an undefined K' (NaN) becomes a gap in the line."""
    return None if not math.isfinite(x) else float(x)


def _check(sweep: Any, classes: Any) -> None:
    if not isinstance(sweep, AugmentedKappaSweep):
        raise AccordError(f"sweep must be an AugmentedKappaSweep; got {type(sweep).__name__}")
    if classes is not None and not isinstance(classes, ItemClasses):
        raise AccordError(f"classes must be ItemClasses or None; got {type(classes).__name__}")


def sweep_chart(
    sweep: AugmentedKappaSweep,
    *,
    classes: ItemClasses | None = None,
    title: str | None = None,
    width: int = 480,
    height: int = 300,
) -> Any:
    """K' against p as an Altair chart, with one dashed line per class of items.

    Parameters
    ----------
    sweep : AugmentedKappaSweep
        From :func:`accord.multilabel.augmented_kappa_sweep`.
    classes : ItemClasses, optional
        From :func:`accord.multilabel.classify_items`; adds one dashed line per
        non-empty class (the mean per-item score over p), the count in the legend.
    title : str, optional
        Default "Augmented kappa against p (Rosenberg & Binkowski 2004)".
    width, height : int
        In pixels.

    Returns
    -------
    altair.LayerChart
        A rule at 0, the lines and their points (tooltips: series, p, value),
        zoomable; ``chart.to_dict()`` is the Vega-Lite spec.

    Raises
    ------
    AccordError
        If Altair (the extra ``accord[report]``) is missing, or on arguments of the wrong type.

    Examples
    --------
    >>> from accord.multilabel import load_multilabel_example, augmented_kappa_sweep
    >>> sweep = augmented_kappa_sweep(load_multilabel_example())
    >>> chart = sweep_chart(sweep, classes=sweep.classify())
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['rule', 'line', 'point']
    >>> list(dict.fromkeys(row["series"] for row in chart.layer[1].data.values))[:2]
    ["K' (all items)", 'constant high (class 1), n = 6']
    """
    _check(sweep, classes)
    alt = import_altair()
    rows: list[dict[str, Any]] = [
        {"series": _OVERALL, "kind": "overall", "p": float(p), "value": _value(k)}
        for p, k in zip(sweep.grid.tolist(), sweep.kappa.tolist(), strict=True)
    ]
    names = [_OVERALL]
    if classes is not None:
        grid = np.asarray(classes.grid, dtype=float).tolist()
        for name in ITEM_CLASSES:
            curve = np.asarray(classes.class_curves.get(name, []), dtype=float)
            n = classes.counts.get(name, 0)
            if n == 0 or curve.size != len(grid):
                continue
            series = f"{_CLASS_TITLES[name]}, n = {n}"
            names.append(series)
            rows += [
                {"series": series, "kind": "class", "p": p, "value": _value(v)}
                for p, v in zip(grid, curve.tolist(), strict=True)
            ]
    y_title = "K'" if classes is None else f"K' / mean item {classes.scale}"
    lo, hi = float(np.min(sweep.grid)), float(np.max(sweep.grid))
    x = alt.X("p:Q", title="p (weight of the primary label)", scale=alt.Scale(domain=[lo, hi], padding=8))
    y = alt.Y("value:Q", title=y_title, scale=alt.Scale(padding=8))
    colour = alt.Color(
        "series:N",
        scale=alt.Scale(domain=names, range=list(_COLOURS[: len(names)])),
        legend=alt.Legend(title=None, orient="bottom", direction="vertical"),
    )
    dash = alt.StrokeDash(
        "kind:N", scale=alt.Scale(domain=["overall", "class"], range=[[1, 0], [6, 3]]), legend=None
    )
    width_enc = alt.StrokeWidth(
        "kind:O", sort=["overall", "class"], scale=alt.Scale(domain=["overall", "class"], range=[2.2, 1.3]),
        legend=None,
    )
    tooltip = [
        alt.Tooltip("series:N", title="series"),
        alt.Tooltip("p:Q", title="p", format=".2f"),
        alt.Tooltip("value:Q", title=y_title, format=".4f"),
    ]
    base = alt.Chart(alt.Data(values=rows))
    lines = base.mark_line().encode(x=x, y=y, color=colour, strokeDash=dash, strokeWidth=width_enc)
    # zoom and pan bound on the points layer: the zero rule has no x field to bind (a Vega-Lite warning)
    points = base.mark_point(filled=True, size=24).encode(x=x, y=y, color=colour, tooltip=tooltip).interactive()
    zero = alt.Chart(alt.Data(values=[{"zero": 0.0}])).mark_rule(color="grey", strokeWidth=0.6).encode(y="zero:Q")
    return (
        alt.layer(zero, lines, points)
        .properties(
            title=title or "Augmented kappa against p (Rosenberg & Binkowski 2004)", width=width, height=height
        )
    )


def plot_sweep(
    sweep: AugmentedKappaSweep,
    path: str | Path,
    *,
    classes: ItemClasses | None = None,
    title: str | None = None,
    force: bool = False,
) -> Path:
    """Save K' against p (and the mean item score of each class) as SVG, PNG, PDF or HTML.

    Parameters
    ----------
    sweep : AugmentedKappaSweep
        From :func:`accord.multilabel.augmented_kappa_sweep`.
    path : str or Path
        Output file; the suffix (``.svg``, ``.png``, ``.pdf``, ``.html``) picks the format.
    classes : ItemClasses, optional
        From :func:`accord.multilabel.classify_items`; adds one dashed line per
        class (mean per-item score, with the count in the legend).
    title : str, optional
    force : bool
        Replace an existing file; without it an existing *path* is refused.
        The file is written atomically (:func:`accord._shared.output.atomic_output`).

    Returns
    -------
    Path
        The file written.

    Examples
    --------
    >>> import tempfile, os
    >>> from accord.multilabel import load_multilabel_example, augmented_kappa_sweep
    >>> sweep = augmented_kappa_sweep(load_multilabel_example())
    >>> out = plot_sweep(sweep, os.path.join(tempfile.mkdtemp(), "sweep.svg"), classes=sweep.classify())
    >>> out.suffix
    '.svg'
    """
    _check(sweep, classes)
    out = check_chart_path(path, force=force)
    return save_chart(sweep_chart(sweep, classes=classes, title=title), out, force=force)
