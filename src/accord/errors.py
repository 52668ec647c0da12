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

__all__ = ["AccordError", "AccordWarning", "warn_undefined"]


class AccordError(ValueError):
    """Bad input or an impossible request; the message says what and where."""


class AccordWarning(UserWarning):
    """A result is undefined (NaN) or rests on a questionable assumption."""


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
