"""Property tests: random brat folders and MTurk / generic crowd CSVs read back to the spans, values and states
they hold.

brat: documents whose texts put emoji, characters outside the BMP, combining marks, tabs, form feeds, U+2028
and line breaks before and inside the spans; for each (document, annotator) no file (*unassigned*), a file with
no ``T`` line (*empty*) or random spans (contiguous, discontinuous, overlapping, nested, the same stretch twice
with two labels), written as the standoff documentation (https://brat.nlplab.org/standoff.html) and brat's
server (``server/src/annotation.py``) describe them: character (code point) offsets, a span crossing a line
break split into fragments as brat's annotator does, the fragments' texts joined by a space, relations, events,
attributes, normalisations, notes and equivalences among the lines (each counted as dropped).

MTurk: batches of assignments (approved, submitted, rejected; answered, unanswered) written with the csv module,
every field quoted, with commas, quotes, newlines and non-ASCII text in the ``Input.*`` columns, the answer as
one ``Answer.<name>`` column, as crowd-classifier's ``Answer.<name>.label`` or as ``Answer.<name>.<option>``
booleans; the generic one-judgment-per-row table.
"""

from __future__ import annotations

import csv
import io
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from accord.importers import _brat as brat
from accord.importers import _crowd as crowd

CODERS = ("ann", "bob", "cy")
LABELS = ("PER", "LOC", "ORG")
STATES = ("annotated", "empty", "skipped", "unassigned")

# pieces of text: outside the BMP, combining marks (e + U+0301), a tab, a form feed, U+2028, NEL, ASCII
PIECES = ("Zoë", "e\u0301te\u0301", "\N{GRINNING FACE}", "\U0001F1EB\U0001F1F7", "\U0001D518nicode", "a\tb",
          "x\x0cy", "p\u2028q", "r\x85s", "word", "\u216b")
SEPS = (" ", " ", "\n", ", ")
OTHER_LINES = {
    "R": ("relation", "R{n}\tMeets Arg1:T1 Arg2:T2\n"),
    "E": ("event", "E{n}\tMeeting:T1 Agent:T2\n"),
    "A": ("attribute", "A{n}\tNegated T1\n"),
    "M": ("attribute", "M{n}\tConfidence T1 High\n"),
    "N": ("normalisation", "N{n}\tReference T1 Wikipedia:534366\tBarack Obama\n"),
    "#": ("note", "#{n}\tAnnotatorNotes T1\tcheck \N{GRINNING FACE} this\n"),
    "*": ("equivalence", "*\tEquiv T1 T2\n"),
}

texts = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SEPS)), min_size=1, max_size=6).map(
    lambda ps: "".join(p + s for p, s in ps)
)


def _split_at_newlines(text: str, fragments):
    """brat's annotator splits a span over a line break into one fragment per line (server/src/annotator.py)."""
    out = []
    for a, b in fragments:
        start = a
        for i in range(a, b + 1):
            if i == b or text[i] == "\n":
                if i > start:
                    out.append((start, i))
                start = i + 1
    return out


@st.composite
def brat_spans(draw, text: str):
    """Random spans in *text*: ``(label, fragments in order)``; discontinuous ones have two or three fragments."""
    spans = []
    for _ in range(draw(st.integers(1, 4))):
        k = min(draw(st.sampled_from((1, 1, 2, 3))), (len(text) + 1) // 2)
        cuts = sorted(draw(st.sets(st.integers(0, len(text)), min_size=2 * k, max_size=2 * k)))
        fragments = _split_at_newlines(text, list(zip(cuts[::2], cuts[1::2], strict=True)))
        if not fragments:
            continue
        label = draw(st.sampled_from(LABELS))
        spans.append((label, tuple(fragments)))
        if draw(st.booleans()) and draw(st.booleans()):  # the same stretch again, with another label
            spans.append((LABELS[(LABELS.index(label) + 1) % len(LABELS)], tuple(fragments)))
    return spans


@st.composite
def brat_exports(draw):
    docs = draw(st.lists(texts, min_size=1, max_size=3))
    files = {}  # (doc, coder) -> (spans, other-line kinds)
    for d, text in enumerate(docs):
        for c in CODERS:
            state = draw(st.sampled_from(("unassigned", "empty", "annotated")))
            if state == "unassigned":
                continue
            spans = draw(brat_spans(text)) if state == "annotated" else []
            others = draw(st.lists(st.sampled_from(sorted(OTHER_LINES)), max_size=3))
            files[(f"d{d}", c)] = (spans, others, draw(st.randoms(use_true_random=False)))
    style = draw(st.fixed_dictionaries({
        "shared_texts": st.booleans(),  # texts in one folder (texts=) or beside each .ann
        "crlf": st.booleans(),  # CRLF line breaks in the .ann and .txt files
        "reverse": st.booleans(),  # discontinuous fragments written last first
        "no_text": st.booleans(),  # some T lines without their text field (brat fills it in)
    }))
    return docs, files, style


def _ann_lines(text, spans, others, rnd, style):
    lines, expected = [], []
    for n, (label, fragments) in enumerate(spans, start=1):
        written = fragments[::-1] if style["reverse"] else fragments
        offsets = ";".join(f"{a} {b}" for a, b in written)
        covered = " ".join(text[a:b] for a, b in written)
        tail = "" if style["no_text"] and n % 2 else f"\t{covered}"
        lines.append(f"T{n}\t{label} {offsets}{tail}\n")
        expected.append((label, tuple(sorted(fragments)), covered))
    for n, kind in enumerate(others, start=1):
        lines.insert(rnd.randint(0, len(lines)), OTHER_LINES[kind][1].format(n=n))
    return "".join(lines), expected


@settings(max_examples=60)
@given(brat_exports())
def test_brat_round_trip(tmp_path_factory, drawn):
    docs, files, style = drawn
    assume(files)
    root = tmp_path_factory.mktemp("brat")
    shared = root / "texts"
    shared.mkdir()
    out = root / "export"
    nl = "\r\n" if style["crlf"] else "\n"
    expected_spans, expected_drops = [], Counter()
    for (doc, c), (spans, others, rnd) in files.items():
        text = docs[int(doc[1:])]
        ann, exp = _ann_lines(text, spans, others, rnd, style)
        folder = out / c
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{doc}.ann").write_text(ann, encoding="utf-8", newline=nl)
        (shared if style["shared_texts"] else folder).joinpath(f"{doc}.txt").write_text(
            text, encoding="utf-8", newline=nl)
        expected_spans += [(doc, c, *e) for e in exp]
        expected_drops.update(f"{OTHER_LINES[k][0]} (not compared)" for k in others)
    imp = brat.read(out, texts=shared if style["shared_texts"] else None)

    documents = {d for d, _ in files}
    coders = {c for _, c in files}
    assert imp.report.n_items == len(documents)
    expected_counts = {
        c: {
            "annotated": sum(1 for (_, k), f in files.items() if k == c and f[0]),
            "empty": sum(1 for (_, k), f in files.items() if k == c and not f[0]),
            "skipped": 0,  # brat has no skip
            "unassigned": len(documents) - sum(1 for _, k in files if k == c),
        }
        for c in coders
    }
    assert imp.report.counts == expected_counts
    assert Counter(d.reason for d in imp.report.dropped) == expected_drops
    got = sorted((s.document, s.coder, s.label, s.fragments, s.text) for s in imp.spans.spans)
    assert got == sorted(expected_spans)
    assert imp.spans.seen == frozenset(files)
    for s in imp.spans.spans:  # code-point offsets into the text as written (line breaks counted once)
        text = docs[int(s.document[1:])]
        assert imp.spans.texts[s.document] == text
        assert (s.start, s.end) == (s.fragments[0][0], s.fragments[-1][1])


# --- MTurk -----------------------------------------------------------------------------------------------------

WORKERS = ("A1B2C3D4E5", "W\u00e9rker2", "W3")
OPTIONS = ("positive", "negative", "neutral")
INPUTS = ("plain", "with, comma", 'a "quoted" word', "two\nlines", "emoji \N{GRINNING FACE} and é", "cr\r\nlf", "")
META = ["HITTypeId", "Title", "Reward", "CreationTime", "MaxAssignments"]
AFTER = ["AcceptTime", "SubmitTime", "WorkTimeInSeconds", "LifetimeApprovalRate"]

assignment = st.tuples(
    st.sampled_from(("absent", "Approved", "Approved", "Submitted", "Rejected")),
    st.lists(st.sampled_from(OPTIONS), max_size=2, unique=True),  # options marked; [] = no answer
)
batches = st.tuples(
    st.lists(st.tuples(st.sampled_from(INPUTS), st.lists(assignment, min_size=3, max_size=3)), min_size=1,
             max_size=6),
    st.sampled_from(("single", "classifier", "options", "options-multi")),
    st.randoms(use_true_random=False),
)


def _write_csv(path, header, rows):
    """Every field quoted, CRLF between records, as the requester site writes it; returns each record's line."""
    buf = io.StringIO(newline="")
    w = csv.writer(buf, quoting=csv.QUOTE_ALL)
    w.writerow(header)
    lines = []
    for row in rows:
        lines.append(buf.getvalue().count("\n") + 1)
        w.writerow(row)
    path.write_bytes(buf.getvalue().encode("utf-8"))
    return lines


@settings(max_examples=60)
@given(batches)
def test_mturk_round_trip(tmp_path_factory, drawn):
    hits, layout, rnd = drawn
    answers = ["Answer.comment"] + {"single": ["Answer.sentiment"], "classifier": ["Answer.sentiment.label"]}.get(
        layout, [f"Answer.sentiment.{o}" for o in OPTIONS])
    header = ["HITId", *META, "AssignmentId", "WorkerId", "AssignmentStatus", *AFTER, "Input.id", "Input.text",
              *answers, "Approve", "Reject"]
    rows, expect = [], []  # expect: (hit, worker, status, answer)
    n = 0
    for h, (text, assignments) in enumerate(hits):
        for w, (status, marked) in zip(WORKERS, assignments, strict=True):
            if status == "absent":
                continue
            if layout != "options-multi":
                marked = marked[:1]
            n += 1
            hit = f"3HIT{h:04d}XYZ"
            if layout in ("single", "classifier"):
                cols = [marked[0] if marked else ""]
            else:
                cols = ["true" if o in marked else "false" for o in OPTIONS]
            rows.append([hit, "3TYPE", "Label the sentiment, please", "$0.05", "Tue Nov 24 10:00:00 PST 2026", "3",
                         f"3ASG{n:05d}", w, status, "Tue Nov 24 10:01:00 PST 2026", "Tue Nov 24 10:02:00 PST 2026",
                         "60", "100% (3/3)", f"item-{h}", text, f"note, \N{GRINNING FACE}\n{n}", *cols, "", ""])
            expect.append((hit, w, status, frozenset(marked), f"item-{h}"))
    order = list(range(len(rows)))
    rnd.shuffle(order)
    rows = [rows[i] for i in order]
    expect = [expect[i] for i in order]
    assume(any(status != "Rejected" and marked for _, _, status, marked, _ in expect))
    f = tmp_path_factory.mktemp("mturk") / "Batch_4242_batch_results.csv"
    lines = _write_csv(f, header, rows)
    multiple = any(status != "Rejected" and len(marked) > 1 for _, _, status, marked, _ in expect)

    for unit in (None, "Input.id"):
        imp = crowd.read(f, field="sentiment", unit=unit)  # the format is guessed from the header
        key = 0 if unit is None else 4
        assert imp.tool == "mturk" and imp.kind == ("set" if multiple else "nominal")
        units = {e[key] for e in expect}
        assert imp.report.n_items == len(units)
        counts = {w: Counter() for w in {e[1] for e in expect}}
        values = {}
        for e in expect:
            state = ("skipped" if e[2] == "Rejected" else "annotated" if e[3] else "empty")
            counts[e[1]][state] += 1
            if state == "annotated":
                values[(e[key], e[1])] = e[3] if multiple else next(iter(e[3]))
        assert imp.report.counts == {
            w: {"annotated": c["annotated"], "empty": c["empty"], "skipped": c["skipped"],
                "unassigned": len(units) - sum(c.values())} for w, c in counts.items()
        }
        rejected = [(line, e[1]) for line, e in zip(lines, expect, strict=True) if e[2] == "Rejected"]
        assert [(d.line, d.coder) for d in imp.report.dropped] == rejected
        assert {d.reason for d in imp.report.dropped} <= {"rejected assignment"}
        a = imp.annotations
        got = {(str(a.units[u]), str(a.coders[k])): a.values[v]
               for u, k, v in zip(a.unit_index, a.coder_index, a.value_index, strict=True)}
        assert got == values
    comments = crowd.read(f, field="comment", tool="mturk").annotations
    assert all("\N{GRINNING FACE}\n" in str(v) for v in comments.values)  # quoted newlines kept in the value


# --- generic one-judgment-per-row CSV --------------------------------------------------------------------------

judgments = st.lists(
    st.tuples(st.sampled_from(("unassigned", "empty", "annotated")), st.sampled_from(INPUTS[:5] + ("\u00e9\u00e9",))),
    min_size=3, max_size=3,
)


@settings(max_examples=60)
@given(st.lists(judgments, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_generic_csv_round_trip(tmp_path_factory, drawn, rnd):
    rows, values, counts = [], {}, {c: Counter() for c in CODERS}
    for i, row in enumerate(drawn):
        for c, (state, value) in zip(CODERS, row, strict=True):
            if state == "unassigned":
                continue
            value = value if state == "annotated" and value.strip() else ""
            counts[c]["annotated" if value else "empty"] += 1
            if value:
                values[(f"q{i}", c)] = value
            rows.append([f"extra {i}, \N{GRINNING FACE}", f"q{i}", c, value])
    assume(values)
    rnd.shuffle(rows)
    f = tmp_path_factory.mktemp("csv") / "judgments.csv"
    _write_csv(f, ["note", "item", "judge", "label"], rows)
    imp = crowd.read(f, tool="csv", unit="item", coder="judge", value="label")
    units = {r[1] for r in rows}
    assert imp.report.n_items == len(units)
    assert imp.report.counts == {
        c: {"annotated": n["annotated"], "empty": n["empty"], "skipped": 0, "unassigned": len(units) - n.total()}
        for c, n in counts.items() if n.total()
    }
    a = imp.annotations
    got = {(str(a.units[u]), str(a.coders[k])): a.values[v]
           for u, k, v in zip(a.unit_index, a.coder_index, a.value_index, strict=True)}
    assert got == values
