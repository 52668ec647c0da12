"""The reliability report: one self-contained HTML page to read, share and act on.

:func:`report` writes the page of a result or of data (``accord.report``);
:func:`build_report` returns the :class:`~accord.reporting._page.Report` without
writing it.  The heavy parts (Jinja2, Altair, vl-convert: the ``report`` extra)
are imported only when a page is built.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from accord._shared.output import PathLike

if TYPE_CHECKING:
    from accord.reporting._page import Report

__all__ = ["KINDS", "ReportFile", "build_report", "report", "report_files"]

_PathBase: Any = type(Path())  # PosixPath or WindowsPath: Path itself cannot be subclassed before Python 3.12


class ReportFile(_PathBase):
    """The path of a written report (a :class:`pathlib.Path`) that a notebook shows inline.

    In Jupyter the value of ``accord.report(...)`` is the page itself, in a sandboxed frame (its
    scripts run, it reaches nothing of the notebook), above the name of the file written.
    """

    def _repr_html_(self) -> str:
        page = self.read_text(encoding="utf-8")
        return (f'<iframe srcdoc="{html.escape(page, quote=True)}" title="{html.escape(self.name, quote=True)}" '
                'sandbox="allow-scripts allow-downloads allow-popups" '
                'style="width:100%;height:640px;border:1px solid #ddd"></iframe>'
                f'<div style="color:#666;font-size:0.85em">written to {html.escape(str(self))}</div>')

KINDS = ("agreement", "coreference", "multilabel", "pyramid", "gold", "spans", "models", "judge", "relations")


def build_report(obj: Any, **options: Any) -> Report:
    """The report of *obj* (data or a result), not yet written; see :func:`report` for what is accepted."""
    from accord.reporting._build import build

    return build(obj, **options)


def report(
    result_or_data: Any,
    path: PathLike,
    *,
    force: bool = False,
    figures: PathLike | None = None,
    raw_csv: bool = False,
    **options: Any,
) -> Path:
    """Write the reliability report of *result_or_data* as one self-contained HTML file.

    Parameters
    ----------
    result_or_data
        Reliability data (:class:`accord.Annotations`), coreference chains
        (:class:`accord.CorefAnnotations`), multi-label data
        (:class:`accord.MultiLabelData`), span annotations, an annotation tool's export as
        :func:`accord.read_export` returns it, a pyramid with peer annotations
        (``(Pyramid, [PeerAnnotation, ...])``), a gold-standard table
        (``pandas.DataFrame`` with ``kind="gold"``), or a result: an
        :class:`accord.AlphaResult`, :class:`accord.CorefReliability`,
        :class:`accord.GoldStandard`, ``PeerScores``.
    path : str or path-like
        The HTML file; written atomically, an existing file replaced only with *force*.
    force : bool, keyword-only
    figures : path-like, optional, keyword-only
        Also write each chart as SVG, PNG and PDF in this folder.
    raw_csv : bool, keyword-only
        The page's "Export CSV" writes every cell as it is; by default a cell
        beginning with ``=``, ``+``, ``-``, ``@`` (a spreadsheet formula) gets a
        leading ``'`` (:func:`accord._shared.sanitize.csv_cell`).
    **options
        Of the kind: ``distance``, ``coefficients``, ``bootstrap`` (resamples, default 1000),
        ``seed``, ``confidence``, ``max_rows``, ``title``, ``kind``, ``progress`` and those of
        coreference (``key``, ``set_distance``), multi-label (``p``, ``rule``, ``tolerance``,
        ``high``), pyramid (``convention``), gold (``target_gamma``, ``p``, ``incomplete``) and humans and
        models (``kind="models"`` with ``models``, ``epsilon``, ``alpha``, ``scoring``, ``min_items``,
        ``min_humans``, ``max_dissent``; an :class:`accord.AltTestResult` gets that page by itself).

    Returns
    -------
    ReportFile
        The file written: a :class:`pathlib.Path` that a notebook shows as the page itself.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from accord.datasets import load_krippendorff2011
    >>> out = report(load_krippendorff2011(), pathlib.Path(tempfile.mkdtemp()) / "r.html", bootstrap=200, seed=1)
    >>> "Krippendorff (2004)" in out.read_text()
    True
    """
    from accord._shared.output import check_output

    check_output(path, force=force)
    rep = build_report(result_or_data, **options)
    if figures is not None:
        rep.check_figures(figures, force=force)
    out = rep.save(path, force=force, raw_csv=raw_csv)
    if figures is not None:
        rep.write_figures(figures, force=force)
    return ReportFile(out)


def report_files(inputs: list[Path], **options: Any) -> Any:
    """Write the report of the files *inputs* as ``accord report`` does: the kind told from the files, the
    inputs read as the kind's command reads them (:func:`accord.reporting._files.report_files`)."""
    from accord.reporting._files import report_files as _report_files

    return _report_files(inputs, **options)
