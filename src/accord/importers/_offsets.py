"""Character offsets between UTF-16 code units (JavaScript tools, INCEpTION) and Python code points.

Label Studio, doccano, Argilla's web UI and INCEpTION count offsets in UTF-16 code
units, so every character outside the Basic Multilingual Plane (an emoji) counts
twice; Python strings count code points.  A span after an emoji is off by one per
such character unless re-anchored.
"""

from __future__ import annotations

import bisect

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
        # code points outside the BMP (two UTF-16 units each), found on the UTF-32 array, not char by char
        if text.isascii():
            astral = np.empty(0, dtype=np.int64)
        else:
            cps = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
            astral = np.flatnonzero(cps > 0xFFFF)
        self.has_astral = bool(len(astral))
        # UTF-16 offset of each astral character: its code-point offset plus the astral characters before it
        self._astral16 = (astral + np.arange(len(astral))).tolist()
        self._length16 = len(text) + len(astral)

    @property
    def utf16_length(self) -> int:
        """Length of the text in UTF-16 code units."""
        return self._length16

    def to_codepoint(self, offset: int) -> int | None:
        """The code-point offset of a UTF-16 offset; ``None`` when it splits a surrogate pair or is out of range."""
        if offset < 0 or offset > self._length16:
            return None
        if not self.has_astral:
            return offset
        k = bisect.bisect_left(self._astral16, offset)  # astral characters starting before the offset
        if k and self._astral16[k - 1] + 1 == offset:  # between the two halves of a surrogate pair
            return None
        return offset - k
