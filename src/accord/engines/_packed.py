"""Signature keys packed by an engine's own pass, packed again as the generic reductions pack them.

The engine-specific passes (:mod:`accord.engines._duckdb`, :mod:`accord.engines._polars`) count each unit's
values in 64-bit keys of ``b`` bits a digit, one digit per *position*: a value's offset in a range of integers,
or its code in the table of distinct values.  :func:`repacked` decodes those keys, keeps the positions that
occur (the values present), and packs the counts again in the generic path's base (coders + 1), so that every
path gives the same :class:`~accord.engines._reductions.Reductions`, signature for signature and in the same order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord.engines._reduced import Reductions, _decode, assemble, keyed_frame

__all__ = ["coder_bits_below", "repacked"]


def repacked(
    keys: list[np.ndarray], m: np.ndarray, weight: np.ndarray, *, bits: int, per_key: int, n_positions: int,
    low: int | None, values: np.ndarray | None, frame_values: np.ndarray | None, f: Any, coders: np.ndarray,
    n_rows: int, n_missing: int, source: str, engine: str,
) -> Reductions:
    """The reductions of a histogram whose keys hold ``bits``-bit digits, ``per_key`` to a key.

    Parameters
    ----------
    keys, m, weight : the histogram: each signature's keys, its values per unit, its units.
    n_positions : the positions the digits stand for.
    low : int or None
        Positions are offsets from this integer (the values are the positions that occur, plus *low*); None when
        positions are codes in *values*.
    values, frame_values : the value table and the engine's labels of it (None with *low*).
    f : the narwhals frame of the on-demand tables (``__unit``, ``__coder``, ``__value``).
    """
    counts = _decode(keys, m, weight, base=1 << bits, digits=per_key, n_values=n_positions)
    position = counts.value
    if low is not None:  # a range of integers: the values are the positions that occur
        from accord.engines._domain import _table

        used = np.unique(position)
        values = frame_values = _table((used + low).tolist(), "value")
        position = np.searchsorted(used, position)
    f, names, base, digits = keyed_frame(f, values, frame_values, coders, source=source)
    generic = [np.zeros(len(m), dtype=np.int64) for _ in names]
    chunk, digit = np.divmod(position, digits)
    term = counts.count.astype(np.int64) * np.power(base, digit, dtype=np.int64)
    for j in range(len(names)):
        sel = chunk == j
        np.add.at(generic[j], counts.unit[sel], term[sel])
    return assemble(generic, m, weight, f=f, keys=names, base=base, digits=digits, values=values,
                    frame_values=frame_values, coders=coders, n_rows=n_rows, n_missing=n_missing, source=source,
                    engine=engine)


def coder_bits_below(packed: np.ndarray, m: np.ndarray, n: np.ndarray, slots: int
                     ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray] | None:
    """Keys whose low *slots* bits hold each unit's sum of its coders' bits (distinct powers of two, one a coder)
    and whose higher bits hold the values' digits: ``(keys, m, weight)`` of the values' digits alone, or None
    when a coder gave a unit two values.

    A unit without a repeated coder sums distinct powers of two, so exactly its *m* bits are set; a coder counted
    twice carries out of its bit and leaves fewer (the sum of *m* powers of two sets *m* bits only when no two
    are equal).  Units of one signature under different sets of coders come in as rows of their own and go out
    as one row (*m*, the sum of the digits, is the same for each)."""
    if (_bits_set(packed & ((1 << slots) - 1), slots) != m).any():
        return None
    key, first, inverse = np.unique(packed >> slots, return_index=True, return_inverse=True)
    return [key], m[first], np.bincount(inverse.reshape(-1), weights=n.astype(float), minlength=len(key))


def _bits_set(x: np.ndarray, width: int) -> np.ndarray:
    """The bits set in each of the non-negative integers *x* below ``2 ** width``."""
    out = np.zeros(len(x), dtype=np.int64)
    for i in range(width):
        out += (x >> i) & 1
    return out
