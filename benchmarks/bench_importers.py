"""Importers: every tool's export at about 1,000,000 records, and a 3,000,000-row CSV through ``accord import``.

Data (written by the worker before the clock starts, into a temporary folder, in each tool's documented export
schema, as ``tests/test_importers_property*.py`` write theirs): records are (item, annotator) answers for 3
annotators ``ann-0..2``, generated item after item until ``--records`` are written; an annotator has an item
with probability 0.9; of those, 5% are skipped / cancelled / ignored / discarded where the tool can say so
(elsewhere they are left out), 5% are empty (seen, nothing chosen), the rest carry a label among ``A B C``
and, for span tools, the span of "Paris" after an emoji, so that every UTF-16 tool re-anchors its offsets.

- ``label-studio``: the JSON export (``indent=1``, as Label Studio writes it), a choice and a ``labels`` span
  per annotation (https://labelstud.io/guide/export#Label-Studio-JSON-format-of-annotated-tasks);
- ``prodigy``: ``db-out`` JSONL, ``ner_manual`` tasks (https://prodi.gy/docs/api-interfaces);
- ``doccano``: one ``<user>.jsonl`` per annotator, sequence labelling ``"label": [[start, end, "LOC"]]``
  (https://doccano.github.io/doccano/tutorial/#export-dataset);
- ``argilla``: ``dataset.to_disk`` folder, ``settings.json`` and ``records.json`` with ``responses``
  (https://docs.argilla.io/latest/how_to_guides/import_export/);
- ``inception``: a project folder, ``exportedproject.json`` and ``annotation/<doc>/<user>.tsv`` in WebAnno
  TSV 3.3 (INCEpTION user guide, appendix "WebAnno TSV 3.3"), 100 spans per document;
- ``brat``: one folder per annotator, ``<doc>.ann`` standoff beside ``<doc>.txt``
  (https://brat.nlplab.org/standoff.html), 100 spans per document;
- ``spreadsheet``: an ``.xlsx`` in the wide layout (one row per item, one column per annotator), written by
  pandas through openpyxl;
- ``inception-agreement``: the Agreement page's Diagnosis CSV (header ``Type, Collection, Document, Layer,
  Feature, Position, Flags`` then one column per annotator; ``<no annotation>`` cells);
- ``mturk``: a batch results CSV, every field quoted, CRLF (the requester site's download);
- ``csv``: the generic ``unit,coder,value`` table, plain; ``csv quoted``: the same with every field quoted
  (read by the csv module record by record instead of pandas' parser);
- ``accord import csv``: ``accord import FILE --from csv -o OUT`` on a ``--csv-rows`` generic CSV (default
  3,000,000 rows), the whole command in a subprocess (interpreter start, reading, writing the long table).

Each contender runs in a fresh process (``benchmarks/_harness.py``), timed ``--repeat`` times (median and
min-max); the load average is read around each.  ``json.load`` of the Label Studio file is the floor.
Scaling: ``--records 20000,80000`` (or ``--quick``) runs every importer at both sizes and prints the ratio of the
CPU times (``time.process_time``, less moved by other jobs than the wall time; linear: about 4).

Usage::

    .venv/bin/python benchmarks/bench_importers.py                      # 1,000,000 records, 3M-row CLI
    .venv/bin/python benchmarks/bench_importers.py --quick              # 20,000 and 80,000 records: the ratios
    .venv/bin/python benchmarks/bench_importers.py --records 100000 --tools csv,mturk --repeat 1
"""

from __future__ import annotations

import csv
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as h  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
SRC = str(Path(__file__).resolve().parent.parent / "src")
CODERS = ("ann-0", "ann-1", "ann-2")
LABELS = "ABC"
NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
SPANS_PER_DOC = 100

# ----------------------------------------------------------------------------------------------- the records


def plan(n_records: int, seed: int) -> Iterator[tuple[int, int, str, str]]:
    """``(item, coder, state, label)`` until *n_records*: state ``annotated``, ``empty`` or ``skipped``."""
    rng = random.Random(seed)
    written, item = 0, 0
    while written < n_records:
        for c in range(len(CODERS)):
            if written >= n_records or rng.random() >= 0.9:
                continue
            r = rng.random()
            yield item, c, "skipped" if r < 0.05 else "empty" if r < 0.10 else "annotated", rng.choice(LABELS)
            written += 1
        item += 1


def _text(i: int) -> tuple[str, int, int]:
    """A text with "Paris" after an emoji: the text, its code-point start and its UTF-16 start."""
    prefix = f"Report {i} \N{GRINNING FACE} from "
    return prefix + f"Paris on day {i % 365}.", len(prefix), len(prefix) + 1


def _by_item(n: int, seed: int) -> Iterator[tuple[int, list[tuple[int, str, str]]]]:
    """The plan grouped by item: ``(item, [(coder, state, label), ...])``."""
    current, group = None, []
    for item, c, state, label in plan(n, seed):
        if item != current and group:
            yield current, group  # type: ignore[misc]
            group = []
        current = item
        group.append((c, state, label))
    if group:
        yield current, group  # type: ignore[misc]


def write_labelstudio(n: int, folder: Path, seed: int) -> Path:
    tasks = []
    for i, group in _by_item(n, seed):
        text, _, s16 = _text(i)
        anns = []
        for c, state, label in group:
            result = [] if state != "annotated" else [
                {"id": f"c{i}-{c}", "from_name": "sentiment", "to_name": "text", "type": "choices",
                 "value": {"choices": [label]}},
                {"id": f"s{i}-{c}", "from_name": "ner", "to_name": "text", "type": "labels",
                 "value": {"start": s16, "end": s16 + 5, "text": "Paris", "labels": ["LOC"]}},
            ]
            anns.append({"id": len(anns) + 1, "completed_by": c, "was_cancelled": state == "skipped",
                         "lead_time": 1.0, "result": result})
        tasks.append({"id": i, "data": {"text": text}, "annotations": anns, "predictions": []})
    path = folder / "labelstudio.json"
    path.write_text(json.dumps(tasks, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def write_prodigy(n: int, folder: Path, seed: int) -> Path:
    path = folder / "prodigy.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for i, c, state, _ in plan(n, seed):
            text, start, _ = _text(i)
            fh.write(json.dumps({
                "text": text, "_input_hash": i, "_task_hash": i, "_view_id": "ner_manual",
                "answer": "ignore" if state == "skipped" else "accept", "_annotator_id": CODERS[c],
                "_session_id": CODERS[c],
                "spans": [{"start": start, "end": start + 5, "label": "LOC"}] if state == "annotated" else [],
            }, ensure_ascii=False) + "\n")
    return path


def write_doccano(n: int, folder: Path, seed: int) -> Path:
    out = folder / "doccano"
    out.mkdir()
    files = [open(out / f"{c}.jsonl", "w", encoding="utf-8") for c in CODERS]  # noqa: SIM115
    try:
        for i, c, state, _ in plan(n, seed):
            if state == "skipped":  # doccano has no skip: the example is not in the annotator's file
                continue
            text, _, s16 = _text(i)
            files[c].write(json.dumps({"id": i, "text": text, "Comments": [],
                                       "label": [[s16, s16 + 5, "LOC"]] if state == "annotated" else []},
                                      ensure_ascii=False) + "\n")
    finally:
        for fh in files:
            fh.close()
    return out


def write_argilla(n: int, folder: Path, seed: int) -> Path:
    out = folder / "argilla"
    out.mkdir()
    settings = {
        "guidelines": "Label the sentiment.", "allow_extra_metadata": False,
        "distribution": {"strategy": "overlap", "min_submitted": 3},
        "fields": [{"name": "text", "title": "Text", "required": True,
                    "settings": {"type": "text", "use_markdown": False}}],
        "questions": [
            {"name": "sentiment", "title": "Sentiment", "required": False,
             "settings": {"type": "label_selection", "options": [{"value": x, "text": x} for x in LABELS]}},
            {"name": "comment", "title": "Comment", "required": False,
             "settings": {"type": "text", "use_markdown": False}},
        ],
        "metadata": [], "vectors": [],
    }
    (out / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")
    (out / "dataset.json").write_text(json.dumps({"id": "bench", "name": "bench", "status": "ready"}))
    records = []
    for i, group in _by_item(n, seed):
        text, _, _ = _text(i)
        sentiment, comment = [], []
        for c, state, label in group:
            status = "discarded" if state == "skipped" else "submitted"
            if state == "empty":  # submitted the record without answering the sentiment
                comment.append({"value": "seen", "user_id": CODERS[c], "status": status})
            else:
                sentiment.append({"value": label, "user_id": CODERS[c], "status": status})
        responses = {k: v for k, v in (("sentiment", sentiment), ("comment", comment)) if v}
        records.append({"id": f"r{i}", "status": "completed", "_server_id": f"srv-{i}", "fields": {"text": text},
                        "metadata": {}, "suggestions": {}, "vectors": {}, "responses": responses})
    (out / "records.json").write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return out


def _doc_plan(n: int, seed: int) -> Iterator[tuple[int, int, str, list[str]]]:
    """Span tools with documents: ``(doc, coder, state, labels)``, *labels* one per span slot ("" = no span);
    about *n* records, a record being a span (or an empty or skipped document)."""
    rng = random.Random(seed)
    written, doc = 0, 0
    while written < n:
        for c in range(len(CODERS)):
            if written >= n or rng.random() >= 0.9:
                continue
            r = rng.random()
            state = "skipped" if r < 0.05 else "empty" if r < 0.10 else "annotated"
            labels = []
            if state == "annotated":
                labels = [rng.choice(LABELS) if rng.random() < 0.9 else "" for _ in range(SPANS_PER_DOC)]
            written += sum(map(bool, labels)) or 1
            yield doc, c, state, labels
        doc += 1


def _doc_tokens(doc: int) -> list[str]:
    """Per span slot: an emoji token then a word token the span covers, ending with a period."""
    toks = [f"Doc{doc}"]
    for k in range(SPANS_PER_DOC):
        toks += ["\N{GRINNING FACE}", f"w{k}"]
    return [*toks, "."]


def write_inception(n: int, folder: Path, seed: int) -> Path:
    out = folder / "inception"
    (out / "annotation").mkdir(parents=True)
    docs, entries = set(), []
    for doc, c, state, labels in _doc_plan(n, seed):
        name = f"doc{doc}.txt"
        docs.add(doc)
        entries.append({"name": name, "user": CODERS[c], "state": "IGNORE" if state == "skipped" else "FINISHED"})
        if state == "skipped":
            continue
        toks = _doc_tokens(doc)
        text = " ".join(toks)
        lines = ["#FORMAT=WebAnno TSV 3.3", "#T_SP=webanno.custom.Entity|value", "", "", f"#Text={text}"]
        u16 = 0
        for k, t in enumerate(toks):
            n16 = len(t.encode("utf-16-le")) // 2
            slot = (k - 2) // 2 if k >= 2 and k % 2 == 0 and k < len(toks) - 1 else None
            cell = labels[slot] if slot is not None and slot < len(labels) and labels[slot] else "_"
            lines.append(f"1-{k + 1}\t{u16}-{u16 + n16}\t{t}\t{cell}")
            u16 += n16 + 1
        target = out / "annotation" / name
        target.mkdir(exist_ok=True)
        (target / f"{CODERS[c]}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    project = {"name": "bench", "mode": "annotation", "version": 1,
               "source_documents": [{"name": f"doc{d}.txt", "format": "text", "state": "ANNOTATION_IN_PROGRESS"}
                                    for d in sorted(docs)],
               "annotation_documents": entries}
    (out / "exportedproject.json").write_text(json.dumps(project, indent=1), encoding="utf-8")
    return out


def write_brat(n: int, folder: Path, seed: int) -> Path:
    out = folder / "brat"
    for c in CODERS:
        (out / c).mkdir(parents=True)
    for doc, c, state, labels in _doc_plan(n, seed):
        if state == "skipped":  # brat has no skip: the document is not in the annotator's folder
            continue
        toks = _doc_tokens(doc)
        text = " ".join(toks)
        lines, pos = [], len(toks[0]) + 1
        for k, label in enumerate(labels):
            start = pos + 2  # the emoji is one character in brat (code points), then a space
            word = f"w{k}"
            if label:
                lines.append(f"T{len(lines) + 1}\t{label} {start} {start + len(word)}\t{word}\n")
            pos = start + len(word) + 1
        (out / CODERS[c] / f"doc{doc}.txt").write_text(text, encoding="utf-8")
        (out / CODERS[c] / f"doc{doc}.ann").write_text("".join(lines), encoding="utf-8")
    return out


def write_spreadsheet(n: int, folder: Path, seed: int) -> Path:
    import pandas as pd

    rows: dict[int, dict[str, Any]] = {}
    for i, c, state, label in plan(n, seed):
        rows.setdefault(i, {"item": f"q{i}"})[CODERS[c]] = label if state == "annotated" else None
    frame = pd.DataFrame(list(rows.values()), columns=["item", *CODERS])
    path = folder / "judgments.xlsx"
    frame.to_excel(path, index=False, engine="openpyxl")
    return path


def write_inception_agreement(n: int, folder: Path, seed: int) -> Path:
    path = folder / "bench-project-diff.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\r\n")
        w.writerow(["Type", "Collection", "Document", "Layer", "Feature", "Position", "Flags", *CODERS])
        for i, group in _by_item(n, seed):
            cells = ["<no annotation>"] * len(CODERS)
            for c, state, label in group:
                if state == "annotated":
                    cells[c] = label
            flags = "COMPLETE, USED" if "<no annotation>" not in cells else "INCOMPLETE_POSITION, USED"
            start = 10 * (i % 1000)
            w.writerow(["SpanPosition", "bench", f"doc{i // 1000}.txt", NE, "value", f"{start}-{start + 5} [Paris]",
                        flags, *cells])
    return path


def write_mturk(n: int, folder: Path, seed: int) -> Path:
    path = folder / "Batch_4242_batch_results.csv"
    header = ["HITId", "HITTypeId", "Title", "Reward", "CreationTime", "MaxAssignments", "AssignmentId", "WorkerId",
              "AssignmentStatus", "AcceptTime", "SubmitTime", "WorkTimeInSeconds", "LifetimeApprovalRate",
              "Input.id", "Input.text", "Answer.sentiment", "Approve", "Reject"]
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        w.writerow(header)
        for k, (i, c, state, label) in enumerate(plan(n, seed)):
            text, _, _ = _text(i)
            status = "Rejected" if state == "skipped" else "Approved"
            w.writerow([f"3HIT{i:08d}", "3TYPE", "Label the sentiment", "$0.05", "Tue Nov 24 10:00:00 PST 2026", "3",
                        f"3ASG{k:09d}", f"W{CODERS[c]}", status, "Tue Nov 24 10:01:00 PST 2026",
                        "Tue Nov 24 10:02:00 PST 2026", "60", "100% (3/3)", f"item-{i}", text,
                        label if state == "annotated" else "", "", ""])
    return path


def write_csv(n: int, folder: Path, seed: int, *, quoted: bool = False) -> Path:
    path = folder / ("judgments-quoted.csv" if quoted else "judgments.csv")
    with open(path, "w", encoding="utf-8", newline="") as fh:
        if quoted:
            w = csv.writer(fh, quoting=csv.QUOTE_ALL, lineterminator="\n")
            w.writerow(["unit", "coder", "value"])
            w.writerows((f"u{i}", CODERS[c], label if state == "annotated" else "")
                        for i, c, state, label in plan(n, seed) if state != "skipped")
        else:
            fh.write("unit,coder,value\n")
            fh.writelines(f"u{i},{CODERS[c]},{label if state == 'annotated' else ''}\n"
                          for i, c, state, label in plan(n, seed) if state != "skipped")
    return path


# ----------------------------------------------------------------------------------------------- contenders


def _values(imp: Any) -> int:
    return len(imp.spans.spans) if imp.spans is not None else int(imp.annotations.n_entries)


def _contenders() -> dict[str, tuple[Callable[[int, Path, int], Path], Callable[[Path], int]]]:
    """name -> (writer, reader returning the values or spans read); the readers' modules imported here."""
    from accord.importers import _argilla as argilla
    from accord.importers import _brat as brat
    from accord.importers import _crowd as crowd
    from accord.importers import _doccano as doccano
    from accord.importers import _inception as inception
    from accord.importers import _inception_agreement as inception_agreement
    from accord.importers import _labelstudio as labelstudio
    from accord.importers import _prodigy as prodigy
    from accord.importers import _spreadsheet as spreadsheet

    def json_load(p: Path) -> int:
        with open(p, encoding="utf-8") as fh:
            return len(json.load(fh))

    return {
        "json.load": (write_labelstudio, json_load),
        "label-studio choices": (write_labelstudio, lambda p: _values(labelstudio.read(p, field="sentiment"))),
        "label-studio spans": (write_labelstudio, lambda p: _values(labelstudio.read(p, field="ner"))),
        "prodigy spans": (write_prodigy, lambda p: _values(prodigy.read(p))),
        "doccano spans": (write_doccano, lambda p: _values(doccano.read(p))),
        "argilla labels": (write_argilla, lambda p: _values(argilla.read(p, field="sentiment"))),
        "inception spans": (write_inception, lambda p: _values(inception.read(p))),
        "brat spans": (write_brat, lambda p: _values(brat.read(p))),
        "spreadsheet wide": (write_spreadsheet,
                             lambda p: _values(spreadsheet.read(p, layout="wide", unit="item"))),
        "inception-agreement": (write_inception_agreement, lambda p: _values(inception_agreement.read(p))),
        "mturk": (write_mturk, lambda p: _values(crowd.read(p, field="sentiment"))),
        "csv": (write_csv, lambda p: _values(crowd.read(p, tool="csv"))),
        "csv quoted": (lambda n, f, s: write_csv(n, f, s, quoted=True), lambda p: _values(crowd.read(p, tool="csv"))),
    }


CONTENDERS = (
    "json.load", "label-studio choices", "label-studio spans", "prodigy spans", "doccano spans", "argilla labels",
    "inception spans", "brat spans", "spreadsheet wide", "inception-agreement", "mturk", "csv", "csv quoted",
)
CLI = "accord import csv"


def _cli_run(path: Path) -> dict[str, Any]:
    """``accord import PATH --from csv -o OUT`` in a subprocess: wall time, its peak RSS, the rows written."""
    out = path.with_name("long.csv")
    out.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [*h.accord_cli(console_script=False), "import", str(path), "--from", "csv", "-o", str(out)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"accord import failed: {proc.stderr.strip().splitlines()[-1:]}")
    with open(out, "rb") as fh:
        rows = sum(1 for _ in fh) - 1
    return {"wall": wall, "rows": rows}


def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    name, n = spec["contender"], spec["records"]
    with tempfile.TemporaryDirectory() as tmp:
        if name == CLI:
            path = write_csv(n, Path(tmp), spec["seed"])
            walls: list[float] = []

            def run(p: Path) -> int:
                r = _cli_run(p)
                walls.append(r["wall"])
                return int(r["rows"])

            record = h.measure([("import", run)], path)
            # the command's own peak: the largest child the worker waited for
            record["peak_mib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
            record["extra_mib"] = None
            return record
        writer, reader = _contenders()[name]
        path = writer(n, Path(tmp), spec["seed"])
        (Path(tmp) / "warmup").mkdir()
        small = writer(300, Path(tmp) / "warmup", spec["seed"])  # run once before the clock: lazy imports paid
        return h.measure([("read", reader)], path, warmup=small)
    raise SystemExit(f"unknown contender {name!r}")


# ----------------------------------------------------------------------------------------------- driver


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; print the table; return one record per run."""
    if h.worker_main(argv, _worker):
        return []
    ap = h.parser(__doc__, seed=20261123)
    ap.add_argument("--records", default="1000000", help="comma-separated numbers of records (default 1000000)")
    ap.add_argument("--csv-rows", type=int, default=3_000_000, help="rows of the CSV for `accord import` (0: skip)")
    ap.add_argument("--tools", default=",".join((*CONTENDERS, CLI)),
                    help=f"comma-separated subset of: {', '.join((*CONTENDERS, CLI))}")
    ap.add_argument("--quick", action="store_true", help="20,000 and 80,000 records, 300,000 CSV rows, 1 run each")
    ap.add_argument("--timeout", type=float, default=3600)
    args = ap.parse_args(argv)
    sizes = [20_000, 80_000] if args.quick else h.int_list(args.records)
    csv_rows = 300_000 if args.quick else args.csv_rows
    repeat = 1 if args.quick else args.repeat
    tools = h.choices(ap, "--tools", args.tools, (*CONTENDERS, CLI))
    say = h.logger(args.quiet)
    h.header(say, "accord", "numpy", "pandas", "openpyxl")
    records = []
    for n in sizes:
        for name in tools:
            if name == CLI:
                continue
            say(f"  running {name} on {n:,} records ...")
            records.append(h.run_worker(SCRIPT, {"contender": name, "records": n, "seed": args.seed},
                                        timeout=args.timeout, repeat=repeat))
    if CLI in tools and csv_rows:
        say(f"  running {CLI} on {csv_rows:,} rows ...")
        records.append(h.run_worker(SCRIPT, {"contender": CLI, "records": csv_rows, "seed": args.seed},
                                    timeout=args.timeout, repeat=repeat))
    print_report(records)
    return records


def print_report(records: list[dict[str, Any]]) -> None:
    header = ["records", "contender", "time: median (min-max)", "peak RSS", "extra RSS", "values out", "load"]
    rows = []
    for r in records:
        spec = r["spec"]
        if "failed" in r:
            rows.append([f"{spec['records']:,}", spec["contender"], r["failed"], "-", "-", "-", h.fmt_load(r)])
            continue
        rows.append([f"{spec['records']:,}", spec["contender"], h.fmt_spread(r), h.fmt_mib(r["peak_mib"]),
                     h.fmt_mib(r["extra_mib"]), f"{r['result']:,}", h.fmt_load(r)])
    print()
    print(h.markdown_table(header, rows))
    print()
    print("values out: labels or spans read (json.load: tasks parsed; accord import: rows written).")
    print(f"{CLI}: the whole command in a subprocess (start-up, reading, writing); peak RSS is the command's.")
    by = {(r["spec"]["contender"], r["spec"]["records"]): r for r in records
          if "failed" not in r and r["spec"]["contender"] != CLI}
    sizes = sorted({n for _, n in by})
    if len(sizes) >= 2:
        lo, hi = sizes[0], sizes[-1]
        ratios = [f"{name} {by[name, hi]['cpu_s'] / by[name, lo]['cpu_s']:.1f}x"
                  for name in CONTENDERS if (name, lo) in by and (name, hi) in by and by[name, lo]["cpu_s"] > 0]
        print(f"CPU time ratio {hi:,} / {lo:,} records ({hi / lo:.0f}x the input; linear: about {hi / lo:.0f}x): "
              + ", ".join(ratios))
    h.print_load(records)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
