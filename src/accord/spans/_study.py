"""Span agreement of one input, as ``accord spans`` measures it: F1, token agreement, unitizing alpha, gamma.

:func:`span_study` reads a span table or an annotation tool's export (its importer options checked), refuses
an export that holds values rather than spans (naming the command that measures them), and computes
:func:`span_statistics` and, when asked, gamma.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, choice_error

__all__ = ["SpanStudy", "read_span_export", "span_study"]

_MATCHES = ("exact", "overlap")
_TOKENS = ("whitespace", "export")


@dataclass(frozen=True)
class SpanStudy:
    """What :func:`span_study` gives: the spans, the import's report (an export's), the statistics, gamma."""

    data: Any
    report: Any
    statistics: dict[str, Any]
    gamma: Any = None


def span_study(
    path: str | Path,
    *,
    importer: Any = None,
    texts: str | Path | None = None,
    match: str = "exact",
    ignore_labels: bool = False,
    tokens: str = "whitespace",
    scheme: str = "label",
    bootstrap: int = 0,
    confidence: float = 0.95,
    seed: int | None = None,
    gamma: bool = False,
    gamma_sampler: str = "statistical",
    gamma_precision: float = 0.02,
    gamma_alignment: str = "auto",
    gamma_window: int = 40,
    jobs: int = 1,
    progress: bool = False,
    say: Any = None,
) -> SpanStudy:
    """Span F1, token alpha and kappa, unitizing alpha (and gamma) of the spans in *path*.

    Parameters
    ----------
    path : path
        A span table (document, coder, start, end, label) or a tool's export (guessed, or named by
        *importer*, an :class:`accord.importers.ImportOptions`).
    texts : path, optional
        Document texts: a folder of ``<document>.txt`` files, or a CSV/JSONL file with document and text.
    match, ignore_labels, tokens, scheme, bootstrap, confidence, seed
        As :func:`span_statistics` takes them.
    gamma : bool
        Also gamma (Mathet et al. 2015) with *gamma_sampler*, *gamma_precision*, *gamma_alignment*,
        *gamma_window*, *jobs* processes, seeded by *seed*.
    progress : bool
        Show progress on stderr.
    say : callable, optional
        Called with each line to tell the user while reading (a format guessed).
    """
    from accord.spans._summary import span_statistics

    if match not in _MATCHES:
        raise choice_error("match", match, _MATCHES)
    if tokens not in _TOKENS:
        raise choice_error("tokens", tokens, _TOKENS)
    if scheme not in ("label", "bio"):
        raise choice_error("scheme", scheme, ("label", "bio"))
    if bootstrap < 0:
        raise AccordError(f"bootstrap must be >= 0; got {bootstrap}", cli=f"--bootstrap must be >= 0; got {bootstrap}")
    if not 0 < confidence < 1:
        raise AccordError(f"confidence must be in (0, 1); got {confidence}",
                          cli=f"--confidence must be in (0, 1); got {confidence}")
    path = Path(path)
    data, report = read_span_export(path, importer, Path(texts) if texts is not None else None, say=say)
    if tokens == "export" and data.tokens is None:
        raise AccordError(f"tokens='export': {data.source or path} carries no tokenisation; use 'whitespace'",
                          cli=f"--tokens export: {data.source or path} carries no tokenisation; use whitespace")
    stats = span_statistics(data, match=match, tokens=tokens, bootstrap=bootstrap, confidence=confidence, seed=seed,
                            ignore_labels=ignore_labels, scheme=scheme, quiet=not progress)
    g = None
    if gamma:
        from accord.spans._gamma import gamma as gamma_of

        g = gamma_of(data, sampler=gamma_sampler, precision=gamma_precision, alignment=gamma_alignment,
                     window=gamma_window, n_jobs=jobs, progress=progress, rng=seed)
    return SpanStudy(data=data, report=report, statistics=stats, gamma=g)


def read_span_export(input: Path, importer: Any, texts: Path | None, *, say: Any = None) -> tuple[Any, Any]:
    """The spans of *input* (a span table, or a tool's export with the importer options) and the import's report."""
    from accord.importers._input import ImportOptions, load_export, suggest
    from accord.spans._readers import export_spans, is_span_table, read_spans, read_texts

    importer = importer or ImportOptions()
    text_map = read_texts(texts) if texts is not None else None
    if importer.tool is None and is_span_table(input):
        if importer.given():
            flag = importer.given()[0]
            value = {"--field": importer.field, "--sheet": importer.sheet, "--offsets": importer.offsets,
                     "--option": importer.option[0] if importer.option else None}[flag]
            raise AccordError(f"{flag} {value!r}: {input} is a span table, which has no fields or importer options; "
                              f"{flag} reads a tool's export (--from)")
        return read_spans(input, texts=text_map), None
    imported = load_export(input, importer, plain_fallback=False, fits="spans", say=say)
    if imported.spans is None:
        what = "this export" if imported.field is None else f"field {imported.field!r} of this {imported.tool} export"
        raise AccordError(f"{input}: {what} holds {imported.kind} values, not spans; measure their agreement with "
                          f"{suggest('agree', input, importer, tool=imported.tool, field=imported.field)}, or "
                          "pick a span field with --field")
    imported = export_spans(imported, input, text_map)
    return imported.spans, imported.report
