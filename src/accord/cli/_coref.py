"""``accord coref``: reliability of coreference chains, and the standard scores against a key."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from accord._shared.errors import plural
from accord._shared.names import CONLL, COREF_METRICS
from accord.cli._common import cli_errors, console, note, print_json, warn
from accord.cli._options import OptionGroup, with_options
from accord.cli._render import print_table, table
from accord.coref._alpha import default_convention
from accord.coref._report import CorefReliability
from accord.coref._run import SET_DISTANCES as _DISTANCES
from accord.coref._scores import CorefScores

__all__ = ["register", "render_coref", "render_scores"]


def _f(x: float) -> str:
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def render_coref(rep: CorefReliability, *, title: str) -> None:
    """Print a coreference reliability report as rich tables."""
    t = table(title, ("distance", "value of a mention", "alpha", "D_o", "D_e", "paper's convention"),
              numbers=("alpha", "D_o", "D_e"), centered=("paper's convention",))
    for dist, by_conv in rep.alpha.items():
        for conv, res in by_conv.items():
            label = "its class" if conv == "classes" else "its class less the mention"
            mark = "yes" if default_convention(dist) == conv else ""
            t.add_row(dist, label, _f(res.alpha), _f(res.observed_disagreement), _f(res.expected_disagreement), mark)
    print_table(t)
    first = next(iter(rep.alpha.values()))["classes"]
    console.print(
        f"{plural(rep.n_documents, 'document')}, {plural(rep.n_mentions, 'mention')} ({first.n_pairable_units} "
        "coded by two or more "
        f"coders), {first.n_classes} distinct classes over {plural(len(rep.coders), 'coder')}; "
        f"{plural(rep.n_partial_mentions, 'mention')} present for only some coders (policy: {rep.missing_mentions})"
    )
    if rep.pairwise:
        p = table("Coder pairs", ("coder a", "coder b", "distance", "alpha"), numbers=("alpha",))
        for row in rep.pairwise:
            p.add_row(str(row["coder_a"]), str(row["coder_b"]), row["distance"], _f(row["alpha"]))
        print_table(p)
    for coder, sc in rep.scores.items():
        render_scores(sc, title=f"{coder} against the key")


def render_scores(scores: CorefScores, *, title: str) -> None:
    """Print the MUC, B-cubed, CEAF, BLANC and LEA scores of one response as a rich table."""
    s = table(title, ("metric", "recall", "precision", "F1"), numbers=("recall", "precision", "F1"))
    for metric, row in scores.to_frame().iterrows():
        if metric == "conll":  # an average of three F1s: it has no recall or precision of its own
            s.add_row(CONLL, "", "", _f(row["f1"]))
        else:
            s.add_row(COREF_METRICS.get(str(metric), str(metric)), _f(row["recall"]), _f(row["precision"]),
                      _f(row["f1"]))
    print_table(s)


def _print_one(run: Any, key: Path, json_out: bool) -> None:
    """One response against the key: the reference scorer's scores, no alpha."""
    coder, scores = run.data.coders[0], run.scores
    if json_out:
        print_json({"response": str(coder), "key": str(key), "n_documents": scores.n_documents,
                    "n_mentions": run.data.n_mentions, "scores": scores})
        return
    render_scores(scores, title=f"{coder} against the key {key.name}")
    console.print(f"{plural(scores.n_documents, 'key document')} scored; CoNLL F1 "
                  f"{_f(scores.conll_f1)}", highlight=False)


@dataclass(frozen=True)
class CorefOptions(OptionGroup):
    """How to read the coders' files (and a key), the set distance, the bootstrap."""

    format: Annotated[str, typer.Option(help="auto (by extension, else by content, the guess stated), conll, brat, "
                                         "jsonl, csv (csv holds a coder column) or corefud (CoNLL-U with Entity= "
                                         "in MISC).")] = "auto"
    distance: Annotated[str, typer.Option(help=f"Set distance beside nominal: {', '.join(_DISTANCES)}.")
                        ] = "set-relation"
    key: Annotated[
        Path | None, typer.Option(help="A key (gold) annotation: adds MUC, B3, CEAF, BLANC, LEA (with one response: "
                                  "those scores alone, no alpha).")
    ] = None
    missing_mentions: Annotated[
        str, typer.Option(help="Mentions only some coders have: singleton, missing or error.")
    ] = "singleton"
    duplicates: Annotated[
        str, typer.Option(help="A mention one file puts in two chains: error, or first (keep the first, as the "
                          "reference scorer does).")
    ] = "error"
    coders: Annotated[str | None, typer.Option(help="Comma-separated coder names, one per file.")] = None
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples of documents for 95% intervals of alpha (0: none).")
    ] = 0
    seed: Annotated[int | None, typer.Option(help="Seed for the bootstrap.")] = None
    align: Annotated[
        str, typer.Option(help="How the files' tokens line up (CoNLL, CorefUD): tokens (each file must hold the same "
                          "tokens; a difference is an error naming document, sentence and token) or words (align "
                          "them by their words and say the differences).")
    ] = "tokens"

    def run_options(self) -> dict[str, Any]:
        """The options as :func:`accord.coref.coref_files` takes them."""
        coders = [c.strip() for c in self.coders.split(",")] if self.coders else None
        return {**self.as_dict(), "coders": coders}


@with_options
def coref(
    files: Annotated[list[Path], typer.Argument(help="One annotation per coder (file or directory of files); "
                                                "with --key, a single response is scored against the key.")],
    options: CorefOptions = CorefOptions(),
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar on stderr.")] = False,
) -> None:
    """Reliability of coreference chains (Passonneau 2004): alpha over the mentions, both value conventions.

    Examples: accord coref ann1.conll ann2.conll --distance set-relation --key gold.conll;
    accord coref system.conll --key gold.v4_gold_conll (one response scored against the key, no alpha)
    """
    from accord.coref._run import coref_files

    run = coref_files(files, **options.run_options(), progress=not quiet)
    for text in run.notes:
        note(text)
    for message in run.warnings:
        warn(message)
    if run.scores is not None:
        _print_one(run, options.key, json_out)  # type: ignore[arg-type]
        return
    rep, bootstrap = run.reliability, options.bootstrap
    if json_out:
        out = rep.to_dict()
        if run.intervals:
            out["confidence_intervals"] = {
                "confidence_level": 0.95, "resampled": "documents", "n_resamples": bootstrap, "seed": options.seed,
                **run.intervals,
            }
        print_json(out)
        return
    render_coref(rep, title=f"Coreference reliability of {', '.join(f.name for f in files)}")
    for dist, (lo, hi) in run.intervals.items():
        console.print(
            f"95% bootstrap interval for alpha with {dist} ({default_convention(dist)}; {bootstrap} resamples of "
            f"{plural(rep.n_documents, 'document')}, seed {options.seed}): [{lo:.4f}, {hi:.4f}]"
        )


def register(app: typer.Typer) -> None:
    """Add ``coref`` to *app*."""
    app.command("coref")(cli_errors(coref))
