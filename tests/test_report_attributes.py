"""The span report's attribute section (issue 32): alpha per attribute, the same numbers as
:func:`accord.attributes.agreement`, and no section when no span carries an attribute."""

from __future__ import annotations

import warnings

from accord.attributes import agreement
from accord.reporting import build_report
from accord.spans import Span, SpanAnnotations

TEXT = "No fever, mild cough, aspirin given."


def _data(with_attributes: bool = True) -> SpanAnnotations:
    def a(**kw):
        return kw if with_attributes else {}

    return SpanAnnotations.from_spans([
        Span("d", 3, 8, "Symptom", "alice", attributes=a(Negated=True)),
        Span("d", 3, 8, "Symptom", "bob", attributes=a(Negated=True)),
        Span("d", 15, 20, "Symptom", "alice", attributes=a(Severity="mild")),
        Span("d", 15, 20, "Symptom", "bob", attributes=a(Negated=True, Severity="moderate")),
        Span("d", 22, 29, "Drug", "bob"),
    ], texts={"d": TEXT})


def _build(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_report(data, bootstrap=0)


def test_section_holds_alpha_per_attribute():
    rep = _build(_data())
    section = next(s for s in rep.sections if s.id == "attributes")
    rows = {r[0]: r for r in section.tables[0].rows}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = agreement(_data())
    assert rows["Negated"][3] == ref["Negated"].alpha
    assert rows["Severity"][3] == ref["Severity"].alpha
    assert section.tables[1].rows == (("d", "bob", "Drug", "[22, 29)", "no other annotator marked this span"),)
    assert rep.summary["attributes"]["n_aligned"] == 2
    assert "Attributes: agreement per attribute" in rep.to_html()


def test_no_section_without_attributes():
    rep = _build(_data(with_attributes=False))
    assert all(s.id != "attributes" for s in rep.sections)
    assert "attributes" not in rep.summary
