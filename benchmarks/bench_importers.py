"""Importers: reading a large Label Studio JSON export and a large Prodigy db-out JSONL.

Data (built by the worker before the clock starts, written to a temporary file): N tasks, 3 annotators; each
annotator annotates a task with probability 0.9 and cancels (Label Studio) or ignores (Prodigy) 5% of what
they annotate; every annotation has a single choice among three and one entity span placed after an emoji, so
every Label Studio span goes through the UTF-16 re-anchoring and the covered-text check.  Label Studio's file
is indented (``indent=1``) like the export Label Studio writes.

Contenders, each timed in a fresh process:

- ``json.load``: the Python standard library parsing the Label Studio file, nothing else (the floor);
- ``label-studio choices``: ``accord.importers.labelstudio.read(path, field="sentiment")``;
- ``label-studio spans``: the same with ``field="ner"`` (spans, re-anchored and checked);
- ``prodigy spans``: ``accord.importers.prodigy.read(path)`` on the JSONL of the same annotations.

Usage::

    .venv/bin/python benchmarks/bench_importers.py              # 100,000 tasks
    .venv/bin/python benchmarks/bench_importers.py --quick      # 10,000 tasks
    .venv/bin/python benchmarks/bench_importers.py --tasks 20000,100000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import fmt_mib, fmt_time, machine, markdown_table, measure, run_worker, versions, worker_main  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
CONTENDERS = ("json.load", "label-studio choices", "label-studio spans", "prodigy spans")


def make_exports(n_tasks: int, folder: Path, *, seed: int) -> tuple[Path, Path]:
    """Write a Label Studio JSON export and a Prodigy JSONL of the same annotations; return their paths."""
    rng = random.Random(seed)
    tasks, lines = [], []
    for i in range(n_tasks):
        text = f"Report {i} \N{GRINNING FACE} from Paris on day {i % 365}."
        start = len(f"Report {i} \N{GRINNING FACE} from ")
        start16 = start + 1  # the emoji counts twice in UTF-16
        anns = []
        for c in range(3):
            if rng.random() >= 0.9:
                continue
            cancelled = rng.random() < 0.05
            choice = rng.choice("ABC")
            anns.append({
                "id": len(anns) + 1, "completed_by": c, "was_cancelled": cancelled, "lead_time": 1.0,
                "result": [] if cancelled else [
                    {"id": f"c{i}{c}", "from_name": "sentiment", "to_name": "text", "type": "choices",
                     "value": {"choices": [choice]}},
                    {"id": f"s{i}{c}", "from_name": "ner", "to_name": "text", "type": "labels",
                     "value": {"start": start16, "end": start16 + 5, "text": "Paris", "labels": ["LOC"]}},
                ],
            })
            lines.append({
                "text": text, "_input_hash": i, "_task_hash": i, "_view_id": "ner_manual",
                "answer": "ignore" if cancelled else "accept", "_annotator_id": f"ann-{c}", "_session_id": f"ann-{c}",
                "spans": [{"start": start, "end": start + 5, "label": "LOC"}],
            })
        tasks.append({"id": i, "data": {"text": text}, "annotations": anns, "predictions": []})
    ls = folder / "labelstudio.json"
    ls.write_text(json.dumps(tasks, indent=1, ensure_ascii=False), encoding="utf-8")
    pg = folder / "prodigy.jsonl"
    pg.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    return ls, pg


def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    name = spec["contender"]
    with tempfile.TemporaryDirectory() as tmp:
        ls, pg = make_exports(spec["n_tasks"], Path(tmp), seed=spec["seed"])
        import accord.data  # noqa: F401  (pandas and numpy imported before the clock, as in a warm process)
        from accord.importers import labelstudio, prodigy

        if name == "json.load":
            def run(p: Path) -> int:
                with open(p, encoding="utf-8") as fh:
                    return len(json.load(fh))

            return measure([("read", run)], ls)
        if name == "label-studio choices":
            return measure([("read", lambda p: labelstudio.read(p, field="sentiment").annotations.n_entries)], ls)
        if name == "label-studio spans":
            return measure([("read", lambda p: len(labelstudio.read(p, field="ner").spans.spans))], ls)
        if name == "prodigy spans":
            return measure([("read", lambda p: len(prodigy.read(p).spans.spans))], pg)
    raise SystemExit(f"unknown contender {name!r}")


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return one record per run."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if worker_main(argv, _worker):
        return []
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", default="100000", help="comma-separated numbers of tasks (default 100000)")
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--quick", action="store_true", help="10,000 tasks")
    ap.add_argument("--quiet", action="store_true", help="print only the table")
    args = ap.parse_args(argv)
    sizes = [10_000] if args.quick else [int(s) for s in args.tasks.split(",") if s.strip()]
    if not args.quiet:
        print(f"machine: {machine()}", flush=True)
        print(f"versions: {versions('accord', 'numpy', 'pandas')}", flush=True)
    records = []
    for n in sizes:
        for name in CONTENDERS:
            if not args.quiet:
                print(f"  running {name} on {n:,} tasks ...", flush=True)
            records.append(run_worker(SCRIPT, {"contender": name, "n_tasks": n, "seed": args.seed}))
    print_report(records)
    return records


def print_report(records: list[dict[str, Any]]) -> None:
    header = ["tasks", "contender", "time", "peak RSS", "extra RSS", "records out"]
    rows = []
    for r in records:
        spec = r["spec"]
        if "failed" in r:
            rows.append([f"{spec['n_tasks']:,}", spec["contender"], r["failed"], "-", "-", "-"])
            continue
        rows.append([f"{spec['n_tasks']:,}", spec["contender"], fmt_time(r["time_s"]), fmt_mib(r["peak_mib"]),
                     fmt_mib(r["extra_mib"]), f"{r['result']:,}"])
    print()
    print(markdown_table(header, rows))
    print()
    print("records out: tasks parsed (json.load), values (choices) or spans read.")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
