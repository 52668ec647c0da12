"""The reductions of a Polars LazyFrame in native expressions: the passes Polars itself allows.

The generic reductions (:func:`accord.engines._reductions.reduce_frame`) map each row's value and coder through a
lookup table (``replace_strict``), which Polars runs as a hash lookup of every row: on strings, several times the
cost of the grouped sum itself.  Here a frame of integer or text values and text or integer coders is reduced in
native expressions.

Integer values with few coders (at most ``_CHAIN_MAX``) first try one pass over the coder column
(:func:`_sampled_pass`): a first pass gives the rows, the missing values and coders and the values' range, slices
of the frame (or, where a slice would run the source again, that pass) a sample of the coders (a sampled coder
with no value sets no bit and is dropped), and the signature histogram gives each sampled coder
a bit below the values' digits by comparison.  A coder the sample missed gets no bit, so the
unit that holds it has fewer coder bits set than rows, as a unit whose coder gave two values has: either way the
pass proves nothing and the two collects below run.  The coders are compared, not grouped by or hashed, and
the first pass does not group: the first of the two collects below is the cost it saves.

Otherwise, two collects:

1. one count per (coder, value): the rows, the rows without a coder, the missing values, the coders and the
   values (for integers, their range);
2. the signature histogram: per unit, the sum of ``2^(b * position(value))`` (positions: offsets in the range of
   the integers, computed, or codes of the text values through an ``Enum``) and the row count, then one count
   per key.  The unit's distinct coders are the bits set in its sum of ``2^(hash(coder) mod s)`` (distinct
   powers of two add without a carry; a coder counted twice carries, and the sum has fewer bits than the unit
   has rows).  Where they fit (one key, at most ``s = 62 - b * positions`` coders) those bits sit below the
   values' digits in the same sum, so that each unit is one sum and one count, as in the histogram written by
   hand; otherwise they are a second sum (``s = 61``).  The hash's seed is chosen so that no two of the coders
   share a bit (checked here on the coders themselves), so the count is exact.  Rows without a unit make a
   unit of their own, which the histogram counts; they are refused then.

The keys are packed again as the generic path packs them (:func:`accord.engines._packed.repacked`).  Other
frames (sets, floats, booleans, more than 61 coders, coders whose hashes collide under every seed tried, text
read from CSV) take the generic path, which also names a duplicate.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord.engines._packed import coder_bits_below, repacked
from accord.engines._reduced import MAX_KEY_CHUNKS, Reductions, _intern_labels, _nw, check_rows, long_frame

__all__ = ["reduce_polars"]

#: Bits of the coder mask: a prime below 63, so that ``2^bit`` fits a signed 64-bit integer.
_SLOTS = 61
#: Seeds tried for a hash that gives each coder its own bit.
_SEEDS = 64
#: At most this many coders are told apart by comparisons in the sampled pass (past it, the hashed pass is
#: cheaper than a comparison a coder).
_CHAIN_MAX = 8
#: The sample of the coders: _SLICES slices of _HEAD rows from the first row to the last, where slices read only
#: their rows (:func:`_sliceable`); else the first _HEAD rows and every _STEP-th, in the first pass.
_HEAD, _STEP, _SLICES = 4096, 997, 32
#: The first lines of a plan whose slices read their rows only: a Parquet or IPC scan or a frame in memory.
_SOURCES = ("Parquet SCAN", "IPC SCAN", "DF [")


def _sliceable(lf: Any) -> bool:
    """Whether a slice of *lf* reads only its rows: its plan is a Parquet or IPC scan or a frame in memory,
    bare or under one projection (a CSV is parsed up to the slice, a filter, sort or join run again for each)."""
    try:
        lines = [line.strip() for line in lf.explain(optimized=False).splitlines() if line.strip()]
    except Exception:  # noqa: BLE001 - a plan Polars cannot print: sample in the first pass
        return False
    if lines and lines[0].startswith("SELECT [") and len(lines) > 1:
        lines = lines[1:]
    return bool(lines) and lines[0].startswith(_SOURCES)


def _coder_seed(pl: Any, coders: list[Any], dtype: Any, slots: int = _SLOTS) -> int | None:
    """A hash seed under which the coders' ``hash mod slots`` are all different, or None."""
    if len(coders) > slots:
        return None
    series = pl.Series(coders, dtype=dtype)
    for seed in range(_SEEDS):
        taken = (series.hash(seed=seed) % slots).to_list()
        if len(set(taken)) == len(taken):
            return seed
    return None


def _sampled_pass(pl: Any, lf: Any, frame: Any, schema: Any, *, unit: str, coder: str, value: str,
                  source: str) -> Reductions | None:
    """The reductions of integer values in one pass over the coders, or None where it cannot prove them.

    A first pass counts the rows, the missing values and coders and finds the values' range; the coders are
    sampled by slices from the first row to the last where slices read only their rows (:func:`_sliceable`), else
    in that pass (the first rows' and every ``_STEP``-th row's), without grouping by them.  Each of those
    coders (at most ``_CHAIN_MAX``) gets its own bit below the values' digits by comparison, an unsampled coder (or
    a null) none, so a unit whose sum has fewer coder bits set than it has rows holds a coder the sample missed or a
    coder counted twice: then None, and the two-collect pass runs.  Otherwise the sample held every coder.
    """
    v, c = pl.col(value), pl.col(coder)
    counts = [pl.len().alias("n"), v.null_count().alias("nv"), c.null_count().alias("nc"), v.min().alias("lo"),
              v.max().alias("hi")]
    sliceable = _sliceable(lf)
    if not sliceable:  # the sample in the same pass: slices would each run the source again up to their rows
        counts += [c.head(_HEAD).unique().implode().alias("h"), c.gather_every(_STEP).unique().implode().alias("s")]
    stats = lf.select(*counts).collect().row(0)
    n_rows, n_missing, n_null_coders, lo, hi = (int(x) if x is not None else None for x in stats[:5])
    if n_rows == 0 or n_null_coders or lo is None:
        return None  # the two-collect pass says what is wrong
    if sliceable:  # _SLICES slices from the first row to the last: each reads its rows only
        offsets = np.unique(np.linspace(0, max(n_rows - _HEAD, 0), _SLICES).astype(np.int64))
        sample = pl.concat([lf.slice(int(o), _HEAD) for o in offsets]).select(c.unique()).collect()
        stats = (*stats, sample.to_series().to_list())
    # the coders sampled, with a value or not: one whose every value is missing sets no bit, and is dropped below
    raw_coders = [x for x in dict.fromkeys(x for part in stats[5:] for x in part) if x is not None]
    n = len(raw_coders)
    bits = max(1, n.bit_length())
    n_positions = hi - lo + 1
    slots = 62 - bits * n_positions
    if not 0 < n <= min(_CHAIN_MAX, slots):
        return None
    native_vtype = lf.collect_schema()[value]
    two = pl.lit(2, dtype=pl.Int64)
    above = slots - bits * lo  # the digit's exponent is bits * value + above: one product, one sum
    if above >= 0 and native_vtype in (pl.Int64, pl.UInt64):
        digit = two.pow(v * bits + above)
    else:
        digit = two.pow(slots + bits * (v.cast(pl.Int64) - lo))
    chain = pl.when(c == raw_coders[0]).then(pl.lit(1, dtype=pl.Int64))
    for i, name in enumerate(raw_coders[1:], 1):
        chain = chain.when(c == name).then(pl.lit(1 << i, dtype=pl.Int64))
    rows = lf.filter(v.is_not_null()) if n_missing else lf
    per_unit = rows.group_by(unit).agg((chain + digit).sum().alias("__k"), pl.len().alias("__m"))
    sig = per_unit.group_by("__k", "__m").agg(pl.len().alias("__n"), pl.col(unit).null_count().alias("__nu"))
    sig = sig.collect()
    if sig["__nu"].sum():
        return None  # rows without a unit: the two-collect pass names them
    packed = sig["__k"].to_numpy().astype(np.int64)
    one_key = coder_bits_below(packed, *(sig[k].to_numpy().astype(np.int64) for k in ("__m", "__n")), slots)
    if one_key is None:
        return None  # a coder the sample missed, or a coder who gave a unit two values
    key_arrays, m, weight = one_key
    seen = int(np.bitwise_or.reduce(packed & ((1 << slots) - 1))) if len(packed) else 0
    coders = _intern_labels([x for i, x in enumerate(raw_coders) if seen >> i & 1], "coder")
    f = long_frame(frame, schema, unit=unit, coder=coder, value=value)
    return repacked(key_arrays, m, weight, bits=bits, per_key=62 // bits, n_positions=n_positions, low=lo,
                    values=None, frame_values=None, f=f, coders=coders, n_rows=n_rows, n_missing=n_missing,
                    source=source, engine="polars")


def reduce_polars(
    frame: Any, schema: Any, *, unit: str, coder: str, value: str, source: str, csv_text: bool = False
) -> Reductions | None:
    """The reductions of the narwhals frame *frame* over a Polars LazyFrame, or None where the generic path
    must run (see the module's docstring)."""
    import polars as pl

    nw = _nw()
    vtype, ctype = schema[value], schema[coder]
    if csv_text or not (ctype.is_integer() or ctype == nw.String):
        return None
    if not (vtype.is_integer() or vtype == nw.String):
        return None
    lf = nw.to_native(frame)
    if not isinstance(lf, pl.LazyFrame):
        return None
    if vtype.is_integer():
        out = _sampled_pass(pl, lf, frame, schema, unit=unit, coder=coder, value=value, source=source)
        if out is not None:
            return out
    v, c = pl.col(value), pl.col(coder)
    # one pass over the coder and value columns: the rows, the missing values, the coders and the values
    cells = lf.group_by(c, v).agg(pl.len().alias("__n")).collect()
    given = cells.filter(pl.col(value).is_not_null())

    def rows_of(part: Any) -> int:
        return int(part["__n"].sum())

    n_rows, n_missing = rows_of(cells), rows_of(cells.filter(pl.col(value).is_null()))
    nulls = {"unit": 0, "coder": rows_of(cells.filter(pl.col(coder).is_null()))}
    if n_rows == 0 or nulls["coder"] or given.height == 0:  # a unit's nulls say first, as before the pass
        nulls["unit"] = int(lf.select(pl.col(unit).null_count()).collect().item())
    check_rows(n_rows, nulls, source=source, unit=unit, coder=coder)
    rows = lf.filter(v.is_not_null()) if n_missing else lf
    raw_coders = given[coder].unique().to_list()
    if not raw_coders:
        raise AccordError(f"{source}: no values to compare (every cell is missing)")
    if len(raw_coders) > _SLOTS:
        return None
    coders = _intern_labels(raw_coders, "coder")
    bits = max(1, len(coders).bit_length())  # a digit counts up to one value per coder
    per_key = 62 // bits
    f = long_frame(frame, schema, unit=unit, coder=coder, value=value)
    low = values = frame_values = None
    lo, hi = (given[value].min(), given[value].max()) if vtype.is_integer() else (None, None)
    if lo is not None and hi - lo < per_key * MAX_KEY_CHUNKS:
        low = int(lo)
        n_positions = int(hi) - low + 1
        position = v.cast(pl.Int64) - low
    else:
        if vtype.is_integer():
            return None  # a range too wide for positions: the generic path
        from accord.engines._domain import scalar_domain

        raw = given[value].unique().to_list()
        f, values, frame_values, codes = scalar_domain(f, raw, source=source, column=value)
        if frame_values is not values or -(-len(values) // per_key) > MAX_KEY_CHUNKS:
            return None  # text read as other values (recoded), or too many values: the generic path
        n_positions = len(values)
        position = v.cast(pl.Enum([str(x) for x in values.tolist()])).to_physical().cast(pl.Int64)
    n_keys = -(-n_positions // per_key)
    two = pl.lit(2, dtype=pl.Int64)
    native_ctype, native_vtype = lf.collect_schema()[coder], lf.collect_schema()[value]

    def histogram(by_key: Any) -> Any:
        """The units per key, after refusing rows without a unit (they make a unit of their own, counted here)."""
        sig = by_key.agg(pl.len().alias("__n"), pl.col(unit).null_count().alias("__nu")).collect()
        if sig["__nu"].sum():
            nulls["unit"] = int(lf.select(pl.col(unit).null_count()).collect().item())
            check_rows(n_rows, nulls, source=source, unit=unit, coder=coder)
        return sig

    # the coders' bits below the values' digits, in one key: one sum per unit, as a histogram written by hand has
    slots = 62 - bits * n_positions if n_keys == 1 else 0
    seed = _coder_seed(pl, raw_coders, native_ctype, slots) if slots >= len(coders) else None
    if seed is not None:
        above = slots - bits * (low or 0)  # the digit's exponent is bits * value + above: one product, one sum
        plain = low is not None and above >= 0 and hi * bits + above < 2**62 and native_vtype in (pl.Int64, pl.UInt64)
        digit = two.pow(v * bits + above) if plain else two.pow(slots + bits * position)
        term = two.pow(c.hash(seed=seed) % slots) + digit
        per_unit = rows.group_by(unit).agg(term.sum().alias("__k"), pl.len().alias("__m"))
        sig = histogram(per_unit.group_by("__k", "__m"))
        one_key = coder_bits_below(*(sig[k].to_numpy().astype(np.int64) for k in ("__k", "__m", "__n")), slots)
        if one_key is None:
            return None  # a coder gave a unit two values: the generic path names them
        key_arrays, m, weight = one_key
    else:
        seed = _coder_seed(pl, raw_coders, native_ctype)
        if seed is None:
            return None
        if n_keys == 1:
            key_sums = [two.pow(bits * position).sum().alias("__k0")]
        else:
            key_sums = [pl.when(position // per_key == j).then(two.pow(bits * (position % per_key))).otherwise(0)
                        .sum().alias(f"__k{j}") for j in range(n_keys)]
        coder_bit = two.pow((c.hash(seed=seed) % _SLOTS).cast(pl.Int64))
        # distinct powers of two add without a carry; a coder counted twice carries and loses a bit
        per_unit = rows.group_by(unit).agg(*key_sums, pl.len().alias("__m"), coder_bit.sum().alias("__b"))
        keys = [f"__k{j}" for j in range(n_keys)]
        sig = histogram(per_unit.group_by(*keys, "__m", pl.col("__b").bitwise_count_ones().alias("__d")))
        m = sig["__m"].to_numpy().astype(np.int64)
        if (sig["__d"].to_numpy().astype(np.int64) != m).any():
            return None  # a coder gave a unit two values: the generic path names them
        key_arrays = [sig[k].to_numpy().astype(np.int64) for k in keys]
        weight = sig["__n"].to_numpy().astype(float)
    return repacked(key_arrays, m, weight, bits=bits, per_key=per_key, n_positions=n_positions, low=low,
                    values=values, frame_values=frame_values, f=f, coders=coders, n_rows=n_rows,
                    n_missing=n_missing, source=source, engine="polars")

