"""Krippendorff's alpha with MASI on multi-label items read as label sets.

The set-valued view of the same data beside ``K'``: partial credit for overlap,
no account of which label is primary.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord.multilabel._model import MultiLabelData

__all__ = [
    "masi_alpha",
]


# ============================================================ alpha beside it
def masi_alpha(data: MultiLabelData, *, distance: Any = "masi-2006") -> Any:
    """Krippendorff's alpha on the same items read as unordered label sets.

    Each (item, annotator) cell becomes the frozenset of its labels (primary
    and secondary alike) and :func:`accord.alpha` is computed with a set
    distance, MASI as published in Passonneau (2006) by default
    (``1 - J * M``).  This is the set-valued view
    of the data beside ``K'``: it gives partial credit for overlap but ignores
    which label is primary.

    Parameters
    ----------
    data : MultiLabelData
    distance : str or Distance
        Any distance :func:`accord.alpha` accepts for frozensets
        (``"masi-2006"``, ``"masi-2006-nltk"``, ``"masi-2010"``, ``"jaccard"``,
        ``"dice"``, ...).

    Returns
    -------
    accord.coefficients._alpha.AlphaResult
        Items labelled by one annotator are unpairable there and counted by
        alpha itself.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for
    semantic and pragmatic annotation. LREC 2006.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q,a", "q", "s", "a,q"], "B": ["q", "q,a", "s", "q,a"]})
    >>> res = masi_alpha(data)
    >>> res.distance, round(res.alpha, 4)
    ('masi-2006', 0.4615)
    """
    if not isinstance(data, MultiLabelData):
        raise AccordError(f"data must be MultiLabelData; got {type(data).__name__}")
    try:
        from accord.coefficients._alpha import alpha
        from accord.data._annotations import Annotations
    except ImportError as exc:  # pragma: no cover - the core is part of accord
        raise AccordError(f"accord.alpha is not available: {exc}") from None
    a, i = np.nonzero(data.labelled)
    cats = np.asarray(data.categories, dtype=object)
    records = [
        (data.items[ii], data.annotators[aa], frozenset(cats[np.flatnonzero(data._ranks[aa, ii])].tolist()))
        for aa, ii in zip(a.tolist(), i.tolist(), strict=True)
    ]
    return alpha(Annotations.from_records(records), distance=distance)
