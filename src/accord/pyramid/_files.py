"""Pyramids and peer annotations from their files (DUCView's ``.pyr``/``.pan``, or accord's JSON form), and what
``accord pyramid``'s commands compute from files: the overview, the scores, the agreements."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError
from accord._shared.results import Result
from accord.pyramid._ducview import read_peer_annotation, read_pyramid
from accord.pyramid._jsonio import read_json
from accord.pyramid._model import PeerAnnotation, Pyramid

__all__ = ["PyramidOverview", "load_peer", "load_pyramid", "peer_agreement_files", "pyramid_agreement_files",
           "pyramid_overview", "score_files"]


def load_pyramid(path: Path, start_regex: str | None = None) -> Pyramid:
    """The pyramid of *path* (a ``.pyr``, read with *start_regex* where given, or the JSON form)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        obj = read_json(path)
        if not isinstance(obj, Pyramid):
            raise AccordError(f"file {path}: holds a peer annotation, not a pyramid")
        return obj
    return read_pyramid(path, start_regex=start_regex)


def load_peer(path: Path, start_regex: str | None = None) -> PeerAnnotation:
    """The peer annotation of *path* (a ``.pan``, read with *start_regex* where given, or the JSON form)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        obj = read_json(path)
        if not isinstance(obj, PeerAnnotation):
            raise AccordError(f"file {path}: holds a pyramid, not a peer annotation")
        return obj
    return read_peer_annotation(path, start_regex=start_regex)


@dataclass(frozen=True)
class PyramidOverview(Result):
    """A pyramid's tiers, weights and validation, as ``accord pyramid show`` prints them (:func:`pyramid_overview`).

    Attributes
    ----------
    pyramid : Pyramid
    validation : ValidationReport
    tiers : TierTable
    weights : dict
        SCU id -> weight, by *weight* (``models`` or ``contributors``).
    weight : str
    """

    pyramid: Any
    validation: Any
    tiers: Any
    weights: dict[Any, Any]
    weight: str = "models"


def pyramid_overview(path: Path, *, style: str = "partition", weight: str = "models", start_regex: str | None = None,
                     peer: Path | None = None) -> PyramidOverview:
    """The tiers, weights and validation report (guideline *style*) of the pyramid in *path*; with *peer*, a peer
    annotation whose embedded pyramid's start regex finds the models when the pyramid's file has none."""
    from accord.pyramid._ducview import models_from_peers
    from accord.pyramid._model import check_pyramid
    from accord.pyramid._scores import tier_table

    if weight not in ("models", "contributors"):
        raise AccordError(f"weight: must be 'models' or 'contributors', got {weight!r}",
                          cli=f"--weight: must be 'models' or 'contributors', got {weight!r}")
    pyr = load_pyramid(path, start_regex)
    if peer is not None:
        pyr = models_from_peers(pyr, [load_peer(peer, start_regex)])
    report = check_pyramid(pyr, style=style)  # type: ignore[arg-type]
    return PyramidOverview(pyramid=pyr, validation=report, tiers=tier_table(pyr, by=weight),  # type: ignore[arg-type]
                           weights=pyr.weights(by=weight), weight=weight)  # type: ignore[arg-type]


def score_files(pyramid: Path, peers: list[Path], *, convention: str = "paper", start_regex: str | None = None,
                against: str = "given") -> Any:
    """:func:`score_peers` of the peer annotations in *peers* against the pyramid in *pyramid* (or, *against*
    ``"embedded"``, the pyramid each ``.pan`` embeds); peers whose embedded pyramid differs are in its notes."""
    import warnings

    from accord._shared.errors import AccordWarning
    from accord.pyramid._scores import EMBEDDED_NOTE, score_peers

    if against not in ("given", "embedded"):
        raise AccordError(f"against must be 'given' or 'embedded'; got {against!r}",
                          cli=f"--pyramid must be 'given' or 'embedded'; got {against!r}")
    pyr = load_pyramid(pyramid, start_regex)
    loaded = [load_peer(p, start_regex) for p in peers]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", EMBEDDED_NOTE, AccordWarning)  # in the notes
        return score_peers(loaded, pyr, convention=convention, against=against)  # type: ignore[arg-type]


def pyramid_agreement_files(a: Path, b: Path, *, distances: Any = None, start_regex: str | None = None) -> Any:
    """:func:`pyramid_agreement` of the pyramids in *a* and *b* (default distances nominal, jaccard, masi-2006,
    masi-2010)."""
    from accord.pyramid._agreement import pyramid_agreement

    dists = tuple(distances) if distances else ("nominal", "jaccard", "masi-2006", "masi-2010")
    return pyramid_agreement(load_pyramid(a, start_regex), load_pyramid(b, start_regex), distances=dists)


def peer_agreement_files(a: Path, b: Path, *, units: str = "found", start_regex: str | None = None) -> Any:
    """:func:`peer_agreement` of the two annotations of one peer in *a* and *b*."""
    from accord.pyramid._agreement import peer_agreement

    return peer_agreement([load_peer(a, start_regex), load_peer(b, start_regex)], units=units)  # type: ignore[arg-type]
