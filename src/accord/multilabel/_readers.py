"""Readers of multi-label annotations: CSV, TSV, JSONL or Parquet, compact or ranked.

:func:`read_multilabel` reads a file in the compact form (a cell ``"a,b"``) or
the ranked form (one row per label with a ``rank`` column);
:func:`load_multilabel_example` gives the small synthetic example bundled with
accord.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from importlib import resources
from pathlib import Path
from typing import Literal

from accord._shared.errors import AccordError
from accord.multilabel._model import MultiLabelData

__all__ = [
    "load_multilabel_example",
    "read_multilabel",
]


# =================================================================== readers
def read_multilabel(
    path: str | Path,
    *,
    format: Literal["auto", "compact", "ranked"] = "auto",
    item: str = "item",
    annotator: str = "annotator",
    labels: str = "labels",
    label: str = "label",
    rank: str = "rank",
    sep: str = ",",
    categories: Sequence[Hashable] | None = None,
) -> MultiLabelData:
    """Read multi-label annotations from CSV, TSV, JSONL or Parquet.

    Parameters
    ----------
    path : str or Path
        ``.csv``, ``.tsv``, ``.jsonl`` / ``.ndjson`` (one JSON object a line) or
        ``.parquet``, read by :func:`accord.data._read.read_table`.
    format : {"auto", "compact", "ranked"}
        ``"compact"``: columns *item*, *annotator*, *labels*, a cell such as
        ``"a,b"`` (in JSONL also a list ``["a", "b"]``).  ``"ranked"``: columns
        *item*, *annotator*, *label*, *rank*, one row per label.  ``"auto"``:
        ranked when the file has a *rank* column, else compact.
    item, annotator, labels, label, rank : str
        Column names.
    sep : str
        Separator inside a compact cell.
    categories : sequence, optional
        The label vocabulary; default the labels seen.

    Returns
    -------
    MultiLabelData

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> f = os.path.join(d, "x.csv")
    >>> _ = open(f, "w").write('item,annotator,labels\\nm1,A,"q,a"\\nm1,B,a\\n')
    >>> read_multilabel(f).labels_of("A", "m1")
    ('q', 'a')
    """
    if format not in ("auto", "compact", "ranked"):
        raise AccordError(f"format must be 'auto', 'compact' or 'ranked'; got {format!r}")
    from accord.data._columns import refuse_repeated
    from accord.data._read import read_table

    p = Path(path)
    frame, lines = read_table(p, convert=False)
    fmt = format
    if fmt == "auto":
        fmt = "ranked" if rank in frame.columns else "compact"
    refuse_repeated(frame, str(p), {"item": item, "annotator": annotator, **(
        {"label": label, "rank": rank} if fmt == "ranked" else {"labels": labels})})
    frame = frame.astype(object)
    lines = lines.tolist()
    if fmt == "ranked":
        return MultiLabelData.from_ranked(
            frame, item=item, annotator=annotator, label=label, rank=rank, categories=categories,
            source=str(p), row_numbers=lines,
        )
    return MultiLabelData.from_records(
        frame, item=item, annotator=annotator, labels=labels, sep=sep, categories=categories,
        source=str(p), row_numbers=lines,
    )


def load_multilabel_example() -> MultiLabelData:
    """The bundled example: a small **synthetic** data set (not from the paper).

    Three annotators (``ann1``-``ann3``) label 24 messages with one or two of
    five email categories, six messages built for each of the four classes of
    Rosenberg & Binkowski (2004, section 6); a 25th message is labelled by
    ``ann1`` only, to show how such items are reported.  Written by hand; see
    ``docs/multilabel.md``.

    Examples
    --------
    >>> load_multilabel_example()
    MultiLabelData(25 items, 3 annotators, 5 categories, 73 labelled cells, at most 2 labels per cell)
    """
    ref = resources.files("accord").joinpath("datasets", "multilabel_example.csv")
    with resources.as_file(ref) as path:
        return read_multilabel(path)
