"""The engines' own passes (DuckDB's plain SQL, accord.engines._duckdb; Polars' native expressions,
accord.engines._polars) equal the generic narwhals reductions.

Each case reduces one frame twice, through the engine's own passes and through the generic path (the engine's
pass switched off), and compares everything a coefficient or the bootstrap reads: the values, the coders, the
signatures in their order, the weights, the key index, the coder x value counts, and alpha.
"""

from __future__ import annotations

import numpy as np
import pytest

duckdb = pytest.importorskip("duckdb")

pl = pytest.importorskip("polars")

from accord._shared.errors import AccordError  # noqa: E402
from accord.engines import _duckdb as sql_path  # noqa: E402
from accord.engines import _polars as polars_path  # noqa: E402
from accord.engines._reductions import reduce_frame  # noqa: E402


def _relation(rows: list[tuple], types: str = "") -> object:
    con = duckdb.connect()
    con.execute(f"CREATE TABLE t (unit BIGINT, coder {types or 'VARCHAR'}, value {_vtype(rows)})")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    return con.sql("SELECT * FROM t")


def _vtype(rows: list[tuple]) -> str:
    vals = [r[2] for r in rows if r[2] is not None]
    if all(isinstance(x, bool) for x in vals):
        return "BOOLEAN"
    if all(isinstance(x, int) for x in vals):
        return "BIGINT"
    if all(isinstance(x, (int, float)) for x in vals):
        return "DOUBLE"
    return "VARCHAR"


def _lazyframe(rows: list[tuple], coder_type: object = None) -> object:
    vtype = {"BOOLEAN": pl.Boolean, "BIGINT": pl.Int64, "DOUBLE": pl.Float64, "VARCHAR": pl.String}[_vtype(rows)]
    return pl.LazyFrame(rows, schema={"unit": pl.Int64, "coder": coder_type or pl.String, "value": vtype},
                        orient="row")


def _both(rel: object, monkeypatch: pytest.MonkeyPatch, *, expect_fast: bool = True, **kw: object
          ) -> tuple[object, object]:
    module, name = (polars_path, "reduce_polars") if isinstance(rel, pl.LazyFrame) else (sql_path, "reduce_duckdb")
    calls = []
    real = getattr(module, name)

    def spy(*a: object, **k: object) -> object:
        out = real(*a, **k)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(module, name, spy)
    fast = reduce_frame(rel, **kw)
    assert calls == [expect_fast], "the engine's own pass was not taken" if expect_fast else "it should not apply"
    monkeypatch.setattr(module, name, lambda *a, **k: None)
    slow = reduce_frame(rel, **kw)
    monkeypatch.setattr(module, name, real)
    return fast, slow


def _same(a: object, b: object) -> None:
    from accord.engines import alpha

    assert a.values.tolist() == b.values.tolist()
    assert a.coders.tolist() == b.coders.tolist()
    sa, sb = a.signatures, b.signatures
    for name in ("unit", "value", "count", "m", "weight"):
        np.testing.assert_array_equal(getattr(sa, name), getattr(sb, name), err_msg=name)
    assert (a.n_rows, a.n_missing, a.n_units, a.n_entries) == (b.n_rows, b.n_missing, b.n_units, b.n_entries)
    assert a._cache["signature_index"].equals(b._cache["signature_index"])
    np.testing.assert_array_equal(a.coder_values, b.coder_values)
    assert alpha(a).alpha == alpha(b).alpha


def _random_rows(rng: np.random.Generator, *, units: int, coders: int, draw: object, absent: float = 0.2,
                 missing: float = 0.05) -> list[tuple]:
    rows = []
    for u in range(units):
        for c in range(coders):
            if rng.random() < absent:
                continue
            rows.append((u, f"c{c}", None if rng.random() < missing else draw(rng)))
    return rows


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["small-ints", "negative-ints", "wide-ints", "strings", "floats", "booleans"])
def test_sql_path_equals_generic(kind: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(seed)
    draw = {
        "small-ints": lambda r: int(r.integers(1, 6)),
        "negative-ints": lambda r: int(r.integers(-3, 3)),
        "wide-ints": lambda r: int(r.choice([0, 10**12, -(10**15), 7])),  # a range too wide for positions
        "strings": lambda r: str(r.choice(["pos", "neg", "it's", 'say "x"', "ünï"])),
        "floats": lambda r: float(r.choice([0.1, 2.5, -1.0, float("nan")])),
        "booleans": lambda r: bool(r.integers(0, 2)),
    }[kind]
    rows = _random_rows(rng, units=int(rng.integers(5, 60)), coders=int(rng.integers(2, 7)), draw=draw)
    fast, slow = _both(_relation(rows), monkeypatch)
    _same(fast, slow)
    # Polars' own pass takes integers in a range and text; the others go the generic way
    fast, slow = _both(_lazyframe(rows), monkeypatch,
                       expect_fast=kind in ("small-ints", "negative-ints", "strings"))
    _same(fast, slow)


def test_many_values_take_several_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """60 integer values with 7 coders: 3 bits a digit, 20 digits a key, so three keys; the generic path packs
    them by base 8 too, in 21 digits (the re-packing is not a copy of the SQL keys)."""
    rng = np.random.default_rng(5)
    rows = _random_rows(rng, units=400, coders=7, draw=lambda r: int(r.integers(0, 60)))
    for frame in (_relation(rows), _lazyframe(rows)):
        fast, slow = _both(frame, monkeypatch)
        assert len(fast._keys) >= 3
        _same(fast, slow)


def test_text_values_beyond_one_key(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(6)
    rows = _random_rows(rng, units=300, coders=3, draw=lambda r: f"label {int(r.integers(0, 90))}")
    for frame in (_relation(rows), _lazyframe(rows)):
        fast, slow = _both(frame, monkeypatch)
        _same(fast, slow)


def test_integer_coders(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [(u, c, (u * c) % 4) for u in range(30) for c in (10, 20, 30) if (u + c) % 7]
    for frame in (_relation(rows, types="INTEGER"), _lazyframe(rows, pl.Int32)):
        fast, slow = _both(frame, monkeypatch)
        _same(fast, slow)


def test_more_coders_than_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """70 coders: no 64-bit mask holds one bit per coder; distinct coders are counted per unit instead."""
    rng = np.random.default_rng(7)
    rows = _random_rows(rng, units=20, coders=70, draw=lambda r: int(r.integers(0, 3)), absent=0.5)
    fast, slow = _both(_relation(rows), monkeypatch)
    _same(fast, slow)
    fast, slow = _both(_lazyframe(rows), monkeypatch, expect_fast=False)  # past 61 coders: no mask holds them
    _same(fast, slow)


def test_csv_text_is_read_as_accord_reads_csv(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """A CSV value column is text on the lazy engines: canonical numbers become numbers, "01" stays apart."""
    from accord.engines._sources import open_files

    f = tmp_path / "labels.csv"
    f.write_text("unit,coder,value\n1,a,3\n1,b,3\n2,a,4\n2,b,3\n3,a, 4\n3,b,4\n4,a,\n4,b,3\n")
    rel = open_files([f], "duckdb", source=str(f), columns=("unit", "coder", "value"))
    fast, slow = _both(rel, monkeypatch, source=str(f), csv_text=True)
    _same(fast, slow)
    assert fast.values.tolist() == [3, 4]


def test_duplicate_is_named_as_the_generic_path_names_it() -> None:
    rows = [(1, "a", 1), (1, "a", 2), (1, "b", 1), (2, "a", 1), (2, "b", 1)]
    for frame in (_relation(rows), _lazyframe(rows)):
        with pytest.raises(AccordError, match=r"coder 'a' gave two values to unit 1"):
            reduce_frame(frame)


def test_polars_coder_bits_are_exact_whatever_the_hash() -> None:
    """The coders' hash seed is chosen so that no two share a bit: many coders, and coders whose names collide
    under the first seeds, still count each unit's distinct coders exactly (a duplicate is found, none invented)."""
    rng = np.random.default_rng(11)
    for n_coders in (2, 8, 20, 40):
        rows = _random_rows(rng, units=50, coders=n_coders, draw=lambda r: int(r.integers(0, 4)), absent=0.3,
                            missing=0.0)
        red = reduce_frame(_lazyframe(rows))
        assert red.n_entries == len(rows)
        dup = [*rows, (rows[0][0], rows[0][1], rows[0][2])]
        with pytest.raises(AccordError, match=r"gave two values to unit"):
            reduce_frame(_lazyframe(dup))


def test_missing_unit_and_no_values() -> None:
    for make in (_relation, _lazyframe):
        with pytest.raises(AccordError, match=r"the unit is missing in 1 row"):
            reduce_frame(make([(None, "a", 1), (1, "b", 1)]))
        with pytest.raises(AccordError, match=r"no values to compare"):
            reduce_frame(make([(1, "a", None), (1, "b", None)]))


@pytest.mark.parametrize("make", [_relation, _lazyframe])
def test_one_sum_of_coder_bits_and_value_digits_finds_every_duplicate(make: object,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With few coders and values the coders' bits sit below the values' digits in one key: a coder counted
    twice or three times carries out of its bit (and its values' digits may carry into the next), and the
    duplicate is still found and named by the generic path."""
    ok = [(2, "a", 1), (2, "b", 2), (2, "c", 3), (3, "a", 2), (3, "c", 2)]
    fast, slow = _both(make(ok), monkeypatch)
    _same(fast, slow)
    for dup in ([(1, "a", 1), (1, "a", 1)], [(1, "a", 1), (1, "a", 2), (1, "a", 3)],
                [(1, "a", 3), (1, "a", 3), (1, "b", 3), (1, "b", 3), (1, "c", 3)], [(1, "a", 3)] * 40):
        with pytest.raises(AccordError, match=r"coder 'a' gave \w+ values to unit 1"):
            reduce_frame(make([*dup, *ok]))


@pytest.mark.parametrize("spread", [0, 120])  # one key with the coders' bits, or several keys
@pytest.mark.parametrize("dtype", ["Int8", "Int32", "UInt8", "UInt64", "Int64"])
def test_polars_integer_value_types_give_the_generic_reductions(dtype: str, spread: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The digits' exponents are computed in the value column's own type where it is 64-bit, cast first where it
    is narrower (a product of an 8-bit value would wrap)."""
    low = 0 if dtype.startswith("U") else -100
    rows = [(u, f"c{k}", low + (u * 7 + k * 3) % 5 + (spread if u % 2 else 0)) for u in range(40) for k in range(3)]
    frame = pl.LazyFrame(rows, schema={"unit": pl.Int64, "coder": pl.String, "value": getattr(pl, dtype)},
                         orient="row")
    fast, slow = _both(frame, monkeypatch)
    _same(fast, slow)


def _sampled(frame: object, monkeypatch: pytest.MonkeyPatch) -> tuple[object, bool]:
    """*frame*'s reductions, and whether the sampled one-pass route gave them."""
    taken = []
    real = polars_path._sampled_pass

    def spy(*a: object, **k: object) -> object:
        out = real(*a, **k)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(polars_path, "_sampled_pass", spy)
    out = reduce_frame(frame)
    monkeypatch.setattr(polars_path, "_sampled_pass", real)
    return out, taken == [True]


@pytest.mark.parametrize("sliced", [True, False])
@pytest.mark.parametrize("order", ["by-unit", "by-coder", "shuffled"])
def test_polars_sampled_coders_are_proved_complete(order: str, sliced: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The coders come from a sample (slices from the first row to the last, or the first rows and every
    _STEP-th); a coder the sample misses (one row, between the slices and off the step) leaves a unit with fewer
    coder bits than rows, and the two-collect pass runs instead: the reductions equal the generic path's either
    way, and the one-pass route is taken only where the sample held every coder."""
    monkeypatch.setattr(polars_path, "_sliceable", lambda lf: sliced)
    monkeypatch.setattr(polars_path, "_HEAD", 64)
    monkeypatch.setattr(polars_path, "_STEP", 50)
    monkeypatch.setattr(polars_path, "_SLICES", 4)
    rng = np.random.default_rng(21)
    rows = _random_rows(rng, units=300, coders=4, draw=lambda r: int(r.integers(1, 6)), missing=0.0)
    if order == "by-coder":
        rows.sort(key=lambda r: r[1])
    elif order == "shuffled":
        rows = [rows[i] for i in rng.permutation(len(rows))]
    fast, taken = _sampled(_lazyframe(rows), monkeypatch)
    assert taken
    _same(fast, _both(_lazyframe(rows), monkeypatch)[1])
    gap = 101  # past the first 64 rows, before the second slice (a third in) and off every 50th: not sampled
    rare = [*rows[:gap], (rows[gap][0], "rare", 3), *rows[gap:]]
    fast, taken = _sampled(_lazyframe(rare), monkeypatch)
    assert not taken
    assert "rare" in fast.coders.tolist()
    _same(fast, _both(_lazyframe(rare), monkeypatch)[1])


def test_polars_sampled_pass_hands_over_what_it_cannot_prove(monkeypatch: pytest.MonkeyPatch) -> None:
    """A duplicate, a missing coder or unit, and more coders than comparisons are left to the two-collect pass,
    which names them or reduces them as before."""
    ok = [(u, f"c{k}", (u + k) % 3) for u in range(50) for k in range(3)]
    with pytest.raises(AccordError, match=r"coder 'c0' gave two values to unit 0"):
        reduce_frame(_lazyframe([(0, "c0", 2), *ok]))
    with pytest.raises(AccordError, match=r"the coder is missing in 1 row"):
        reduce_frame(_lazyframe([(0, None, 2), *ok]))
    with pytest.raises(AccordError, match=r"the unit is missing in 1 row"):
        reduce_frame(_lazyframe([*ok, (None, "c1", 2)]))
    many = [(u, f"c{k}", (u * k) % 3) for u in range(40) for k in range(polars_path._CHAIN_MAX + 1)]
    fast, taken = _sampled(_lazyframe(many), monkeypatch)
    assert not taken
    _same(fast, _both(_lazyframe(many), monkeypatch)[1])


def test_polars_sampled_coder_with_no_value_is_not_a_coder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample reads coders with or without a value; one whose every value is missing sets no bit in the
    histogram and is not among the coders, as on the generic path (coders with at least one value)."""
    rows = [(0, "silent", None), (1, "silent", None)] + [(u, f"c{k}", (u + k) % 3) for u in range(40) for k in range(3)]
    fast, taken = _sampled(_lazyframe(rows), monkeypatch)
    assert taken
    assert fast.coders.tolist() == ["c0", "c1", "c2"]
    _same(fast, _both(_lazyframe(rows), monkeypatch)[1])


def test_polars_slices_only_where_they_read_their_rows(tmp_path: object) -> None:
    """Slices sample the coders of a Parquet or IPC scan or a frame in memory (under a projection too); a CSV scan,
    a filter or a sort would run again up to each slice, so those are sampled in the first pass."""
    frame = pl.DataFrame({"unit": [1, 1], "coder": ["a", "b"], "value": [1, 2]})
    frame.write_parquet(tmp_path / "x.parquet")
    frame.write_csv(tmp_path / "x.csv")
    scan = pl.scan_parquet(tmp_path / "x.parquet")
    assert polars_path._sliceable(scan) and polars_path._sliceable(frame.lazy())
    assert polars_path._sliceable(scan.rename({"unit": "item"}))
    for costly in (pl.scan_csv(tmp_path / "x.csv"), scan.filter(pl.col("value") > 1), scan.sort("coder")):
        assert not polars_path._sliceable(costly)
    for lf in (scan, pl.scan_csv(tmp_path / "x.csv"), scan.sort("coder")):
        assert reduce_frame(lf).n_entries == 2
