"""Per-attribute agreement over aligned spans (issue 32, "Attributes, features and links").

Every number is derived by hand in the comments, or checked against the krippendorff package on random data.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import AccordError, AccordWarning, Annotations, alpha
from accord.attributes import AttributeAgreement, AttributesResult, agreement
from accord.spans import Span, SpanAnnotations


def S(doc, start, end, label, coder, **attrs):  # noqa: N802 - a short constructor for the tables below
    return Span(doc, start, end, label, coder, attributes=attrs)


def quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(*args, **kwargs)


def test_binary_attribute_absent_is_false_on_aligned_spans():
    # units: [0,4) a T b T; [10,14) a F b T; [20,24) a F b F -> values T,T,F,T,F,F (n = 6, 3 T, 3 F)
    # D_o = 2 / 6 (one unit with a T-F pair: 2 ordered pairs / (m_u - 1) = 2); D_e = 2*3*3 / (6*5) = 0.6
    # alpha = 1 - (1/3) / 0.6 = 4/9
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "Disease", "a", Negated=True), S("d", 0, 4, "Disease", "b", Negated=True),
        S("d", 10, 14, "Disease", "a"), S("d", 10, 14, "Disease", "b", Negated=True),
        S("d", 20, 24, "Disease", "a"), S("d", 20, 24, "Disease", "b"),
    ])
    res = agreement(sa)["Negated"]
    assert res.kind == "binary"
    assert res.alpha == pytest.approx(4 / 9)
    assert res.n_units == res.n_pairable_units == 3
    assert res.value_counts == {"false": 3, "true": 3}


def test_attribute_scope_is_the_labels_it_was_found_on():
    # the Drug spans carry no Negated anywhere: they are not units of Negated (else they would add false-false)
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "Disease", "a", Negated=True), S("d", 0, 4, "Disease", "b"),
        S("d", 5, 9, "Disease", "a"), S("d", 5, 9, "Disease", "b"),
        S("d", 10, 14, "Drug", "a"), S("d", 10, 14, "Drug", "b"),
    ])
    res = quiet(agreement, sa)["Negated"]
    assert res.labels == ("Disease",)
    assert res.n_units == 2


def test_spans_only_one_annotator_marked_are_listed_not_scored():
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "Disease", "a", Certainty="high"), S("d", 0, 4, "Disease", "b", Certainty="high"),
        S("d", 5, 9, "Disease", "a", Certainty="low"), S("d", 5, 9, "Disease", "b", Certainty="low"),
        S("d", 20, 24, "Disease", "a", Certainty="low"),
        S("e", 0, 3, "Disease", "a", Certainty="high"),  # only a saw document e
    ], seen=[("e", "a"), ("d", "b")])
    res = agreement(sa)
    cert = res["Certainty"]
    assert cert.alpha == 1.0 and cert.n_units == 2 and cert.n_values == 4
    assert [(u.document, u.start, u.value, u.reason) for u in cert.unaligned] == [
        ("d", 20, "low", "no other annotator marked this span"),
        ("e", 0, "high", "no other annotator saw the document")]
    assert len(res.unaligned) == 2 and res.unaligned[0].value is None
    d = res.to_dict()
    assert d["attributes"][0]["n_unaligned"] == 2 and d["n_unaligned"] == 2


def test_partly_aligned_spans_three_annotators():
    # [0,4): a, b, c all marked; c says "low", a and b "high". [5,9): a and b only (c saw the document, marked
    # nothing there): a "low", b "low". Units: {high, high, low}, {low, low}; n = 5, high 2, low 3.
    # D_o = (1/5) * (2*2*1 / 2) = 0.4 (unit 1: ordered high-low pairs 2*2 = 4, over m_u - 1 = 2); unit 2 agrees.
    # D_e = 2 * 2 * 3 / (5 * 4) = 0.6; alpha = 1 - 0.4 / 0.6 = 1/3
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "X", "a", v="high"), S("d", 0, 4, "X", "b", v="high"), S("d", 0, 4, "X", "c", v="low"),
        S("d", 5, 9, "X", "a", v="low"), S("d", 5, 9, "X", "b", v="low"),
    ], seen=[("d", "c")])
    res = agreement(sa)["v"]
    assert res.alpha == pytest.approx(1 / 3)
    assert res.n_units == 2 and res.n_values == 5


def test_unset_missing_or_value():
    # [0,4): a "x", b unset; [5,9): a "x", b "x"; [10,14): a "y", b "y"
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "X", "a", v="x"), S("d", 0, 4, "X", "b"),
        S("d", 5, 9, "X", "a", v="x"), S("d", 5, 9, "X", "b", v="x"),
        S("d", 10, 14, "X", "a", v="y"), S("d", 10, 14, "X", "b", v="y"),
    ])
    missing = agreement(sa)["v"]
    assert missing.alpha == 1.0 and missing.n_pairable_units == 2 and missing.n_units == 3
    counted = agreement(sa, unset="value")["v"]
    # values x, (not set), x, x, y, y: n = 6, x 3, (not set) 1, y 2; D_o = 2 / 6; D_e = 2 (3 + 6 + 2) / 30
    assert counted.alpha == pytest.approx(1 - (2 / 6) / (22 / 30))
    assert counted.value_counts["(not set)"] == 1


def test_ordinal_when_declared():
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "X", "a", c="low"), S("d", 0, 4, "X", "b", c="mid"),
        S("d", 5, 9, "X", "a", c="high"), S("d", 5, 9, "X", "b", c="high"),
        S("d", 10, 14, "X", "a", c="low"), S("d", 10, 14, "X", "b", c="low"),
        S("d", 15, 19, "X", "a", c="mid"), S("d", 15, 19, "X", "b", c="high"),
    ])
    order = ["low", "mid", "high"]
    res = agreement(sa, orders={"c": order})["c"]
    assert res.kind == "ordinal" and res.distance == "ordinal"
    from accord.distances import get_distance

    matrix = Annotations.from_matrix([["low", "high", "low", "mid"], ["mid", "high", "low", "high"]])
    assert res.alpha == pytest.approx(alpha(matrix, distance=get_distance("ordinal", order=order)).alpha)
    assert res.alpha != pytest.approx(agreement(sa)["c"].alpha)  # nominal by default


def test_set_valued_identifiers():
    # several knowledge-base ids on one span make the attribute set-valued; one id is the set of it
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "X", "a", kb=("Q1", "Q2")), S("d", 0, 4, "X", "b", kb="Q1"),
        S("d", 5, 9, "X", "a", kb="Q3"), S("d", 5, 9, "X", "b", kb="Q3"),
        S("d", 10, 14, "X", "a", kb="Q4"), S("d", 10, 14, "X", "b", kb="Q5"),
    ])
    res = agreement(sa)["kb"]
    assert res.kind == "set" and res.distance == "masi-2006"
    matrix = [(0, "a", frozenset({"Q1", "Q2"})), (0, "b", frozenset({"Q1"})), (1, "a", frozenset({"Q3"})),
              (1, "b", frozenset({"Q3"})), (2, "a", frozenset({"Q4"})), (2, "b", frozenset({"Q5"}))]
    assert res.alpha == pytest.approx(alpha(Annotations.from_records(matrix), distance="masi-2006").alpha)
    assert agreement(sa, distances={"kb": "jaccard"})["kb"].distance == "jaccard"
    assert res.value_counts["Q1|Q2"] == 1


def test_overlap_alignment_pairs_the_largest_overlap_first():
    # a [0,10) overlaps b [2,10) (8/10) and b [8,20) (2/20); b [2,10) is a's partner; b [8,20) is alone
    sa = SpanAnnotations.from_spans([
        S("d", 0, 10, "X", "a", v="p"), S("d", 2, 10, "X", "b", v="p"), S("d", 8, 20, "X", "b", v="q"),
        S("d", 30, 40, "X", "a", v="r"), S("d", 31, 39, "X", "b", v="r"),
    ])
    res = agreement(sa, match="overlap")
    assert res.n_aligned == 2
    assert [(u.coder, u.start) for u in res.unaligned] == [("b", 8)]
    assert res["v"].alpha == 1.0
    exact = quiet(agreement, sa)
    assert exact.n_aligned == 0 and math.isnan(exact["v"].alpha)
    assert "two annotators' values" in exact["v"].undefined_reason


def test_labels_must_match_unless_ignored():
    sa = SpanAnnotations.from_spans([
        S("d", 0, 4, "Drug", "a", v="x"), S("d", 0, 4, "Chemical", "b", v="x"),
        S("d", 5, 9, "Drug", "a", v="y"), S("d", 5, 9, "Chemical", "b", v="y"),
    ])
    assert quiet(agreement, sa).n_aligned == 0
    assert agreement(sa, ignore_labels=True)["v"].alpha == 1.0


def test_matches_krippendorff_on_random_aligned_spans():
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(7)
    coders = ["a", "b", "c"]
    spans = []
    matrix = np.full((3, 60), np.nan)
    for u in range(60):
        for k, c in enumerate(coders):
            if rng.random() < 0.8:
                v = int(rng.integers(0, 4))
                matrix[k, u] = v
                spans.append(S("d", 10 * u, 10 * u + 5, "X", c, v=f"v{v}"))
    res = agreement(SpanAnnotations.from_spans(spans))["v"]
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
    assert res.alpha == pytest.approx(expected)


def test_result_shapes():
    sa = SpanAnnotations.from_spans([S("d", 0, 4, "X", "a", v="x"), S("d", 0, 4, "X", "b", v="y"),
                                     S("d", 5, 9, "X", "a", v="y"), S("d", 5, 9, "X", "b", v="y")])
    res = agreement(sa)
    assert isinstance(res, AttributesResult) and isinstance(res["v"], AttributeAgreement)
    import json

    json.dumps(res.to_dict())
    assert list(res.to_frame()["attribute"]) == ["v"]
    with pytest.raises(AttributeError):
        res.match = "overlap"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"match": "gamma"}, "match must be one of"),
    ({"unset": "none"}, "unset must be one of"),
    ({"ignore_labels": "yes"}, "ignore_labels must be True or False"),
    ({"orders": {"w": ["a"]}}, "no span carries the attribute 'w'; the attributes are v"),
    ({"distances": ["nominal"]}, "distances must map attribute names"),
])
def test_bad_arguments_are_one_clear_error(kwargs, message):
    sa = SpanAnnotations.from_spans([S("d", 0, 4, "X", "a", v="x"), S("d", 0, 4, "X", "b", v="y")])
    with pytest.raises(AccordError, match=message):
        agreement(sa, **kwargs)


def test_bad_data_is_one_clear_error():
    with pytest.raises(AccordError, match="data must be accord.spans.SpanAnnotations"):
        agreement([1, 2])
    with pytest.raises(AccordError, match="at least two annotators"):
        agreement(SpanAnnotations.from_spans([S("d", 0, 4, "X", "a", v="x")]))
    mixed = SpanAnnotations.from_spans([S("d", 0, 4, "X", "a", v=True), S("d", 0, 4, "X", "b", v="y")])
    with pytest.raises(AccordError, match="either binary"):
        agreement(mixed)


def test_undefined_alpha_is_said_naming_the_attribute():
    sa = SpanAnnotations.from_spans([S("d", 0, 4, "X", "a", v="x"), S("d", 0, 4, "X", "b", v="x")])
    with pytest.warns(AccordWarning, match="alpha of attribute 'v' is undefined: no expected disagreement"):
        res = agreement(sa)["v"]
    assert math.isnan(res.alpha) and "no expected disagreement" in res.undefined_reason
    assert res.to_dict()["alpha"] is None


def test_overlap_with_three_annotators_keeps_one_span_per_annotator():
    # a [0,10) and a [12,20) both overlap b [5,15); c [0,10) overlaps a's first and b's.
    # Pairs by share: a0-c0 (10/10), a0-b (5/15), b-c0 (5/15), a12-b (3/15): a0 and c0 join first, then b
    # joins them; a [12,20) could join b only through a group that holds a already: it stays alone.
    sa = SpanAnnotations.from_spans([
        S("d", 0, 10, "X", "a", v="p"), S("d", 12, 20, "X", "a", v="q"),
        S("d", 5, 15, "X", "b", v="p"), S("d", 0, 10, "X", "c", v="p"),
    ])
    res = quiet(agreement, sa, match="overlap")
    assert res.n_aligned == 1
    assert [(u.coder, u.start) for u in res.unaligned] == [("a", 12)]
    assert res["v"].n_values == 3


def test_zero_length_spans_align_only_exactly():
    sa = SpanAnnotations.from_spans([S("d", 3, 3, "X", "a", v="p"), S("d", 3, 3, "X", "b", v="p"),
                                     S("d", 5, 9, "X", "a", v="q"), S("d", 5, 9, "X", "b", v="q")])
    assert quiet(agreement, sa).n_aligned == 2
    assert quiet(agreement, sa, match="overlap").n_aligned == 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), match=st.sampled_from(["exact", "overlap"]))
def test_renaming_and_reordering_annotators_changes_nothing(seed, match):
    rng = np.random.default_rng(seed)
    spans = []
    for c in ("a", "b", "c"):
        for _ in range(int(rng.integers(1, 8))):
            start = int(rng.integers(0, 40))
            spans.append(S(f"d{rng.integers(0, 2)}", start, start + int(rng.integers(1, 6)), "X", c,
                           v=f"v{rng.integers(0, 3)}"))
    renamed = {"a": "zed", "b": "amy", "c": "kim"}
    other = [Span(s.document, s.start, s.end, s.label, renamed[s.coder], attributes=s.attributes)
             for s in reversed(spans)]
    one = quiet(agreement, SpanAnnotations.from_spans(spans), match=match)
    two = quiet(agreement, SpanAnnotations.from_spans(other), match=match)
    assert one.n_aligned == two.n_aligned and len(one.unaligned) == len(two.unaligned)
    if one.attributes:
        x, y = one["v"].alpha, two["v"].alpha
        assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y)
