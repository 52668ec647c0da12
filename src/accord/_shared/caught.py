"""Warnings a library call raises, kept to be said with its result (once, in the reader's words).

A command prints what a computation warned of beside its numbers (a format guessed, a coefficient
undefined); the library function that runs the computation records the warnings with :func:`caught_warnings`
and returns them in its result, so that the Python API holds them too.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from accord._shared.errors import AccordWarning, Message, for_cli

__all__ = ["caught_warnings"]


def caught_warnings(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[Message]]:
    """*func*'s result and each :class:`~accord.errors.AccordWarning` it raised, in order, as a
    :class:`~accord.errors.Message` (the API's words, and the command line's); any other warning is raised again
    as it came.

    Examples
    --------
    >>> import warnings
    >>> def f():
    ...     warnings.warn(AccordWarning("pass field=", cli="pass --field"))
    ...     return 1
    >>> out, said = caught_warnings(f)
    >>> out, said, said[0].cli
    (1, ['pass field='], 'pass --field')
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        out = func(*args, **kwargs)
    said = [Message(str(w.message), cli=for_cli(w.message)) for w in caught if issubclass(w.category, AccordWarning)]
    for w in caught:
        if not issubclass(w.category, AccordWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return out, said
