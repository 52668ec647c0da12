"""What every sub-command shares: error handling, JSON output, the console, printing user text safely.

Everything the command line prints goes through :func:`accord._shared.sanitize.terminal_safe`
(escape sequences and other control characters shown as ``\\x1b``, bidirectional
controls as ``<U+202E>``): the rich consoles here do it for every string they
render, and take no markup or emoji codes from it (a name like ``[/bold]`` is
text); :func:`echo` and :func:`cli_errors` do it for plain lines.  Where a command
styles a line itself it passes ``markup=True`` and escapes the user's part with
:func:`rich.markup.escape`.
"""

from __future__ import annotations

import functools
import json
import sys
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from accord._shared.errors import AccordError, AccordWarning, Message, for_cli, no_such_file
from accord._shared.names import spoken
from accord._shared.results import jsonable
from accord._shared.sanitize import terminal_safe

__all__ = ["RAW_CSV_HELP", "SafeConsole", "cli_errors", "console", "echo", "err_console", "note", "print_json", "said",
           "warn", "warnings_said"]

#: The help of ``--raw-csv``, the one flag of every command that writes a CSV.
RAW_CSV_HELP = ("Write every cell as it is: no leading ' before a cell beginning with =, +, -, @, a tab or a line "
                "break (accord's guard against spreadsheet formulas; a plain number such as -1.5 never gets one).")


class SafeConsole(Console):
    """A rich console that shows control and bidirectional characters of any string it renders as escapes.

    Markup and emoji codes are off by default (a coder named ``[red]`` or ``:x:``
    is shown as written); pass ``markup=True`` to :meth:`print` for a line whose
    user parts are escaped.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("markup", False)
        kwargs.setdefault("emoji", False)
        super().__init__(**kwargs)
        if kwargs.get("width") is None:
            self._width = None  # rich froze $COLUMNS as it was at import: read it (or the terminal) at each print
        if kwargs.get("height") is None:
            self._height = None

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(terminal_safe(text), **kwargs)


console = SafeConsole()
err_console = SafeConsole(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])


def echo(text: Any, *, err: bool = False) -> None:
    """Print one message (stdout, or stderr with *err*) through :func:`~accord._shared.sanitize.terminal_safe`."""
    typer.echo(terminal_safe(text), err=err)


def said(message: Any) -> str:
    """*message* (a warning, a note, an error) as the command line says it: in its own words
    (:func:`~accord._shared.errors.for_cli`), the estimators by their names (:func:`accord._shared.names.spoken`)."""
    return spoken(for_cli(message))


def note(message: Any) -> None:
    """``accord: note: MESSAGE`` on stderr: something accord does by design and says (a format guessed, a
    policy applied)."""
    err_console.print(f"accord: note: {said(message)}", highlight=False, markup=False, soft_wrap=True)


#: the warnings this run has printed: each distinct one is said once, however often it is raised
_warned: set[str] = set()


def warn(message: Any, *, category: type[Warning] | None = None, file: Any = None) -> None:
    """``accord: warning: MESSAGE`` on stderr, once per run: something in the user's input or result to look at.

    *message* is said in the command line's words (:func:`said`); a warning of another library (its
    *category* not an :class:`~accord.AccordWarning`) keeps its text after its category's name.
    The line goes through :func:`~accord._shared.sanitize.terminal_safe`, its line breaks joined into one line.
    """
    from accord._shared.errors import AccordWarning

    text = said(message)
    if category is not None and not issubclass(category, AccordWarning):
        text = f"{category.__name__}: {text}"
    text = " ".join(part.strip() for part in terminal_safe(text).splitlines() if part.strip())
    if text in _warned:
        return
    _warned.add(text)
    stream = file or sys.stderr
    if stream is not None:  # pythonw has no stderr
        stream.write(f"accord: warning: {text}\n")
        stream.flush()


def warnings_said(func: Any, *args: Any, **kwargs: Any) -> Any:
    """*func*'s result, each AccordWarning it raises (a response document not in the key, a score over
    nothing, words that differ between files) said once as a warning on stderr, whatever the process's warning
    filters and handlers are: the user should look at their files."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        out = func(*args, **kwargs)
    for text in dict.fromkeys(said(w.message) for w in caught if issubclass(w.category, AccordWarning)):
        warn(text)
    for w in caught:
        if not issubclass(w.category, AccordWarning):
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    return out


def shown_in_output(func: Any, *args: Any, **kwargs: Any) -> Any:
    """*func*'s result, the AccordWarnings it raises not said: for a command whose output states each of them
    where it belongs (an undefined statistic beside its reason, what was left out and why), so that stderr does
    not repeat the table.  Other warnings go their usual way."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        out = func(*args, **kwargs)
    for w in caught:
        if not issubclass(w.category, AccordWarning):
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    return out


def cli_errors(func: F) -> F:
    """Turn an :class:`~accord.AccordError` (or a missing file) into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _warned.clear()  # "once per run": a command is a run, also when several run in one process (tests)
        try:
            return func(*args, **kwargs)
        except (AccordError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
            if isinstance(exc, FileNotFoundError) and not isinstance(exc, AccordError) and exc.filename:
                exc = no_such_file(exc.filename)  # not Python's "[Errno 2] No such file or directory: ..."
            text = terminal_safe(said(exc) if isinstance(exc, AccordError) else str(exc))
            msg = text.splitlines()[0] if text else type(exc).__name__
            print(f"accord: error: {msg}", file=sys.stderr)
            raise typer.Exit(code=2) from None

    return wrapper  # type: ignore[return-value]


def _cli_words(obj: Any) -> Any:
    """*obj* (JSON-ready) with each :class:`Message` (an import note...) in the command line's words."""
    if isinstance(obj, Message):
        return obj.cli
    if isinstance(obj, dict):
        return {k: _cli_words(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_cli_words(v) for v in obj]
    return obj


def print_json(obj: Any) -> None:
    """Print *obj* as one JSON object on stdout (NaN as null; control and non-ASCII characters as \\u escapes)."""
    sys.stdout.write(json.dumps(_cli_words(jsonable(obj)), indent=2, allow_nan=False) + "\n")
