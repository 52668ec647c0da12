"""The one exception family and the one warning class of accord.

Every error a user can cause (bad input, an impossible option) raises
:class:`AccordError`, a :class:`ValueError`, with a message that names the
parameter, unit, coder, file or line at fault.  Results that are undefined
rather than wrong (for example alpha with no expected disagreement) are not
errors: the estimator returns NaN, records the reason on the result and emits
an :class:`AccordWarning`.
"""

from __future__ import annotations

import warnings

__all__ = ["AccordError", "AccordWarning", "choice_error", "did_you_mean", "missing_column_error", "warn_undefined"]


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
        super().__init__(message)
        self.cli_message = cli

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
    """A result is undefined (NaN) or rests on a questionable assumption."""


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
