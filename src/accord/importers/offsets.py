"""Character offsets between UTF-16 code units (JavaScript tools, INCEpTION) and Python code points.

Label Studio, doccano, Argilla's web UI and INCEpTION count offsets in UTF-16 code
units, so every character outside the Basic Multilingual Plane (an emoji) counts
twice; Python strings count code points.  A span after an emoji is off by one per
such character unless re-anchored.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Utf16Index"]


class Utf16Index:
    """Map UTF-16 code-unit offsets of one text to code-point offsets.

    Examples
    --------
    >>> ix = Utf16Index("I \\N{GRINNING FACE} Paris")
    >>> ix.to_codepoint(5)  # "Paris" starts at code unit 5, code point 4
    4
    >>> ix.has_astral
    True
    """

    def __init__(self, text: str) -> None:
        self.text = text
        widths = np.fromiter((2 if ord(ch) > 0xFFFF else 1 for ch in text), dtype=np.int64, count=len(text))
        self.has_astral = bool((widths == 2).any())
        # starts[i] = UTF-16 offset of code point i; one past the end is the total length
        self._starts = np.concatenate(([0], np.cumsum(widths)))

    @property
    def utf16_length(self) -> int:
        """Length of the text in UTF-16 code units."""
        return int(self._starts[-1])

    def to_codepoint(self, offset: int) -> int | None:
        """The code-point offset of a UTF-16 offset; ``None`` when it splits a surrogate pair or is out of range."""
        if offset < 0 or offset > self.utf16_length:
            return None
        i = int(np.searchsorted(self._starts, offset))
        if i >= len(self._starts) or self._starts[i] != offset:
            return None
        return i
