"""``accord coref``: reliability of coreference chains, and the standard scores against a key."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from accord.cli._common import cli_errors, console, print_json
from accord.coref.alpha import default_convention
from accord.coref.readers import read_coref
from accord.coref.report import CorefReliability, coref_reliability
from accord.errors import AccordError

__all__ = ["register", "render_coref"]

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
        f"{rep.n_documents} document(s), {rep.n_mentions} mentions ({first.n_pairable_units} coded by two or more "
        f"coders), {first.n_classes} distinct classes over {len(rep.coders)} coders; "
        f"{rep.n_partial_mentions} mentions present for only some coders (policy: {rep.missing_mentions})"
    )
    if rep.pairwise:
        p = Table(title="Coder pairs")
        for col in ("coder a", "coder b", "distance", "alpha"):
            p.add_column(col)
        for row in rep.pairwise:
            p.add_row(str(row["coder_a"]), str(row["coder_b"]), row["distance"], _f(row["alpha"]))
        console.print(p)
    for coder, sc in rep.scores.items():
        s = Table(title=f"{coder} against the key")
        for col in ("metric", "recall", "precision", "F1"):
            s.add_column(col, justify="right" if col != "metric" else "left")
        for metric, row in sc.to_frame().iterrows():
            s.add_row(str(metric), _f(row["recall"]), _f(row["precision"]), _f(row["f1"]))
        console.print(s)


def coref(
    files: Annotated[list[Path], typer.Argument(help="One annotation per coder (file or directory of files).")],
    format: Annotated[str, typer.Option(help="auto, conll, brat, jsonl or csv (csv holds a coder column).")] = "auto",
    distance: Annotated[str, typer.Option(help=f"Set distance beside nominal: {', '.join(_DISTANCES)}.")] = (
        "set-relation"
    ),
    key: Annotated[Path | None, typer.Option(help="A key (gold) annotation: adds MUC, B3, CEAF, BLANC, LEA.")] = None,
    missing_mentions: Annotated[
        str, typer.Option(help="Mentions only some coders have: singleton, missing or error.")
    ] = "singleton",
    coders: Annotated[str | None, typer.Option(help="Comma-separated coder names, one per file.")] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples of documents for 95% intervals of alpha (0: none).")
    ] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for the bootstrap.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Reliability of coreference chains (Passonneau 2004): alpha over the mentions, both value conventions.

    Example: accord coref ann1.conll ann2.conll --distance set-relation --key gold.conll
    """
    if distance not in _DISTANCES and distance != "nominal":
        raise AccordError(f"--distance must be one of {', '.join(_DISTANCES)}; got {distance!r}")
    names = [c.strip() for c in coders.split(",")] if coders else None
    data = read_coref(files, format=format, coders=names, missing_mentions=missing_mentions)  # type: ignore[arg-type]
    key_data = read_coref([key], format=format) if key is not None else None
    dists = ("nominal",) if distance == "nominal" else ("nominal", distance)
    if bootstrap < 0:
        raise AccordError(f"--bootstrap must be >= 0; got {bootstrap}")
    rep = coref_reliability(data, distances=dists, key=key_data)
    intervals: dict[str, list[float]] = {}
    if bootstrap:
        for dist, by_conv in rep.alpha.items():
            res = by_conv[default_convention(dist)]
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
            f"{rep.n_documents} documents, seed {seed}): [{lo:.4f}, {hi:.4f}]"
        )


def register(app: typer.Typer) -> None:
    """Add ``coref`` to *app*."""
    app.command("coref")(cli_errors(coref))
