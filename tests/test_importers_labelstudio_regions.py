"""Label Studio's per-region controls read as the attributes of the span regions they answer about.

Written by hand from Label Studio's JSON export format (the "Export annotations" page: each annotation's
``result`` holds one object per region, with ``id``, ``from_name``, ``to_name``, ``type`` and ``value``) and
its per-region labelling (the ``perRegion="true"`` attribute of the ``Choices`` and ``Rating`` tags: the answer
is a result of its own carrying the ``id`` of the region it is about).
"""

from __future__ import annotations

import json

from accord.attributes import agreement
from accord.importers import layers, read_export

TEXT = "Aspirin helped. Ibuprofen did not."


def _region(rid, start, end, label):
    return {"id": rid, "from_name": "ner", "to_name": "text", "type": "labels",
            "value": {"start": start, "end": end, "text": TEXT[start:end], "labels": [label]}}


def _choice(rid, name, *choices):
    return {"id": rid, "from_name": name, "to_name": "text", "type": "choices", "value": {"choices": list(choices)}}


def _rating(rid, n):
    return {"id": rid, "from_name": "confidence", "to_name": "text", "type": "rating", "value": {"rating": n}}


def _export(tmp_path):
    alice = [_region("a1", 0, 7, "Drug"), _choice("a1", "effect", "helped"), _rating("a1", 5),
             _region("a2", 16, 25, "Drug"), _choice("a2", "effect", "none")]
    bob = [_region("b1", 0, 7, "Drug"), _choice("b1", "effect", "helped"), _rating("b1", 4),
           _region("b2", 16, 25, "Drug"), _choice("b2", "effect", "helped", "unclear")]
    task = {"id": 1, "data": {"text": TEXT}, "annotations": [
        {"completed_by": {"id": 1, "email": "alice@example.org"}, "was_cancelled": False, "result": alice},
        {"completed_by": {"id": 2, "email": "bob@example.org"}, "was_cancelled": False, "result": bob},
    ]}
    f = tmp_path / "export.json"
    f.write_text(json.dumps([task]), encoding="utf-8")
    return f


def test_per_region_answers_are_the_spans_attributes(tmp_path):
    imp = read_export(_export(tmp_path), tool="label-studio", field="ner", attributes=True)
    got = {(s.coder, s.start): dict(s.attributes) for s in imp.spans.spans}
    assert got[("alice@example.org", 0)] == {"effect": "helped", "confidence": 5}
    assert got[("bob@example.org", 16)] == {"effect": ("helped", "unclear")}
    assert any("read as the spans' attributes: confidence, effect" in n for n in imp.report.notes)
    res = agreement(imp.spans)
    assert res["effect"].kind == "set"  # bob chose two on one span
    assert res["confidence"].n_pairable_units == 1


def test_not_read_by_default_and_listed_by_layers(tmp_path):
    f = _export(tmp_path)
    imp = read_export(f, tool="label-studio", field="ner")
    assert all(not s.attributes for s in imp.spans.spans)
    assert any("not compared: confidence, effect" in n for n in imp.report.notes)
    rows = {x.name: x for x in layers(f, tool="label-studio").layers}
    assert rows["effect"].kind == "attribute" and rows["effect"].parent == "ner"
    assert rows["effect"].counts == {"alice@example.org": 2, "bob@example.org": 2}
