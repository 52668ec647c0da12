"""Zips an importer reads (INCEpTION and doccano exports, spreadsheets): members inflated incrementally under a
size and a ratio limit, so that a zip bomb is an error naming the file and the member, never exhausted memory."""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path
from typing import IO, Any

from accord._shared.errors import AccordError
from accord._shared.tool_errors import fail

#: The most bytes one zip member may inflate to (``ACCORD_ZIP_MAX_MEMBER_BYTES`` raises it: ``4GB``, ``5000000000``).
ZIP_MAX_MEMBER_BYTES = 2 * 2**30
#: The most a zip member may inflate per compressed byte, and all members read from one archive (nested zips
#: included) per byte of the archive on disk (``ACCORD_ZIP_MAX_RATIO`` raises it).  Text exports compress 3 to 30
#: times; a zip bomb inflates about 1,000 times.
ZIP_MAX_RATIO = 100.0
#: Below this many inflated bytes (one member, or all of an archive's) the ratio is not checked: small files of
#: repeated text compress far, harmlessly.
ZIP_RATIO_GRACE_BYTES = 16 * 2**20
_ENV_MEMBER = "ACCORD_ZIP_MAX_MEMBER_BYTES"
_ENV_RATIO = "ACCORD_ZIP_MAX_RATIO"
_CHUNK = 2**20
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b?|b)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}


def _env_limit(name: str, default: float, *, size: bool) -> float:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    m = _SIZE.fullmatch(raw) if size else re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*", raw)
    if m is None or float(m.group(1)) <= 0:
        what = "a size in bytes such as 4GB or 5000000000" if size else "a number such as 500"
        raise AccordError(f"the environment variable {name} must be {what}; got {raw!r}")
    if not size:
        return float(m.group(1))
    unit = (m.group(2) or "").lower()
    scale = _UNITS[unit[0]] if unit and unit[0] != "b" else 1
    if "i" in unit:
        scale = {"k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}[unit[0]]
    return float(m.group(1)) * scale


def zip_limits() -> tuple[float, float]:
    """``(most bytes per member, most inflation ratio)``: the module constants, or the environment's."""
    return (_env_limit(_ENV_MEMBER, ZIP_MAX_MEMBER_BYTES, size=True), _env_limit(_ENV_RATIO, ZIP_MAX_RATIO, size=False))


def is_zip(path: Path) -> bool:
    """A file that is a zip, or starts as one (a truncated zip is one, and :class:`ZipArchive` says it is broken)."""
    if not path.is_file():
        return False
    try:
        with open(path, "rb") as fh:
            magic = fh.read(4)
        return magic in _ZIP_MAGIC or zipfile.is_zipfile(path)
    except OSError:
        return False


def _n(x: float) -> str:
    return f"{int(x):,} bytes"


class ZipArchive:
    """A zip an importer reads: its members listed, and inflated incrementally under the limits.

    Each member may inflate to at most ``ZIP_MAX_MEMBER_BYTES``, and (past ``ZIP_RATIO_GRACE_BYTES``) to at
    most ``ZIP_MAX_RATIO`` times its compressed size; all members read from the archive, those of zips nested
    in it included (*parent*), to at most that ratio times the archive's size on disk (so members sharing
    compressed data cannot multiply it).  Past a limit, or on a damaged archive, an :class:`AccordError`
    names the tool, the file and the member, with the member's declared and actual sizes and the ratio.
    """

    def __init__(self, tool: str, source: str | Path, data: bytes | None = None, *,
                 parent: ZipArchive | None = None) -> None:
        self.tool, self.source = tool, str(source)
        if parent is not None:
            self._limits, self._budget = parent._limits, parent._budget
        else:
            size = len(data) if data is not None else os.path.getsize(source)
            self._limits, self._budget = zip_limits(), [0, max(size, 1)]  # inflated so far, bytes on disk
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data) if data is not None else source)
            self._infos = {i.filename: i for i in self._zip.infolist()}
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
            raise fail(tool, source, f"not a readable zip ({_reason(exc)}); is the file whole? (a download "
                       "cut short, or a file that only looks like a zip)") from None

    def __enter__(self) -> ZipArchive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._zip.close()

    def names(self) -> list[str]:
        """The members that are files (not folders), in the archive's order."""
        return [n for n, i in self._infos.items() if not i.is_dir()]

    def _where(self, name: str) -> str:
        return f"{self.source}:{name}"

    def check_declared(self, name: str) -> None:
        """Refuse a member whose declared size or ratio is past the limits, before inflating it."""
        info = self._infos[name]
        most, ratio = self._limits
        declared, packed = info.file_size, max(info.compress_size, 1)
        if declared > most:
            raise fail(self.tool, self._where(name), f"the member declares {_n(declared)} inflated (from "
                       f"{_n(info.compress_size)}), past the limit of {_n(most)} per member; "
                       f"{self._raise_hint(size=True)}")
        if declared > ZIP_RATIO_GRACE_BYTES and declared / packed > ratio:
            raise fail(self.tool, self._where(name), f"the member declares {_n(declared)} inflated from "
                       f"{_n(info.compress_size)} (ratio {declared / packed:,.0f}), past the limit of ratio "
                       f"{ratio:g}: a zip bomb?; {self._raise_hint(size=False)}")

    @staticmethod
    def _raise_hint(*, size: bool) -> str:
        var = _ENV_MEMBER if size else _ENV_RATIO
        return f"if the file is trusted, raise the limit with the environment variable {var}"

    def _check(self, name: str, got: int) -> None:
        info = self._infos[name]
        most, ratio = self._limits
        packed = max(info.compress_size, 1)
        said = f"declared {_n(info.file_size)}, compressed {_n(info.compress_size)}"
        if got > most:
            raise fail(self.tool, self._where(name), f"the member inflates past {_n(most)}, the limit per member "
                       f"({said}); {self._raise_hint(size=True)}")
        if got > ZIP_RATIO_GRACE_BYTES and got / packed > ratio:
            raise fail(self.tool, self._where(name), f"the member inflates to {_n(got)} and more, ratio "
                       f"{got / packed:,.0f} past the limit of {ratio:g} ({said}): a zip bomb?; "
                       f"{self._raise_hint(size=False)}")
        total, base = self._budget[0] + got, self._budget[1]
        if total > ZIP_RATIO_GRACE_BYTES and total / base > ratio:
            raise fail(self.tool, self._where(name), f"the members read so far inflate to {_n(total)} from an "
                       f"archive of {_n(base)} (ratio {total / base:,.0f}, past the limit of {ratio:g}; this "
                       f"member {said}): a zip bomb?; {self._raise_hint(size=False)}")

    def read(self, name: str, *, limit: int | None = None) -> bytes:
        """The member's bytes (the first *limit* of them when given), inflated chunk by chunk under the limits."""
        if limit is None:
            self.check_declared(name)
        buf = bytearray()
        try:
            with self._zip.open(self._infos[name]) as fh:
                while limit is None or len(buf) < limit:
                    chunk = fh.read(_CHUNK if limit is None else min(_CHUNK, limit - len(buf)))
                    if not chunk:
                        break
                    buf += chunk
                    self._check(name, len(buf))
        except AccordError:
            raise
        except Exception as exc:  # BadZipFile (bad CRC), zlib.error, EOFError, NotImplementedError, RuntimeError...
            raise fail(self.tool, self._where(name), f"cannot inflate the member ({_reason(exc)}); is the zip "
                       "whole?") from None
        self._budget[0] += len(buf)
        return bytes(buf)

    def head(self, name: str, size: int = 65536) -> bytes:
        """The first *size* bytes of a member (what a format guess needs)."""
        return self.read(name, limit=size)

    def open(self, name: str) -> IO[bytes]:
        """The member as a binary stream that stops with an :class:`AccordError` past the limits."""
        self.check_declared(name)
        return _GuardedMember(self, name)


class _GuardedMember(io.RawIOBase):
    def __init__(self, archive: ZipArchive, name: str) -> None:
        self._archive, self._name, self._got = archive, name, 0
        self._fh = archive._zip.open(archive._infos[name])

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        try:
            data = self._fh.read(min(len(b), _CHUNK))
        except Exception as exc:
            raise fail(self._archive.tool, self._archive._where(self._name),
                       f"cannot inflate the member ({_reason(exc)}); is the zip whole?") from None
        n = len(data)
        b[:n] = data
        self._got += n
        self._archive._check(self._name, self._got)
        return n

    def close(self) -> None:
        if not self.closed:
            self._archive._budget[0] += self._got
            self._fh.close()
        super().close()


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def check_zip_container(tool: str, path: Path) -> None:
    """Refuse a zip-based file (``.xlsx``, ``.ods``) whose members declare more than the limits allow, before a
    library that inflates whole members (openpyxl, odfpy) opens it; a damaged zip is an :class:`AccordError`."""
    with ZipArchive(tool, path) as z:
        total = 0
        for name in z.names():
            z.check_declared(name)
            total += z._infos[name].file_size
        base, ratio = z._budget[1], z._limits[1]
        if total > ZIP_RATIO_GRACE_BYTES and total / base > ratio:
            raise fail(tool, path, f"the members declare {_n(total)} inflated from a file of {_n(base)} (ratio "
                       f"{total / base:,.0f}, past the limit of {ratio:g}): a zip bomb?; "
                       f"{ZipArchive._raise_hint(size=False)}")
