"""The judge audit (issue 33) at 100,000 items x 3 judges x 2 orders x 3 runs, with 3 humans on 2,000 items.

Data: each item has a true verdict (A, B or tie); each judge, in each run and order, gives it with probability
0.85, else a verdict drawn uniformly, written as a position (in the order BA, option A is "second"); each human
gives it with probability 0.9.  1,806,000 rows in a pandas DataFrame built before the clock starts.

Timed: ``accord.judge_audit(df, judges="j1,j2,j3", position="order", run="run", verdict_refers_to="position")``
(reading the table, the position shares, repeatability with alpha's bootstrap interval, agreement with the
humans, the alt-test), ``--repeat`` times; the median and the range are printed with the load average.

Usage::

    .venv/bin/python benchmarks/bench_judge.py                  # 100,000 items
    .venv/bin/python benchmarks/bench_judge.py --items 10000 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import pandas as pd


def judgments(n: int, seed: int = 0) -> pd.DataFrame:
    """The benchmark's table of *n* items."""
    rng = np.random.default_rng(seed)
    items = np.arange(n)
    truth = rng.integers(0, 3, n)
    words = np.array(["first", "second", "tie"])
    frames = []
    for judge in ("j1", "j2", "j3"):
        for run in (1, 2, 3):
            for order in ("AB", "BA"):
                v = np.where(rng.random(n) < 0.85, truth, rng.integers(0, 3, n))
                if order == "BA":
                    v = np.where(v < 2, 1 - v, v)
                frames.append(pd.DataFrame({"item": items, "coder": judge, "order": order, "run": run,
                                            "verdict": words[v]}))
    sel = items[: min(n, 2000)]
    for h in ("h1", "h2", "h3"):
        v = np.where(rng.random(len(sel)) < 0.9, truth[sel], rng.integers(0, 3, len(sel)))
        frames.append(pd.DataFrame({"item": sel, "coder": h, "order": None, "run": None, "verdict": words[v]}))
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import accord

    df = judgments(args.items)
    audit = accord.judge_audit
    audit(judgments(200), judges="j1,j2,j3", position="order", run="run", verdict_refers_to="position")  # warm
    times = []
    for _ in range(args.repeat):
        load = os.getloadavg()[0]
        t = time.perf_counter()
        audit(df, judges="j1,j2,j3", position="order", run="run", verdict_refers_to="position", rng=1)
        times.append(time.perf_counter() - t)
        print(f"{len(df):,} rows: {times[-1]:.2f} s (load {load:.1f})", flush=True)
    print(f"median {statistics.median(times):.2f} s, range {min(times):.2f}-{max(times):.2f} s")


if __name__ == "__main__":
    main()
