"""A pyramid or a peer annotation from its file: DUCView's ``.pyr``/``.pan``, or accord's JSON form."""

from __future__ import annotations

from pathlib import Path

from accord._shared.errors import AccordError
from accord.pyramid._ducview import read_peer_annotation, read_pyramid
from accord.pyramid._jsonio import read_json
from accord.pyramid._model import PeerAnnotation, Pyramid

__all__ = ["load_peer", "load_pyramid"]


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
