"""Text files as the readers take them: UTF-8, a leading byte-order mark dropped and said, bad bytes refused.

Every line-based reader (coreference, span tables) reads its file through :func:`read_utf8`, so that bytes that
are not UTF-8 are an :class:`~accord.AccordError` naming the file, the line and the byte, never a
``UnicodeDecodeError``, and a byte-order mark (which Notepad and Excel write) is read the same way everywhere.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import warnings
from pathlib import Path

from accord._shared.errors import AccordError, AccordWarning, no_such_file

__all__ = ["json_text", "read_utf8", "utf8_lines"]


def read_utf8(path: str | os.PathLike[str]) -> tuple[str, bool]:
    """The text of *path*, and whether it began with a UTF-8 byte-order mark (dropped from the text).

    Line endings are left as they are.  Bytes that are not UTF-8 raise an :class:`~accord.AccordError` naming
    the file and the line (``file:3: not UTF-8 text (...)``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = f.write_bytes(b"\\xef\\xbb\\xbfone\\ntwo\\n")
    >>> read_utf8(f)
    ('one\\ntwo\\n', True)
    >>> _ = f.write_bytes(b"one\\nt\\xffo\\n")
    >>> read_utf8(f)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    accord.AccordError: ...a.txt:2: not UTF-8 text (invalid start byte 0xff at byte 5 of the file); ...
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise no_such_file(p) from None
    except OSError as exc:
        raise AccordError(f"{p}: cannot read ({exc.strerror})") from None
    bom = raw.startswith(codecs.BOM_UTF8)
    try:
        return raw.decode("utf-8-sig"), bom
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise AccordError(
            f"{p}:{line}: not UTF-8 text ({exc.reason} 0x{raw[exc.start]:02x} at byte {exc.start} of the file); "
            "save the file as UTF-8"
        ) from None


def utf8_lines(path: str | os.PathLike[str]) -> io.StringIO:
    """The text of *path* (:func:`read_utf8`) to iterate line by line, ``\\r\\n`` and ``\\r`` read as ``\\n``
    as a file opened in text mode reads them; a byte-order mark is said in an :class:`~accord.AccordWarning`."""
    text, bom = read_utf8(path)
    if bom:
        warnings.warn(f"{path}: starts with a byte-order mark; read as UTF-8 without it", AccordWarning,
                      stacklevel=3)
    return io.StringIO(text, newline=None)


def json_text(text: str, where: str, *, invalid: str = "not valid JSON ({msg})",
              decoder: json.JSONDecoder | None = None) -> object:
    """*text* parsed as JSON, or an :class:`~accord.AccordError` that starts with *where* (file and line):
    *invalid* (``{msg}``: the parser's words) for text that is not JSON, and one sentence for JSON nested past
    Python's recursion limit or a number with more digits than Python reads."""
    try:
        return (decoder or _DECODER).decode(text)
    except json.JSONDecodeError as exc:
        raise AccordError(f"{where}: {invalid.format(msg=exc.msg)}") from None
    except (RecursionError, ValueError):
        raise AccordError(f"{where}: JSON nested too deeply, or a number of more digits than Python reads") from None


_DECODER = json.JSONDecoder()
