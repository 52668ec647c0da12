"""Plot of the augmented-kappa sweep: K' against p, overall and per class of items.

matplotlib is an optional extra (``pip install accord[plot]``); it is imported
only when a plot is drawn.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from accord.errors import AccordError
from accord.multilabel.sweep import ITEM_CLASSES, AugmentedKappaSweep, ItemClasses

__all__ = ["plot_sweep"]

_SUFFIXES = (".png", ".svg")
_CLASS_TITLES = {
    "constant_high": "constant high (class 1)",
    "constant_low": "constant low (class 2)",
    "better_at_p1": "better at p = 1 (class 3)",
    "better_at_p05": "better at p = 0.5 (class 4)",
}


def plot_sweep(
    sweep: AugmentedKappaSweep,
    path: str | Path,
    *,
    classes: ItemClasses | None = None,
    title: str | None = None,
) -> Path:
    """Save K' against p (and the mean item score of each class) as PNG or SVG.

    Parameters
    ----------
    sweep : AugmentedKappaSweep
        From :func:`accord.multilabel.augmented_kappa_sweep`.
    path : str or Path
        Output file; the suffix (``.png`` or ``.svg``) picks the format.
    classes : ItemClasses, optional
        From :func:`accord.multilabel.classify_items`; adds one dashed line per
        class (mean per-item score, with the count in the legend).
    title : str, optional

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
    if not isinstance(sweep, AugmentedKappaSweep):
        raise AccordError(f"sweep must be an AugmentedKappaSweep; got {type(sweep).__name__}")
    if classes is not None and not isinstance(classes, ItemClasses):
        raise AccordError(f"classes must be ItemClasses or None; got {type(classes).__name__}")
    out = Path(path)
    if out.suffix.lower() not in _SUFFIXES:
        raise AccordError(f"path must end in .png or .svg; got {out.name!r}")
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise AccordError(
            "plotting needs matplotlib, an optional extra: pip install 'accord[plot]'"
        ) from None
    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(sweep.grid, sweep.kappa, color="black", linewidth=2.2, marker="o", markersize=3,
            label="K' (all items)")
    if classes is not None:
        for name in ITEM_CLASSES:
            curve = np.asarray(classes.class_curves.get(name, []), dtype=float)
            n = classes.counts.get(name, 0)
            if n == 0 or curve.size != len(classes.grid):
                continue
            ax.plot(classes.grid, curve, linestyle="--", linewidth=1.3,
                    label=f"{_CLASS_TITLES[name]}, n = {n}")
    ax.set_xlabel("p (weight of the primary label)")
    ax.set_ylabel("K'" if classes is None else f"K' / mean item {classes.scale}")
    ax.set_xlim(float(sweep.grid.min()) - 0.01, float(sweep.grid.max()) + 0.01)
    ax.axhline(0.0, color="grey", linewidth=0.6)
    ax.grid(True, linewidth=0.3)
    ax.margins(y=0.12)
    ax.legend(fontsize="small", loc="best")
    ax.set_title(title or "Augmented kappa against p (Rosenberg & Binkowski 2004)", fontsize="medium")
    try:
        fig.savefig(out, format=out.suffix.lower().lstrip("."))
    except OSError as exc:
        raise AccordError(f"cannot write plot to {str(out)!r}: {exc.strerror or exc}") from None
    return out
