"""Agreement beyond memory: DuckDB, Polars, Dask and Spark against the in-memory engine and the krippendorff package.

Data (generated with DuckDB into Parquet in a temporary directory; deterministic hashes, no RNG state):
U units x C coders (default 5,000,000 x 4 = 20M cells), values 1..V (default 10); a coder copies the
unit's "true" value with probability 1/2, otherwise draws uniformly; 5% of the cells are absent (no row).

Contenders, each in its own fresh process (``benchmarks/_harness.py``; peak RSS = the process's VmHWM), with
their imports and accord's lazy names resolved and one run on a 1,000-unit file before the clock, each timed
``--repeat`` times (median, min-max; the load average printed around each run):

- ``krippendorff``: pandas reads the Parquet file, pivots to the coders x units matrix, then
  ``krippendorff.alpha`` (phases read / pivot / alpha);
- ``memory``: ``accord.read`` then ``accord.alpha`` (the in-memory engine);
- ``duckdb``: ``accord.engines.reduce(path, engine="duckdb")`` then alpha from the reductions;
- ``polars``: the same over ``polars.scan_parquet``;
- ``dask``: ``dask.dataframe.read_parquet`` on a ``LocalCluster(n_workers=2, threads_per_worker=1,
  processes=False)`` (threads, so the workers' memory is in the measured process);
- ``spark``: ``spark.read.parquet`` on ``local[2]`` (the JVM's memory is *not* in the Python process's RSS;
  the figure is the Python side only).

The big case (``--big-units``) runs DuckDB alone with ``--big-memory-limit`` (default 2GB).

``--floor`` measures accord against the floor its engine allows, at each of ``--threads`` (default 1,2): in one
process per engine and thread count, ``--rounds`` times in turn, accord's reduction and alpha against the same
signature histogram written by hand (one grouped sum of integer codes per unit, one count per key), on the same
file:

- DuckDB: ``accord.engines.reduce(path, threads=T)`` then alpha, against the plain SQL query on a connection of
  T threads;
- Polars (``POLARS_MAX_THREADS=T``): accord over ``polars.scan_parquet``, against the same reduction in plain
  Polars expressions.

The ratio is accord / floor, per round (the machine's speed drifts over seconds), median and min-max; by wall
time, and by the process's CPU time (every thread's), which moves less when other jobs share the machine.

Usage::

    .venv/bin/python benchmarks/bench_engines.py --duckdb-limit 600MB  # 20M rows, every contender
    .venv/bin/python benchmarks/bench_engines.py --units 50000 --contenders memory,duckdb --quiet
    .venv/bin/python benchmarks/bench_engines.py --contenders duckdb --big-units 50000000   # 200M rows
    .venv/bin/python benchmarks/bench_engines.py --sets 8 --contenders memory,duckdb,polars  # set values, MASI
    .venv/bin/python benchmarks/bench_engines.py --floor --threads 1,2 --rounds 7   # accord beside the engine's floor
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import _harness as h  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
CONTENDERS = ("krippendorff", "memory", "duckdb", "polars", "dask", "spark")
FLOOR_ENGINES = ("duckdb", "polars")


def make_parquet(path: Path, units: int, coders: int = 4, values: int = 10, absent: float = 0.05,
                 sets: int = 0) -> int:
    """Write the benchmark data to *path* (Parquet); return the number of rows.

    With *sets* > 0 each value is a set (a Parquet list) of the labels l0..l{sets-1}, each label in with
    probability 1/4: the unit's set when the coder copies it, the coder's own draw otherwise."""
    import duckdb

    con = duckdb.connect()
    pct = int(round(absent * 1000))
    labels = "[" + ", ".join(f"'l{i}'" for i in range(sets)) + "]"
    value = (
        # hash of one concatenated string: DuckDB's hash(u, x) gave every label of a unit the same draw
        f"""CASE WHEN hash(u, c, 1) % 2 = 0 THEN [x FOR x IN {labels} IF hash(concat(u, ':', x)) % 4 = 0]
                        ELSE [x FOR x IN {labels} IF hash(concat(u, ':', c, ':', x)) % 4 = 0] END"""
        if sets else
        f"""CASE WHEN hash(u, c, 1) % 2 = 0 THEN hash(u) % {values} + 1
                        ELSE hash(u, c, 2) % {values} + 1 END"""
    )
    con.execute(
        f"""
        COPY (
            SELECT u AS unit, 'c' || c AS coder,
                   {value} AS value
            FROM range({units}) r(u), range({coders}) s(c)
            WHERE hash(u, c, 3) % 1000 >= {pct}
        ) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)
        """
    )
    return int(con.execute(f"SELECT count(*) FROM read_parquet('{path}')").fetchone()[0])


def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    """One contender: its phases take the Parquet path; imports, names and a run on a small file come first."""
    if spec.get("floor"):
        return _floor_worker(spec)
    path, small = spec["path"], spec.get("small")
    who = spec["contender"]
    if who == "krippendorff":
        kalpha = h.resolve("krippendorff.alpha")
        read_parquet = h.resolve("pandas.read_parquet")

        def pivot(df: Any) -> Any:
            return df.pivot(index="coder", columns="unit", values="value").to_numpy(dtype=float)

        phases = [
            ("read", read_parquet),
            ("pivot", pivot),
            ("alpha", lambda m: float(kalpha(reliability_data=m, level_of_measurement="nominal"))),
        ]
        return h.measure(phases, path, warmup=small)
    distance = spec.get("distance", "nominal")
    if who == "memory":
        read, alpha_of = h.resolve("accord.read"), h.resolve("accord.alpha")  # lazy attributes, resolved here

        return h.measure([("read", read), ("alpha", lambda d: alpha_of(d, distance=distance).alpha)], path,
                         warmup=small)
    reduce, engine_alpha = h.resolve("accord.engines.reduce"), h.resolve("accord.engines.alpha")

    def alpha(red: Any) -> float:
        return float(engine_alpha(red, distance=distance).alpha)

    if who == "duckdb":
        h.resolve("duckdb")
        kw = {"memory_limit": spec.get("memory_limit"), "temp_dir": spec.get("temp_dir")}
        return h.measure([("reduce", lambda p: reduce(p, engine="duckdb", **kw)), ("alpha", alpha)], path,
                         warmup=small)
    if who == "polars":
        scan_parquet = h.resolve("polars.scan_parquet")

        return h.measure([("reduce", lambda p: reduce(scan_parquet(p))), ("alpha", alpha)], path, warmup=small)
    if who == "dask":
        read_parquet = h.resolve("dask.dataframe.read_parquet")
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
        client = Client(cluster)
        try:
            # list columns as lists, not object arrays
            return h.measure([("reduce", lambda p: reduce(read_parquet(p, dtype_backend="pyarrow"))), ("alpha", alpha)],
                             path, warmup=small)
        finally:
            client.close()
            cluster.close()
    if who == "spark":
        session = h.resolve("accord.engines.spark_session")("local[2]")
        session.sparkContext.setLogLevel("ERROR")
        try:
            return h.measure([("reduce", lambda p: reduce(session.read.parquet(p))), ("alpha", alpha)], path,
                             warmup=small)
        finally:
            session.stop()
    raise SystemExit(f"unknown contender {who!r}")


#: The signature histogram by hand: values 1..V are their own codes, 4 bits a digit (a count of at most 15 coders).
FLOOR_SQL = ("SELECT k, m, count(*) AS n FROM (SELECT unit, sum(1::BIGINT << (4 * (value - 1))) AS k, count(*) AS m "
             "FROM read_parquet('{path}') GROUP BY unit) GROUP BY k, m")


def _floor_worker(spec: dict[str, Any]) -> dict[str, Any]:
    """accord and the hand-written histogram in turn, ``rounds`` times, on one engine at ``threads`` threads."""
    path, threads, rounds = spec["path"], int(spec["threads"]), int(spec["rounds"])
    engine_alpha = h.resolve("accord.engines.alpha")
    reduce = h.resolve("accord.engines.reduce")
    if spec["engine"] == "duckdb":
        import duckdb

        def floor() -> int:
            con = duckdb.connect()
            con.execute(f"SET threads = {threads}")
            return len(con.execute(FLOOR_SQL.format(path=path)).fetchall())

        def ours() -> float:
            return float(engine_alpha(reduce(path, engine="duckdb", threads=threads)).alpha)
    else:
        os.environ["POLARS_MAX_THREADS"] = str(threads)  # before Polars is imported: its pool is made once
        import polars as pl

        def floor() -> int:
            per_unit = pl.scan_parquet(path).group_by("unit").agg(
                pl.lit(2, dtype=pl.Int64).pow(4 * (pl.col("value") - 1)).sum().alias("k"), pl.len().alias("m"))
            return per_unit.group_by("k", "m").agg(pl.len()).collect().height

        def ours() -> float:
            return float(engine_alpha(reduce(pl.scan_parquet(path))).alpha)
    floor(), ours()  # imports and first-use costs outside the clock
    cpu: dict[str, list[float]] = {"floor": [], "accord": []}

    def on_cpu(name: str, fn: Any) -> Any:
        """*fn*, noting the process's CPU time (every thread's) of each call: on a machine other jobs share, the
        CPU a run takes moves less than its wall time."""
        def run() -> Any:
            t0 = time.process_time()
            out = fn()
            cpu[name].append(time.process_time() - t0)
            return out
        return run

    times = h.in_turn([("floor", on_cpu("floor", floor)), ("accord", on_cpu("accord", ours))], rounds)
    return {"times": times, "cpu": cpu, "result": ours(), "repeat": rounds}


def _floor_table(path: Path, rows: int, engines: list[str], threads: list[int], rounds: int,
                 timeout: float) -> list[dict[str, Any]]:
    records, table = [], []
    for engine in engines:
        for t in threads:
            rec = h.run_worker(SCRIPT, {"floor": True, "engine": engine, "threads": t, "rounds": rounds,
                                        "path": str(path)}, timeout=timeout)
            records.append(rec)
            if "failed" in rec:
                table.append([f"{rows:,}", engine, str(t), "-", "-", rec["failed"], "-", h.fmt_load(rec)])
                continue
            fl, ac = rec["times"]["floor"], rec["times"]["accord"]
            ratios = [a / f for a, f in zip(ac, fl, strict=True)]
            on_cpu = [a / f for a, f in zip(rec["cpu"]["accord"], rec["cpu"]["floor"], strict=True)]
            table.append([f"{rows:,}", engine, str(t), h.fmt_time(statistics.median(fl)),
                          h.fmt_time(statistics.median(ac)), h.spread(ratios, "{:.2f}".format),
                          h.spread(on_cpu, "{:.2f}".format), h.fmt_load(rec)])
    print(h.markdown_table(["rows", "engine", "threads", "floor (median)", "accord (median)",
                            "accord / floor: median (min-max)", "by CPU time", "load"], table))
    print(f"{rounds} rounds, accord and the floor in turn in each; alpha {records[0].get('result', float('nan')):.6f}")
    return records


def _row(rec: dict[str, Any], rows: int, base: dict[str, Any] | None) -> list[str]:
    spec = rec["spec"]
    label = spec["contender"] + (f" (limit {spec['memory_limit']})" if spec.get("memory_limit") else "")
    if "failed" in rec:
        return [f"{rows:,}", label, "-", rec["failed"], "-", "-", "-", "-", h.fmt_load(rec)]
    phases = " + ".join(f"{k} {h.fmt_time(v)}" for k, v in rec["phases"].items())
    diff = "-" if base is None or "failed" in base else f"{abs(rec['result'] - base['result']):.1e}"
    return [f"{rows:,}", label, phases, h.fmt_spread(rec), h.fmt_mib(rec["peak_mib"]),
            h.fmt_mib(rec["life_peak_mib"]), f"{rec['result']:.6f}", diff, h.fmt_load(rec)]


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark (or, with ``--floor``, accord beside its floor); print the table; return the records."""
    if h.worker_main(argv, _worker):
        return []
    parser = h.parser(__doc__)
    parser.add_argument("--units", type=int, default=5_000_000)
    parser.add_argument("--coders", type=int, default=4)
    parser.add_argument("--values", type=int, default=10)
    parser.add_argument("--sets", type=int, default=0,
                        help="set values over this many labels, MASI distance (krippendorff cannot take sets)")
    parser.add_argument("--contenders", default=",".join(CONTENDERS))
    parser.add_argument("--duckdb-limit", default=None,
                        help="also run DuckDB with this memory limit on the same data (e.g. 600MB): DuckDB fills "
                        "its default limit (80%% of memory) with cache, a limit bounds the peak")
    parser.add_argument("--big-units", type=int, default=0, help="also run DuckDB alone on this many units (0: no)")
    parser.add_argument("--big-memory-limit", default="2GB")
    parser.add_argument("--dir", default=None, help="where to write the Parquet files (default: a temp dir)")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--floor", action="store_true",
                        help="accord beside the floor its engine allows (see the module's docstring), and nothing else")
    parser.add_argument("--floor-engines", default="duckdb,polars")
    parser.add_argument("--threads", default="1,2", help="--floor: the thread counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=7, help="--floor: rounds of accord and the floor in turn")
    args = parser.parse_args(argv)
    contenders = h.choices(parser, "--contenders", args.contenders, CONTENDERS)
    engines = h.choices(parser, "--floor-engines", args.floor_engines, FLOOR_ENGINES)
    say = h.logger(args.quiet)
    records: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "labels.parquet"
        t0 = time.perf_counter()
        rows = make_parquet(path, args.units, args.coders, args.values, sets=args.sets)
        if args.floor:
            h.header(say, "accord", "duckdb", "polars", "narwhals")
            say(f"generated {rows:,} rows ({path.stat().st_size / 2**20:.0f} MiB Parquet)")
            records = _floor_table(path, rows, engines, h.int_list(args.threads), args.rounds, args.timeout)
            h.print_load(records)
            return records
        h.header(say, "accord", "duckdb", "polars", "dask", "distributed", "pyspark", "krippendorff", "narwhals",
                 "pyarrow")
        if args.sets:
            contenders = [c for c in contenders if c != "krippendorff"]
        size = path.stat().st_size / 2**20
        say(f"generated {rows:,} rows ({size:.0f} MiB Parquet) in {time.perf_counter() - t0:.1f} s")
        small = Path(tmp) / "small.parquet"  # each contender runs once on it before the clock
        make_parquet(small, 1_000, args.coders, args.values, sets=args.sets)
        table = []
        base = None
        for who in contenders:
            spec = {"contender": who, "path": str(path), "small": str(small),
                    "distance": "masi-2006" if args.sets else "nominal"}
            rec = h.run_worker(SCRIPT, spec, timeout=args.timeout, repeat=args.repeat)
            records.append(rec)
            if who == "memory":
                base = rec
            if who == "duckdb" and args.duckdb_limit:
                records.append(h.run_worker(SCRIPT, {**spec, "memory_limit": args.duckdb_limit,
                                                     "temp_dir": str(Path(tmp) / "spill")}, timeout=args.timeout,
                                          repeat=args.repeat))
        for rec in records:
            table.append(_row(rec, rows, base if rec["spec"]["contender"] != "memory" else None))
        if args.big_units:
            big = Path(tmp) / "big.parquet"
            big_rows = make_parquet(big, args.big_units, args.coders, args.values)
            say(f"generated {big_rows:,} rows ({big.stat().st_size / 2**20:.0f} MiB Parquet)")
            spec = {"contender": "duckdb", "path": str(big), "small": str(small), "memory_limit": args.big_memory_limit,
                    "temp_dir": str(Path(tmp) / "spill")}
            rec = h.run_worker(SCRIPT, spec, timeout=args.timeout, repeat=args.repeat)
            records.append(rec)
            table.append(_row(rec, big_rows, None))
    header = ["rows", "contender", "phases (medians)", "total: median (min-max)", "peak RSS", "process peak", "alpha",
              "|diff| vs memory", "load"]
    print(h.markdown_table(header, table))
    h.print_load(records)
    return records


if __name__ == "__main__":
    main()
