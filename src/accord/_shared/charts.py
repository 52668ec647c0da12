"""Charts as files: an Altair chart saved as SVG, PNG, PDF or HTML through vl-convert, no browser.

accord draws its charts with Altair (Vega-Lite specs) and renders them with
``vl-convert-python``, which bundles the Vega JavaScript and runs it without a
browser or a network connection.  Both are the optional extra
``accord[report]``; they are imported only when a chart is made or saved, and
a missing one is an :class:`~accord.AccordError` naming the extra.

The file's suffix picks the format: ``.svg``, ``.png`` (at twice the chart's
pixel size), ``.pdf``, or ``.html`` (one self-contained page with the Vega
scripts inlined, interactive, working offline).  The file is written through
:mod:`accord._shared.output`: atomically, never over an input, and over an existing
file only with ``force``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from accord._shared.errors import AccordError, install_hint
from accord._shared.output import atomic_output, check_output

__all__ = ["CHART_SUFFIXES", "check_chart_path", "import_altair", "save_chart"]

#: The suffixes :func:`save_chart` writes, in the order error messages list them.
CHART_SUFFIXES: tuple[str, ...] = (".svg", ".png", ".pdf", ".html")

_EXTRA = install_hint("report")


def import_altair() -> ModuleType:
    """Import Altair, or say which extra provides it.

    Returns
    -------
    module
        :mod:`altair`.

    Raises
    ------
    AccordError
        If Altair is not installed.
    """
    try:
        import altair
    except ImportError:
        raise AccordError(f"charts need altair, part of the optional extra accord[report]: {_EXTRA}") from None
    return altair


def _import_vl_convert() -> ModuleType:
    try:
        import vl_convert
    except ImportError:
        raise AccordError(
            f"saving a chart needs vl-convert-python, part of the optional extra accord[report]: {_EXTRA}"
        ) from None
    return vl_convert


def check_chart_path(path: str | Path, *, force: bool = False, inputs: Iterable[str | Path] = ()) -> Path:
    """Check where a chart goes before any work: a known suffix, then :func:`accord._shared.output.check_output`.

    Parameters
    ----------
    path : str or Path
        The file to write; its suffix (``.svg``, ``.png``, ``.pdf``, ``.html``) picks the format.
    force : bool
        Allow replacing an existing file (never one of *inputs*).
    inputs : iterable of str or Path
        The files the chart is made from.

    Returns
    -------
    Path

    Raises
    ------
    AccordError
        On another suffix, or when :func:`accord._shared.output.check_output` refuses the path.

    Examples
    --------
    >>> check_chart_path("sweep.gif")
    Traceback (most recent call last):
    ...
    accord.AccordError: path must end in .svg, .png, .pdf or .html; got 'sweep.gif'
    """
    out = Path(path)
    inputs = list(inputs)
    if inputs:  # one of the inputs is refused as such, whatever its suffix
        check_output(out, force=True, inputs=inputs)
    if out.suffix.lower() not in CHART_SUFFIXES:
        allowed = ", ".join(CHART_SUFFIXES[:-1]) + f" or {CHART_SUFFIXES[-1]}"
        raise AccordError(f"path must end in {allowed}; got {out.name!r}")
    return check_output(out, force=force, inputs=inputs)


def _vl_version(alt: ModuleType, vlc: ModuleType) -> str | None:
    """The Vega-Lite version Altair wrote the spec for, if vl-convert has it (else vl-convert's latest)."""
    want = "v" + ".".join(str(alt.SCHEMA_VERSION).lstrip("v").split(".")[:2])
    have = {v if v.startswith("v") else f"v{v}" for v in vlc.get_vegalite_versions()}
    return want if want in have else None


def save_chart(
    chart: Any, path: str | Path, *, force: bool = False, inputs: Iterable[str | Path] = ()
) -> Path:
    """Save an Altair chart as SVG, PNG, PDF or self-contained HTML, by the suffix of *path*.

    Parameters
    ----------
    chart : altair.Chart or any Altair top-level chart
        The chart (layered and concatenated charts too).
    path : str or Path
        ``.svg``, ``.png``, ``.pdf`` or ``.html``.
    force : bool
        Replace an existing file (never one of *inputs*).
    inputs : iterable of str or Path
        The files the chart is made from; writing over one is refused.

    Returns
    -------
    Path
        The file written.

    Notes
    -----
    Rendering runs the Vega JavaScript bundled in ``vl-convert-python`` (no
    browser); external data URLs are not allowed, the chart's data must be
    inline.  PNG is drawn at scale 2 for print.

    Examples
    --------
    >>> import tempfile, os
    >>> alt = import_altair()
    >>> chart = alt.Chart(alt.Data(values=[{"x": 0, "y": 1}, {"x": 1, "y": 2}])).mark_line().encode(x="x:Q", y="y:Q")
    >>> out = save_chart(chart, os.path.join(tempfile.mkdtemp(), "line.svg"))
    >>> out.read_text().startswith("<svg")
    True
    """
    out = check_chart_path(path, force=force, inputs=inputs)
    alt = import_altair()
    if not isinstance(chart, alt.TopLevelMixin):
        raise AccordError(f"chart must be an Altair chart; got {type(chart).__name__}")
    vlc = _import_vl_convert()
    spec = chart.to_dict()
    version = _vl_version(alt, vlc)
    suffix = out.suffix.lower()
    try:
        if suffix == ".svg":
            data: str | bytes = vlc.vegalite_to_svg(spec, vl_version=version, allowed_base_urls=[])
        elif suffix == ".png":
            data = vlc.vegalite_to_png(spec, vl_version=version, scale=2, allowed_base_urls=[])
        elif suffix == ".pdf":
            data = vlc.vegalite_to_pdf(spec, vl_version=version, allowed_base_urls=[])
        else:
            data = vlc.vegalite_to_html(spec, vl_version=version, bundle=True)
    except ValueError as exc:  # vl-convert reports a bad spec or a refused data URL as ValueError
        why = "; ".join(line.strip() for line in str(exc).splitlines()[:2] if line.strip())
        raise AccordError(f"cannot render the chart for {str(out)!r}: {why}") from None
    try:
        with atomic_output(out, force=force, inputs=inputs) as tmp:
            if isinstance(data, bytes):
                tmp.write_bytes(data)
            else:
                tmp.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise AccordError(f"cannot write chart to {str(out)!r}: {exc.strerror or exc}") from None
    return out
