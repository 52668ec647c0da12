"""The data model and reading: reliability data, tables and confusion matrices read into it.

- :class:`Annotations` (values as interned codes per unit and coder), :func:`as_annotations` for
  matrices and wide frames, the :class:`Layout` and :class:`DuplicatePolicy` options;
- :func:`read` and :func:`read_table` (CSV, TSV, JSON lines, Parquet, spreadsheets, folders), with
  :class:`ReadAs` saying which column was read as what, and :func:`columns_of`;
- confusion matrices: :func:`from_confusion`, :func:`read_confusion`;
- spans: :class:`Span` and :class:`SpanAnnotations`, the model :mod:`accord.spans` measures.

Each name is imported on first use.
"""

from __future__ import annotations

from accord._shared.lazy import exports

_NAMES = {
    **dict.fromkeys(["Annotations", "DuplicatePolicy", "Layout", "as_annotations"], "accord.data._annotations"),
    **dict.fromkeys(["FileFormat", "ReadAs", "columns_of", "read", "read_table"], "accord.data._read"),
    **dict.fromkeys(["from_confusion", "read_confusion"], "accord.data._confusion"),
    **dict.fromkeys(["Span", "SpanAnnotations"], "accord.data._spans"),
}
__all__ = sorted(_NAMES)
__getattr__, __dir__ = exports(__name__, _NAMES)
