"""Augmented kappa for items with a primary and a secondary label.

Rosenberg & Binkowski (2004) let annotators give an item one label or an
ordered pair (primary, secondary).  An annotation becomes one *divided*
selection: a single label weighs 1, a primary weighs ``p`` and a secondary
``1 - p`` for a chosen ``0.5 <= p <= 1``.  Observed and expected agreement of
Cohen's kappa are then computed from these weights (their section 5), which
gives partial credit for the cases ``{ab, a}``, ``{ab, ba}``, ``{ab, ac}`` ...
At ``p = 1`` the secondary labels are ignored and ``K'`` is Cohen's kappa on
the primary labels.

This package holds, one module per concept,

- ``model``: :class:`MultiLabelData` (items x annotators, each cell an ordered
  tuple of labels);
- ``readers``: long format with a ``rank`` column, and the compact form
  ``"a,b"`` (primary ``a``, secondary ``b``), from CSV, TSV, JSONL or Parquet
  (:func:`read_multilabel`), and the bundled example
  (:func:`load_multilabel_example`);
- ``weights``: the annotation matrices ``M_A`` (:func:`annotation_matrix`, the
  paper's Tables 2 and 3) under a weighting rule;
- ``kappa``: ``K'`` for one ``p`` with the pairwise table and the average over
  annotator pairs (:func:`augmented_kappa`), its bootstrap confidence interval
  over items (:func:`bootstrap_augmented_kappa`);
- ``sweep``: the sweep of ``K'`` and of per-item agreement over a grid of ``p``
  (:func:`augmented_kappa_sweep`) and the paper's four classes of items
  (:func:`classify_items`);
- ``sharpen``: the "sharpening" the paper leaves as future work: iterated
  annotator and item weights (:func:`sharpen`);
- ``alpha``: Krippendorff's alpha with MASI on the same items read as label
  sets (:func:`masi_alpha`), the set-valued view of the same data;
- ``plot``: ``K'`` against ``p`` with the item classes as an Altair chart
  (:func:`sweep_chart`), saved as SVG, PNG, PDF or HTML (:func:`plot_sweep`).

Lists of three or more labels need a stated weighting rule (``rule=``):

``"pair"`` (default, the paper)
    one label weighs 1; a pair weighs ``p, 1 - p``; three or more labels are an
    error.
``"geometric"``
    each rank takes ``p`` of what is left, the last takes the rest:
    ``p, p(1 - p), p(1 - p)^2, ..., (1 - p)^(k - 1)``.
``"primary-rest"``
    the primary weighs ``p`` and the others share ``1 - p`` equally.
a callable ``rule(k, p) -> k weights``
    non-negative, summing to 1.

All rules agree with the paper on one and two labels.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

from accord.multilabel._alpha import masi_alpha
from accord.multilabel._kappa import (
    AugmentedKappaInterval,
    AugmentedKappaResult,
    PairAugmentedKappa,
    augmented_kappa,
    bootstrap_augmented_kappa,
)
from accord.multilabel._model import MultiLabelData
from accord.multilabel._plot import plot_sweep, sweep_chart
from accord.multilabel._readers import load_multilabel_example, read_multilabel
from accord.multilabel._sharpen import SharpenedLabels, sharpen
from accord.multilabel._study import MultiLabelStudy, multilabel_study
from accord.multilabel._sweep import (
    ITEM_CLASSES,
    AugmentedKappaSweep,
    ItemClasses,
    augmented_kappa_sweep,
    classify_items,
)
from accord.multilabel._weights import AnnotationMatrix, annotation_matrix

__all__ = [
    "ITEM_CLASSES",
    "AnnotationMatrix",
    "AugmentedKappaInterval",
    "AugmentedKappaResult",
    "AugmentedKappaSweep",
    "ItemClasses",
    "MultiLabelData",
    "MultiLabelStudy",
    "PairAugmentedKappa",
    "SharpenedLabels",
    "annotation_matrix",
    "augmented_kappa",
    "augmented_kappa_sweep",
    "bootstrap_augmented_kappa",
    "classify_items",
    "load_multilabel_example",
    "masi_alpha",
    "multilabel_study",
    "plot_sweep",
    "read_multilabel",
    "sharpen",
    "sweep_chart",
]
