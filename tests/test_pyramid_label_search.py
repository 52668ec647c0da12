"""DUCView part labels are looked up in linear time (issue 29): a label not at its offsets is searched for in the
whole text, newlines in the text allowed between any two of its characters, as DUCView strips them from labels.

The pyramid files are written by hand in DUCView's format (the DTD of ``accord/pyramid/_ducview.py``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord._shared.errors import AccordError
from accord.pyramid import Span
from accord.pyramid._ducview import _find_label


def _regex_find(text: str, label: str, near: int) -> Span | None:
    """The search as a regex over the text, as it was before issue 29: the oracle of the same results."""
    want = label.replace("\n", "").replace("\r", "")
    if not want:
        return None
    best = None
    for m in re.finditer("\n?".join(re.escape(ch) for ch in want), text):
        if best is None or abs(m.start() - near) < abs(best.start - near):
            best = Span(m.start(), m.end())
    return best


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="ab\n\r", max_size=40), label=st.text(alphabet="ab\n", max_size=6),
       near=st.integers(0, 40))
def test_same_spans_as_the_regex_search(text, label, near):
    assert _find_label(text, label, near) == _regex_find(text, label, near)


def test_nearest_of_overlapping_occurrences_is_the_regex_one():
    # finditer's occurrences do not overlap: in 'aaaa' the label 'aa' is at 0 and 2, never 1
    assert _find_label("aaaa", "aa", 1) == Span(0, 2) == _regex_find("aaaa", "aa", 1)
    assert _find_label("ab\nab\n\nab", "bab", 0) == Span(1, 5)
    assert _find_label("ab\n\nab", "bab", 0) is None


def test_large_pyramid_with_labels_that_defeat_a_backtracking_search(tmp_path):
    # 240 lines of 1,000 'a': each label of 3,000 'a' and a 'c' starts a match at every 'a' of the text and
    # fails at its last character, which a regex search pays with 720 million steps a label (over 40 s for the six).
    n_lines, width, n_labels = 240, 1000, 6
    lines = ["a" * width] * n_lines
    lines[-1] = "a" * (width - 1) + "b"  # one occurrence of the last label, at the very end
    text = "\n".join(lines)
    missing = "a" * 3000 + "c"
    found = "a" * 1500 + "b"
    parts = [f'<part label="{missing}" start="{5 + k}" end="{10 + k}"/>' for k in range(n_labels)]
    parts.append(f'<part label="{found}" start="0" end="3"/>')
    body = "".join(f"<line>{x}</line>" for x in lines)
    scu = "".join(f'<scu uid="{k + 1}" label="s{k + 1}"><contributor label="c">{p}</contributor></scu>'
                  for k, p in enumerate(parts))
    path = tmp_path / "big.pyr"
    path.write_text(f"<pyramid><text>{body}</text>{scu}</pyramid>", encoding="utf-8")
    assert path.stat().st_size > 240_000
    code = ("import json, sys; from accord.pyramid import read_pyramid; p = read_pyramid(sys.argv[1]); "
            "print(json.dumps([[d.kind, d.scu_id] for d in p.defects] + [[s.id, [c.spans[0].start for c in "
            "s.contributors]] for s in p.scus]))")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    kinds = [tuple(x) for x in out[:-n_labels - 1] if x[0] != "no-start-regex"]
    assert kinds == [*(("label-mismatch", k + 1) for k in range(n_labels)), ("offset-mismatch", n_labels + 1)]
    end = len(text)
    assert out[-1] == [n_labels + 1, [end - len(found) - (len(found) - 1) // width]]


def test_pyramid_files_of_other_bytes_are_read_or_refused_clearly(tmp_path):
    from accord.pyramid import read_json, read_pyramid, write_json

    data = Path(__file__).parent / "data" / "pyramid" / "small.pyr"
    p = read_pyramid(data)
    # the JSON form with a byte-order mark (Notepad writes one) reads as without
    j = tmp_path / "p.json"
    write_json(p, j)
    marked = tmp_path / "bom.json"
    marked.write_bytes(b"\xef\xbb\xbf" + j.read_bytes())
    assert read_json(marked).scus == read_json(j).scus
    bad = tmp_path / "bad.json"
    bad.write_bytes(j.read_bytes().replace(b'"', b'\xff"', 1))
    with pytest.raises(AccordError, match=r"bad\.json:2: not UTF-8 text"):
        read_json(bad)
    # a .pyr in Latin-1 is read as DUCView's Java may write it, and said
    latin = tmp_path / "latin.pyr"
    latin.write_bytes(data.read_bytes().replace(b"<text>", b"<text><line>caf\xe9</line>", 1))
    kinds = [d.kind for d in read_pyramid(latin).defects]
    assert "latin-1" in kinds
