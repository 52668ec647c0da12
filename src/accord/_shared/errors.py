"""The one exception family and the one warning class of accord.

Every error a user can cause (bad input, an impossible option) raises
:class:`AccordError`, a :class:`ValueError`, with a message that names the
parameter, unit, coder, file or line at fault.  Results that are undefined
rather than wrong (for example alpha with no expected disagreement) are not
errors: the estimator returns NaN, records the reason on the result and emits
an :class:`AccordWarning`.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

__all__ = ["AccordError", "AccordWarning", "Message", "MissingFileError", "choice_error", "did_you_mean", "for_cli",
           "install_hint", "missing_column_error", "no_such_file", "plural", "warn_undefined", "words"]


class Message(str):
    """A message in the Python API's words (the string itself) that also knows the command line's (:attr:`cli`).

    A note of an import report or the text of a warning that hints at an option says ``pass field=`` to a
    Python user and ``pass --field`` on the command line: one source, two readers.  A ``Message`` is a
    ``str`` (the API's words) everywhere a string goes; :func:`for_cli` gives the command line's.

    Examples
    --------
    >>> m = Message("not read: ner (pass field= to choose)", cli="not read: ner (pass --field to choose)")
    >>> m, m.cli
    ('not read: ner (pass field= to choose)', 'not read: ner (pass --field to choose)')
    >>> for_cli(m)
    'not read: ner (pass --field to choose)'
    """

    cli: str

    def __new__(cls, text: str = "", cli: str | None = None) -> Message:
        self = super().__new__(cls, text)
        self.cli = str(text) if cli is None else str(cli)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (str(self), self.cli))


def for_cli(message: object) -> str:
    """*message* (a :class:`Message`, an :class:`AccordError`, a warning or any text) in the command line's words.

    Examples
    --------
    >>> for_cli(AccordError("pass order=", cli="pass --order")), for_cli("plain")
    ('pass --order', 'plain')
    """
    if isinstance(message, AccordError):
        return message.for_cli()
    if isinstance(message, AccordWarning):
        return message.for_cli()
    if isinstance(message, Message):
        return message.cli
    return str(message)


def words(*parts: object) -> Message:
    """The parts joined as one :class:`Message`, each part in the API's words and the command line's.

    Examples
    --------
    >>> m = words("a.json, line 3: ", Message("pass field=", cli="pass --field"))
    >>> str(m), m.cli
    ('a.json, line 3: pass field=', 'a.json, line 3: pass --field')
    """
    return Message("".join(map(str, parts)), "".join(map(for_cli, parts)))


class AccordError(ValueError):
    """Bad input or an impossible request; the message says what and where.

    Parameters
    ----------
    message : str
        The message in the Python API's words (argument names such as ``distance=``).
    cli : str, optional
        The same message in the command line's words (flags such as ``--distance``), printed by the CLI
        instead of *message*; one source, two readers.
    """

    def __init__(self, message: str = "", *, cli: str | None = None) -> None:
        super().__init__(str(message) if isinstance(message, Message) else message)
        self.cli_message = cli if cli is not None or not isinstance(message, Message) else message.cli

    def for_cli(self) -> str:
        """The message as the command line prints it."""
        return self.cli_message if self.cli_message is not None else str(self)


def did_you_mean(value: object, choices: object) -> str:
    """`` (did you mean 'x'?)`` for the choice closest to *value* (difflib), or ``""`` when none is close."""
    import difflib

    if not isinstance(value, str):
        return ""
    names = [str(c) for c in choices]  # type: ignore[attr-defined]
    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(value.lower(), list(lowered), n=1, cutoff=0.6)
    return f" (did you mean {lowered[close[0]]!r}?)" if close else ""


def choice_error(param: str, value: object, choices: object, *, flag: str | None = None,
                 api_also: str = "") -> AccordError:
    """The error for *value* not among *choices*, in the API's words and the command line's.

    The API reads ``distance must be one of a, b; got 'x'``; the CLI ``--distance must be one of a, b;
    got 'x'``; both end with a "did you mean" when a choice is close.  *api_also* adds what only Python
    can pass (``" (or a Distance or a callable)"``).

    Examples
    --------
    >>> err = choice_error("distance", "intervall", ["nominal", "interval"])
    >>> str(err)
    "distance must be one of nominal, interval; got 'intervall' (did you mean 'interval'?)"
    >>> err.for_cli()
    "--distance must be one of nominal, interval; got 'intervall' (did you mean 'interval'?)"
    """
    names = [str(c) for c in choices]  # type: ignore[attr-defined]
    hint = did_you_mean(value, names)
    listed = ", ".join(names)
    flag = flag or "--" + param.replace("_", "-")
    return AccordError(f"{param} must be one of {listed}{api_also}; got {value!r}{hint}",
                       cli=f"{flag} must be one of {listed}; got {value!r}{hint}")


class AccordWarning(UserWarning):
    """A result is undefined (NaN) or rests on a questionable assumption.

    Like :class:`AccordError` it may carry the command line's words (*cli*, or those of a :class:`Message`),
    which the CLI prints instead: ``warnings.warn(AccordWarning(text, cli=cli_text))``.
    """

    def __init__(self, message: object = "", *, cli: str | None = None) -> None:
        super().__init__(str(message) if isinstance(message, Message) else message)
        self.cli_message = cli if cli is not None or not isinstance(message, Message) else message.cli

    def for_cli(self) -> str:
        """The message as the command line prints it."""
        return self.cli_message if self.cli_message is not None else str(self)


# the public names: tracebacks and reprs say ``accord.AccordError``, where users import it from
AccordError.__module__ = AccordWarning.__module__ = "accord"


class MissingFileError(AccordError, FileNotFoundError):
    """An input file or folder that does not exist: an :class:`AccordError` that is also a ``FileNotFoundError``.

    Raised through :func:`no_such_file`, so that every command and function says it the same way.
    """

    def __init__(self, message: str = "", *, cli: str | None = None, path: object = None) -> None:
        AccordError.__init__(self, message, cli=cli)
        self.path = path

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def no_such_file(path: object, *, param: str | None = None, flag: str | None = None) -> MissingFileError:
    """The one error for an input that does not exist: ``{path}: no such file or folder``.

    *param* (and *flag*, by default ``--param``) name the argument that gave the path when it is not the
    main input: ``texts: x: no such file or folder``, on the command line ``--texts x: ...``.

    Examples
    --------
    >>> str(no_such_file("a.csv"))
    'a.csv: no such file or folder'
    >>> err = no_such_file("t/", param="texts")
    >>> str(err), err.for_cli()
    ('texts: t/: no such file or folder', '--texts t/: no such file or folder')
    """
    shown = os.fspath(path) if isinstance(path, os.PathLike) else path
    text = f"{shown}: no such file or folder"
    if param is None:
        return MissingFileError(text, path=path)
    flag = flag or "--" + param.replace("_", "-")
    return MissingFileError(f"{param}: {text}", cli=f"{flag} {text}", path=path)


def install_hint(extra: str) -> str:
    """What to type to install the optional extra *extra*: by name, and from a checkout of accord.

    >>> install_hint("report")
    "pip install 'accord[report]' (from a checkout of accord: pip install -e '.[report]')"
    """
    return f"pip install 'accord[{extra}]' (from a checkout of accord: pip install -e '.[{extra}]')"


def plural(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and *word*, in the plural unless *n* is 1: ``1 value``, ``2 values``, ``0 entries``.

    The plural is *plural* when given, else *word* with the English ending (``-ies`` after a consonant and
    ``y``, ``-es`` after ``s``, ``x``, ``z``, ``ch``, ``sh``, else ``-s``).  A phrase pluralises its last
    word's ending as written, so name the form when the noun comes first (``plural(n, "pair of coders",
    "pairs of coders")``).

    Examples
    --------
    >>> plural(1, "value"), plural(2, "value"), plural(0, "entry"), plural(3, "box"), plural(2, "datum", "data")
    ('1 value', '2 values', '0 entries', '3 boxes', '2 data')
    """
    if n == 1:
        return f"{n} {word}"
    if plural is None:
        if word.endswith("y") and word[-2:-1] not in ("", "a", "e", "i", "o", "u"):
            plural = word[:-1] + "ies"
        elif word.endswith(("s", "x", "z", "ch", "sh")):
            plural = word + "es"
        else:
            plural = word + "s"
    return f"{n} {plural}"


def missing_column_error(source: object, column: str, columns: object, *, param: str) -> AccordError:
    """The error for a table without the column *column* that the argument *param* names.

    Examples
    --------
    >>> err = missing_column_error("a.csv", "units", ["unit", "value"], param="unit")
    >>> str(err)
    "a.csv: missing column 'units' (did you mean 'unit'?); columns are 'unit', 'value' (name another with unit=)"
    >>> err.for_cli()
    "a.csv: missing column 'units' (did you mean 'unit'?); columns are 'unit', 'value' (name another with --unit)"
    """
    names = [str(c) for c in columns]  # type: ignore[attr-defined]
    hint = did_you_mean(column, names)
    head = f"{source}: missing column {column!r}{hint}; columns are {', '.join(map(repr, names))}"
    return AccordError(f"{head} (name another with {param}=)", cli=f"{head} (name another with --{param})")


def warn_undefined(what: str, reason: str, *, stacklevel: int = 3) -> None:
    """Emit the standard warning for an undefined result.

    Parameters
    ----------
    what : str
        The quantity that is undefined, e.g. ``"alpha"``.
    reason : str
        Why, in words a user can act on.
    """
    warnings.warn(f"{what} is undefined: {reason}", AccordWarning, stacklevel=stacklevel)
