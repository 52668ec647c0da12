"""Span agreement on a synthetic corpus: 3 coders, about 1,000,000 spans in all (``--spans``).

Corpus: documents of ``--doc-words`` words (default 200) of 5 letters and a space, so 1,200
characters and 200 whitespace tokens each.  The key puts, in each document, spans of 1 to 3 words at
random non-overlapping word positions (about one word in five starts a span), with a label among 4.
Each coder copies the key and, independently for each span, drops it with probability 8%, cuts 1 or 2
characters off its end with probability 10% and changes its label with probability 5% (spans of one
coder never overlap, as unitizing alpha needs).  The documents are as many as needed for ``--spans``
spans over the 3 coders.

Input: a :class:`accord.spans.SpanAnnotations` built before the clock starts.  Timed, each statistic in
its own process: ``span_f1`` exact, ``span_f1`` overlap, ``token_agreement`` (whitespace tokens) and
``unitizing_alpha``; each also times a 200-resample document bootstrap (phase "ci").

No other library computes these on such a corpus (DKPro Agreement is Java and takes one continuum),
so accord runs alone.

Usage::

    .venv/bin/python benchmarks/bench_spans.py              # about 1,000,000 spans
    .venv/bin/python benchmarks/bench_spans.py --quick      # about 100,000 spans
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
STATISTICS = ("f1-exact", "f1-overlap", "tokens", "unitizing")
LABELS = ("PER", "LOC", "ORG", "MISC")
P_DROP, P_CUT, P_RELABEL = 0.08, 0.10, 0.05


def make_corpus(n_spans: int, *, seed: int, doc_words: int = 200, coders: int = 3) -> Any:
    """A SpanAnnotations of about *n_spans* spans over *coders* coders."""
    from accord.spans import Span, SpanAnnotations

    rng = np.random.default_rng(seed)
    per_doc = max(int(doc_words / 7.5 * (1 - P_DROP) * coders), 1)  # spans per document, on average
    n_docs = max(n_spans // per_doc, 1)
    text = " ".join(["abcde"] * doc_words)
    spans, texts = [], {}
    for d in range(n_docs):
        name = f"doc{d:06d}"
        texts[name] = text
        word, key = 0, []
        while word < doc_words:
            word += int(rng.integers(1, 9))
            n = int(rng.integers(1, 4))
            if word + n > doc_words:
                break
            key.append((word * 6, (word + n) * 6 - 1, LABELS[int(rng.integers(0, len(LABELS)))]))
            word += n + 1
        for c in range(coders):
            u = rng.random((len(key), 3))
            for (s, e, lab), (p_drop, p_cut, p_lab) in zip(key, u, strict=True):
                if p_drop < P_DROP:
                    continue
                if p_cut < P_CUT:
                    e -= int(rng.integers(1, 3))
                if p_lab < P_RELABEL:
                    lab = LABELS[int(rng.integers(0, len(LABELS)))]
                spans.append(Span(name, s, e, lab, f"coder{c + 1}"))
    return SpanAnnotations.from_spans(spans, texts=texts)


def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    from accord.spans import span_f1, token_agreement, unitizing_alpha

    data = make_corpus(spec["n_spans"], seed=spec["seed"], doc_words=spec["doc_words"])
    stat = spec["statistic"]
    result: dict[str, Any] = {"n_spans": len(data.spans), "n_documents": len(data.documents)}

    def compute(d: Any) -> Any:
        if stat.startswith("f1"):
            res = span_f1(d, match=stat.split("-")[1])
            result["value"] = float(res.micro_f1)
        elif stat == "tokens":
            res = token_agreement(d)
            result["value"] = float(res.alpha.alpha)
        else:
            res = unitizing_alpha(d)
            result["value"] = float(res.alpha)
        return res

    def ci(res: Any) -> dict[str, Any]:
        result["interval"] = list(res.confidence_interval(n_resamples=200, rng=0))
        return result

    small = make_corpus(2_000, seed=spec["seed"] + 1, doc_words=spec["doc_words"])  # before the clock: imports paid
    return h.measure([("statistic", compute), ("ci", ci)], data, warmup=small)


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return one record per (size, statistic)."""
    if h.worker_main(argv, _worker):
        return []
    ap = h.parser(__doc__, seed=20261123, each="statistic")
    ap.add_argument("--spans", default="1000000", help="comma-separated numbers of spans (default 1000000)")
    ap.add_argument("--statistics", default=",".join(STATISTICS), help=f"some of {', '.join(STATISTICS)}")
    ap.add_argument("--doc-words", type=int, default=200, help="words per document (default 200)")
    ap.add_argument("--quick", action="store_true", help="about 100,000 spans")
    args = ap.parse_args(argv)
    sizes = [100_000] if args.quick else h.int_list(args.spans)
    stats = h.choices(ap, "--statistics", args.statistics, STATISTICS)
    log = h.logger(args.quiet)
    h.header(log, "accord", "numpy", "scipy", "pandas")
    records = []
    for n in sizes:
        for s in stats:
            log(f"  running {s} at about {n:,} spans ...")
            records.append(h.run_worker(SCRIPT, {"n_spans": n, "statistic": s, "seed": args.seed,
                                                 "doc_words": args.doc_words}, repeat=args.repeat))
    print_report(records)
    return records


def print_report(records: list[dict[str, Any]]) -> None:
    header = ["spans", "documents", "statistic", "value", "time", "bootstrap (200)", "total: median (min-max)",
              "peak RSS", "extra RSS", "load"]
    rows = []
    for r in records:
        s = r["spec"]
        if "failed" in r:
            rows.append([f"~{s['n_spans']:,}", "-", s["statistic"], "-", r["failed"], *["-"] * 4, h.fmt_load(r)])
            continue
        res, ph = r["result"], r["phases"]
        rows.append([
            f"{res['n_spans']:,}", f"{res['n_documents']:,}", s["statistic"], f"{res['value']:.4f}",
            h.fmt_time(ph["statistic"]), h.fmt_time(ph["ci"]), h.fmt_spread(r), h.fmt_mib(r["peak_mib"]),
            h.fmt_mib(r["extra_mib"]), h.fmt_load(r),
        ])
    print()
    print(h.markdown_table(header, rows))
    print()
    print("time: the statistic alone; bootstrap: 200 document resamples; peak RSS: the process's peak during the")
    print("timed phases (interpreter, libraries and the input included); extra RSS: that peak less the RSS before.")
    print("time and bootstrap: medians of the phases over the runs.")
    h.print_load(records)


if __name__ == "__main__":
    main()
