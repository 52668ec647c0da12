"""Property test: a random INCEpTION project export reads back to the spans and cell states it holds.

For every (document, annotator) the test draws a document state as INCEpTION's ``exportedproject.json``
writes it (``NEW``, ``IN_PROGRESS``, ``FINISHED``, ``IGNORE``, or no annotation document) and random
spans, single- and multi-token, overlapping (stacked), and writes the export as INCEpTION does: a
WebAnno TSV 3.3 file ``annotation/<document>/<user>.tsv`` for each annotation document that is not
``NEW`` (a locked one with or without a file), with emoji before the spans so that the UTF-16 offsets
are re-anchored on every draw.  Follows the pattern of ``test_importers_property.py``.
"""

from __future__ import annotations

import json
import zipfile
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from accord.importers import _inception as inception

USERS = ("ann", "bob", "cy")
LABELS = ("PER", "LOC", "Orté")
STATES = ("absent", "NEW", "IN_PROGRESS", "FINISHED", "IGNORE")
WORDS = 6

span = st.tuples(st.integers(0, WORDS - 1), st.integers(1, 3), st.sampled_from(LABELS))
cell = st.tuples(st.sampled_from(STATES), st.booleans(), st.sets(span, max_size=4))
exports = st.tuples(
    st.lists(st.lists(cell, min_size=len(USERS), max_size=len(USERS)), min_size=1, max_size=5),
    st.booleans(),  # zipped
    st.sampled_from(("read", "skip")),
)


def _tokens(i: int) -> list[str]:
    """A sentence: a number, emoji (a flag is two characters outside the BMP), é, then the words spans cover."""
    return [str(i), "\N{GRINNING FACE}\U0001F1EB\U0001F1F7", "é"] + [f"w{k}" for k in range(WORDS)] + ["."]


def _tsv(i: int, spans: set[tuple[int, int, str]]) -> tuple[str, dict[tuple[int, int, str], tuple[int, int]]]:
    """The WebAnno TSV 3.3 file of document *i* with *spans*, and each span's code-point offsets."""
    toks = _tokens(i)
    text = " ".join(toks)
    cp, u16, offsets = 0, 0, []
    for t in toks:
        n16 = len(t.encode("utf-16-le")) // 2
        offsets.append(((cp, cp + len(t)), (u16, u16 + n16)))
        cp, u16 = cp + len(t) + 1, u16 + n16 + 1
    cells: list[list[str]] = [[] for _ in toks]
    where = {}
    for n, (first, length, label) in enumerate(sorted(spans), start=1):
        a = 3 + first
        b = min(a + length, 3 + WORDS)  # token range [a, b)
        for k in range(a, b):
            cells[k].append(f"{label}[{n}]" if b - a > 1 else label)
        where[(first, length, label)] = (offsets[a][0][0], offsets[b - 1][0][1])
    lines = ["#FORMAT=WebAnno TSV 3.3", "#T_SP=webanno.custom.Entity|value", "", "", f"#Text={text}"]
    for k, t in enumerate(toks):
        (_, (b16, e16)) = offsets[k]
        lines.append(f"1-{k + 1}\t{b16}-{e16}\t{t}\t{'|'.join(cells[k]) or '_'}")
    return "\n".join(lines) + "\n", where


@settings(max_examples=120)
@given(exports)
def test_inception_round_trip(tmp_path_factory, drawn):
    rows, zipped, in_progress = drawn
    files: dict[str, str] = {}
    entries, expected_spans = [], set()
    counts = {u: Counter() for u in USERS}
    for i, row in enumerate(rows):
        doc = f"doc{i}.txt"
        for user, (state, locked_file, spans) in zip(USERS, row, strict=True):
            if state != "absent":
                entries.append({"name": doc, "user": user, "state": state})
            has_file = state in ("IN_PROGRESS", "FINISHED") or (state == "IGNORE" and locked_file)
            tsv, where = _tsv(i, spans)
            if has_file:
                files[f"annotation/{doc}/{user}.tsv"] = tsv
            if state == "IGNORE" or (state == "IN_PROGRESS" and in_progress == "skip"):
                counts[user]["skipped"] += 1
            elif state in ("IN_PROGRESS", "FINISHED"):
                counts[user]["annotated" if spans else "empty"] += 1
                expected_spans |= {(doc, user, *where[s], s[2]) for s in spans}
            else:
                counts[user]["unassigned"] += 1
    assume(files)
    project = {"name": "p", "mode": "annotation", "version": 1,
               "source_documents": [{"name": f"doc{i}.txt", "format": "text", "state": "ANNOTATION_IN_PROGRESS"}
                                    for i in range(len(rows))],
               "annotation_documents": entries}
    files["exportedproject.json"] = json.dumps(project, indent=2)
    base = tmp_path_factory.mktemp("inception")
    if zipped:
        target = base / "project.zip"
        with zipfile.ZipFile(target, "w") as z:
            for name, content in files.items():
                z.writestr(name, content)
    else:
        target = base / "project"
        for name, content in files.items():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_text(content, encoding="utf-8")
    imp = inception.read(target, in_progress=in_progress)
    assert imp.report.n_items == len(rows)
    for user in USERS:
        want = {s: counts[user][s] for s in ("annotated", "empty", "skipped", "unassigned")}
        got = imp.report.counts.get(user)
        if got is None:  # neither an annotation document nor a file: not known to the export
            assert want["unassigned"] == len(rows)
        else:
            assert got == want
    got_spans = {(s.document, s.coder, s.start, s.end, s.label) for s in imp.spans.spans}
    assert got_spans == expected_spans
    for doc, _, start, end, _ in got_spans:
        assert imp.spans.texts[doc][start:end].startswith("w")
    assert imp.report.dropped == ()
