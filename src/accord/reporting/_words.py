"""What the numbers mean, in words: Krippendorff's thresholds, the distance and why it fits, value labels."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from accord._shared.errors import plural
from accord._shared.names import spoken

__all__ = ["describe_distance", "interval_words", "plain", "seed_words", "threshold_words", "value_label"]

# a hint at an option of the command line or of a Python call: "(pass --field to choose)", "; pass kind= or ..."
_HINT_PAREN = re.compile(r"\s*\((?:pass|use|see)\s[^()]*(?:--[a-z]|[a-z_]+=)[^()]*\)")
_HINT_CLAUSE = re.compile(r";\s*(?:pass|use)\s[^();]*(?:--[a-z]|[a-z_]+=)[^();]*(?=\)|$)")


def plain(text: str) -> str:
    """A message of accord (a warning, an importer's note) as a page says it: coefficients by their names,
    without the hints at command-line options or Python arguments, which the reader of a page cannot act on.

    Examples
    --------
    >>> plain("cohen_kappa is undefined: no expected disagreement")
    "Cohen's kappa is undefined: no expected disagreement"
    >>> plain("not read: ner, topic (pass --field to choose)")
    'not read: ner, topic'
    >>> plain("read as nominal (JSON-MIN gives no types; pass kind= or multiple= to change)")
    'read as nominal (JSON-MIN gives no types)'
    """
    return spoken(_HINT_CLAUSE.sub("", _HINT_PAREN.sub("", str(text))))


def seed_words(seed: Any) -> str:
    """How the resamples were drawn: ``seed 1``, or that no seed was given.

    Examples
    --------
    >>> seed_words(1), seed_words(None)
    ('seed 1', 'no seed, so another run draws other resamples')
    """
    return "no seed, so another run draws other resamples" if seed is None else f"seed {seed}"


def interval_words(interval: Any) -> str:
    """An interval as the page writes it, ``[0.426, 1.000]``; empty when there is none or its ends are undefined.

    Examples
    --------
    >>> interval_words((0.4261, 1.0)), interval_words((float("nan"), 1.0)), interval_words(None)
    ('[0.426, 1.000]', '', '')
    """
    if interval is None or not all(x is not None and math.isfinite(float(x)) for x in interval):
        return ""
    return f"[{float(interval[0]):.3f}, {float(interval[1]):.3f}]"


def threshold_words(value: float, interval: tuple[float, float] | None = None, *,
                    what: str = "alpha") -> tuple[str, str]:
    """Where *value* (and its interval) stands on Krippendorff's (2004) thresholds .800 and .667.

    Returns the sentence and a level, ``good``, ``tentative`` or ``poor``.

    References
    ----------
    Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*, 2nd ed., p. 241:
    rely on variables with alpha >= .800; consider variables with .667 <= alpha < .800 only for
    tentative conclusions.

    Examples
    --------
    >>> threshold_words(0.85)[1], threshold_words(0.7)[1], threshold_words(0.3)[1]
    ('good', 'tentative', 'poor')
    """
    if value is None or not math.isfinite(value):
        return f"{what} is undefined, so it cannot be placed on Krippendorff's scale.", "neutral"
    if value >= 0.8:
        level = "good"
        text = (f"{what} = {value:.3f} is at or above .800, the level Krippendorff (2004) asks of data that "
                "conclusions are to rest on.")
    elif value >= 0.667:
        level = "tentative"
        text = (f"{what} = {value:.3f} is between .667 and .800: Krippendorff (2004) allows such data only "
                "for tentative conclusions.")
    else:
        level = "poor"
        text = (f"{what} = {value:.3f} is below .667, the lowest level Krippendorff (2004) accepts even for "
                "tentative conclusions: do not rely on these annotations as they are.")
    if interval is not None and all(math.isfinite(x) for x in interval):
        lo, hi = interval
        crossed = [t for t in (0.667, 0.8) if lo < t <= hi]
        if crossed:
            text += (f" The interval [{lo:.3f}, {hi:.3f}] straddles "
                     + " and ".join(f"{t:.3f}".lstrip("0") for t in crossed)
                     + ": the data do not settle which side the true value is on; more units would.")
        else:
            text += f" The whole interval [{lo:.3f}, {hi:.3f}] is on the same side of the thresholds."
    return text, level


_DISTANCES = {
    "nominal": "nominal: the values are unordered categories, and any two different values disagree as much "
               "as any other two.",
    "ordinal": "ordinal: the values are ranks; two values disagree more the more values (weighted by how often "
               "they were used) lie between them.",
    "interval": "interval: differences between values are meaningful; the disagreement is the squared "
                "difference.",
    "ratio": "ratio: values have a true zero; the disagreement is the squared difference relative to the sum.",
    "jaccard": "Jaccard: values are sets; the disagreement is 1 - |A & B| / |A | B|, so partial overlap is "
               "partial agreement.",
    "dice": "Dice: values are sets; the disagreement is 1 - 2|A & B| / (|A| + |B|).",
    "masi-2006": "MASI (Passonneau 2006): values are sets; 1 - Jaccard x monotonicity, so a subset disagrees "
                 "less than an overlap, and an overlap less than disjoint sets.",
    "masi-2010": "MASI (Passonneau 2010 weights): values are sets; 1 - Jaccard x monotonicity.",
    "set-relation": "set relation (Passonneau 2004): values are sets; 0 identical, 1/3 one a subset of the "
                    "other, 2/3 overlapping, 1 disjoint.",
}


def describe_distance(name: str, values: np.ndarray, *, set_valued: bool = False,
                      order: Sequence[Any] | None = None) -> str:
    """The distance and why it fits (or may not fit) values like these; *order*, the order given to text labels."""
    base = _DISTANCES.get(name, f"{name}: a distance given by the user.")
    text = f"Distance {base}"
    from accord.distances._scalar import number_labels

    # numbers, or labels that all spell one ("1".."5" from a tool's export): the numbers they are
    spelled = None if set_valued or np.asarray(values).dtype.kind == "b" else number_labels(np.asarray(values))
    numeric = spelled is not None
    values = spelled if numeric else values
    if set_valued and name in ("nominal",):
        text += (" The values here are sets: nominal counts any difference as full disagreement; a set distance "
                 "(masi-2006, jaccard) gives credit for overlap.")
    elif numeric and name == "nominal" and len(values) > 2:
        text += (f" The values here are {plural(len(values), 'number')} ({fmt(values.min())} to "
                 f"{fmt(values.max())}); if "
                 "their order matters, ordinal or interval fits better (see the other distances below).")
    elif order is not None and name in ("ordinal", "interval", "ratio"):
        text += (" The values here are labels in the order given, lowest to highest: "
                 + " < ".join(value_label(v) for v in order) + ".")
        if name != "ordinal":
            text += f" The {name} distance takes them as the equally spaced numbers 0 to {len(order) - 1}."
    elif not numeric and not set_valued and name in ("ordinal", "interval", "ratio"):
        text += " The values here are not numbers; check that they sort in the intended order."
    elif name in ("interval", "ratio", "ordinal") and numeric:
        text += f" The values here are numbers from {fmt(values.min())} to {fmt(values.max())}, so it applies."
    elif name == "nominal":
        text += " The values here are labels, which fits."
    return text


def fmt(x: Any) -> str:
    f = float(x)
    return str(int(f)) if f.is_integer() else f"{f:g}"


def value_label(v: Any) -> str:
    """A value as the page shows it: sets as ``{a, b}``, whole floats without ``.0``.

    Examples
    --------
    >>> value_label(frozenset({"b", "a"})), value_label(2.0), value_label(("doc", "m3"))
    ('{a, b}', '2', 'm3')
    >>> value_label((frozenset({"a"}), frozenset({"c", "b"})))  # a ranking: best first, ties joined by =
    'a > b = c'
    """
    if v is None:
        return ""
    if isinstance(v, tuple) and v and all(isinstance(g, frozenset) for g in v):
        return " > ".join(" = ".join(sorted(value_label(x) for x in g)) for g in v)
    if isinstance(v, (frozenset, set)):
        if not v:
            return "(none)"
        items = sorted((value_label(x) for x in v), key=lambda s: (len(s), s))
        return "{" + ", ".join(items) + "}"
    if isinstance(v, tuple) and len(v) == 2:  # a (document, mention) pair: the mention says enough
        return value_label(v[1])
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return ""
        return str(int(f)) if f.is_integer() else f"{f:g}"
    if isinstance(v, np.generic):
        return str(v.item())
    return str(v)
