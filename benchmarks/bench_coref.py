"""Coreference alpha on a synthetic corpus of 1,000,000 mentions, 3 coders, both conventions of seed 003.

Corpus: documents of ``--doc-size`` mentions (default 200, so 5,000 documents for 1,000,000 mentions).
The key partitions each document into chains whose sizes are Zipf-distributed (``numpy`` ``zipf``,
exponent ``--zipf``, default 2.0, capped at ``--max-chain``, default 100; a chain that would cross a
document boundary is cut there).  Each of the 3 coders starts from the key and perturbs it
independently: each mention is, with probability 5%, moved into the chain of another random mention
of its document; with probability 3%, split off as a singleton; with probability 1%, marked
non-referring (missing for that coder).  Coders therefore mostly agree.

Input: a pandas DataFrame with columns ``document`` (str), ``mention`` (int, unique within a
document), ``coder`` (str) and ``chain`` (float, NaN = non-referring), one row per mention per coder
(about 3,000,000 rows), built before the clock starts.  Timed, in its own process for each convention:

- phase "build": ``CorefAnnotations.from_records(df)``;
- phase "alpha": ``coref_alpha(data, distance="nominal")`` (convention "classes": the value of a mention
  is its class), or ``coref_alpha(data, distance="set-relation")`` (convention "classes-less-unit": the
  class less the mention, seed 003's .74).

No other library computes alpha over coreference chains at this scale, so accord runs alone.

Usage::

    .venv/bin/python benchmarks/bench_coref.py                       # 1,000,000 mentions
    .venv/bin/python benchmarks/bench_coref.py --quick               # 100,000 mentions
    .venv/bin/python benchmarks/bench_coref.py --sizes 100000,1000000
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as h  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
CONVENTIONS = {"classes": "nominal", "classes-less-unit": "set-relation"}
P_MOVE, P_SPLIT, P_NONREF = 0.05, 0.03, 0.01


def make_corpus(
    n_mentions: int,
    *,
    seed: int,
    coders: int = 3,
    doc_size: int = 200,
    zipf: float = 2.0,
    max_chain: int = 100,
) -> pd.DataFrame:
    """Long records (document, mention, coder, chain) of a synthetic multi-coder coreference corpus."""
    rng = np.random.default_rng(seed)
    doc = np.arange(n_mentions, dtype=np.int64) // doc_size
    n_docs = int(doc[-1]) + 1 if n_mentions else 0
    doc_start = doc * doc_size
    doc_len = np.minimum(doc_size, n_mentions - doc_start)
    # key chains: consecutive blocks of Zipf sizes, cut at document boundaries ...
    sizes = np.minimum(rng.zipf(zipf, size=n_mentions), max_chain)
    ends = np.cumsum(sizes)
    block = np.searchsorted(ends, np.arange(n_mentions), side="right")
    _, key = np.unique(block * (n_docs + 1) + doc, return_inverse=True)
    key = key.reshape(-1).astype(np.int64)
    # ... then the mentions of each document shuffled, so that chains are not contiguous spans
    order = np.lexsort((rng.random(n_mentions), doc))
    key = key[order]
    doc_names = np.array([f"doc{i:05d}" for i in range(n_docs)], dtype=object)
    frames = []
    next_label = int(key.max()) + 1 if n_mentions else 0
    for c in range(coders):
        chain = key.astype(float)
        u = rng.random(n_mentions)
        move = u < P_MOVE
        target = doc_start[move] + (rng.random(int(move.sum())) * doc_len[move]).astype(np.int64)
        chain[move] = key[target]
        split = (u >= P_MOVE) & (u < P_MOVE + P_SPLIT)
        chain[split] = next_label + np.arange(int(split.sum()))
        next_label += int(split.sum())
        chain[(u >= P_MOVE + P_SPLIT) & (u < P_MOVE + P_SPLIT + P_NONREF)] = np.nan
        frames.append(
            pd.DataFrame(
                {
                    "document": doc_names[doc],
                    "mention": np.arange(n_mentions, dtype=np.int64) - doc_start,
                    "coder": f"coder{c + 1}",
                    "chain": chain,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def corpus_stats(df: pd.DataFrame) -> dict[str, Any]:
    """Chains per coder, largest chain, share of singletons (for the report)."""
    key = df[df["coder"] == "coder1"].dropna(subset=["chain"])
    sizes = key.groupby(["document", "chain"]).size()
    return {
        "documents": int(df["document"].nunique()),
        "chains_coder1": len(sizes),
        "largest_chain": int(sizes.max()),
        "singletons_coder1": float((sizes == 1).mean()),
    }


# ----------------------------------------------------------------------------- workers
def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    from accord.coref import CorefAnnotations
    from accord.coref._alpha import coref_alpha

    df = make_corpus(spec["n_mentions"], seed=spec["seed"], doc_size=spec["doc_size"], zipf=spec["zipf"],
                     max_chain=spec["max_chain"])
    small = make_corpus(1_000, seed=spec["seed"] + 1, doc_size=100)  # run once before the clock: imports paid
    distance = CONVENTIONS[spec["convention"]]
    result: dict[str, Any] = {}

    def alpha(data: Any) -> dict[str, Any]:
        res = coref_alpha(data, distance=distance, convention=spec["convention"])
        result.update(alpha=float(res.alpha), n_classes=int(res.n_classes), n_pairable=int(res.n_pairable))
        return result

    return h.measure([("build", CorefAnnotations.from_records), ("alpha", alpha)], df, warmup=small)


# ----------------------------------------------------------------------------- driver
def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return one record per (size, convention)."""
    if h.worker_main(argv, _worker):
        return []
    ap = h.parser(__doc__, seed=h.SEED, each="convention")
    ap.add_argument("--sizes", default="1000000", help="comma-separated numbers of mentions (default 1000000)")
    ap.add_argument("--conventions", default=",".join(CONVENTIONS), help="classes, classes-less-unit or both")
    ap.add_argument("--doc-size", type=int, default=200, help="mentions per document (default 200)")
    ap.add_argument("--zipf", type=float, default=2.0, help="Zipf exponent of the chain sizes (default 2.0)")
    ap.add_argument("--max-chain", type=int, default=100, help="largest chain (default 100)")
    ap.add_argument("--quick", action="store_true", help="100,000 mentions")
    args = ap.parse_args(argv)
    sizes = [100_000] if args.quick else h.int_list(args.sizes)
    conventions = h.choices(ap, "--conventions", args.conventions, list(CONVENTIONS))
    log = h.logger(args.quiet)
    h.header(log, "accord", "numpy", "scipy", "pandas")
    records = []
    for n in sizes:
        if not args.quiet:
            st = corpus_stats(make_corpus(n, seed=args.seed, doc_size=args.doc_size, zipf=args.zipf,
                                          max_chain=args.max_chain))
            log(
                f"corpus of {n:,} mentions: {st['documents']:,} documents, {st['chains_coder1']:,} chains for "
                f"coder1 (largest {st['largest_chain']}, {st['singletons_coder1']:.0%} singletons)"
            )
        for conv in conventions:
            log(f"  running {conv} ({CONVENTIONS[conv]}) at {n:,} mentions ...")
            spec = {"n_mentions": n, "convention": conv, "seed": args.seed, "doc_size": args.doc_size,
                    "zipf": args.zipf, "max_chain": args.max_chain}
            records.append(h.run_worker(SCRIPT, spec, repeat=args.repeat))
    print_report(records)
    return records


def print_report(records: list[dict[str, Any]]) -> None:
    header = [
        "mentions", "convention", "distance", "build", "alpha", "total: median (min-max)", "build peak RSS",
        "alpha peak RSS", "extra RSS", "process peak", "classes", "alpha value", "load",
    ]
    rows = []
    for r in records:
        s = r["spec"]
        if "failed" in r:
            rows.append([f"{s['n_mentions']:,}", s["convention"], CONVENTIONS[s["convention"]], "-", "-",
                         r["failed"], *["-"] * 6, h.fmt_load(r)])
            continue
        ph, pk, res = r["phases"], r["phase_peak_mib"], r["result"]
        rows.append([
            f"{s['n_mentions']:,}", s["convention"], CONVENTIONS[s["convention"]], h.fmt_time(ph["build"]),
            h.fmt_time(ph["alpha"]), h.fmt_spread(r), h.fmt_mib(pk["build"]), h.fmt_mib(pk["alpha"]),
            h.fmt_mib(r["extra_mib"]), h.fmt_mib(r["life_peak_mib"]), f"{res['n_classes']:,}", f"{res['alpha']:.6f}",
            h.fmt_load(r),
        ])
    print()
    print(h.markdown_table(header, rows))
    print()
    print("build/alpha peak RSS: the process's peak during each phase (interpreter, libraries and the input")
    print("DataFrame included); extra RSS: the peak over both phases less the RSS before them; process peak: the")
    print("worker's whole life, corpus generation included.")
    h.print_load(records)
    for r in records:
        if "failed" in r:
            continue
        s = r["spec"]
        print(h.target(f"({s['convention']}, {s['n_mentions']:,} mentions)",
                       f"{r['time_s']:.1f} s build + alpha (< 30 s), process peak {h.fmt_mib(r['life_peak_mib'])} "
                       "(< 4 GiB)", r["time_s"] < 30 and r["life_peak_mib"] < 4096))


if __name__ == "__main__":
    main()
