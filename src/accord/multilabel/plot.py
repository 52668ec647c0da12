"""Plot of the augmented-kappa sweep: K' against p, overall and per class of items.

matplotlib is an optional extra (``pip install accord[plot]``); it is imported
only when a plot is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from accord.errors import AccordError
from accord.multilabel.sweep import ITEM_CLASSES, AugmentedKappaSweep, ItemClasses
from accord.output import atomic_output, check_output

__all__ = ["check_plot_path", "plot_sweep"]

_SUFFIXES = (".png", ".svg")
_CLASS_TITLES = {
    "constant_high": "constant high (class 1)",
    "constant_low": "constant low (class 2)",
    "better_at_p1": "better at p = 1 (class 3)",
    "better_at_p05": "better at p = 0.5 (class 4)",
}


def check_plot_path(path: str | Path, *, force: bool = False, inputs: Iterable[str | Path] = ()) -> Path:
    """Check a plot's path before any work: a known suffix, and the rules of :func:`accord.output.check_output`.

    Parameters
    ----------
    path : str or Path
        The file to write; its suffix picks the format.
    force : bool
        Allow replacing an existing file (never one of *inputs*).
    inputs : iterable of str or Path
        The files the plot is made from.

    Returns
    -------
    Path

    Examples
    --------
    >>> check_plot_path("sweep.gif")
    Traceback (most recent call last):
    ...
    accord.errors.AccordError: path must end in .png or .svg; got 'sweep.gif'
    """
    out = Path(path)
    if out.suffix.lower() not in _SUFFIXES:
        raise AccordError(f"path must end in .png or .svg; got {out.name!r}")
    return check_output(out, force=force, inputs=inputs)


def plot_sweep(
    sweep: AugmentedKappaSweep,
    path: str | Path,
    *,
    classes: ItemClasses | None = None,
    title: str | None = None,
    force: bool = False,
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
    force : bool
        Replace an existing file; without it an existing *path* is refused.
        The file is written atomically (:func:`accord.output.atomic_output`).

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
    out = check_plot_path(path, force=force)
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
        with atomic_output(out, force=force) as tmp:
            fig.savefig(tmp, format=out.suffix.lower().lstrip("."))
    except OSError as exc:
        raise AccordError(f"cannot write plot to {str(out)!r}: {exc.strerror or exc}") from None
    return out
