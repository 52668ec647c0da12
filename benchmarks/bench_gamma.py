"""Gamma's best alignment beside pygamma-agreement's, on synthetic dense continua and on span files (one table).

Synthetic continuum (``--sizes``, e.g. ``5x1000``: 5 annotators x 1,000 reference units): reference units of
5 to 30 positions spread over 20 positions each (85% of the line covered), 3 categories; every annotator
copies each reference unit with probability 85%, moving its start and end by normal noise (sd 3) and
changing its category with probability 30%, and adds a stray unit half the time.  Span files (``--files``):
accord's span table (document, coder, start, end, label; every document is aligned) or pygamma-agreement's
CSV (annotator, category, start, end, no header; one continuum).

Contenders, each in its own process (``--contenders``):

- ``accord``: accord's exact best alignment (``best_alignment(alignment="exact")``; a corpus's or span
  table's short documents are aligned together, as gamma aligns them);
- ``accord-windowed``: accord's windowed alignment (an approximation, ``--window`` units per annotator);
- ``pygamma-exact``: pygamma-agreement's exact alignment (``get_best_alignment``, a MIP over its tuples);
- ``pygamma-fast``: pygamma-agreement's windowed approximation (``get_fast_alignment`` at the window its
  ``measure_best_window_size`` picks; the picking is timed too);
- ``accord-gamma``: the whole of accord's gamma (the alignment and the sampled chance: statistical sampler,
  precision 0.02, every sample aligned exactly; ``--jobs N`` runs it in N processes);
- ``accord-by-document``: accord's exact alignment one document at a time, where ``accord`` aligns a corpus's
  short documents together as gamma does (:mod:`accord.spans._gamma.batch`).

A corpus of short documents (``--corpora``, e.g. ``3x200x8``: 3 annotators x 200 documents x 8 reference
units) is made of such continua (seeds seed, seed + 1, ...); pygamma-agreement aligns one continuum at a
time, so its contenders align the documents one after another, and every disorder printed is pooled over the
documents as gamma pools them (summed disorders over summed mean units per annotator).

Imports, numba's compilation and a first alignment of a small continuum happen before the clock.  A call
that takes under 50 ms is timed as :mod:`timeit` does, in a loop of calls on the same continuum (about half a
second), per call, for every contender alike: one call of a few milliseconds alone mostly measures the cold
caches left by the collection before it.  Each measurement is repeated (``--repeat``, median and min-max)
unless one run exceeds ``--once-over`` seconds; the load average is read around each process.  The speed of a
shared machine drifts over seconds, so ``--rounds N`` runs the contenders in turn N times and gives, beside the
times, the ratio of pygamma's time to accord's per round (median and min-max over the rounds).  The disorders
are printed beside the times: accord's and pygamma's exact ones agree (pygamma rounds to float32).
``--timeout`` bounds each process.

Usage::

    .venv/bin/python benchmarks/bench_gamma.py                          # the grid (pygamma-exact times out)
    .venv/bin/python benchmarks/bench_gamma.py --sizes 2x100 3x100 --contenders accord pygamma-exact --rounds 5
    .venv/bin/python benchmarks/bench_gamma.py --sizes --files spans.csv
    .venv/bin/python benchmarks/bench_gamma.py --sizes --corpora 3x200x8 --contenders accord accord-by-document
"""

from __future__ import annotations

import csv
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as h  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
SIZES = ("2x100", "2x1000", "3x100", "3x1000", "5x100", "5x1000")
#: A call quicker than this many seconds is timed in a loop of calls (timeit's way), for every contender alike.
LOOP_UNDER = 0.05
CONTENDERS = ("accord", "accord-windowed", "pygamma-exact", "pygamma-fast", "accord-gamma", "accord-by-document")

Row = tuple[str, str, float, float, str]  # document, annotator, start, end, category


def make_rows(n_ann: int, n_units: int, seed: int) -> list[Row]:
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
            rows.add(("d", f"a{a}", round(float(s), 3), round(float(s + ln), 3), c))
        if rng.random() < 0.5:
            s = rng.uniform(0, 20 * n_units)
            rows.add(("d", f"a{a}", round(float(s), 3), round(float(s + 10), 3), "a"))
    return sorted(rows)


def read_rows(path: str) -> list[Row]:
    """A span table with a header (document, coder, start, end, label) or pygamma's CSV (no header)."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    head = [h.strip().lower() for h in rows[0]]
    if {"coder", "start", "end", "label"} <= set(head):
        ix = {h: head.index(h) for h in head}
        out = []
        for r in rows[1:]:
            if not r or not r[ix["start"]].strip():
                continue
            doc = r[ix["document"]] if "document" in ix else "d"
            out.append((doc, r[ix["coder"]], float(r[ix["start"]]), float(r[ix["end"]]), r[ix["label"]]))
        return out
    return [("d", r[0], float(r[2]), float(r[3]), r[1]) for r in rows if r]


def _continua(rows: list[Row]) -> list[Any]:
    from accord.spans import Continuum

    docs: dict[str, list[Row]] = {}
    for r in rows:
        docs.setdefault(r[0], []).append(r)
    anns = sorted({r[1] for r in rows})
    return [Continuum.from_arrays(d, anns, [r[1] for r in rs], [r[2] for r in rs], [r[3] for r in rs],
                                  [r[4] for r in rs]) for d, rs in sorted(docs.items())]


def make_corpus(n_ann: int, n_docs: int, n_units: int, seed: int) -> list[Row]:
    """*n_docs* documents like :func:`make_rows`'s continuum of *n_units* reference units (seeds seed, seed + 1...)."""
    return [(f"d{k}", *r[1:]) for k in range(n_docs) for r in make_rows(n_ann, n_units, seed + k)]


def _rows(spec: dict[str, Any]) -> list[Row]:
    if spec.get("file"):
        return read_rows(spec["file"])
    if spec.get("documents"):
        return make_corpus(spec["annotators"], spec["documents"], spec["units"], spec["seed"])
    return make_rows(spec["annotators"], spec["units"], spec["seed"])


def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    rows = _rows(spec)
    warm = make_rows(3, 8, 1)
    what = spec["what"]
    if what.startswith("accord"):
        import importlib

        from accord.spans import CombinedDissimilarity, best_alignment, gamma

        align_many = importlib.import_module("accord.spans._gamma.batch").align_many
        d = CombinedDissimilarity()
        conts = _continua(rows)
        how = "windowed" if what == "accord-windowed" else "exact"  # accord-by-document: exact, one at a time

        def align(cs: list[Any]) -> dict[str, Any]:
            if what == "accord":  # the documents' exact alignments as gamma makes them: small ones together
                sols = [s for s, _ in align_many(cs, d, "exact")]
            else:  # windowed, or one document at a time
                sols = [best_alignment(c, d, alignment=how, window=spec["window"]) for c in cs]
            return {"disorder": sum(s.total for s in sols) / sum(c.mean_units for c in cs),
                    "candidates": sum(s.n_candidates for s in sols)}

        def whole(cs: list[Any]) -> dict[str, Any]:
            r = gamma(list(cs), rng=0, alignment="exact", n_jobs=spec.get("jobs", 1))
            return {"disorder": r.observed_disorder, "gamma": r.gamma, "samples": r.n_samples}

        fn = whole if what == "accord-gamma" else align
        return h.measure([("call", fn)], conts, warmup=_continua(warm), repeat=spec["repeat_for"],
                         loop_under=LOOP_UNDER)
    import logging

    logging.disable(logging.WARNING)
    import pygamma_agreement as pa
    from pyannote.core import Segment

    def build(rs: list[Row]) -> list[Any]:
        """One pygamma continuum per document (it aligns one continuum at a time), every annotator in each."""
        docs: dict[str, Any] = {}
        anns = sorted({r[1] for r in rs})
        for doc, a, s, e, cat in rs:
            if doc not in docs:
                docs[doc] = pa.Continuum()
                for x in anns:
                    docs[doc].add_annotator(x)
            docs[doc].add(a, Segment(s, e), cat)
        return [docs[k] for k in sorted(docs)]

    d = pa.CombinedCategoricalDissimilarity()

    def pooled(pcs: list[Any], alignments: list[Any]) -> float:
        """The corpus's disorder as accord pools it: summed disorders over summed mean units per annotator."""
        if len(pcs) == 1:
            return float(alignments[0].disorder)
        units = [pc.num_units / pc.num_annotators for pc in pcs]
        return sum(float(al.disorder) * u for al, u in zip(alignments, units, strict=True)) / sum(units)

    def exact(pcs: list[Any]) -> dict[str, Any]:
        return {"disorder": pooled(pcs, [pc.get_best_alignment(d) for pc in pcs])}

    def fast(pcs: list[Any]) -> dict[str, Any]:
        out, win = [], None
        for pc in pcs:
            pc.measure_best_window_size(d)
            w = pc.best_window_size
            out.append(pc.get_best_alignment(d) if not np.isfinite(w) else pc.get_fast_alignment(d, int(w)))
            win = None if not np.isfinite(w) else int(w)
        return {"disorder": pooled(pcs, out), "window": win}

    return h.measure([("call", exact if what == "pygamma-exact" else fast)], build(rows), warmup=build(warm),
                     repeat=spec["repeat_for"], loop_under=LOOP_UNDER)


def _combine(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One record for a contender's rounds: the median of their medians, the spread over every timed run."""
    ok = [r for r in runs if "failed" not in r]
    if len(ok) < 2:
        return ok[0] if ok else runs[-1]
    out = dict(ok[0])
    out["time_s"] = statistics.median(r["time_s"] for r in ok)
    out["time_min"] = min(r["time_min"] for r in ok)
    out["time_max"] = max(r["time_max"] for r in ok)
    out["repeat"] = sum(r["repeat"] for r in ok)
    out["load_before"] = min(r["load_before"] for r in ok)
    out["load_after"] = max(r["load_after"] for r in ok)
    return out


def _cell(r: dict[str, Any]) -> str:
    if "failed" in r:
        return r["failed"]
    res = r["result"]
    extra = f", {res['samples']} samples, gamma {res['gamma']:.4f}" if "samples" in res else ""
    return f"{h.fmt_spread(r)} (disorder {res['disorder']:.6f}{extra})"


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return the records."""
    if h.worker_main(argv, _worker):
        return []
    ap = h.parser(__doc__, seed=0)
    ap.add_argument("--sizes", nargs="*", default=list(SIZES), help="annotators x reference units, e.g. 5x1000")
    ap.add_argument("--files", nargs="*", default=[], help="span tables or pygamma CSV files")
    ap.add_argument("--corpora", nargs="*", default=[],
                    help="corpora of short documents: annotators x documents x reference units, e.g. 3x200x8")
    ap.add_argument("--contenders", nargs="*", default=list(CONTENDERS[:4]), choices=CONTENDERS)
    ap.add_argument("--gamma", action="store_true", help="also time accord's whole gamma (accord-gamma)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="accord-gamma's processes (n_jobs) for the documents and the samples (default 1)")
    ap.add_argument("--window", type=int, default=40, help="accord-windowed's units per annotator (default 40)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per process (default 900)")
    ap.add_argument("--once-over", type=float, default=60.0,
                    help="a contender whose first run took longer than this many seconds runs once (default 60)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run the contenders in turn this many times (fresh processes), for ratios that hold on a "
                         "machine whose speed drifts (default 1)")
    a = ap.parse_args(argv)
    whats = list(dict.fromkeys(a.contenders + (["accord-gamma"] if a.gamma else [])))
    log = h.logger(a.quiet)
    h.header(log, "accord", "numpy", "scipy", "pygamma-agreement")
    inputs: list[tuple[str, dict[str, Any]]] = []
    for size in a.sizes:
        n_ann, n_units = (int(x) for x in size.split("x"))
        inputs.append((size, {"annotators": n_ann, "units": n_units, "seed": a.seed}))
    for corpus in a.corpora:
        n_ann, n_docs, n_units = (int(x) for x in corpus.split("x"))
        inputs.append((corpus, {"annotators": n_ann, "documents": n_docs, "units": n_units, "seed": a.seed}))
    inputs += [(Path(f).name, {"file": str(Path(f).resolve())}) for f in a.files]
    records: list[dict[str, Any]] = []
    rows = []
    pairs = [(w, "accord") for w in ("pygamma-exact", "pygamma-fast", "accord-by-document")
             if w in whats and "accord" in whats]
    for name, base in inputs:
        runs: dict[str, list[dict[str, Any]]] = {what: [] for what in whats}
        once: set[str] = set()  # contenders slower than --once-over: one timed run per round
        for rnd in range(a.rounds):
            for what in whats:
                if runs[what] and "failed" in runs[what][-1]:
                    continue
                log(f"  {name}: {what}{f' (round {rnd + 1})' if a.rounds > 1 else ''} ...")
                spec = {**base, "what": what, "window": a.window, "jobs": a.jobs, "repeat_for": a.repeat}
                if rnd == 0 or what in once:
                    t0 = time.perf_counter()
                    r = h.run_worker(SCRIPT, {**spec, "repeat_for": 1}, timeout=a.timeout)
                    if "failed" in r or a.repeat == 1 or time.perf_counter() - t0 >= a.once_over:
                        once.add(what)
                if what not in once:
                    r = h.run_worker(SCRIPT, spec, timeout=a.timeout * a.repeat)
                runs[what].append(r)
        cells = []
        for what in whats:
            r = _combine(runs[what])
            records.append(r)
            cells += [_cell(r), h.fmt_load(r)]
        for slow, fast in pairs:
            ratios = [x["time_s"] / y["time_s"] for x, y in zip(runs[slow], runs[fast], strict=False)
                      if "failed" not in x and "failed" not in y]
            cells.append(h.spread(ratios))
        rows.append([name, *cells])
    header = ["continuum"] + [h for w in whats for h in (w, "load")] + [f"{x} / {y}" for x, y in pairs]
    print()
    print(h.markdown_table(header, rows))
    print()
    print("times: median (min-max) of the timed runs; a contender slower than --once-over ran once; a call under "
          f"{LOOP_UNDER * 1000:.0f} ms was timed in a loop of calls, per call.")
    if a.rounds > 1:
        print(f"{a.rounds} rounds, the contenders in turn in each: a time is the median of the rounds' medians "
              "(min-max over every timed run); a ratio is the median (min-max) of the rounds' ratios.")
    h.print_load(records)
    return records


if __name__ == "__main__":
    main()
