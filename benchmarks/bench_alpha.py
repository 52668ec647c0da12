"""Krippendorff's alpha on 3 coders x 1,000,000 units: accord vs the ``krippendorff`` package vs NLTK.

Data: 3 coders, 10 categories (codes 1..10), 5% of the cells missing; each coder copies coder 0's
code with probability 1/2, else draws uniformly (so alpha is about 0.4, not 0).  Nominal and interval.

Every contender starts from the input its API takes, built before the clock starts; what it calls is imported and
resolved (``accord.alpha`` is a lazy attribute) and run once on 100 units before the clock, and each timed call is
repeated ``--repeat`` times (median and min-max; the load average is printed around each run):

- accord: the coders x units float matrix with NaN for missing; timed: ``accord.alpha(m, distance=level)``
  (phase "alpha"), which counts the small integer codes straight from the matrix (the engine's fused path,
  ``accord.coefficients._pairs.fused_counts``: each unit's row of codes read as one number, the units counted
  by it);
- accord-annotations: the same matrix through the general path; timed: ``Annotations.from_matrix``
  (phase "build") then ``accord.alpha(data, distance=level)`` (phase "alpha");
- krippendorff: the same matrix; timed: ``krippendorff.alpha(reliability_data=m, level_of_measurement=level)``;
- NLTK: the list of (coder, unit, code) triples of the non-missing cells; timed:
  ``AnnotationTask(data=triples, distance=binary_distance | interval_distance)`` (phase "build") then
  ``.alpha()``.

NLTK is run at the largest size that should finish within ``--nltk-limit`` seconds (estimated from a
pilot run on 20,000 units, and cut down if it times out); when that is smaller than the requested size,
accord and krippendorff are also run at NLTK's size so that the ratios compare like with like.

Usage::

    .venv/bin/python benchmarks/bench_alpha.py                 # 1,000,000 units, nominal and interval
    .venv/bin/python benchmarks/bench_alpha.py --quick         # 100,000 units, NLTK limit 60 s
    .venv/bin/python benchmarks/bench_alpha.py --sizes 10000,1000000 --levels nominal
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as h  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
CONTENDERS = ("accord", "accord-annotations", "krippendorff", "nltk")
LEVELS = ("nominal", "interval")
PILOT_UNITS = 20_000
LADDER = (1_000_000, 500_000, 200_000, 100_000, 50_000, 20_000, 10_000, 5_000, 2_000, 1_000)


# ----------------------------------------------------------------------------- workers
def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    """One contender; everything it calls is imported and resolved, and run once on 100 units, before the clock."""
    name, level = spec["contender"], spec["level"]
    m = h.make_matrix(spec["n_units"], seed=spec["seed"])  # section 1's data
    small = h.make_matrix(100, seed=spec["seed"] + 1)
    if name == "accord":
        alpha = h.resolve("accord.alpha")  # a lazy (PEP 562) attribute: resolved before the clock starts

        return h.measure([("alpha", lambda x: float(alpha(x, distance=level).alpha))], m, warmup=small)
    if name == "accord-annotations":
        annotations, alpha = h.resolve("accord.Annotations"), h.resolve("accord.alpha")

        return h.measure(
            [
                ("build", annotations.from_matrix),
                ("alpha", lambda data: float(alpha(data, distance=level).alpha)),
            ],
            m,
            warmup=small,
        )
    if name == "krippendorff":
        kalpha = h.resolve("krippendorff.alpha")

        return h.measure(
            [("alpha", lambda x: float(kalpha(reliability_data=x, level_of_measurement=level)))], m, warmup=small
        )
    if name == "nltk":
        task_class = h.resolve("nltk.metrics.agreement.AnnotationTask")
        distance = h.resolve(f"nltk.metrics.distance.{'binary' if level == 'nominal' else 'interval'}_distance")

        def triples_of(x: np.ndarray) -> list[tuple[int, int, int]]:
            coder_idx, unit_idx = np.nonzero(~np.isnan(x))
            return list(
                zip(coder_idx.tolist(), unit_idx.tolist(), x[coder_idx, unit_idx].astype(int).tolist(), strict=True)
            )

        triples = triples_of(m)
        del m
        return h.measure(
            [
                ("build", lambda t: task_class(data=t, distance=distance)),
                ("alpha", lambda task: float(task.alpha())),
            ],
            triples,
            warmup=triples_of(small),
        )
    raise SystemExit(f"unknown contender {name!r}")


# ----------------------------------------------------------------------------- driver
def _nltk_size(
    size: int, level: str, seed: int, limit: float, log: Any, repeat: int
) -> tuple[int, dict[str, Any] | None]:
    """The size to run NLTK at: the requested one if the pilot predicts it fits in *limit*, else smaller.

    A pilot at the requested size (at most 20,000 units) is the measurement, so it is repeated *repeat* times.
    """
    pilot_n = min(size, PILOT_UNITS)
    pilot = h.run_worker(SCRIPT, {"contender": "nltk", "level": level, "n_units": pilot_n, "seed": seed}, timeout=limit,
                         repeat=repeat if pilot_n == size else 1)
    if "failed" in pilot:
        log(f"  NLTK pilot at {pilot_n:,} units failed: {pilot['failed']}")
        return 0, None
    per_unit = pilot["time_s"] / pilot_n
    if pilot_n == size:
        return size, pilot
    fits = [n for n in (size, *LADDER) if n <= size and per_unit * n <= 0.8 * limit]
    chosen = max(fits) if fits else pilot_n
    log(
        f"  NLTK pilot: {pilot_n:,} units in {pilot['time_s']:.1f} s -> about {per_unit * size:.0f} s at "
        f"{size:,}; running NLTK at {chosen:,} units"
    )
    return chosen, None


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return one record per (level, size, contender)."""
    if h.worker_main(argv, _worker):
        return []
    ap = h.parser(__doc__, seed=h.SEED)
    ap.add_argument("--sizes", default="1000000", help="comma-separated numbers of units (default 1000000)")
    ap.add_argument("--levels", default="nominal,interval", help="comma-separated: nominal, interval")
    ap.add_argument(
        "--contenders", default=",".join(CONTENDERS), help=f"comma-separated subset of {','.join(CONTENDERS)}"
    )
    ap.add_argument("--nltk-limit", type=float, default=300.0, help="seconds NLTK may take (default 300)")
    ap.add_argument("--quick", action="store_true", help="100,000 units and an NLTK limit of 60 s")
    args = ap.parse_args(argv)
    sizes = [100_000] if args.quick else h.int_list(args.sizes)
    limit = 60.0 if args.quick else args.nltk_limit
    levels = h.choices(ap, "--levels", args.levels, LEVELS)
    contenders = h.choices(ap, "--contenders", args.contenders, CONTENDERS)
    log = h.logger(args.quiet)
    h.header(log, "accord", "numpy", "scipy", "pandas", "krippendorff", "nltk")
    records: list[dict[str, Any]] = []

    def run(name: str, level: str, n: int, note: str = "", timeout: float | None = None) -> None:
        spec = {"contender": name, "level": level, "n_units": n, "seed": args.seed}
        log(f"  running {name} {level} at {n:,} units ...")
        rec = h.run_worker(SCRIPT, spec, timeout=timeout, repeat=args.repeat)
        rec["note"] = note
        records.append(rec)

    for size in sizes:
        for level in levels:
            log(f"{level}, 3 coders x {size:,} units")
            for name in ("accord", "accord-annotations", "krippendorff"):
                if name in contenders:
                    run(name, level, size)
            if "nltk" not in contenders:
                continue
            n_nltk, done = _nltk_size(size, level, args.seed, limit, log, args.repeat)
            if done is not None:
                done["note"] = ""
                records.append(done)
            elif n_nltk:
                run("nltk", level, n_nltk, note="" if n_nltk == size else "NLTK's size", timeout=limit)
                while "failed" in records[-1] and n_nltk > LADDER[-1]:
                    n_nltk = max(n for n in LADDER if n < n_nltk)
                    log(f"  NLTK {records[-1]['failed']}; retrying at {n_nltk:,} units")
                    run("nltk", level, n_nltk, note="NLTK's size", timeout=limit)
                if n_nltk != size:
                    for name in ("accord", "accord-annotations", "krippendorff"):
                        if name in contenders:
                            run(name, level, n_nltk, note="NLTK's size")
    print_report(records, limit)
    return records


def print_report(records: list[dict[str, Any]], limit: float) -> None:
    by_key = {
        (r["spec"]["level"], r["spec"]["n_units"], r["spec"]["contender"]): r for r in records if "failed" not in r
    }
    header = [
        "level", "units", "contender", "build", "alpha", "total: median (min-max)", "peak RSS", "extra RSS",
        "time accord/other", "peak accord/other", "extra accord/other", "alpha value", "|diff| vs accord", "load",
    ]
    rows = []
    diffs = []
    for r in records:
        s = r["spec"]
        level, n, name = s["level"], s["n_units"], s["contender"]
        label = name + (f" ({r['note']})" if r.get("note") else "")
        if "failed" in r:
            rows.append([level, f"{n:,}", label, "-", "-", r["failed"], *["-"] * 7, h.fmt_load(r)])
            continue
        ph = r["phases"]
        acc = by_key.get((level, n, "accord"))
        t_ratio = p_ratio = e_ratio = diff = None
        if acc is not None and name != "accord":
            t_ratio = acc["time_s"] / r["time_s"]
            p_ratio = acc["peak_mib"] / r["peak_mib"]
            e_ratio = acc["extra_mib"] / r["extra_mib"] if r["extra_mib"] > 0 else None
            diff = abs(acc["result"] - r["result"])
            diffs.append(diff)
        rows.append([
            level, f"{n:,}", label, h.fmt_time(ph.get("build")), h.fmt_time(ph.get("alpha")), h.fmt_spread(r),
            h.fmt_mib(r["peak_mib"]), h.fmt_mib(r["extra_mib"]),
            "" if name == "accord" else h.fmt_ratio(t_ratio), "" if name == "accord" else h.fmt_ratio(p_ratio),
            "" if name == "accord" else h.fmt_ratio(e_ratio), f"{r['result']:.6f}",
            "" if diff is None else f"{diff:.1e}", h.fmt_load(r),
        ])
    print()
    print(h.markdown_table(header, rows))
    print()
    print("ratios accord/other: below 1 means accord is faster or smaller.  peak RSS: the process's peak during the")
    print("timed call (interpreter, libraries and input included); extra RSS: peak less the RSS just before the call.")
    if diffs:
        print(f"max |alpha difference| between accord and the others: {max(diffs):.2e}")
    for (level, n, name), r in sorted(by_key.items()):
        if name != "krippendorff" or (level, n, "accord") not in by_key:
            continue
        acc = by_key[(level, n, "accord")]
        speed = r["time_s"] / acc["time_s"]
        extra = acc["extra_mib"] / r["extra_mib"] if r["extra_mib"] > 0 else float("nan")
        peak = acc["peak_mib"] / r["peak_mib"]
        general = by_key.get((level, n, "accord-annotations"))
        via = f"; through Annotations {r['time_s'] / general['time_s']:.1f}x" if general else ""
        print(h.target(
            f"vs krippendorff ({level}, {n:,} units)",
            f"accord on the matrix {speed:.1f}x faster (target >= 30x, issue 31){via}; memory the call needs "
            f"(extra RSS) {extra:.2f} of its (target <= 0.25)",
            speed >= 30 and extra <= 0.25, f"; whole-process peak {peak:.2f} of its",
        ))
    for (level, n, name), r in sorted(by_key.items()):
        if name == "nltk" and (level, n, "accord") in by_key:
            speed = r["time_s"] / by_key[(level, n, "accord")]["time_s"]
            print(f"accord vs NLTK ({level}, {n:,} units): {speed:.0f}x faster")
    h.print_load(records)
    failed = [r for r in records if "failed" in r]
    for r in failed:
        s = r["spec"]
        print(
            f"{s['contender']} {s['level']} at {s['n_units']:,} units did not finish: {r['failed']} "
            f"(limit {limit:.0f} s)"
        )


if __name__ == "__main__":
    main()
