"""The reliability of coreference files, as ``accord coref`` measures it: alpha, or one response's scores.

:func:`coref_files` reads one annotation per coder (and a key), decides what applies (alpha over the mentions
with two or more coders; with one response and a key, the reference scorer's scores alone), computes it with
its bootstrap intervals, and returns one :class:`CorefRun` with the notes of the reading and the warnings of
the computation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord._shared.caught import caught_warnings
from accord._shared.errors import AccordError, choice_error

__all__ = ["SET_DISTANCES", "CorefRun", "coref_files"]

#: the set distances beside nominal
SET_DISTANCES = ("set-relation", "masi-2006", "masi-2010", "jaccard", "dice")


@dataclass(frozen=True)
class CorefRun:
    """What :func:`coref_files` gives.

    Attributes
    ----------
    data : CorefAnnotations
        The coders' chains.
    key : CorefAnnotations or None
    reliability : CorefReliability or None
        Alpha (two or more coders), with the scores against the key.
    scores : CorefScores or None
        One response scored against the key (one coder and a key: no alpha).
    intervals : dict
        Distance -> ``[low, high]``, the 95% bootstrap interval of alpha under the paper's convention.
    bootstrap, seed
        The resamples of documents (0: none) and the seed.
    notes : tuple of Message
        What the reading decided (a format guessed...), once each.
    warnings : tuple of Message
        What the computation warned of, once each.
    """

    data: Any
    key: Any = None
    reliability: Any = None
    scores: Any = None
    intervals: dict[str, list[float]] | None = None
    bootstrap: int = 0
    seed: int | None = None
    notes: tuple[Any, ...] = ()
    warnings: tuple[Any, ...] = ()


def coref_files(
    files: list[Path],
    *,
    format: str = "auto",
    distance: str = "set-relation",
    key: Path | None = None,
    missing_mentions: str = "singleton",
    duplicates: str = "error",
    coders: list[str] | None = None,
    bootstrap: int = 0,
    seed: int | None = None,
    align: str = "tokens",
    progress: bool = False,
) -> CorefRun:
    """Alpha over the mentions of *files* (one annotation per coder), both value conventions, with *key* the
    standard scores too; one file and a key: that response's scores against the key.

    Parameters
    ----------
    files : list of paths
        One annotation per coder (a file or a folder of files), read by :func:`read_coref` with *format*,
        *coders*, *missing_mentions*, *duplicates* and *align*.
    distance : str
        The set distance beside nominal (:data:`SET_DISTANCES`), or ``"nominal"`` alone.
    key : path, optional
        A key (gold) annotation: MUC, B3, CEAF, BLANC and LEA of each coder.
    bootstrap, seed
        Resamples of documents for the 95% interval of alpha under each distance (0: none).
    progress : bool
        Show the bootstrap's progress on stderr.
    """
    from accord.coref._alpha import default_convention
    from accord.coref._readers import read_coref
    from accord.coref._report import coref_reliability
    from accord.coref._scores import coref_scores
    from accord.coref._tokens import check_align

    if distance not in SET_DISTANCES and distance != "nominal":
        raise choice_error("distance", distance, SET_DISTANCES)
    if duplicates not in ("error", "first"):
        raise AccordError(f"duplicates must be 'error' or 'first'; got {duplicates!r}",
                          cli=f"--duplicates must be 'error' or 'first'; got {duplicates!r}")
    if bootstrap < 0:
        raise AccordError(f"bootstrap must be >= 0; got {bootstrap}", cli=f"--bootstrap must be >= 0; got {bootstrap}")
    check_align(align)
    data, notes = caught_warnings(read_coref, files, format=format, coders=coders, missing_mentions=missing_mentions,
                                  duplicates=duplicates, align=align)
    key_data = None
    if key is not None:
        key_data, more = caught_warnings(read_coref, [key], format=format, duplicates=duplicates)
        notes = [*notes, *more]
    if len(data.coders) == 1:
        if key_data is None:
            raise AccordError(
                f"{', '.join(map(str, files))}: one coder ({data.coders[0]!r}); alpha needs a second annotation, "
                "or give key= to score this response against a key",
                cli=f"{', '.join(map(str, files))}: one coder ({data.coders[0]!r}); alpha needs a second "
                "annotation, or give --key KEY to score this response against a key")
        if bootstrap:
            raise AccordError("bootstrap resamples alpha; one response scored against a key has no alpha",
                              cli="--bootstrap resamples alpha; one response scored against --key has no alpha")
        scores, said = caught_warnings(coref_scores, key_data, data, align=align)
        return CorefRun(data=data, key=key_data, scores=scores, notes=tuple(notes), warnings=tuple(said))
    dists = ("nominal",) if distance == "nominal" else ("nominal", distance)
    rep, said = caught_warnings(coref_reliability, data, distances=dists, key=key_data, align=align)
    intervals: dict[str, list[float]] = {}
    if bootstrap:
        from accord._shared.progress import Progress

        with Progress(enabled=progress, total=len(rep.alpha), label="accord coref") as prog:
            for dist, by_conv in rep.alpha.items():
                res = by_conv[default_convention(dist)]
                with prog.step(f"bootstrap of alpha with {dist}: {bootstrap} resamples of documents"):
                    intervals[dist] = list(res.confidence_interval(0.95, n_resamples=bootstrap, rng=seed))
    return CorefRun(data=data, key=key_data, reliability=rep, intervals=intervals, bootstrap=bootstrap, seed=seed,
                    notes=tuple(notes), warnings=tuple(said))
