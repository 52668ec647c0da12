"""Alpha with MASI on set-valued data: accord vs NLTK on 3 x 5,000, and accord alone on 3 x 1,000,000.

Data: 3 coders; each unit gets a set of 1 to 4 items (size uniform) drawn from 20; coders 1 and 2 copy
coder 0's set with probability 1/2, else draw their own (so alpha is well above 0).  No missing cells.
The distance is MASI as Passonneau (2006) defines it, 1 - J * M: accord's ``"masi-2006"``, which is
NLTK's ``masi_distance`` (exact thirds in both).

Every contender starts from the input its API takes, built before the clock starts:

- accord: the coders x units object matrix of frozensets; timed: ``Annotations.from_matrix`` (phase
  "build") then ``accord.alpha(data, distance="masi-2006")`` (phase "alpha");
- NLTK: the list of (coder, unit, frozenset) triples; timed: ``AnnotationTask(data=triples,
  distance=masi_distance)`` (phase "build") then ``.alpha()``.

The ``krippendorff`` package cannot take set values: its value domain must be sortable scalars.  Given
the sets as integer codes and MASI as a callable metric, it would build N x V x V float64 arrays of
coincidences (V distinct sets); the script prints the size of one such array for the data at hand.

Usage::

    .venv/bin/python benchmarks/bench_sets.py                  # NLTK at 5,000 units; accord alone at 1,000,000
    .venv/bin/python benchmarks/bench_sets.py --quick          # NLTK at 1,000 units; accord alone at 100,000
    .venv/bin/python benchmarks/bench_sets.py --nltk-units 5000 --sizes 200000,1000000
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
N_ITEMS = 20


def make_set_codes(n_units: int, *, seed: int, coders: int = 3, min_size: int = 1, max_size: int = 4) -> np.ndarray:
    """A coders x units int64 matrix of bit masks over 20 items (bit i set = item i in the set)."""
    rng = np.random.default_rng(seed)
    bits = np.int64(1) << np.arange(N_ITEMS, dtype=np.int64)
    masks = np.empty((coders, n_units), dtype=np.int64)
    chunk = 200_000
    for c in range(coders):
        for lo in range(0, n_units, chunk):
            hi = min(lo + chunk, n_units)
            size = rng.integers(min_size, max_size + 1, size=hi - lo)
            rank = np.argsort(rng.random((hi - lo, N_ITEMS)), axis=1)
            chosen = rank < size[:, None]  # a uniform random subset of the given size
            masks[c, lo:hi] = chosen.astype(np.int64) @ bits
    return h.copy_first_coder(masks, rng)  # as section 1's data: coder 0's set with probability 1/2


def make_sets(n_units: int, *, seed: int, coders: int = 3) -> np.ndarray:
    """The coders x units object matrix of frozensets (one frozenset object per distinct set)."""
    masks = make_set_codes(n_units, seed=seed, coders=coders)
    uniq, inverse = np.unique(masks, return_inverse=True)
    table = np.empty(len(uniq), dtype=object)
    table[:] = [frozenset(i for i in range(N_ITEMS) if (int(m) >> i) & 1) for m in uniq]
    return table[inverse.reshape(masks.shape)]


# ----------------------------------------------------------------------------- workers
def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    name = spec["contender"]
    m = make_sets(spec["n_units"], seed=spec["seed"])
    small = make_sets(50, seed=spec["seed"] + 1)  # run once before the clock: first-use imports paid
    if name == "accord":
        annotations, alpha = h.resolve("accord.Annotations"), h.resolve("accord.alpha")  # lazy attributes

        return h.measure(
            [
                ("build", annotations.from_matrix),
                ("alpha", lambda data: float(alpha(data, distance="masi-2006").alpha)),
            ],
            m,
            warmup=small,
        )
    if name == "nltk":
        task_class = h.resolve("nltk.metrics.agreement.AnnotationTask")
        masi_distance = h.resolve("nltk.metrics.distance.masi_distance")

        def triples_of(x: np.ndarray) -> list[tuple[int, int, Any]]:
            return [(c, u, x[c, u]) for c in range(x.shape[0]) for u in range(x.shape[1])]

        return h.measure(
            [
                ("build", lambda t: task_class(data=t, distance=masi_distance)),
                ("alpha", lambda task: float(task.alpha())),
            ],
            triples_of(m),
            warmup=triples_of(small),
        )
    raise SystemExit(f"unknown contender {name!r}")


def krippendorff_would_need(n_units: int, seed: int) -> tuple[int, float]:
    """(V, GiB of one N x V x V float64 array) for the data of this size."""
    v = len(np.unique(make_set_codes(n_units, seed=seed)))
    return v, n_units * v * v * 8 / 2**30


# ----------------------------------------------------------------------------- driver
def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return one record per run."""
    if h.worker_main(argv, _worker):
        return []
    ap = h.parser(__doc__, seed=h.SEED)
    ap.add_argument("--nltk-units", type=int, default=5000, help="units for the accord-vs-NLTK run (default 5000)")
    ap.add_argument("--sizes", default="1000000", help="comma-separated units for accord alone (default 1000000)")
    ap.add_argument("--nltk-limit", type=float, default=600.0, help="seconds NLTK may take (default 600)")
    ap.add_argument("--quick", action="store_true", help="NLTK at 1,000 units, accord alone at 100,000")
    args = ap.parse_args(argv)
    n_nltk = 1000 if args.quick else args.nltk_units
    sizes = [100_000] if args.quick else h.int_list(args.sizes)
    log = h.logger(args.quiet)
    h.header(log, "accord", "numpy", "scipy", "pandas", "nltk")
    records: list[dict[str, Any]] = []

    def run(name: str, n: int, timeout: float | None = None) -> None:
        log(f"  running {name} at 3 x {n:,} units ...")
        records.append(h.run_worker(SCRIPT, {"contender": name, "n_units": n, "seed": args.seed}, timeout=timeout,
                                    repeat=args.repeat))

    if n_nltk > 0:
        run("accord", n_nltk)
        run("nltk", n_nltk, timeout=args.nltk_limit)
    for n in sizes:
        if n != n_nltk:
            run("accord", n)
    print_report(records)
    v, gib = krippendorff_would_need(n_nltk or sizes[0], args.seed)
    print(
        f"krippendorff: cannot take set values (its value domain must be sortable scalars); given the sets as "
        f"integer codes and a callable MASI it would build N x V x V float64 coincidence arrays: at "
        f"{n_nltk or sizes[0]:,} units V = {v:,} distinct sets, {gib:,.0f} GiB for one such array."
    )
    return records


def print_report(records: list[dict[str, Any]]) -> None:
    header = [
        "units", "contender", "build", "alpha", "total: median (min-max)", "peak RSS", "extra RSS", "process peak",
        "time accord/other", "peak accord/other", "alpha value", "|diff| vs accord", "load",
    ]
    by_key = {(r["spec"]["n_units"], r["spec"]["contender"]): r for r in records if "failed" not in r}
    rows = []
    for r in records:
        n, name = r["spec"]["n_units"], r["spec"]["contender"]
        if "failed" in r:
            rows.append([f"{n:,}", name, "-", "-", r["failed"], "-", "-", "-", "-", "-", "-", "-", h.fmt_load(r)])
            continue
        acc = by_key.get((n, "accord"))
        other = acc is not None and name != "accord"
        rows.append([
            f"{n:,}", name, h.fmt_time(r["phases"].get("build")), h.fmt_time(r["phases"].get("alpha")),
            h.fmt_spread(r), h.fmt_mib(r["peak_mib"]), h.fmt_mib(r["extra_mib"]), h.fmt_mib(r["life_peak_mib"]),
            h.fmt_ratio(acc["time_s"] / r["time_s"]) if other else "",
            h.fmt_ratio(acc["peak_mib"] / r["peak_mib"]) if other else "",
            f"{r['result']:.6f}", f"{abs(acc['result'] - r['result']):.1e}" if other else "", h.fmt_load(r),
        ])
    print()
    print(h.markdown_table(header, rows))
    print()
    print("peak RSS: the process's peak during the timed call (interpreter, libraries and input included);")
    print("extra RSS: that peak less the RSS just before the call; process peak: the worker's whole life,")
    print("input generation included.")
    h.print_load(records)
    for (n, name), r in sorted(by_key.items()):
        acc = by_key.get((n, "accord"))
        if name == "nltk" and acc is not None:
            speed = r["time_s"] / acc["time_s"]
            print(h.target(f"vs NLTK (3 x {n:,})", f"{speed:.0f}x faster (target >= 100x)", speed >= 100,
                           f"; |alpha difference| {abs(acc['result'] - r['result']):.1e}"))
    nltk_sizes = {n for (n, name) in by_key if name == "nltk"}
    for (n, name), r in sorted(by_key.items()):
        if name == "accord" and n not in nltk_sizes:
            ok = r["time_s"] < 30 and r["life_peak_mib"] < 4096
            print(h.target(f"accord alone (3 x {n:,})", f"{r['time_s']:.1f} s (< 30 s), process peak "
                           f"{h.fmt_mib(r['life_peak_mib'])} (< 4 GiB)", ok))


if __name__ == "__main__":
    main()
