"""Mutations of the bundled fixtures of every input kind, and an in-process runner of the CLI on them (issue 29).

Shared by ``tests/test_mutation.py`` (a small property-based budget in ``make test``) and
``scripts/mutation_campaign.py`` (the long campaign, ``make mutate``).

* :data:`TARGETS`: each input kind the command line reads, as a bundled fixture (a file, a folder or a zip; a
  few are derived on the fly from a bundled one, e.g. the TSV and JSONL forms of ``docs/examples/labels.csv``)
  paired with the command of README.md / docs/*.md that reads it, with ``--json`` where the command has it.
* :data:`DAMAGING`, :data:`MUST_REFUSE` and :data:`PRESERVING`: the mutations (their functions are
  ``tests/_mutators.py``'s).  A damaging one (byte flips,
  truncation, deleted, duplicated or repeated lines, swapped JSON value types, huge numbers, a long cell, unicode
  traps, corrupted zip members, the wrong ``--from``) may be refused or read; a must-refuse one (a JSON or XML
  document cut short, a CoNLL token line deleted, a column read repeated under its header) must be refused; a
  preserving one (line endings, JSON indentation and key order, row and record order, CSV quoting, zip
  recompression, surrounding spaces in id and label cells, integral ids as text or x.0) must give the same
  numbers.
* :func:`run_cli`: one run of the CLI in process (typer's ``CliRunner``) under a time limit, classified by
  :func:`classify` as one of :data:`OUTCOMES`.

Every mutation is a function of the fixture's bytes and a :class:`random.Random`; a run is reproducible from
``(target, mutation, seed)`` (:func:`mutate`), which is what the campaign writes for each failure.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import shutil
import signal
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _mutators import (  # noqa: F401 - the mutations, re-exported: the campaign and the test name them as M.*
    HUGE,
    JSON_ID_KEYS,
    TRAPS,
    NotApplicable,
    _is_table,
    _is_zip,
    _members,
    _rezip,
    csv_requote,
    delete_line,
    drop_json_key,
    drop_token,
    duplicate_line,
    flip_bytes,
    huge_number,
    id_form,
    inflate,
    json_reformat,
    line_endings,
    long_cell,
    pad_cells,
    pad_ods,
    pad_xlsx,
    parquet_rewrite,
    recompress,
    repeat_header,
    row_order,
    swap_json_type,
    truncate,
    truncate_structured,
    unicode_trap,
    zip_member,
    zip_structure,
)

ROOT = Path(__file__).resolve().parent.parent
EX = "docs/examples"
IMP = "docs/examples/importers"
TD = "tests/data"
DS = "src/accord/datasets"

#: a run over this many seconds (of the process's CPU time: a machine shared with other work does not make a run
#: slow) on an input under :data:`SMALL_INPUT` bytes is a failure ("slow").
SLOW_SECONDS = 5.0
SMALL_INPUT = 1_000_000
#: a run is stopped (outcome "timeout") past this many seconds of wall-clock time.
HARD_LIMIT = 30.0

#: keys of a JSON export whose string values (or the strings in their lists) are ids or labels.
JSON_ID_LABEL_KEYS = frozenset({
    "choices", "labels", "label", "accept", "_annotator_id", "_session_id", "user_id", "annotator", "sentiment",
    "email", "username",
})

#: subtrees and keys of a ``--json`` output whose numbers are not results: the import report (its line numbers
#: move with the file's layout), what was read (``read_as``: it counts the cells whose spaces were removed) and
#: line numbers.
_NOT_RESULTS = frozenset({"import", "import_report", "read_as", "line", "lines"})


@dataclass(frozen=True)
class Target:
    """One input kind: the fixture(s) a command reads, and that command.

    ``files`` are copied into a fresh folder under their base names (``derived:NAME`` makes NAME with
    :func:`_derive`); ``argv`` names them as ``{d}/NAME``.  ``mutate`` is the file (or folder: one file of it
    is chosen) the mutations change.  ``pad`` names what surrounding spaces go around: table columns
    (``cols``), header names (``header``), JSON keys (``keys``, default :data:`JSON_ID_LABEL_KEYS`).
    ``tool`` is the ``--from`` given (``None``: none; the wrong-``--from`` mutation then adds one).
    """

    kind: str
    files: tuple[str, ...]
    argv: tuple[str, ...]
    mutate: str
    cols: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    keys: frozenset[str] = JSON_ID_LABEL_KEYS
    sheet: str | None = None
    tool: str | None = None
    no_preserving: frozenset[str] = field(default_factory=frozenset)
    campaign_only: bool = False
    #: files of a folder the reader does not read (Argilla's dataset.json): no must-refuse mutation on them.
    unread: tuple[str, ...] = ()
    #: the parts of a spreadsheet that hold the cells the command reads (default :data:`_CELL_MEMBERS`): a
    #: truncated sheet the command does not read is not held to must-refuse.
    parts: tuple[str, ...] = ()

    @property
    def json(self) -> bool:
        return "--json" in self.argv


def _t(kind: str, files: tuple[str, ...], argv: str, mutate: str | None = None, **kw: Any) -> Target:
    mutate = mutate or Path(files[0].removeprefix("derived:")).name
    import shlex

    args = tuple(shlex.split(argv))
    tool = args[args.index("--from") + 1] if "--from" in args else None
    return Target(kind, files, args, mutate, tool=tool, **kw)


TARGETS: tuple[Target, ...] = (
    # plain tables
    _t("csv-long", (f"{EX}/labels.csv",), "agree {d}/labels.csv --coefficient all --json",
       cols=("unit", "coder", "value")),
    _t("csv-ratings", (f"{EX}/ratings.csv",), "agree {d}/ratings.csv --unit item --coder rater --value score "
       "--distance interval --json", cols=("item", "rater")),
    _t("csv-sets", (f"{EX}/sets.csv",), "agree {d}/sets.csv --distance masi-2006 --json", cols=("unit", "coder")),
    _t("csv-wide", (f"{EX}/sheet.csv",), "agree {d}/sheet.csv --layout wide --unit item --json",
       cols=("item", "ann1", "ann2", "ann3"), header=("ann1", "ann2", "ann3")),
    _t("csv-ordinal", (f"{EX}/difficulty.csv",), "agree {d}/difficulty.csv --distance ordinal --order "
       "'Very Easy,Easy,Neutral,Difficult,Very Difficult' --json", cols=("unit", "coder")),
    _t("tsv-long", ("derived:labels.tsv",), "agree {d}/labels.tsv --json", cols=("unit", "coder", "value")),
    _t("jsonl-long", ("derived:labels.jsonl",), "agree {d}/labels.jsonl --json",
       keys=frozenset({"unit", "coder", "value"})),
    _t("parquet", (f"{EX}/engines/data/part-0.parquet",), "agree {d}/part-0.parquet --json",
       cols=("unit", "coder", "value")),
    _t("xlsx-long", (f"{IMP}/round1.xlsx",), "agree {d}/round1.xlsx --sheet long --value label --json",
       cols=("unit", "coder", "label"), sheet="long", parts=("xl/worksheets/sheet1.xml", "xl/workbook.xml")),
    _t("xlsx-wide", (f"{IMP}/round1.xlsx",), "agree {d}/round1.xlsx --sheet scores --layout wide --unit item "
       "--distance interval --json", cols=("item",), header=("ann", "bob"), sheet="scores",
       parts=("xl/worksheets/sheet2.xml", "xl/workbook.xml")),
    # refused whole (formula cells saved without their values): the damaging mutations only
    _t("xlsx-formulas", (f"{IMP}/computed.xlsx",), "agree {d}/computed.xlsx --json", no_preserving=frozenset(
        m.removeprefix("zip-member-") for m in ("line-endings", "json-reformat", "row-order", "csv-requote", "pad",
                                                "recompress"))),
    _t("ods", (f"{IMP}/round1.ods",), "agree {d}/round1.ods --from spreadsheet --sheet 1 --layout wide --unit item "
       "--json", sheet="1"),
    _t("confusion", (f"{DS}/gwet2014_abstractors.csv",), "agree {d}/gwet2014_abstractors.csv --confusion "
       "--coefficient all --json", cols=("A \\ B",), header=("Ectopic", "AIU", "NIU")),
    _t("multilabel", (f"{DS}/multilabel_example.csv",), "multilabel {d}/multilabel_example.csv --json",
       cols=("item", "annotator", "labels")),
    _t("significance", (f"{EX}/scores.csv",), "significance {d}/scores.csv --system peer --docset docset "
       "--annotation annotator --score modified --json", cols=("peer", "docset", "annotator")),
    _t("alt-test", (f"{EX}/reviews-with-models.csv",), "alt-test {d}/reviews-with-models.csv --unit item --layout wide "
       "--models gpt-4o,small-llm --epsilon 0.2 --json",
       cols=("item", "ana", "ben", "chloe", "dev", "gpt-4o", "small-llm")),
    _t("gold", (f"{EX}/noise/ann.csv",), "gold {d}/ann.csv --unit item --coder annotator --value label "
       "--out {d}/gold-out.csv --force", cols=("item", "annotator", "label")),
    # annotation tools
    _t("label-studio-json", (f"{IMP}/export.json",),
       "agree {d}/export.json --from label-studio --field sentiment --json"),
    _t("label-studio-spans", (f"{TD}/importers/labelstudio/export.json",),
       "spans {d}/export.json --from label-studio --field ner --json"),
    _t("label-studio-min", (f"{TD}/importers/labelstudio/export_min.json",),
       "agree {d}/export_min.json --from label-studio --field sentiment --json"),
    _t("label-studio-project", (f"{IMP}/project.json",), "agree {d}/project.json --json"),
    _t("prodigy-choice", (f"{IMP}/choice.jsonl",), "agree {d}/choice.jsonl --from prodigy --json"),
    _t("prodigy-ner", (f"{TD}/importers/prodigy/ner.jsonl",), "spans {d}/ner.jsonl --from prodigy --json"),
    _t("prodigy-binary", (f"{TD}/importers/prodigy/binary.jsonl",), "agree {d}/binary.jsonl --from prodigy --json"),
    _t("doccano-zip", (f"{IMP}/doccano.zip",), "spans {d}/doccano.zip --from doccano --json"),
    _t("doccano-cls", (f"{TD}/importers/doccano/cls",), "agree {d}/cls --from doccano --json"),
    _t("argilla", (f"{IMP}/dataset",), "agree {d}/dataset --from argilla --field sentiment --json",
       keys=frozenset({"user_id", "value"}), unread=("dataset.json",)),
    _t("argilla-flat", (f"{TD}/importers/argilla/records_flat.jsonl",),
       "agree {d}/records_flat.jsonl --from argilla --field sentiment --json",
       keys=frozenset({"sentiment.responses", "sentiment.responses.users"})),
    _t("mturk", (f"{IMP}/Batch_123_batch_results.csv",), "agree {d}/Batch_123_batch_results.csv --from mturk "
       "--field sentiment --json", cols=("HITId", "WorkerId", "Answer.sentiment")),
    _t("crowd-csv", (f"{EX}/noise/ann.csv",), "agree {d}/ann.csv --from csv --option unit=item "
       "--option coder=annotator --option value=label --json", cols=("item", "annotator", "label")),
    _t("inception-zip", (f"{IMP}/project.zip",), "spans {d}/project.zip --from inception --field NamedEntity --json"),
    _t("inception-import", (f"{IMP}/project.zip",), "import {d}/project.zip --from inception --field NamedEntity "
       "-o {d}/out.csv --force"),
    _t("inception-diagnosis", (f"{IMP}/emiles-project-diff.csv",), "agree {d}/emiles-project-diff.csv --json",
       cols=("Ana Lúcia", "bob", "carla"), header=("Ana Lúcia", "bob", "carla")),
    _t("inception-folder", ("derived:project",), "spans {d}/project --from inception --field NamedEntity --json"),
    _t("inception-tsv", ("derived:alice.tsv",), "import {d}/alice.tsv --from inception --field NamedEntity "
       "-o {d}/out.csv --force"),
    _t("doccano-ner", (f"{TD}/importers/doccano/ner",), "spans {d}/ner --from doccano --json"),
    _t("brat", (f"{IMP}/round1",), "spans {d}/round1 --from brat --json"),
    # coreference
    _t("coref-conll", (f"{EX}/coreference/ann1.conll", f"{EX}/coreference/ann2.conll", f"{EX}/coreference/gold.conll"),
       "coref {d}/ann1.conll {d}/ann2.conll --distance set-relation --key {d}/gold.conll --json"),
    _t("coref-conll-key", (f"{EX}/coreference/ann2.conll", f"{EX}/coreference/gold.conll"),
       "coref {d}/ann2.conll --key {d}/gold.conll --json", mutate="gold.conll"),
    _t("coref-conllu", (f"{EX}/coreference/ann1.conllu", f"{EX}/coreference/ann2.conllu"),
       "coref {d}/ann1.conllu {d}/ann2.conllu --json"),
    _t("coref-brat", (f"{EX}/coreference/annA", f"{EX}/coreference/annB"), "coref {d}/annA {d}/annB --json",
       mutate="annA"),
    _t("coref-brat-ann", (f"{TD}/coref/ann1.ann", f"{TD}/coref/ann2.ann"), "coref {d}/ann1.ann {d}/ann2.ann --json"),
    _t("coref-jsonl", (f"{TD}/coref/ann1.jsonl", f"{TD}/coref/ann2.jsonl"),
       "coref {d}/ann1.jsonl {d}/ann2.jsonl --json",
       keys=frozenset({"doc_key"})),
    _t("coref-csv", (f"{EX}/coreference/all.csv",), "coref {d}/all.csv --json",
       cols=("document", "mention", "coder", "chain")),
    # spans and pyramids
    _t("spans-table", (f"{EX}/spans/spans.csv", f"{EX}/spans/docs"), "spans {d}/spans.csv --texts {d}/docs --json",
       cols=("document", "coder", "label")),
    _t("pyramid-show", (f"{EX}/pyramid/small.pyr",), "pyramid show {d}/small.pyr --json"),
    _t("pyramid-score", (f"{TD}/pyramid/duc07.pyr", f"{TD}/pyramid/duc07_peer1.pan", f"{TD}/pyramid/duc07_peer2.pan"),
       "pyramid score {d}/duc07.pyr {d}/duc07_peer1.pan {d}/duc07_peer2.pan --convention nist-duc --json",
       mutate="duc07_peer1.pan"),
    _t("pyramid-score-pyr", (f"{EX}/pyramid/small.pyr", f"{EX}/pyramid/small_peer.pan"),
       "pyramid score {d}/small.pyr {d}/small_peer.pan --json"),
    _t("pyramid-agree", (f"{TD}/pyramid/duc07.pyr", "derived:duc07-copy.pyr"),
       "pyramid agree {d}/duc07.pyr {d}/duc07-copy.pyr --json"),
    # the HTML report reads through the same readers; a second a run, so the campaign's only
    _t("report", (f"{EX}/labels.csv",), "report {d}/labels.csv -o {d}/report.html", cols=("unit", "coder", "value"),
       campaign_only=True),
    _t("pyramid-agree-peers", (f"{TD}/pyramid/small_peer.pan", f"{TD}/pyramid/uid0_unmarked.pan"),
       "pyramid agree-peers {d}/small_peer.pan {d}/uid0_unmarked.pan --json"),
)

TARGET_BY_KIND = {t.kind: t for t in TARGETS}


# --- fixtures ---------------------------------------------------------------------------------------------


def _derive(name: str, dest: Path) -> None:
    """The fixtures made from a bundled one: the TSV and JSONL forms of labels.csv, a copy of a pyramid."""
    if name == "labels.tsv":
        dest.write_text((ROOT / EX / "labels.csv").read_text(encoding="utf-8").replace(",", "\t"), encoding="utf-8")
    elif name == "labels.jsonl":
        lines = (ROOT / EX / "labels.csv").read_text(encoding="utf-8").splitlines()
        head = lines[0].split(",")
        dest.write_text("".join(json.dumps(dict(zip(head, ln.split(","), strict=True))) + "\n" for ln in lines[1:]),
                        encoding="utf-8")
    elif name == "duc07-copy.pyr":
        shutil.copyfile(ROOT / TD / "pyramid" / "duc07.pyr", dest)
    elif name == "project":  # the INCEpTION export unpacked, as the reader also takes it
        with zipfile.ZipFile(ROOT / IMP / "project.zip") as z:
            z.extractall(dest)
    elif name == "alice.tsv":  # one WebAnno TSV 3 file of that export
        with zipfile.ZipFile(ROOT / IMP / "project.zip") as z:
            dest.write_bytes(z.read("annotation/doc1.txt/alice.tsv"))
    else:  # pragma: no cover - a TARGETS entry out of step
        raise KeyError(name)


def materialize(target: Target, workdir: Path) -> Path:
    """Copy *target*'s fixtures into *workdir* (empty or new); return the path the mutations change."""
    workdir.mkdir(parents=True, exist_ok=True)
    for f in target.files:
        if f.startswith("derived:"):
            name = f.removeprefix("derived:")
            _derive(name, workdir / name)
            continue
        src = ROOT / f
        if src.is_dir():
            shutil.copytree(src, workdir / src.name)
        else:
            shutil.copyfile(src, workdir / src.name)
    return workdir / target.mutate


def argv_of(target: Target, workdir: Path, extra: tuple[str, ...] = ()) -> list[str]:
    return [a.replace("{d}", str(workdir)) for a in target.argv] + list(extra)



# --- the catalogue ----------------------------------------------------------------------------------------

#: damaging mutations of a file's bytes (zip kinds add the member mutations below).
DAMAGING: dict[str, Callable[[bytes, random.Random], tuple[bytes, str]]] = {
    "flip": flip_bytes,
    "truncate": truncate,
    "delete-line": delete_line,
    "duplicate-line": duplicate_line,
    "json-type": swap_json_type,
    "json-drop-key": drop_json_key,
    "huge-number": huge_number,
    "long-cell": long_cell,
    "inflate": inflate,
    "unicode": unicode_trap,
    "zip-structure": zip_structure,
    "zip-member-flip": zip_member(flip_bytes),
    "zip-member-truncate": zip_member(truncate),
    "zip-member-lines": zip_member(lambda d, r: (delete_line if r.random() < 0.5 else duplicate_line)(d, r)),
    "zip-member-json-type": zip_member(swap_json_type),
    "zip-member-huge-number": zip_member(huge_number),
    "zip-member-inflate": zip_member(inflate),
    "zip-member-unicode": zip_member(unicode_trap),
}

#: meaning-preserving mutations (the numbers of ``--json`` must not change).
PRESERVING = ("line-endings", "json-reformat", "row-order", "csv-requote", "pad", "id-form", "recompress",
              "zip-member-line-endings", "zip-member-json-reformat", "zip-member-row-order", "zip-member-pad",
              "zip-member-id-form")

#: the wrong ``--from``: the file left intact.
WRONG_FROM = "wrong-from"

#: damage no reader can take as the whole file: a success is a silent partial read.
MUST_REFUSE: dict[str, Callable[..., tuple[bytes, str]]] = {
    "truncate-structured": truncate_structured,
    "drop-token": drop_token,
    "repeat-header": repeat_header,
}

MUTATIONS = tuple(DAMAGING) + tuple(MUST_REFUSE) + PRESERVING + (WRONG_FROM,)

TOOLS = ("label-studio", "prodigy", "inception", "inception-agreement", "doccano", "brat", "argilla", "mturk", "csv",
         "spreadsheet")


@dataclass
class Mutant:
    """A mutated copy of a target in *workdir*: what changed, and the argv to run."""

    target: Target
    mutation: str
    seed: int
    workdir: Path
    argv: list[str]
    detail: str
    file: str
    size: int

    @property
    def preserving(self) -> bool:
        return self.mutation in PRESERVING

    @property
    def must_refuse(self) -> bool:
        return self.mutation in MUST_REFUSE


def _candidates(path: Path, rng: random.Random, mutation: str, unread: tuple[str, ...] = ()) -> list[Path]:
    """The file to mutate, or a folder's files in a random order (a damaging mutation takes the first; another
    takes the first it applies to)."""
    if not path.is_dir():
        return [path]
    files = sorted(p for p in path.rglob("*") if p.is_file())
    if mutation in PRESERVING:
        # offsets point into a brat .txt and a span table's documents: only what holds annotations is re-written
        files = [p for p in files if p.suffix != ".txt"] or files
    if mutation in MUST_REFUSE:
        files = [p for p in files if p.name not in unread]
    rng.shuffle(files)
    return files if mutation in PRESERVING or mutation in MUST_REFUSE else files[:1]


def _preserving(mutation: str, data: bytes, rng: random.Random, name: str, target: Target) -> tuple[bytes, str]:
    if mutation.startswith("zip-member-"):
        inner = mutation.removeprefix("zip-member-")
        if not _is_zip(data) or name.endswith((".xlsx", ".ods")):
            raise NotApplicable
        members = _members(data)
        # a JSON, JSON lines or CSV member (an INCEpTION .tsv is WebAnno TSV 3, not a table: its lines are text)
        files = [k for k, (i, _) in enumerate(members) if not i.is_dir() and i.filename.endswith(
            (".json", ".jsonl", ".csv"))]
        rng.shuffle(files)
        for k in files:
            info, content = members[k]
            try:
                new, what = _preserving(inner, content, rng, info.filename, target)
            except NotApplicable:
                continue
            members[k] = (info, new)
            return _rezip(members), f"member {info.filename}: {what}"
        raise NotApplicable
    if name.endswith(".parquet"):
        if mutation == "row-order":
            return parquet_rewrite(data, rng, target=target)
        if mutation == "pad":
            return parquet_rewrite(data, rng, target=target, pad=True)
        raise NotApplicable
    if name.endswith(".xlsx"):
        if mutation == "pad":
            return pad_xlsx(data, rng, target=target)
        if mutation == "recompress":
            return recompress(data, rng)
        raise NotApplicable
    if name.endswith(".ods"):
        if mutation == "pad":
            return pad_ods(data, rng, target=target)
        if mutation == "recompress":
            return recompress(data, rng)
        raise NotApplicable
    if mutation == "line-endings":
        if name.endswith(".txt") or _is_zip(data):
            raise NotApplicable
        return line_endings(data, rng)
    if mutation == "json-reformat":
        if not name.endswith((".json", ".jsonl")):
            raise NotApplicable
        return json_reformat(data, rng)
    if mutation == "row-order":
        return row_order(data, rng, name=name)
    if mutation == "csv-requote":
        return csv_requote(data, rng, name=name)
    if mutation == "pad":
        return pad_cells(data, rng, name=name, target=target)
    if mutation == "id-form":
        return id_form(data, rng, name=name, target=target)
    if mutation == "recompress":
        return recompress(data, rng)
    raise NotApplicable


def _apply(mutation: str, data: bytes, rng: random.Random, f: Path, target: Target) -> tuple[bytes, str]:
    if mutation in PRESERVING:
        return _preserving(mutation, data, rng, f.name, target)
    if mutation in MUST_REFUSE:
        return MUST_REFUSE[mutation](data, rng, name=f.name, target=target)
    if mutation.startswith("zip-") and not _is_zip(data):
        raise NotApplicable
    if f.suffix == ".parquet" and mutation not in ("flip", "truncate"):
        raise NotApplicable
    return DAMAGING[mutation](data, rng)


def mutate(target: Target, mutation: str, seed: int, workdir: Path) -> Mutant:
    """Copy *target*'s fixtures into *workdir* (which must not exist or be empty) and apply *mutation* with
    ``random.Random(seed)``; :class:`NotApplicable` when the mutation has nothing to change in that file."""
    rng = random.Random(f"{target.kind}/{mutation}/{seed}")
    if mutation in PRESERVING and mutation.removeprefix("zip-member-") in target.no_preserving:
        raise NotApplicable
    path = materialize(target, workdir)
    extra: tuple[str, ...] = ()
    if mutation == WRONG_FROM:
        args = argv_of(target, workdir)
        wrong = rng.choice([t for t in TOOLS if t != target.tool])
        if args[0] in ("agree", "spans", "import"):
            if "--from" in args:
                i = args.index("--from")
                args[i + 1] = wrong
            else:
                args += ["--from", wrong]
            detail = f"--from {wrong}"
        elif args[0] == "coref":
            own = Path(target.mutate).suffix
            fmt = rng.choice([f for f in ("conll", "brat", "jsonl", "csv", "corefud") if f not in own])
            args += ["--format", fmt]
            detail = f"--format {fmt}"
        else:
            raise NotApplicable
        return Mutant(target, mutation, seed, workdir, args, detail, target.mutate, _size(path))
    for f in _candidates(path, rng, mutation, target.unread):
        data = f.read_bytes()
        try:
            new, detail = _apply(mutation, data, rng, f, target)
        except NotApplicable:
            continue
        if new != data:
            break
    else:
        raise NotApplicable
    f.write_bytes(new)
    rel = str(f.relative_to(workdir))
    return Mutant(target, mutation, seed, workdir, argv_of(target, workdir, extra), detail, rel, _size(path))


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


# --- running the CLI in process ---------------------------------------------------------------------------


class RunTimeout(BaseException):
    """Raised by the alarm when a run passes its hard limit (a BaseException: ``except Exception`` lets it by)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`RunTimeout` in the main thread after *seconds* (no limit off the main thread or without
    SIGALRM)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise RunTimeout

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Run:
    exit_code: int | None
    stdout: str
    stderr: str
    exception: BaseException | None
    tb: str
    seconds: float
    cpu: float = 0.0
    timed_out: bool = False


def run_cli(argv: list[str], *, limit: float = HARD_LIMIT) -> Run:
    """Run ``accord ARGV`` in process under *limit* seconds."""
    import traceback
    import warnings

    from typer.testing import CliRunner

    from accord.cli import _common, _show_warning, app

    _common._warned.clear()  # the once-per-run warnings: each in-process run starts as a fresh process would
    runner = CliRunner()
    t0, c0 = time.perf_counter(), time.process_time()
    old_show = warnings.showwarning
    warnings.showwarning = _show_warning  # as accord.cli.main does
    try:
        with time_limit(limit), warnings.catch_warnings():
            warnings.simplefilter("default")
            res = runner.invoke(app, argv)
    except RunTimeout:
        return Run(None, "", "", None, "", time.perf_counter() - t0, time.process_time() - c0, timed_out=True)
    finally:
        warnings.showwarning = old_show
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    exc = res.exception
    tb = ""
    if exc is not None and not isinstance(exc, SystemExit) and res.exc_info is not None:
        tb = "".join(traceback.format_exception(*res.exc_info))
    return Run(res.exit_code, res.stdout, res.stderr, exc, tb, dt, cpu)


#: what a run came to. The first four are fine; the rest are failures.
OUTCOMES = ("refusal", "success", "same-numbers",
            "traceback", "slow", "timeout", "bad-refusal", "bad-json", "numbers-changed", "refused-preserving",
            "read-damaged")
FAILURES = frozenset(OUTCOMES[3:])


def numbers(obj: Any, path: str = "") -> list[tuple[str, float]]:
    """The numbers of a ``--json`` output (booleans excluded) with their key paths (list indices dropped: row
    order may change a list's order), outside the import report and line numbers; sorted."""
    out: list[tuple[str, float]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in _NOT_RESULTS:
                continue
            out += numbers(v, f"{path}/{k}")
    elif isinstance(obj, list):
        for v in obj:
            out += numbers(v, path + "/[]")
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        out.append((path, float(obj)))
    return sorted(out, key=lambda kv: (kv[0], math.isnan(kv[1]), kv[1]))


def same_numbers(a: list[tuple[str, float]], b: list[tuple[str, float]]) -> bool:
    """Equal key paths and values; values equal up to 1e-9 relative (the last bits of a float sum taken in
    another order), NaN equal to NaN."""
    if len(a) != len(b):
        return False
    for (pa, va), (pb, vb) in zip(a, b, strict=True):
        if pa != pb:
            return False
        if math.isnan(va) or math.isnan(vb):
            if not (math.isnan(va) and math.isnan(vb)):
                return False
        elif not math.isclose(va, vb, rel_tol=1e-9, abs_tol=1e-12):
            return False
    return True


def first_difference(a: list[tuple[str, float]], b: list[tuple[str, float]]) -> str:
    da, db = dict(a), dict(b)
    for k in sorted(set(da) | set(db)):
        if k not in da or k not in db or not same_numbers([(k, da[k])], [(k, db[k])]):
            return f"{k}: {da.get(k)} -> {db.get(k)}"
    return f"{len(a)} numbers -> {len(b)}"


@dataclass
class Outcome:
    outcome: str
    detail: str
    seconds: float


def _refusal_ok(run: Run) -> bool:
    lines = run.stderr.splitlines()
    errors = [ln for ln in lines if ln.startswith("accord: error: ")]
    return (run.exit_code == 2 and len(errors) == 1 and bool(lines) and lines[-1] == errors[0]
            and "Traceback" not in run.stderr and not run.stdout.strip())


def first_tb_line(run: Run) -> str:
    """The exception and the innermost accord frame (file:function) of a traceback."""
    import traceback

    exc = run.exception
    if exc is None:
        return ""
    where = ""
    tb = exc.__traceback__
    for fr in traceback.extract_tb(tb):
        if "/accord/" in fr.filename and "/accord/cli/__init__" not in fr.filename:
            where = f"{fr.filename.split('/src/')[-1]}:{fr.lineno}:{fr.name}"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:200]} @ {where}"


def classify(run: Run, *, size: int, json_out: bool, preserving: bool = False, must_refuse: bool = False,
             intact: list[tuple[str, float]] | None = None) -> Outcome:
    """What *run* came to (one of :data:`OUTCOMES`); *intact* is the intact file's :func:`numbers` (``None``:
    the command has no ``--json``; the intact file is always read)."""
    if run.timed_out:
        return Outcome("timeout", f"stopped after {run.seconds:.1f} s", run.seconds)
    if run.tb:
        return Outcome("traceback", first_tb_line(run), run.seconds)
    if run.cpu > SLOW_SECONDS and size < SMALL_INPUT:
        return Outcome("slow", f"{run.cpu:.1f} s of CPU ({run.seconds:.1f} s) on {size:,} bytes", run.seconds)
    if run.exit_code == 0:
        if must_refuse:
            return Outcome("read-damaged", "exit 0 on a file that cannot be read whole", run.seconds)
        if json_out:
            try:
                out = json.loads(run.stdout)
            except ValueError:
                return Outcome("bad-json", f"stdout is not one JSON object: {run.stdout[:120]!r}", run.seconds)
            if preserving and intact is not None:
                got = numbers(out)
                if not same_numbers(intact, got):
                    return Outcome("numbers-changed", first_difference(intact, got), run.seconds)
                return Outcome("same-numbers", "", run.seconds)
        return Outcome("success", "", run.seconds)
    if _refusal_ok(run):
        msg = run.stderr.splitlines()[-1]
        return Outcome("refused-preserving" if preserving else "refusal", msg, run.seconds)
    return Outcome("bad-refusal", f"exit {run.exit_code}: {(run.stderr or run.stdout).strip()[-200:]!r}", run.seconds)


_INTACT: dict[str, list[tuple[str, float]] | None] = {}


def intact_numbers(target: Target, tmp: Path) -> list[tuple[str, float]] | None:
    """The numbers of *target*'s intact fixture (cached per process; ``None`` if it is refused or has no JSON)."""
    if target.kind not in _INTACT:
        wd = tmp / f"intact-{target.kind}"
        shutil.rmtree(wd, ignore_errors=True)
        materialize(target, wd)
        run = run_cli(argv_of(target, wd))
        nums = None
        if run.exit_code == 0 and target.json:
            nums = numbers(json.loads(run.stdout))
        elif run.exit_code != 0:
            raise AssertionError(f"{target.kind}: the intact fixture fails: {run.stderr or run.tb}")
        _INTACT[target.kind] = nums
        shutil.rmtree(wd, ignore_errors=True)
    return _INTACT[target.kind]


def run_mutant(target: Target, mutation: str, seed: int, workdir: Path, *, limit: float = HARD_LIMIT) -> tuple[
        Mutant, Outcome] | None:
    """Mutate, run and classify one case; ``None`` when the mutation does not apply to the target's file."""
    shutil.rmtree(workdir, ignore_errors=True)
    try:
        m = mutate(target, mutation, seed, workdir)
    except NotApplicable:
        shutil.rmtree(workdir, ignore_errors=True)
        return None
    intact = intact_numbers(target, workdir.parent) if mutation in PRESERVING else None
    cwd = os.getcwd()
    try:
        os.chdir(workdir)  # a command that writes (gold --out, import -o) writes here
        run = run_cli(m.argv, limit=limit)
    finally:
        os.chdir(cwd)
    out = classify(run, size=m.size, json_out=target.json, preserving=m.preserving, must_refuse=m.must_refuse,
                   intact=intact)
    return m, out


def command_line(m: Mutant) -> str:
    """The mutant's command as a person types it (paths relative to its folder)."""
    import shlex

    wd = str(m.workdir)
    return "accord " + " ".join(shlex.quote(a.replace(wd + "/", "").replace(wd, ".")) for a in m.argv)


def applies(target: Target, mutation: str, tmp: Path, seeds: int = 8) -> bool:
    """Whether *mutation* changes something in *target*'s file for one of the first *seeds* seeds."""
    for seed in range(seeds):
        wd = tmp / f"applies-{target.kind}-{mutation}-{seed}"
        try:
            mutate(target, mutation, seed, wd)
            return True
        except NotApplicable:
            continue
        finally:
            shutil.rmtree(wd, ignore_errors=True)
    return False


def strategy(mutations: tuple[str, ...]) -> Any:
    """Hypothesis: a (mutation, seed) pair, the mutation one of *mutations*."""
    from hypothesis import strategies as st

    return st.tuples(st.sampled_from(mutations), st.integers(min_value=0, max_value=2**31 - 1))
