"""Writing files a user asked for: atomically, never over an input, never over a file without ``force``.

Every command that writes (``accord gold --out``, ``accord multilabel --plot``,
``accord import -o``, ``accord report -o``) goes through :func:`write_output`
or :func:`atomic_output`:

- an output path that is one of the command's inputs is refused, even with
  ``force`` (the same file reached through another path or a link counts);
- an existing file is replaced only with ``force``;
- the bytes go to a temporary file in the same folder, which is then renamed
  over the target, so a reader never sees half a file and a crash leaves the
  old file whole.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from accord.errors import AccordError

__all__ = ["atomic_output", "check_output", "write_output"]

PathLike = str | os.PathLike[str]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: PathLike, *, force: bool = False, inputs: Iterable[PathLike] = ()) -> Path:
    """Validate an output path before any work is done; return it as a :class:`~pathlib.Path`.

    Parameters
    ----------
    path : str or path-like
        Where the output goes.
    force : bool, keyword-only
        Replace an existing file (never an input).
    inputs : iterable of path-like, keyword-only
        The files the command reads; writing over one of them is refused.

    Raises
    ------
    AccordError
        If *path* is one of *inputs*, a directory, in a folder that does not
        exist, or an existing file and *force* is false.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "in.csv").write_text("x")
    1
    >>> check_output(d / "in.csv", inputs=[d / "in.csv"], force=True)
    Traceback (most recent call last):
    ...
    accord.errors.AccordError: refusing to write ...in.csv: it is an input of this command; choose another output path
    """
    out = Path(path)
    resolved = out.expanduser().resolve()
    for inp in inputs:
        ip = Path(inp)
        if ip.expanduser().resolve() == resolved or _same_file(ip, out):
            raise AccordError(f"refusing to write {out}: it is an input of this command; choose another output path")
    if out.is_dir():
        raise AccordError(f"cannot write {out}: it is a directory")
    if not resolved.parent.is_dir():
        raise AccordError(f"cannot write {out}: folder {out.parent} does not exist")
    if out.exists() and not force:
        raise AccordError(f"{out} exists; pass --force to replace it")
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
    fd, tmp_name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.expanduser().resolve().parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        os.chmod(tmp, _file_mode(out))  # mkstemp makes 0600; give the file the mode a plain open() would
        yield tmp
        if not force and out.exists():  # appeared while we worked
            raise AccordError(f"{out} exists; pass --force to replace it")
        os.replace(tmp, out)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


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
    accord.errors.AccordError: ...a.txt exists; pass --force to replace it
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
