"""Run a regular expression that came from a file without letting it hang the process.

A DUCView file's ``<startDocumentRegEx>`` is untrusted input: a pattern with
nested repetition such as ``(a+)+$`` makes a backtracking engine (Python's
:mod:`re`, Java's ``Pattern``) take time exponential in the text length.  The
pattern is run on RE2 (``google-re2``, the ``accord[pyramid]`` extra), whose
matching time is linear in the text.  Where RE2 is not installed or cannot
compile the pattern (RE2 has no back-references or look-around), Python's
:mod:`re` runs it in a child process that is killed after a time limit; a
pattern that does not finish in time is refused with an
:class:`~accord.AccordError` naming the file and the pattern.

References
----------
Cox, R. (2007). Regular expression matching can be simple and fast.
https://swtch.com/~rsc/regexp/regexp1.html (why RE2 matches in linear time).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from types import ModuleType

from accord._shared.errors import AccordError

__all__ = ["TIME_LIMIT", "match_starts"]

#: Seconds Python's ``re`` may run a file-supplied pattern (when RE2 cannot) before it is refused.
TIME_LIMIT = 5.0

_CHILD = (
    "import json, re, sys\n"
    "d = json.loads(sys.stdin.read())\n"
    "sys.stdout.write(json.dumps([m.start() for m in re.finditer(d['pattern'], d['text'])]))\n"
)


def _re2() -> ModuleType | None:
    """The ``re2`` module of google-re2, or None when it is not installed."""
    try:
        import re2
    except ImportError:
        return None
    return re2


def _starts_re2(re2: ModuleType, pattern: str, text: str) -> list[int] | None:
    """Match starts with RE2, or None when RE2 cannot compile *pattern*."""
    options = re2.Options()
    options.log_errors = False
    try:
        rx = re2.compile(pattern, options=options)
    except re2.error:
        return None
    return [m.start() for m in rx.finditer(text)]


def match_starts(
    pattern: str, text: str, *, source: str, what: str = "startDocumentRegEx", time_limit: float | None = None
) -> tuple[list[int], str]:
    """Start offsets of the non-overlapping matches of an untrusted *pattern* in *text*.

    Parameters
    ----------
    pattern : str
        The regular expression (Python / RE2 syntax; DUCView's Java patterns are
        the common subset).
    text : str
        The text to search.
    source : str, keyword-only
        The file the pattern came from, for messages.
    what : str, keyword-only
        What the pattern is, for messages.
    time_limit : float, keyword-only
        Seconds allowed to Python's ``re`` when RE2 cannot run the pattern
        (default :data:`TIME_LIMIT`).

    Returns
    -------
    starts : list of int
        Character offsets where the matches start.
    engine : {"re2", "re"}
        The engine that ran the pattern.

    Raises
    ------
    AccordError
        When the pattern is not a valid regular expression, or Python's ``re``
        did not finish within the time limit (file and pattern named).

    Examples
    --------
    >>> match_starts(r"== ", "== a\\n== b", source="x.pyr")[0]
    [0, 5]
    >>> match_starts(r"(a+)+$", "a" * 40 + "!", source="x.pyr")  # RE2: linear time, no match
    ([], 're2')
    """
    re2 = _re2()
    if re2 is not None:
        starts = _starts_re2(re2, pattern, text)
        if starts is not None:
            return starts, "re2"
    try:
        re.compile(pattern)
    except re.error as exc:
        raise AccordError(f"file {source}: {what} {pattern!r} is not a valid regular expression ({exc})") from None
    limit = TIME_LIMIT if time_limit is None else float(time_limit)
    payload = json.dumps({"pattern": pattern, "text": text})
    why = "google-re2 is not installed" if re2 is None else "RE2 cannot compile it"
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _CHILD], input=payload, capture_output=True, text=True,
            encoding="utf-8", timeout=limit, check=False,
        )
    except OSError as exc:
        raise AccordError(
            f"file {source}: {what} {pattern!r} needs RE2 ({why}) or a Python interpreter to run it under a time "
            f"limit, and {sys.executable!r} could not be started ({exc.strerror}); install accord[pyramid]"
        ) from None
    except subprocess.TimeoutExpired:
        head = (f"file {source}: {what} {pattern!r} did not finish within {limit:g} s on the {len(text)}-character "
                f"text ({why}, and Python's re can take exponential time on nested repetition such as (a+)+); "
                "refused: install accord[pyramid] (google-re2) or give a simpler pattern with ")
        raise AccordError(head + "start_regex=", cli=head + "--start-regex") from None
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise AccordError(f"file {source}: {what} {pattern!r} could not be run ({last})")
    return [int(s) for s in json.loads(proc.stdout)], "re"
