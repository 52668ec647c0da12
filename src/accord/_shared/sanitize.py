"""Text accord writes or prints that came from a user's files: made safe for spreadsheets, terminals and pages.

Annotator names, labels, unit ids and document text come from files anyone may have
written.  Three places would act on them instead of showing them:

- a spreadsheet opening a CSV runs a cell that begins with ``=``, ``+``, ``-`` or
  ``@`` (or a tab, carriage return or line feed) as a formula: :func:`csv_cell`
  applies OWASP's rule (prefix a ``'``) and leaves plain numbers such as ``-1.5``
  alone, so they stay numbers; every CSV or TSV accord writes goes through it
  (``accord import -o``, ``accord gold --out``, ``accord pyramid score --csv``,
  and the same rule in JavaScript for the report page's "Export CSV"), unless
  ``--raw-csv`` asks for the cells as they are;
- a terminal obeys escape sequences and other control characters (set the window
  title, erase lines, move the cursor) and a bidirectional override reverses the
  text after it, numbers included: :func:`terminal_safe` shows them as ``\\x1b``
  and ``<U+202E>`` instead; every line the command line prints goes through it;
- a web page reverses the rest of a sentence after a right-to-left override:
  :func:`isolate_html` wraps each word holding a bidirectional control in
  ``<bdi>``, which ends its effect at the end of that word; the report's template
  applies it to every text it shows.

References
----------
OWASP, "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection
(the characters a cell must not begin with, and the ``'`` prefix).
Unicode Standard Annex #9, "Unicode Bidirectional Algorithm" (the explicit
directional embeddings, overrides and isolates, and how an isolate ends them).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["BIDI_CONTROLS", "csv_cell", "csv_row", "isolate_html", "terminal_safe"]

#: Characters a spreadsheet takes as the start of a formula (OWASP, CSV Injection): = + - @ tab CR LF.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")

#: The bidirectional formatting characters: embeddings and overrides (U+202A-202E), isolates
#: (U+2066-2069), the left-to-right, right-to-left and Arabic letter marks (U+200E, U+200F, U+061C).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")

# C0 controls but tab and newline, DEL, C1 controls, the line and paragraph separators: shown as \xNN / \uNNNN.
_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x20), *range(0x7F, 0xA0)) if c not in (0x09, 0x0A)}
_CONTROL.update({0x2028: "\\u2028", 0x2029: "\\u2029"})
_TERMINAL = str.maketrans({**_CONTROL, **{ord(c): f"<U+{ord(c):04X}>" for c in BIDI_CONTROLS}})
_BIDI_WORD = re.compile("[^\\s]*[" + "".join(sorted(BIDI_CONTROLS)) + "][^\\s]*")


def csv_cell(value: Any) -> Any:
    """One CSV cell made safe to open in a spreadsheet (OWASP's rule); anything but text is returned as is.

    Text beginning with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return or a
    line feed gets a leading ``'``, which spreadsheets take as "this cell is
    text" and do not show; text that is a plain number (``-1.5``, ``+3``,
    ``-2e-3``) is left as it is, so it stays a number.

    Examples
    --------
    >>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell("@SUM(A1)"), csv_cell("-1.5"), csv_cell(-2), csv_cell("a-b")
    ('\\'=HYPERLINK("http://x")', "'@SUM(A1)", '-1.5', -2, 'a-b')
    """
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _PLAIN_NUMBER.match(value):
        return "'" + value
    return value


def csv_row(values: Any, *, raw: bool = False) -> list[Any]:
    """:func:`csv_cell` over a row (unchanged with *raw*).

    Examples
    --------
    >>> csv_row(["u1", "+ve", 3, "-3"]), csv_row(["+ve"], raw=True)
    (['u1', "'+ve", 3, '-3'], ['+ve'])
    """
    return list(values) if raw else [csv_cell(v) for v in values]


def terminal_safe(text: Any) -> str:
    """*text* as a terminal may show it: control characters escaped, bidirectional controls named.

    C0 controls other than tab and newline (escape, carriage return, backspace,
    bell...), DEL, the C1 controls and the line and paragraph separators are
    shown as ``\\x1b``-style escapes; the bidirectional formatting characters of
    :data:`BIDI_CONTROLS` as ``<U+202E>``.  Tab and newline are kept: accord's
    own messages span lines.

    Examples
    --------
    >>> terminal_safe("ann\\x1b]0;owned\\x07e")
    'ann\\\\x1b]0;owned\\\\x07e'
    >>> terminal_safe("bob\\u202e 0.12")
    'bob<U+202E> 0.12'
    """
    return str(text).translate(_TERMINAL)


def isolate_html(text: Any) -> Any:
    """*text* escaped for HTML, each word holding a bidirectional control wrapped in ``<bdi>``.

    A ``<bdi>`` element is a directional isolate: an override or embedding that
    starts inside it ends with it (UAX #9, rule X6a), so a right-to-left override
    in an annotator's name cannot reverse the rest of the sentence.  Text with
    no bidirectional control is only escaped.  Returns :class:`markupsafe.Markup`.

    Examples
    --------
    >>> str(isolate_html("pair bob\\u202e and <ann>: 0.12"))
    'pair <bdi>bob\\u202e</bdi> and &lt;ann&gt;: 0.12'
    """
    from markupsafe import Markup, escape

    safe = str(escape(text))
    if not any(c in BIDI_CONTROLS for c in safe):
        return Markup(safe)
    return Markup(_BIDI_WORD.sub(lambda m: f"<bdi>{m.group(0)}</bdi>", safe))
