"""Property tests: random exports written in each tool's schema read back to the states and values they hold.

For every (item, annotator) the test draws one of the four states (a value, nothing chosen, skipped or
cancelled, never assigned), writes the export as the tool would (Label Studio JSON, Prodigy db-out,
Argilla 2.x records, doccano per-user JSONL), and checks the report's counts and the values read, cell by
cell.  Texts carry emoji and other characters outside the BMP before the spans, so the UTF-16 re-anchoring
is exercised on every draw.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from accord.importers import _argilla as argilla
from accord.importers import _doccano as doccano
from accord.importers import _labelstudio as labelstudio
from accord.importers import _prodigy as prodigy

CODERS = ("ann", "bob", "cy")
LABELS = ("A", "B", "C")
STATES = ("annotated", "empty", "skipped", "unassigned")

cells = st.lists(
    st.tuples(st.sampled_from(STATES), st.sampled_from(LABELS), st.integers(0, 3)), min_size=3, max_size=3
)
exports = st.lists(cells, min_size=1, max_size=8)


def _some_value(drawn) -> bool:
    """An export where nobody gave a value has no control or question to read (an error, tested elsewhere)."""
    return any(state == "annotated" for row in drawn for state, _, _ in row)


def _text(i: int) -> tuple[str, int, int]:
    """A text with emoji before a four-letter word; the word's code-point start and UTF-16 start."""
    prefix = f"{i} \N{GRINNING FACE}\U0001F1EB\U0001F1F7 é "
    return prefix + "Word and more", len(prefix), len(prefix.encode("utf-16-le")) // 2


def _expected(drawn, skip_ok: bool = True, listed_only: bool = False):
    """Counts per coder and values per (item, coder); *listed_only*: only items some annotator has a task for
    (a Prodigy export holds no trace of an input nobody was given)."""
    counts = {c: Counter() for c in CODERS}
    values = {}
    for i, row in enumerate(drawn):
        if listed_only and all(state == "unassigned" for state, _, _ in row):
            continue
        for c, (state, label, _) in zip(CODERS, row, strict=True):
            if state == "skipped" and not skip_ok:
                state = "unassigned"
            counts[c][state] += 1
            if state == "annotated":
                values[(i, c)] = label
    return {c: {s: counts[c][s] for s in STATES} for c in CODERS}, values


@settings(max_examples=150)
@given(exports)
def test_label_studio_round_trip(tmp_path_factory, drawn):
    assume(_some_value(drawn))
    tasks = []
    for i, row in enumerate(drawn):
        text, _, s16 = _text(i)
        anns = []
        for c, (state, label, _) in zip(CODERS, row, strict=True):
            if state == "unassigned":
                continue
            result = []
            if state == "annotated":
                result = [
                    {"from_name": "cls", "to_name": "text", "type": "choices", "value": {"choices": [label]}},
                    {"from_name": "ner", "to_name": "text", "type": "labels",
                     "value": {"start": s16, "end": s16 + 4, "text": "Word", "labels": [label]}},
                ]
            anns.append({"completed_by": {"id": CODERS.index(c), "email": c}, "was_cancelled": state == "skipped",
                         "result": result})
        tasks.append({"id": i, "data": {"text": text}, "annotations": anns})
    f = tmp_path_factory.mktemp("ls") / "export.json"
    f.write_text(json.dumps(tasks, indent=2))
    counts, values = _expected(drawn)
    imp = labelstudio.read(f, field="cls", multiple=False)
    got = {c: imp.report.counts.get(c, dict.fromkeys(STATES, 0)) for c in CODERS}
    for c in CODERS:
        got[c]["unassigned"] = len(drawn) - sum(v for k, v in got[c].items() if k != "unassigned")
    assert got == counts
    if values:
        a = imp.annotations
        read = {(int(a.units[u]), str(a.coders[k])): a.values[v]
                for u, k, v in zip(a.unit_index, a.coder_index, a.value_index, strict=True)}
        assert read == values
    sp = labelstudio.read(f, field="ner")
    assert {(int(s.document), s.coder, s.label) for s in sp.spans.spans} == {(i, c, v) for (i, c), v in values.items()}
    assert all(sp.spans.texts[s.document][s.start:s.end] == "Word" for s in sp.spans.spans)


@settings(max_examples=150)
@given(exports)
def test_prodigy_round_trip(tmp_path_factory, drawn):
    assume(_some_value(drawn))
    lines = []
    for i, row in enumerate(drawn):
        text, start, _ = _text(i)
        for c, (state, label, _) in zip(CODERS, row, strict=True):
            if state == "unassigned":
                continue
            lines.append({
                "text": text, "_input_hash": i, "_task_hash": 1000 + i, "_view_id": "ner_manual",
                "answer": "ignore" if state == "skipped" else "accept", "_annotator_id": c,
                "spans": [{"start": start, "end": start + 4, "label": label}] if state == "annotated" else [],
            })
    f = tmp_path_factory.mktemp("pg") / "db.jsonl"
    f.write_text("\n".join(map(json.dumps, lines)) + "\n")
    counts, values = _expected(drawn, listed_only=True)
    imp = prodigy.read(f)
    for c in CODERS:
        got = imp.report.counts.get(c)
        if got is not None:
            assert got == counts[c]
        else:
            assert counts[c]["unassigned"] == imp.report.n_items
    assert {(int(s.document), s.coder, s.label) for s in imp.spans.spans} == {
        (i, c, v) for (i, c), v in values.items()}


@settings(max_examples=150)
@given(exports)
def test_argilla_round_trip(tmp_path_factory, drawn):
    assume(_some_value(drawn))
    records = []
    for i, row in enumerate(drawn):
        text, _, s16 = _text(i)
        resp = {"label": [], "places": [], "note": []}
        for c, (state, label, _) in zip(CODERS, row, strict=True):
            if state == "unassigned":
                continue
            status = "discarded" if state == "skipped" else "submitted"
            if state == "empty":  # submitted the record, answered only the text question
                resp["note"].append({"value": "seen", "user_id": c, "status": status})
                continue
            resp["label"].append({"value": label, "user_id": c, "status": status})
            resp["places"].append({"value": [{"label": label, "start": s16, "end": s16 + 4}], "user_id": c,
                                   "status": status})
        records.append({"id": f"r{i}", "fields": {"text": text}, "responses": {k: v for k, v in resp.items() if v}})
    f = tmp_path_factory.mktemp("ar") / "records.json"
    f.write_text(json.dumps(records))
    counts, values = _expected(drawn)
    for field in ("label", "places"):
        imp = argilla.read(f, field=field, question_type="label_selection" if field == "label" else "span")
        for c in CODERS:
            got = imp.report.counts.get(c)
            assert (got or {"unassigned": len(drawn)}) == (counts[c] if got else {"unassigned": len(drawn)})
    spans = argilla.read(f, field="places", question_type="span").spans
    assert {(s.document, s.coder, s.label) for s in spans.spans} == {(f"r{i}", c, v) for (i, c), v in values.items()}
    assert all(spans.texts[s.document][s.start:s.end] == "Word" for s in spans.spans)


@settings(max_examples=150)
@given(exports)
def test_doccano_round_trip(tmp_path_factory, drawn):
    assume(_some_value(drawn))
    folder = tmp_path_factory.mktemp("dc")
    for k, c in enumerate(CODERS):
        out = []
        for i, row in enumerate(drawn):
            state, label, _ = row[k]
            if state in ("unassigned", "skipped"):  # doccano has no skip: a skipped example is absent
                continue
            text, _, s16 = _text(i)
            out.append({"id": i, "text": text, "label": [[s16, s16 + 4, label]] if state == "annotated" else []})
        (folder / f"{c}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in out))
    counts, values = _expected(drawn, skip_ok=False)
    imp = doccano.read(folder)
    for c in CODERS:
        got = imp.report.counts[c]
        # items nobody's file holds are not in the export at all
        assert {k: got[k] for k in ("annotated", "empty", "skipped")} == {k: counts[c][k] for k in
                                                                         ("annotated", "empty", "skipped")}
    assert {(int(s.document), s.coder, s.label) for s in imp.spans.spans} == {
        (i, c, v) for (i, c), v in values.items()}
