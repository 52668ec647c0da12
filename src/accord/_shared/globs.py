"""Globs: one meaning for every engine (:func:`accord.read`, DuckDB, Polars, Dask, Spark).

``*``, ``?`` and ``[...]`` match within one path component, as in :mod:`fnmatch`; a component
``**`` matches any number of folders, none included.  As with :func:`glob.glob`, a name starting
with a dot is matched only by a pattern component starting with a dot.  ``**`` enters symbolic links
to folders, but each real folder once: a link loop ends, and a folder reached through two routes
is read once (through its real path when that is under the same ``**``).  Only regular files are
matched.  A path that exists as written is that path, even when it contains
``*``, ``?`` or ``[``.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

from accord._shared.errors import AccordError, no_such_file

__all__ = ["expand", "glob_files", "is_glob"]

#: The files the lazy engines read, by suffix (a folder given to :func:`expand` is read for these)
_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "tsv", ".tab": "tsv"}

_MAGIC = re.compile(r"[*?[]")


def is_glob(pattern: str | os.PathLike[str]) -> bool:
    """Whether *pattern* is a glob: it has ``*``, ``?`` or ``[`` and no file or folder has that very name."""
    text = os.fspath(pattern)
    return bool(_MAGIC.search(text)) and not os.path.lexists(text)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError:  # unreadable or vanished: nothing matches inside, as glob.glob does
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _matches(name: str, part: str) -> bool:
    if name.startswith(".") and not part.startswith("."):
        return False
    return fnmatch.fnmatchcase(name, part)


def _key(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _folders_below(top: Path, visited: set[tuple[int, int]]) -> list[Path]:
    """*top* and every folder below it (``**``), each real folder once, links entered after real folders."""
    out: list[Path] = []
    links: list[Path] = []
    stack = [top]
    while True:
        while stack:
            folder = stack.pop()
            key = _key(folder)
            if key is None or key in visited:
                continue
            visited.add(key)
            out.append(folder)
            below = []
            for e in _entries(folder):
                if e.name.startswith(".") or not _is_dir(e):
                    continue
                (links if e.is_symlink() else below).append(Path(e.path))
            stack.extend(reversed(below))
        if not links:
            return out
        stack.append(links.pop(0))


def glob_files(pattern: str | os.PathLike[str]) -> list[Path]:
    """The regular files *pattern* matches, sorted (see the module's description for the rules)."""
    text = os.fspath(pattern)
    parts = Path(text).parts
    k = 0
    while k < len(parts) and not _MAGIC.search(parts[k]):
        k += 1
    base = Path(*parts[:k]) if k else Path(".")
    rest = parts[k:]
    if not rest:
        return [base] if base.is_file() else []
    found: set[Path] = set()
    visited: dict[int, set[tuple[int, int]]] = {}  # real folders each ** has entered

    def walk(folder: Path, i: int) -> None:
        part = rest[i]
        last = i == len(rest) - 1
        if part == "**":
            if last:  # "a/**" matches the files of every folder below a
                for f in _folders_below(folder, visited.setdefault(i, set())):
                    found.update(Path(e.path) for e in _entries(f) if not e.name.startswith(".") and _file(e))
                return
            for f in _folders_below(folder, visited.setdefault(i, set())):
                walk(f, i + 1)
            return
        if not _MAGIC.search(part):
            nxt = folder / part
            if last:
                if nxt.is_file():
                    found.add(nxt)
            elif nxt.is_dir():
                walk(nxt, i + 1)
            return
        for e in _entries(folder):
            if not _matches(e.name, part):
                continue
            if last:
                if _file(e):
                    found.add(Path(e.path))
            elif _is_dir(e):
                walk(Path(e.path), i + 1)

    if base.is_dir():
        walk(base, 0)
    return sorted(found)


def _file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def expand(pattern: str | os.PathLike[str]) -> list[Path]:
    """The files a path or glob names, sorted; an AccordError when there are none.

    Globs follow :mod:`accord._shared.globs`, the rules :func:`accord.read` follows too: ``**`` matches any number
    of folders and enters each real folder once (a symbolic link loop ends); a path that exists as
    written is that path.
    """
    text = str(pattern)
    if is_glob(text):
        files = glob_files(text)
        if not files:
            raise AccordError(f"{text}: no file matches")
        return files
    p = Path(text)
    if not p.exists():
        raise no_such_file(p)
    if p.is_dir():
        files = sorted(q for q in p.iterdir() if q.suffix.lower() in _FORMATS)
        if not files:
            raise AccordError(f"{p}: no Parquet or CSV file in this directory")
        return files
    return [p]
