"""``accord spans``: agreement on spans (span F1, token alpha and kappa, unitizing alpha)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from accord._shared.errors import AccordError, plural
from accord.cli._common import cli_errors, console, echo, print_json, said
from accord.cli._importing import ImporterArgs
from accord.cli._options import OptionGroup, with_options

__all__ = ["register"]

_NO_IMPORTER = ImporterArgs()
_MATCHES = ("exact", "overlap")
_TOKENS = ("whitespace", "export")  # accord.spans._summary's, repeated so --help imports nothing


def _f(x: Any) -> str:
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def _render(rep: dict[str, Any], *, title: str, show: int, bootstrap: int, seed: int | None,
            confidence: float) -> None:
    from accord.cli._render import print_table, table

    f1 = rep["f1"]
    counts = ("a", "b", "both")
    scores = ("precision", "recall", "micro F1", "macro F1")
    t = table(f"{title}: span F1 per coder pair, {f1.match} match" + (", labels ignored" if f1.ignore_labels else ""),
              ("coder a", "coder b", *counts, *scores), numbers=(*counts, *scores), optional=scores[:2],
              caption="a, b: the spans each coder marked; both: the spans they share"
                      + ("" if f1.ignore_labels else ", with the same label")
                      + "; precision both / b, recall both / a (micro)")
    for p in f1.pairs:
        t.add_row(p.coder_a, p.coder_b, str(p.micro.n_a), str(p.micro.n_b), str(p.micro.true_positives),
                  _f(p.micro.precision), _f(p.micro.recall), _f(p.micro.f1), _f(p.macro.f1))
    print_table(t)
    by_label = [(s, p) for p in f1.pairs for s in p.labels]
    if by_label and not f1.ignore_labels:
        t = table("F1 per label", ("label", "coder a", "coder b", *counts, "F1"), numbers=(*counts, "F1"))
        for s, p in sorted(by_label, key=lambda sp: sp[0].label):
            t.add_row(s.label, p.coder_a, p.coder_b, str(s.n_a), str(s.n_b), str(s.true_positives), _f(s.f1))
        print_table(t)
    console.print(
        f"{plural(f1.n_documents, 'document')} seen by two or more coders, {plural(f1.n_spans, 'span')} compared"
        + (f", {plural(f1.n_spans_unshared, 'span')} in documents only one coder saw (not "
           "compared)" if f1.n_spans_unshared
           else "")
        + f"; mean over coder pairs: micro F1 {_f(f1.micro_f1)}, macro F1 {_f(f1.macro_f1)}"
    )
    if f1.unshared_pairs:
        console.print(
            f"{plural(len(f1.unshared_pairs), 'coder pair has', 'coder pairs have')} no scores (no document in "
            "common): "
            + ", ".join(f"{a}/{b}" for a, b in f1.unshared_pairs)
        )
    tok = rep["tokens"]
    if isinstance(tok, dict):
        console.print(f"token agreement: undefined ({said(tok['undefined_reason'])})")
    else:
        kappa = (f"{said(tok.kappa.coefficient)} {_f(tok.kappa.kappa)}" if tok.kappa is not None
                 else f"kappa undefined ({said(tok.kappa_undefined_reason)})")
        console.print(
            f"token agreement ({tok.tokenisation} tokens, {tok.scheme} values, {plural(tok.n_tokens, 'token')} in "
            f"{plural(tok.n_documents, 'document')}, "
            f"a token outside every span is {tok.outside!r}): alpha {_f(tok.alpha.alpha)}, {kappa}"
            + (f"; {plural(tok.n_multilabel_cells, 'token')} under spans with different "
               "labels" if tok.n_multilabel_cells
               else "")
        )
    uni = rep["unitizing"]
    if isinstance(uni, dict):
        console.print(f"unitizing alpha: undefined ({said(uni['undefined_reason'])})")
    else:
        cats = ", ".join(f"{c.label} {_f(c.alpha)}" for c in uni.categories)
        extra = []
        if uni.n_documents_dropped:
            extra.append(f"{plural(uni.n_documents_dropped, 'document')} not seen by every coder left out")
        if uni.n_documents_without_text:
            extra.append(f"{plural(uni.n_documents_without_text, 'document')} without text end at their last span")
        if uni.n_empty_units_dropped:
            extra.append(f"{plural(uni.n_empty_units_dropped, 'empty span')} left out")
        console.print(
            f"unitizing alpha (Krippendorff): {_f(uni.alpha)} over a continuum of "
            f"{plural(uni.continuum_length, 'character')} "
            f"in {plural(uni.n_documents, 'document')}; per label: {cats}" + (f" ({'; '.join(extra)})" if extra else "")
        )
    for name, ci in rep["confidence_intervals"].items():
        if isinstance(ci, dict):
            console.print(f"{confidence * 100:g}% interval for {name}: undefined ({said(ci['undefined_reason'])})")
        else:
            console.print(
                f"{confidence * 100:g}% bootstrap interval for {name} ({bootstrap} resamples of documents, "
                f"seed {seed}): [{ci[0]:.4f}, {ci[1]:.4f}]"
            )
    if f1.diagnosis and show:
        d = table(f"Unmatched spans ({len(f1.diagnosis)}; first {min(show, len(f1.diagnosis))})",
                  ("document", "coder", "span", "label", "text", "why", "other coder's span"))
        for x in f1.diagnosis[:show]:
            other = (
                "" if x.other_label is None else f"[{x.other_start}, {x.other_end}) {x.other_label} ({x.other_coder})"
            )
            d.add_row(x.document, x.coder, f"[{x.start}, {x.end})", x.label, repr(x.text) if x.text is not None else "",
                      x.kind, other)
        print_table(d)


@dataclass(frozen=True)
class SpanOptions(OptionGroup):
    """The texts, the matching of spans, the tokens, the bootstrap."""

    texts: Annotated[Path | None, typer.Option(help="Document texts: a folder of <document>.txt files, or a "
                                                    "CSV/JSONL file with document and text.")] = None
    match: Annotated[str, typer.Option(help="Span matching for F1: exact or overlap.")] = "exact"
    ignore_labels: Annotated[bool, typer.Option("--ignore-labels", help="F1 on offsets only, whatever the labels.")
                             ] = False
    tokens: Annotated[str, typer.Option(help="Tokens for token alpha/kappa: whitespace or export.")] = "whitespace"
    scheme: Annotated[str, typer.Option(help="A covered token's value: label, or bio (B-label / I-label).")] = "label"
    bootstrap: Annotated[int, typer.Option(help="Bootstrap resamples of documents for intervals (0: none).")] = 0
    confidence: Annotated[float, typer.Option(help="Confidence level of the bootstrap intervals.")] = 0.95
    seed: Annotated[int | None, typer.Option(help="Seed for the bootstrap.")] = None


@dataclass(frozen=True)
class GammaOptions(OptionGroup):
    """Gamma (Mathet et al. 2015): its sampler, precision, alignments and processes."""

    gamma: Annotated[bool, typer.Option("--gamma", help="Also gamma (Mathet et al. 2015): exact best alignment, "
                                                        "chance from sampled continua (--seed).")] = False
    gamma_sampler: Annotated[str, typer.Option(help="Gamma's chance sampler: statistical or shuffle.")
                             ] = "statistical"
    gamma_precision: Annotated[float, typer.Option(help="Relative precision of gamma's expected disorder.")] = 0.02
    gamma_alignment: Annotated[str, typer.Option(
        help="Gamma's best alignments: exact, windowed (an approximation) or auto (exact unless past the limit, "
             "then windowed, said in the output).")] = "auto"
    gamma_window: Annotated[int, typer.Option(help="Units per annotator in a window of the windowed alignment.")
                            ] = 40
    jobs: Annotated[int, typer.Option(help="Processes for gamma (-1: all cores).")] = 1


@with_options
def spans(
    input: Annotated[Path, typer.Argument(help="A span table (CSV/TSV/JSONL: document, coder, start, end, label) "
                                               "or a tool's export (guessed, or named with --from).")],
    options: SpanOptions = SpanOptions(),
    show: Annotated[int, typer.Option(help="Unmatched spans to list (0: none).")] = 20,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar on stderr.")] = False,
    gamma_options: GammaOptions = GammaOptions(),
    importer: ImporterArgs = ImporterArgs(),
) -> None:
    """Agreement on spans: pairwise F1, token alpha and kappa, unitizing alpha.

    Example: accord spans spans.csv --texts docs/ --match overlap
    """
    from accord.spans._study import span_study

    if show < 0:
        raise AccordError(f"--show must be >= 0; got {show}")
    study = span_study(input, importer=importer, **options.as_dict(), **gamma_options.as_dict(), progress=not quiet,
                       say=lambda line: echo(line, err=True))
    data, report, rep, bootstrap = study.data, study.report, study.statistics, options.bootstrap
    if json_out:
        out: dict[str, Any] = {"source": str(input), "match": options.match, "tokens": options.tokens}
        if report is not None:
            out["import_report"] = report.to_dict()
        out.update({"coders": list(data.coders), "n_documents": len(data.documents), "n_spans": len(data.spans),
                    "f1": rep["f1"], "token_agreement": rep["tokens"], "unitizing_alpha": rep["unitizing"]})
        if study.gamma is not None:
            out["gamma"] = study.gamma.to_dict()
        if bootstrap:
            out["confidence_intervals"] = {"confidence_level": options.confidence, "resampled": "documents",
                                           "n_resamples": bootstrap, "seed": options.seed,
                                           **rep["confidence_intervals"]}
        print_json(out)
        return
    for note in getattr(report, "notes", ()):
        console.print(said(note))
    _render(rep, title=f"Span agreement of {input.name}", show=show, bootstrap=bootstrap, seed=options.seed,
            confidence=options.confidence)
    if study.gamma is not None:
        _render_gamma(study.gamma)


def _render_gamma(g: Any) -> None:
    """Gamma's lines under the span tables."""
    if g.undefined_reason:
        console.print(f"gamma: undefined ({said(g.undefined_reason)})")
        return
    lo, hi = g.interval
    console.print(
        f"gamma: {_f(g.gamma)} (sampling interval {_f(lo)} to {_f(hi)}; observed disorder "
        f"{_f(g.observed_disorder)}, expected {_f(g.expected_disorder)} from {g.n_samples} {g.sampler} samples; "
        f"{g.dissimilarity})"
    )
    console.print(f"gamma-cat: {_f(g.gamma_cat)}; gamma-k: "
                  + ", ".join(f"{k} {_f(v)}" for k, v in sorted(g.gamma_k.items())))
    unaligned = sum(d.n_unaligned for d in g.documents)
    console.print(f"best alignment: {plural(sum(d.n_unitary_alignments for d in g.documents), 'unitary alignment')} "
                  f"of {plural(g.n_units, 'unit')}, {plural(unaligned, 'unit')} left alone")
    if g.approximate:
        docs = [d.document for d in g.documents if d.alignment == "windowed"]
        console.print(f"APPROXIMATE: windowed alignment (not the exact best) for {plural(len(docs), 'document')}"
                      + (f" ({', '.join(docs[:5])}{', ...' if len(docs) > 5 else ''})" if docs else "")
                      + f" and {g.n_windowed_samples} of {g.n_samples} samples; a windowed disorder is at least the "
                        "exact one")


def register(app: typer.Typer) -> None:
    """Add ``spans`` to *app*."""
    app.command("spans")(cli_errors(spans))
