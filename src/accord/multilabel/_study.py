"""Everything ``accord multilabel`` reports on one file: K', its interval, the sweep, the classes, alpha, sharpening.

:func:`multilabel_study` reads the file (:func:`read_multilabel`), computes what is asked for, and writes the
sweep's chart when a path is given (checked before any work); the warnings raised are its notes.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord._shared.errors import Message, for_cli
from accord._shared.results import Result

__all__ = ["MultiLabelStudy", "multilabel_study"]


@dataclass(frozen=True)
class MultiLabelStudy(Result):
    """What :func:`multilabel_study` gives; each part None when it was not asked for.

    Attributes
    ----------
    augmented_kappa : AugmentedKappaResult
    confidence_interval : AugmentedKappaInterval or None
    sweep : AugmentedKappaSweep or None
    classes : ItemClasses or None
    masi_alpha : AlphaResult or None
    sharpening : SharpenedLabels or None
    plot : Path or None
        The chart written.
    warnings : tuple of Message
        The warnings raised, once each.
    """

    augmented_kappa: Any
    confidence_interval: Any = None
    sweep: Any = None
    classes: Any = None
    masi_alpha: Any = None
    sharpening: Any = None
    plot: Path | None = None
    warnings: tuple[Any, ...] = ()

    def parts(self) -> dict[str, Any]:
        """The parts computed, by name, in order (none of those not asked for)."""
        return {k: v for k, v in (("augmented_kappa", self.augmented_kappa),
                                  ("confidence_interval", self.confidence_interval), ("sweep", self.sweep),
                                  ("classes", self.classes), ("masi_alpha", self.masi_alpha),
                                  ("sharpening", self.sharpening)) if v is not None}


def multilabel_study(
    file: str | Path,
    *,
    p: float = 0.6,
    rule: Any = "pair",
    sweep: bool = False,
    classes: bool = False,
    tolerance: float = 0.1,
    high: float = 0.6,
    plot: str | Path | None = None,
    force: bool = False,
    ci: bool = False,
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: int | None = None,
    masi: bool = True,
    sharpening: bool = False,
    format: str = "auto",
    sep: str = ",",
    item: str = "item",
    annotator: str = "annotator",
) -> MultiLabelStudy:
    """K' of the primary and secondary labels in *file* (Rosenberg & Binkowski 2004), and what else is asked for.

    Parameters
    ----------
    file : path
        As :func:`read_multilabel` reads it, with *format*, *sep*, *item* and *annotator*.
    p, rule
        As :func:`augmented_kappa` takes them.
    sweep : bool
        Also K' over p = 0.5, 0.55, ..., 1 (:func:`augmented_kappa_sweep`).
    classes : bool
        Also the items in the paper's four classes (:func:`classify_items` with *tolerance* and *high*;
        implies the sweep).
    plot : path, optional
        Write K' against p, overall and per class, here (:func:`plot_sweep`); checked (suffix, an input, an
        existing file without *force*) before any work.
    ci : bool
        Also the bootstrap interval of K' (items resampled; *confidence_level*, *n_resamples*, *rng*).
    masi : bool
        Also Krippendorff's alpha with MASI on the label sets (:func:`masi_alpha`).
    sharpening : bool
        Also the iterated annotator and item weights (:func:`sharpen`).

    Returns
    -------
    MultiLabelStudy
    """
    from accord.multilabel._alpha import masi_alpha
    from accord.multilabel._kappa import augmented_kappa, bootstrap_augmented_kappa
    from accord.multilabel._readers import read_multilabel
    from accord.multilabel._sharpen import sharpen
    from accord.multilabel._sweep import augmented_kappa_sweep

    if plot is not None:  # refuse before any work: the input itself, or an existing file without force
        from accord._shared.charts import check_chart_path

        check_chart_path(plot, force=force, inputs=[file])
    data = read_multilabel(file, format=format, sep=sep, item=item, annotator=annotator)  # type: ignore[arg-type]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = augmented_kappa(data, p=p, rule=rule)
        interval = (bootstrap_augmented_kappa(data, p=p, rule=rule, confidence_level=confidence_level,
                                              n_resamples=n_resamples, rng=rng) if ci else None)
        sw = augmented_kappa_sweep(data, rule=rule) if (sweep or classes or plot is not None) else None
        cls = sw.classify(tolerance=tolerance, high=high) if (sw is not None and (classes or plot)) else None
        alpha_res = masi_alpha(data) if masi else None
        sharp = sharpen(data, p=p, rule=rule) if sharpening else None
    notes = tuple(dict.fromkeys(Message(str(w.message), cli=for_cli(w.message)) for w in caught))
    if plot is not None and sw is not None:
        from accord.multilabel._plot import plot_sweep

        plot_sweep(sw, plot, classes=cls, force=force)
    return MultiLabelStudy(augmented_kappa=res, confidence_interval=interval, sweep=sw, classes=cls,
                           masi_alpha=alpha_res, sharpening=sharp, plot=None if plot is None else Path(plot),
                           warnings=notes)
