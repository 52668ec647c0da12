"""The reliability report of 100,000 units: time to build and write the page, and its size.

Data: 3 coders x ``--units`` units (default 100,000), codes 1..10; coders 2 and 3 copy coder 1's code with
probability 1/2 and otherwise draw uniformly; 5% of the cells are missing (the data of bench_alpha.py).
Input: ``Annotations.from_matrix`` of that matrix, built before the clock starts.  Timed, in a fresh process,
after the imports (accord's reporting, Jinja2, Altair, vl-convert) and one report of 200 units made before the
clock, so that what is timed is the report and not the imports (``bench_startup.py`` times those); each run
repeated ``--repeat`` times (median and min-max), the load average printed around each:

- phase "build": ``accord.reporting.build_report(data, bootstrap=1000, seed=1)``: every coefficient that
  applies, 1,000 bootstrap resamples of units, coder pairs, coders left out, per-value alpha, the
  adjudication list (the 2,000 units with most disagreement), the charts;
- phase "write": ``Report.save`` (render the page with the Vega JavaScript inlined, write atomically).

Each size runs twice: with an empty cache ("cold": vl-convert bundles the Vega JavaScript, seconds, as on
the first report a user makes; each cold run starts from a new empty cache) and with the bundle in the user's
cache ("warm", every later report).

Targets (issue 12): under 10 s, and a page under 5 MB.

Usage::

    .venv/bin/python benchmarks/bench_report.py                  # 100,000 units
    .venv/bin/python benchmarks/bench_report.py --quick          # 10,000 units
    .venv/bin/python benchmarks/bench_report.py --sizes 10000,100000,1000000
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as h  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
TARGET_S, TARGET_BYTES = 10.0, 5_000_000


def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    import os

    from accord.data._annotations import Annotations

    build_report = h.resolve("accord.reporting.build_report")
    vega_bundle = h.resolve("accord.reporting._page._vega_bundle")
    for module in ("altair", "jinja2", "vl_convert"):
        h.resolve(module)
    cold = spec["cache"] == "cold"

    data = Annotations.from_matrix(h.make_matrix(spec["units"], seed=spec["seed"]))  # section 1's data
    small = Annotations.from_matrix(h.make_matrix(200, seed=spec["seed"] + 1))
    folder = Path(tempfile.mkdtemp())
    result: dict[str, Any] = {}

    def build(d: Any) -> Any:
        if cold:  # an empty cache: vl-convert bundles the Vega JavaScript during the run
            os.environ["ACCORD_CACHE_DIR"] = tempfile.mkdtemp()
            vega_bundle.cache_clear()
        return build_report(d, bootstrap=spec["bootstrap"], seed=1)

    def write(rep: Any) -> dict[str, Any]:
        out = rep.save(folder / "report.html")
        table = next(t for s in rep.sections for t in s.tables if t.name == "adjudication")
        result.update(bytes=out.stat().st_size, charts=len(rep.charts), rows=len(table.rows),
                      alpha=float(rep.headline[0].value))
        out.unlink()
        return result

    return h.measure([("build", build), ("write", write)], data, warmup=small)


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return one record per size."""
    if h.worker_main(argv, _worker):
        return []
    ap = h.parser(__doc__, seed=20261123, each="case")
    ap.add_argument("--sizes", default="100000", help="comma-separated numbers of units (default 100000)")
    ap.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default 1000)")
    ap.add_argument("--quick", action="store_true", help="10,000 units")
    args = ap.parse_args(argv)
    sizes = [10_000] if args.quick else h.int_list(args.sizes)
    log = h.logger(args.quiet)
    h.header(log, "accord", "numpy", "scipy", "pandas", "altair", "jinja2")
    from accord.reporting._page import _vega_bundle

    _vega_bundle()  # fills the user's cache for the warm runs
    records = []
    for n in sizes:
        for cache in ("cold", "warm"):
            log(f"  running {n:,} units, {cache} cache ...")
            records.append(h.run_worker(SCRIPT, {"units": n, "seed": args.seed, "bootstrap": args.bootstrap,
                                                 "cache": cache}, repeat=args.repeat))
    print_report(records)
    return records


def print_report(records: list[dict[str, Any]]) -> None:
    header = ["units", "bootstrap", "Vega cache", "build", "write", "total: median (min-max)", "peak RSS",
              "process peak", "page size", "charts", "table rows", "alpha", "load"]
    rows = []
    for r in records:
        s = r["spec"]
        if "failed" in r:
            rows.append([f"{s['units']:,}", str(s["bootstrap"]), s["cache"], "-", "-", r["failed"], *["-"] * 6,
                         h.fmt_load(r)])
            continue
        ph, res = r["phases"], r["result"]
        rows.append([f"{s['units']:,}", str(s["bootstrap"]), s["cache"], h.fmt_time(ph["build"]),
                     h.fmt_time(ph["write"]),
                     h.fmt_spread(r), h.fmt_mib(r["peak_mib"]), h.fmt_mib(r["life_peak_mib"]),
                     f"{res['bytes'] / 1e6:.2f} MB", str(res["charts"]), f"{res['rows']:,}", f"{res['alpha']:.6f}",
                     h.fmt_load(r)])
    print()
    print(h.markdown_table(header, rows))
    print()
    h.print_load(records)
    for r in records:
        if "failed" in r:
            continue
        spec = r["spec"]
        print(h.target(f"({spec['units']:,} units, {spec['cache']} cache)",
                       f"{r['time_s']:.1f} s (< {TARGET_S:g} s), page {r['result']['bytes'] / 1e6:.2f} MB (< 5 MB)",
                       r["time_s"] < TARGET_S and r["result"]["bytes"] < TARGET_BYTES))


if __name__ == "__main__":
    main()
