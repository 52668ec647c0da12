"""Writing files a user asked for: atomically, never over an input, never over a file without ``force``.

Every command that writes (``accord gold --out``, ``accord multilabel --plot``,
``accord import -o``, ``accord report -o``) goes through :func:`write_output`
or :func:`atomic_output`:

- an output path that is one of the command's inputs is refused, even with
  ``force`` (the same file reached through another path or a link counts), and
  so is a path inside a folder the command reads (a brat export, a folder of
  ``--texts``): writing there would change the input of the next run;
- an existing file is replaced only with ``force``;
- the bytes go to a temporary file in the same folder, which is then renamed
  over the target, so a reader never sees half a file and a crash leaves the
  old file whole;
- an output path that is a symbolic link is itself replaced by the new file
  (the temporary file is made beside the link, so the rename never crosses
  filesystems); the file it pointed to is left as it was, and accord never
  writes through a link;
- a temporary file an interrupted write left behind (``.NAME.accord-XXXXXXXX.tmp``
  beside NAME) is removed by the next write of NAME once it is older than
  :data:`STALE_TEMP_SECONDS`; nothing else is touched.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from accord._shared.errors import AccordError

__all__ = ["STALE_TEMP_SECONDS", "atomic_output", "check_output", "remove_stale_temps", "write_output"]

PathLike = str | os.PathLike[str]

#: A temporary file of accord's naming older than this (seconds) is left over from a killed write.
STALE_TEMP_SECONDS = 15 * 60
_TEMP_MARK = "accord-"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def _location(out: Path) -> Path:
    """Where *out* is written: its folder resolved, its own name kept (a link is replaced, not followed)."""
    p = out.expanduser()
    return p.parent.resolve() / p.name


def _is_within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def check_output(path: PathLike, *, force: bool = False, inputs: Iterable[PathLike] = ()) -> Path:
    """Validate an output path before any work is done; return it as a :class:`~pathlib.Path`.

    Parameters
    ----------
    path : str or path-like
        Where the output goes.
    force : bool, keyword-only
        Replace an existing file (never an input).
    inputs : iterable of path-like, keyword-only
        The files and folders the command reads; writing over one of them, or
        anywhere inside one of the folders, is refused.

    Raises
    ------
    AccordError
        If *path* is one of *inputs* or lies inside an input folder (even with
        *force*), is a directory, is in a folder that does not exist, or is an
        existing file (or link) and *force* is false.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "in.csv").write_text("x")
    1
    >>> check_output(d / "in.csv", inputs=[d / "in.csv"], force=True)
    Traceback (most recent call last):
    ...
    accord.AccordError: refusing to write ...in.csv: it is an input of this command; choose another output path
    >>> (d / "export").mkdir()
    >>> check_output(d / "export" / "long.csv", inputs=[d / "export"], force=True)
    Traceback (most recent call last):
    ...
    accord.AccordError: refusing to write ...long.csv: it lies inside ...export, a folder this command reads; ...
    """
    out = Path(path)
    resolved = out.expanduser().resolve()
    where = _location(out)
    for inp in inputs:
        ip = Path(inp)
        ipr = ip.expanduser().resolve()
        if ipr == resolved or ipr == where or _same_file(ip, out):
            raise AccordError(f"refusing to write {out}: it is an input of this command; choose another output path")
        if ipr.is_dir() and (_is_within(where, ipr) or _is_within(resolved, ipr)):
            raise AccordError(f"refusing to write {out}: it lies inside {ip}, a folder this command reads; choose a "
                              "path outside it")
    if out.is_dir():
        raise AccordError(f"cannot write {out}: it is a directory")
    if not where.parent.is_dir():
        raise AccordError(f"cannot write {out}: folder {out.parent} does not exist")
    if (out.exists() or out.is_symlink()) and not force:
        raise AccordError(f"{out} exists; pass force=True to replace it",
                          cli=f"{out} exists; pass --force to replace it")
    return out


def _file_mode(out: Path) -> int:
    """The permission bits of the file replaced, or those a new file gets under the umask."""
    try:
        return stat.S_IMODE(out.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


@contextlib.contextmanager
def atomic_output(path: PathLike, *, force: bool = False, inputs: Iterable[PathLike] = ()) -> Iterator[Path]:
    """Yield a temporary path beside *path*; on success rename it over *path*.

    Use it for writers that want a file name (``DataFrame.to_csv``, a
    plotting library's ``save``).  The checks of :func:`check_output` run
    first; on an exception the temporary file is removed and *path* is left
    as it was.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_output(d / "out.txt") as tmp:
    ...     _ = tmp.write_text("hello")
    >>> (d / "out.txt").read_text()
    'hello'
    """
    out = check_output(path, force=force, inputs=inputs)
    folder = _location(out).parent
    remove_stale_temps(folder, out.name)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{out.name}.{_TEMP_MARK}", suffix=".tmp", dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        os.chmod(tmp, _file_mode(out))  # mkstemp makes 0600; give the file the mode a plain open() would
        yield tmp
        if not force and (out.exists() or out.is_symlink()):  # appeared while we worked
            raise AccordError(f"{out} exists; pass force=True to replace it",
                              cli=f"{out} exists; pass --force to replace it")
        os.replace(tmp, folder / out.name)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def remove_stale_temps(folder: PathLike, name: str, *, older_than: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Remove the temporary files an interrupted write of *name* left in *folder*; return them.

    Only regular files named as :func:`atomic_output` names them
    (``.NAME.accord-XXXXXXXX.tmp``, and ``.NAME.XXXXXXXX.tmp`` of earlier
    versions, with ``XXXXXXXX`` eight characters of :func:`tempfile.mkstemp`)
    and not modified for *older_than* seconds: a write still under way, or
    any other file, is never touched.

    Examples
    --------
    >>> import os, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> old = d / ".out.csv.accord-ab12cd_9.tmp"
    >>> _ = old.write_text("half")
    >>> os.utime(old, (0, 0))
    >>> [p.name for p in remove_stale_temps(d, "out.csv")], old.exists()
    (['.out.csv.accord-ab12cd_9.tmp'], False)
    """
    pattern = re.compile(rf"\.{re.escape(name)}\.(?:{_TEMP_MARK})?[a-z0-9_]{{8}}\.tmp\Z")
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.match(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > older_than:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def write_output(
    path: PathLike, data: str | bytes, *, force: bool = False, inputs: Iterable[PathLike] = (), encoding: str = "utf-8"
) -> Path:
    """Write *data* to *path* atomically under the rules of :func:`check_output`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_output(d / "a.txt", "one")
    >>> write_output(d / "a.txt", "two")
    Traceback (most recent call last):
    ...
    accord.AccordError: ...a.txt exists; pass force=True to replace it
    >>> _ = write_output(d / "a.txt", "two", force=True); (d / "a.txt").read_text()
    'two'
    """
    with atomic_output(path, force=force, inputs=inputs) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding=encoding)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
    return Path(path)
