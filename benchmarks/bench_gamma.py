"""Gamma's best alignment beside pygamma-agreement's, on synthetic dense continua (one run, one table).

Continuum: *units* reference units of 5 to 30 positions spread over 20 positions each (85% of the line
covered), 3 categories; every annotator copies each reference unit with probability 85%, moving its
start and end by normal noise (sd 3) and changing its category with probability 30%, and adds a stray
unit half the time.  Sizes: 2, 3, 5 annotators x 100 to 1,000 units each (``--sizes``).

Timed, each in its own subprocess with ``--timeout`` seconds: accord's exact best alignment
(``best_alignment``), pygamma-agreement's exact one (``get_best_alignment``, its MIP over every tuple)
and its windowed approximation (``get_fast_alignment`` at its own best window); with ``--gamma``, the
whole of accord's gamma (statistical sampler, precision 0.02).  The disorders are printed beside the
times: accord's and pygamma's exact ones agree (pygamma rounds to float32).  Imports and numba's
compilation happen on a small continuum before the clock starts.

Usage::

    .venv/bin/python benchmarks/bench_gamma.py                    # the full grid (long: pygamma times out)
    .venv/bin/python benchmarks/bench_gamma.py --sizes 2x100 3x100 --timeout 600
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

SCRIPT = str(Path(__file__).resolve())
SIZES = ("2x100", "2x1000", "3x100", "3x1000", "5x100", "5x1000")


def make_rows(n_ann: int, n_units: int, seed: int) -> list[tuple[str, float, float, str]]:
    rng = np.random.default_rng(seed)
    base_s = np.sort(rng.uniform(0, 20 * n_units, n_units))
    base_l = rng.uniform(5, 30, n_units)
    rows = set()
    for a in range(n_ann):
        for i in range(n_units):
            if rng.random() < 0.15:
                continue
            s = base_s[i] + rng.normal(0, 3)
            ln = max(1.0, base_l[i] + rng.normal(0, 3))
            c = "abc"[rng.integers(3)] if rng.random() < 0.3 else "abc"[i % 3]
            rows.add((f"a{a}", round(float(s), 3), round(float(s + ln), 3), c))
        if rng.random() < 0.5:
            s = rng.uniform(0, 20 * n_units)
            rows.add((f"a{a}", round(float(s), 3), round(float(s + 10), 3), "a"))
    return sorted(rows)


def work(spec: dict[str, Any]) -> dict[str, Any]:
    rows = make_rows(spec["annotators"], spec["units"], spec["seed"])
    what = spec["what"]
    if what.startswith("accord"):
        from accord.spans.gamma import CombinedDissimilarity, Continuum, best_alignment, gamma

        c = Continuum.from_arrays("d", [], [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                                  [r[3] for r in rows])
        warm = make_rows(spec["annotators"], 5, 1)  # imports (scipy.optimize) before the clock
        best_alignment(Continuum.from_arrays("w", [], *zip(*warm, strict=True)), CombinedDissimilarity())
        t = time.perf_counter()
        if what == "accord-gamma":
            r = gamma(c, rng=0)
            return {"time_s": time.perf_counter() - t, "disorder": r.observed_disorder, "gamma": r.gamma,
                    "samples": r.n_samples}
        sol = best_alignment(c, CombinedDissimilarity())
        return {"time_s": time.perf_counter() - t, "disorder": sol.disorder}
    import logging

    logging.disable(logging.WARNING)
    import pygamma_agreement as pa
    from pyannote.core import Segment

    pc = pa.Continuum()
    for a, s, e, cat in rows:
        pc.add(a, Segment(s, e), cat)
    d = pa.CombinedCategoricalDissimilarity()
    warm = pa.Continuum()  # numba compiles on the first call: before the clock
    for a, s, e, cat in make_rows(spec["annotators"], 5, 1):
        warm.add(a, Segment(s, e), cat)
    warm.get_best_alignment(d)
    t = time.perf_counter()
    if what == "pygamma-fast":
        pc.measure_best_window_size(d)
        al = (pc.get_best_alignment(d) if not np.isfinite(pc.best_window_size)
              else pc.get_fast_alignment(d, pc.best_window_size))
    else:
        al = pc.get_best_alignment(d)
    return {"time_s": time.perf_counter() - t, "disorder": float(al.disorder)}


def run(spec: dict[str, Any], timeout: float) -> dict[str, Any]:
    try:
        out = subprocess.run([sys.executable, SCRIPT, "--worker", json.dumps(spec)], capture_output=True,
                             text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"failed": f"over {timeout:g} s"}
    if out.returncode != 0:
        return {"failed": (out.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", nargs="*", default=list(SIZES))
    p.add_argument("--timeout", type=float, default=900.0)
    p.add_argument("--gamma", action="store_true", help="also time accord's whole gamma")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--worker")
    a = p.parse_args(argv)
    if a.worker:
        print(json.dumps(work(json.loads(a.worker))))
        return
    whats = ["accord", "pygamma-exact", "pygamma-fast"] + (["accord-gamma"] if a.gamma else [])
    print("| size | " + " | ".join(whats) + " |")
    print("|---" * (len(whats) + 1) + "|")
    for size in a.sizes:
        n_ann, n_units = (int(x) for x in size.split("x"))
        cells = []
        for what in whats:
            r = run({"annotators": n_ann, "units": n_units, "seed": a.seed, "what": what}, a.timeout)
            cells.append(r["failed"] if "failed" in r else f"{r['time_s']:.3f} s (disorder {r['disorder']:.6f})")
        print(f"| {size} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
