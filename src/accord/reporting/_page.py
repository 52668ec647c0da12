"""The report page: its parts (headline numbers, sections, charts, tables) and how it becomes one HTML file.

The page is rendered by Jinja2 from ``templates/report.html.j2`` with the CSS
and the table script of the package inlined, and the Vega, Vega-Lite and
vega-embed JavaScript taken from ``vl-convert-python``'s bundle
(:func:`vl_convert.javascript_bundle`), so the file works offline: it loads
nothing from the network.  Charts are Vega-Lite specs made with Altair and
drawn in the page by vega-embed; :meth:`Report.write_figures` also writes each
chart as SVG, PNG and PDF through vl-convert (no browser).
"""

from __future__ import annotations

import contextlib
import functools
import html
import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, install_hint
from accord._shared.output import PathLike, check_output, write_output
from accord._shared.results import jsonable

__all__ = ["Chart", "DataTable", "Fact", "HeadlineNumber", "Report", "Section", "fmt_number"]


def _require(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise AccordError(
            f"the report needs {module.split('.')[0]}, part of an optional extra: {install_hint('report')}"
        ) from None


def fmt_number(x: Any, digits: int = 3) -> str:
    """A number as the page shows it: ``undefined`` for NaN/None, integers without decimals.

    Examples
    --------
    >>> fmt_number(0.74342), fmt_number(float("nan")), fmt_number(12), fmt_number(None)
    ('0.743', 'undefined', '12', 'undefined')
    """
    if x is None:
        return "undefined"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or (hasattr(x, "dtype") and getattr(x.dtype, "kind", "") in "iu"):
        return f"{int(x):,}"
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(f):
        return "undefined"
    return f"{f:.{digits}f}"


@dataclass(frozen=True)
class HeadlineNumber:
    """One coefficient at the top of the page.

    Attributes
    ----------
    key : str
        Stable name (``alpha``, ``percent``, ...), the ``data-key`` of the page element.
    label : str
        What the reader sees.
    value : float
        Full precision (the page shows three decimals and keeps the full value in ``data-value``).
    interval : (float, float) or None
        The confidence interval, when there is one.
    interval_note : str
        How the interval was made, or why there is none.
    words : str
        Where the value stands, in words.
    level : str
        ``good``, ``tentative``, ``poor`` or ``neutral`` (the colour of the card).
    """

    key: str
    label: str
    value: float
    interval: tuple[float, float] | None = None
    interval_note: str = ""
    words: str = ""
    level: str = "neutral"

    @property
    def shown(self) -> str:
        return fmt_number(self.value)

    @property
    def data_value(self) -> str:
        return "" if self.value is None or math.isnan(self.value) else repr(float(self.value))

    @property
    def shown_interval(self) -> str:
        """``[low, high]`` to three decimals; empty when there is no interval or an end is undefined."""
        from accord.reporting._words import interval_words

        return interval_words(self.interval)


@dataclass(frozen=True)
class Fact:
    """A labelled number or text in a section's key-figure list."""

    label: str
    value: Any
    note: str = ""

    @property
    def shown(self) -> str:
        return self.value if isinstance(self.value, str) else fmt_number(self.value)


@dataclass(frozen=True)
class Chart:
    """A Vega-Lite chart: the spec (a dict, from Altair) and what it shows.

    ``name`` is the file stem used by ``--figures`` (``name.svg``, ``.png``, ``.pdf``).
    """

    name: str
    title: str
    spec: dict[str, Any]
    caption: str = ""


@dataclass(frozen=True)
class DataTable:
    """A table the reader can sort, filter and export to CSV.

    ``rows`` hold plain values (str, int, float, None); ``kinds`` is ``"num"`` or
    ``"text"`` per column (numbers sort numerically).  The columns named in
    ``p_values`` hold p-values: one below .001 reads "< 0.001" (its CSV keeps
    the number).  ``note`` says what was left out (rows beyond ``max_rows``).
    """

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    kinds: tuple[str, ...] = ()
    note: str = ""
    caption: str = ""
    page_size: int = 50
    p_values: tuple[str, ...] = ()

    def payload(self) -> str:
        kinds = self.kinds or tuple("text" for _ in self.columns)
        rows = [[_cell(v) for v in r] for r in self.rows]
        # a column of measures (any float) shows every number to three decimals, 1 as 1.000 beside 0.788
        decimals = [3 if k == "num" and any(isinstance(r[j], float) for r in rows) else None
                    for j, k in enumerate(kinds)]
        return _script_json({"columns": list(self.columns), "kinds": list(kinds), "rows": rows,
                             "decimals": decimals,
                             "pValues": [c in self.p_values for c in self.columns], "pageSize": self.page_size,
                             "csvName": f"{self.name}.csv"})


def _cell(v: Any) -> Any:
    v = jsonable(v)
    if isinstance(v, float):
        return round(v, 6)
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return v


def _script_json(obj: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` or ``<!--``)."""
    text = json.dumps(jsonable(obj), allow_nan=False, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@dataclass(frozen=True)
class Section:
    """A part of the page: paragraphs, key figures, charts, tables."""

    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    facts: tuple[Fact, ...] = ()
    charts: tuple[Chart, ...] = ()
    tables: tuple[DataTable, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Report:
    """A reliability report: headline numbers and sections; :meth:`to_html` renders it.

    Attributes
    ----------
    title, subtitle : str
    kind : str
        ``agreement``, ``coreference``, ``multilabel``, ``pyramid``, ``gold`` (or ``spans``).
    headline : tuple of HeadlineNumber
    headline_notes : tuple of str
        The distance and why it fits, Krippendorff's thresholds, warnings.
    sections : tuple of Section
    summary : dict
        The headline as JSON-ready data (what ``accord report --json`` prints).
    """

    title: str
    kind: str
    headline: tuple[HeadlineNumber, ...]
    sections: tuple[Section, ...]
    subtitle: str = ""
    headline_notes: tuple[str, ...] = ()
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def charts(self) -> list[Chart]:
        return [c for s in self.sections for c in s.charts]

    def to_html(self, *, raw_csv: bool = False) -> str:
        """The whole page as one self-contained HTML string.

        Every text is escaped (Jinja2's autoescape) and each word holding a
        bidirectional control is isolated in ``<bdi>`` (:func:`accord._shared.sanitize.isolate_html`, the
        template's ``isolate`` filter).  The tables' "Export CSV" writes a cell a spreadsheet would
        run as a formula with a leading ``'`` (the rule of :func:`accord._shared.sanitize.csv_cell`), unless
        *raw_csv*.
        """
        from accord import __version__
        from accord._shared.sanitize import isolate_html

        jinja2 = _require("jinja2")
        env = jinja2.Environment(
            loader=jinja2.PackageLoader("accord.reporting", "templates"),
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        env.filters["isolate"] = isolate_html
        specs = {c.name: c.spec for s in self.sections for c in s.charts}
        template = env.get_template("report.html.j2")
        return template.render(
            report=self,
            version=__version__,
            css=_asset("report.css"),
            table_js=_asset("report.js"),
            vega_js=jinja2.utils.markupsafe.Markup(_vega_bundle()) if specs else "",
            specs_json=jinja2.utils.markupsafe.Markup(_script_json(specs)),
            esc=html.escape,
            raw_csv=raw_csv,
        )

    def save(self, path: PathLike, *, force: bool = False, inputs: tuple[PathLike, ...] = (),
             raw_csv: bool = False) -> Path:
        """Write the page atomically (see :mod:`accord._shared.output`); *raw_csv* as in :meth:`to_html`."""
        return write_output(path, self.to_html(raw_csv=raw_csv), force=force, inputs=inputs)

    def figure_paths(self, folder: PathLike) -> list[Path]:
        """The files :meth:`write_figures` writes: ``name.svg``, ``.png`` and ``.pdf`` per chart."""
        d = Path(folder)
        return [d / f"{c.name}.{ext}" for c in self.charts for ext in ("svg", "png", "pdf")]

    def check_figures(self, folder: PathLike, *, force: bool = False, inputs: tuple[PathLike, ...] = ()) -> None:
        """Refuse, before anything is written, figures that exist (without *force*) or are inputs."""
        d = Path(folder)
        if d.exists() and not d.is_dir():
            raise AccordError(f"figures {d}: exists and is not a folder",
                              cli=f"--figures {d}: exists and is not a folder")
        if d.is_dir():
            for p in self.figure_paths(d):
                check_output(p, force=force, inputs=inputs)

    def write_figures(self, folder: PathLike, *, force: bool = False,
                      inputs: tuple[PathLike, ...] = ()) -> list[Path]:
        """Write each chart as SVG, PNG (2x) and PDF for papers; vl-convert, no browser.

        Every target is checked before the first is written: an existing file
        without ``force`` or an input refuses the whole set.
        """
        vlc = _require("vl_convert")
        d = Path(folder)
        self.check_figures(d, force=force, inputs=inputs)
        d.mkdir(parents=True, exist_ok=True)
        out = []
        for c in self.charts:
            spec = static_spec(c.spec)
            out.append(write_output(d / f"{c.name}.svg", vlc.vegalite_to_svg(spec), force=force, inputs=inputs))
            out.append(write_output(d / f"{c.name}.png", vlc.vegalite_to_png(spec, scale=2), force=force,
                                    inputs=inputs))
            out.append(write_output(d / f"{c.name}.pdf", vlc.vegalite_to_pdf(spec), force=force, inputs=inputs))
        return out


def static_spec(spec: dict[str, Any], width: int = 520) -> dict[str, Any]:
    """The spec with ``width: "container"`` replaced by a fixed width (for files, which have no container), and
    its legends in two columns with their labels whole (the page's script fits them to the chart's box)."""

    def fix(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {k: (width if k == "width" and v == "container" else fix(v)) for k, v in obj.items()}
        if isinstance(obj, list):
            return [fix(v) for v in obj]
        return obj

    out = fix(spec)
    config = dict(out.get("config", {}))
    config["legend"] = {"columns": 2, "labelLimit": 0, **config.get("legend", {})}
    out["config"] = config
    return out


def _asset(name: str) -> Any:
    from markupsafe import Markup

    return Markup(resources.files("accord.reporting").joinpath("templates", name).read_text(encoding="utf-8"))


def cache_dir() -> Path:
    """Where accord keeps files it can make again: ``$ACCORD_CACHE_DIR``, else ``$XDG_CACHE_HOME/accord``,
    else ``~/.cache/accord``."""
    if os.environ.get("ACCORD_CACHE_DIR"):
        return Path(os.environ["ACCORD_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "accord"


@functools.lru_cache(maxsize=1)
def _vega_bundle() -> str:
    """Vega, Vega-Lite and vega-embed as one script, from vl-convert's bundle (no CDN).

    vl-convert bundles the libraries on each call (seconds), so the bundle is kept in :func:`cache_dir`,
    one file per vl-convert version; an unwritable cache only costs the time.
    """
    vlc = _require("vl_convert")
    name = f"vega-bundle-vl-convert-{getattr(vlc, '__version__', 'unknown')}.js"
    path = cache_dir() / name
    try:
        js = path.read_text(encoding="utf-8")
    except OSError:
        js = ""
    if "window.vegaEmbed" not in js:
        js = vlc.javascript_bundle()
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(js)
            os.replace(tmp, path)
    return js.replace("</script", "<\\/script").replace("<!--", "<\\!--")
