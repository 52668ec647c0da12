"""``accord coref``: reliability of coreference chains, and the standard scores against a key."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from accord._shared.errors import AccordError, AccordWarning, choice_error, plural
from accord._shared.names import CONLL, COREF_METRICS
from accord.cli._common import cli_errors, console, note, print_json, said, warnings_said
from accord.coref._alpha import default_convention
from accord.coref._model import CorefAnnotations
from accord.coref._readers import read_coref
from accord.coref._report import CorefReliability, coref_reliability
from accord.coref._scores import CorefScores, coref_scores
from accord.coref._tokens import check_align

__all__ = ["register", "render_coref", "render_scores"]

_DISTANCES = ("set-relation", "masi-2006", "masi-2010", "jaccard", "dice")


def _f(x: float) -> str:
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def render_coref(rep: CorefReliability, *, title: str) -> None:
    """Print a coreference reliability report as rich tables."""
    t = Table(title=title)
    t.add_column("distance")
    t.add_column("value of a mention")
    t.add_column("alpha", justify="right")
    t.add_column("D_o", justify="right")
    t.add_column("D_e", justify="right")
    t.add_column("paper's convention", justify="center")
    for dist, by_conv in rep.alpha.items():
        for conv, res in by_conv.items():
            label = "its class" if conv == "classes" else "its class less the mention"
            mark = "yes" if default_convention(dist) == conv else ""
            t.add_row(dist, label, _f(res.alpha), _f(res.observed_disagreement), _f(res.expected_disagreement), mark)
    console.print(t)
    first = next(iter(rep.alpha.values()))["classes"]
    console.print(
        f"{plural(rep.n_documents, 'document')}, {plural(rep.n_mentions, 'mention')} ({first.n_pairable_units} "
        "coded by two or more "
        f"coders), {first.n_classes} distinct classes over {plural(len(rep.coders), 'coder')}; "
        f"{plural(rep.n_partial_mentions, 'mention')} present for only some coders (policy: {rep.missing_mentions})"
    )
    if rep.pairwise:
        p = Table(title="Coder pairs")
        for col in ("coder a", "coder b", "distance", "alpha"):
            p.add_column(col)
        for row in rep.pairwise:
            p.add_row(str(row["coder_a"]), str(row["coder_b"]), row["distance"], _f(row["alpha"]))
        console.print(p)
    for coder, sc in rep.scores.items():
        render_scores(sc, title=f"{coder} against the key")


def render_scores(scores: CorefScores, *, title: str) -> None:
    """Print the MUC, B-cubed, CEAF, BLANC and LEA scores of one response as a rich table."""
    s = Table(title=title)
    for col in ("metric", "recall", "precision", "F1"):
        s.add_column(col, justify="right" if col != "metric" else "left")
    for metric, row in scores.to_frame().iterrows():
        if metric == "conll":  # an average of three F1s: it has no recall or precision of its own
            s.add_row(CONLL, "", "", _f(row["f1"]))
        else:
            s.add_row(COREF_METRICS.get(str(metric), str(metric)), _f(row["recall"]), _f(row["precision"]),
                      _f(row["f1"]))
    console.print(s)


def _read(paths: list[Path], notes: list[str], **kwargs: Any) -> CorefAnnotations:
    """read_coref, with its AccordWarnings (format guesses) collected as notes for stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        data = read_coref(paths, **kwargs)
    notes += [said(w.message) for w in caught if issubclass(w.category, AccordWarning)]
    return data


def _score_one(data: CorefAnnotations, key: Path, key_data: CorefAnnotations, json_out: bool,
               notes: list[str], align: str) -> None:
    """One response against the key: the reference scorer's use, no alpha."""
    coder = data.coders[0]
    for text in notes:
        note(text)
    scores = warnings_said(coref_scores, key_data, data, align=align)
    if json_out:
        print_json({"response": str(coder), "key": str(key), "n_documents": scores.n_documents,
                    "n_mentions": data.n_mentions, "scores": scores})
        return
    render_scores(scores, title=f"{coder} against the key {key.name}")
    console.print(f"{plural(scores.n_documents, 'key document')} scored; CoNLL F1 "
                  f"{_f(scores.conll_f1)}", highlight=False)


def coref(
    files: Annotated[list[Path], typer.Argument(help="One annotation per coder (file or directory of files); "
                                                "with --key, a single response is scored against the key.")],
    format: Annotated[str, typer.Option(help="auto (by extension, else by content, the guess stated), conll, brat, "
                                         "jsonl, csv (csv holds a coder column) or corefud (CoNLL-U with Entity= "
                                         "in MISC).")] = "auto",
    distance: Annotated[str, typer.Option(help=f"Set distance beside nominal: {', '.join(_DISTANCES)}.")] = (
        "set-relation"
    ),
    key: Annotated[
        Path | None, typer.Option(help="A key (gold) annotation: adds MUC, B3, CEAF, BLANC, LEA (with one response: "
                                  "those scores alone, no alpha).")
    ] = None,
    missing_mentions: Annotated[
        str, typer.Option(help="Mentions only some coders have: singleton, missing or error.")
    ] = "singleton",
    duplicates: Annotated[
        str, typer.Option(help="A mention one file puts in two chains: error, or first (keep the first, as the "
                          "reference scorer does).")
    ] = "error",
    coders: Annotated[str | None, typer.Option(help="Comma-separated coder names, one per file.")] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples of documents for 95% intervals of alpha (0: none).")
    ] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for the bootstrap.")] = None,
    align: Annotated[
        str, typer.Option(help="How the files' tokens line up (CoNLL, CorefUD): tokens (each file must hold the same "
                          "tokens; a difference is an error naming document, sentence and token) or words (align "
                          "them by their words and say the differences).")
    ] = "tokens",
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar on stderr.")] = False,
) -> None:
    """Reliability of coreference chains (Passonneau 2004): alpha over the mentions, both value conventions.

    Examples: accord coref ann1.conll ann2.conll --distance set-relation --key gold.conll;
    accord coref system.conll --key gold.v4_gold_conll (one response scored against the key, no alpha)
    """
    if distance not in _DISTANCES and distance != "nominal":
        raise choice_error("distance", distance, _DISTANCES)
    if duplicates not in ("error", "first"):
        raise AccordError(f"--duplicates must be 'error' or 'first'; got {duplicates!r}")
    if bootstrap < 0:
        raise AccordError(f"--bootstrap must be >= 0; got {bootstrap}")
    check_align(align)
    names = [c.strip() for c in coders.split(",")] if coders else None
    notes: list[str] = []
    data = _read(files, notes, format=format, coders=names, missing_mentions=missing_mentions,
                 duplicates=duplicates, align=align)
    key_data = _read([key], notes, format=format, duplicates=duplicates) if key is not None else None
    if len(data.coders) == 1:
        if key is None or key_data is None:
            raise AccordError(
                f"{', '.join(map(str, files))}: one coder ({data.coders[0]!r}); alpha needs a second annotation, "
                "or give --key KEY to score this response against a key"
            )
        if bootstrap:
            raise AccordError("--bootstrap resamples alpha; one response scored against --key has no alpha")
        _score_one(data, key, key_data, json_out, notes, align)
        return
    for text in notes:
        note(text)
    dists = ("nominal",) if distance == "nominal" else ("nominal", distance)
    rep = warnings_said(coref_reliability, data, distances=dists, key=key_data, align=align)
    intervals: dict[str, list[float]] = {}
    if bootstrap:
        from accord._shared.progress import Progress

        with Progress(enabled=not quiet, total=len(rep.alpha), label="accord coref") as prog:
            for dist, by_conv in rep.alpha.items():
                res = by_conv[default_convention(dist)]
                with prog.step(f"bootstrap of alpha with {dist}: {bootstrap} resamples of documents"):
                    intervals[dist] = list(res.confidence_interval(0.95, n_resamples=bootstrap, rng=seed))
    if json_out:
        out = rep.to_dict()
        if intervals:
            out["confidence_intervals"] = {
                "confidence_level": 0.95, "resampled": "documents", "n_resamples": bootstrap, "seed": seed,
                **intervals,
            }
        print_json(out)
        return
    render_coref(rep, title=f"Coreference reliability of {', '.join(f.name for f in files)}")
    for dist, (lo, hi) in intervals.items():
        console.print(
            f"95% bootstrap interval for alpha with {dist} ({default_convention(dist)}; {bootstrap} resamples of "
            f"{plural(rep.n_documents, 'document')}, seed {seed}): [{lo:.4f}, {hi:.4f}]"
        )


def register(app: typer.Typer) -> None:
    """Add ``coref`` to *app*."""
    app.command("coref")(cli_errors(coref))
