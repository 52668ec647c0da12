"""Span agreement: pairwise F1, token alpha / kappa, unitizing alpha, document bootstrap."""

from __future__ import annotations

import itertools
import math
import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord import AccordError, Annotations
from accord.spans import Span, SpanAnnotations
from accord.spans._matching import span_f1
from accord.spans._tokens import OUTSIDE, token_agreement, token_table
from accord.spans._unitizing import unitizing_alpha


# ---------------------------------------------------------------- brute force
def _overlaps(a: Span, b: Span) -> bool:
    return any(s1 < e2 and s2 < e1 for s1, e1 in a.fragments for s2, e2 in b.fragments)


def _max_matching(left: list[Span], right: list[Span]) -> int:
    """Largest one-to-one matching of overlapping spans, by trying every assignment."""
    best = 0
    for k in range(min(len(left), len(right)), 0, -1):
        for ls in itertools.combinations(range(len(left)), k):
            for rs in itertools.permutations(range(len(right)), k):
                if all(_overlaps(left[i], right[j]) for i, j in zip(ls, rs, strict=False)):
                    return k
    return best


def _brute(data: SpanAnnotations, a: str, b: str, match: str) -> dict[str, tuple[int, int, int]]:
    shared = {d for d, c in data.seen if c == a} & {d for d, c in data.seen if c == b}
    sa = [s for s in data.spans if s.coder == a and s.document in shared]
    sb = [s for s in data.spans if s.coder == b and s.document in shared]
    out = {}
    for lab in sorted({s.label for s in sa + sb}):
        la = [s for s in sa if s.label == lab]
        lb = [s for s in sb if s.label == lab]
        if match == "exact":
            ca = Counter((s.document, s.fragments) for s in la)
            cb = Counter((s.document, s.fragments) for s in lb)
            tp = sum((ca & cb).values())
        else:
            tp = sum(
                _max_matching([s for s in la if s.document == d], [s for s in lb if s.document == d])
                for d in shared
            )
        out[lab] = (tp, len(la), len(lb))
    return out


@st.composite
def span_sets(draw):
    coders = ["a", "b", "c"][: draw(st.integers(2, 3))]
    docs = ["d1", "d2"]
    spans = []
    for c in coders:
        for _ in range(draw(st.integers(0, 5))):
            s = draw(st.integers(0, 15))
            e = draw(st.integers(s, s + 6))
            frags = ()
            if e - s >= 3 and draw(st.integers(0, 4)) == 0:  # now and then a discontinuous span
                cut = draw(st.integers(s + 1, e - 2))
                frags = ((s, cut), (cut + 1, e))
            spans.append(Span(draw(st.sampled_from(docs)), s, e, draw(st.sampled_from("XY")), c, fragments=frags))
    seen = [(d, c) for d in docs for c in coders if draw(st.booleans()) or d == "d1"]
    return SpanAnnotations.from_spans(spans, seen=seen)


@st.composite
def span_sets_with_copies(draw):
    """Span sets in which spans repeat: each drawn span is given 1 to 3 times (the copies path of overlap)."""
    data = draw(span_sets())
    spans = [s for s in data.spans for _ in range(draw(st.integers(1, 3)))]
    return SpanAnnotations.from_spans(spans, seen=sorted(data.seen))


@settings(max_examples=60, deadline=None)
@given(span_sets_with_copies())
def test_overlap_with_repeated_spans_equals_brute_force(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.AccordWarning)
        res = span_f1(data, match="overlap")
    for p in res.pairs:
        ref = _brute(data, p.coder_a, p.coder_b, "overlap")
        assert {s.label: (s.true_positives, s.n_a, s.n_b) for s in p.labels} == ref
        listed = [d for d in res.diagnosis if {d.coder, d.other_coder} == {p.coder_a, p.coder_b}]
        tp, na, nb = (sum(v[k] for v in ref.values()) for k in range(3))
        assert len(listed) == (na - tp) + (nb - tp)


def test_thousands_of_copies_of_one_span_cost_their_number_not_its_square():
    """6,000 copies against 5,000 overlapping copies: 5,000 matched, from two distinct spans (the pairs of every
    copy with every other, 30 million, are never listed)."""
    spans = [Span("d", 0, 10, "X", "a")] * 6000 + [Span("d", 5, 12, "X", "b")] * 5000
    res = span_f1(SpanAnnotations.from_spans(spans), match="overlap")
    assert (res.pairs[0].micro.true_positives, res.pairs[0].micro.n_a, res.pairs[0].micro.n_b) == (5000, 6000, 5000)


@settings(max_examples=100, deadline=None)
@given(span_sets(), st.sampled_from(["exact", "overlap"]))
def test_span_f1_equals_brute_force(data, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.AccordWarning)  # no span at all: undefined, tested elsewhere
        res = span_f1(data, match=match)
    assert res.pairs
    for p in res.pairs:
        ref = _brute(data, p.coder_a, p.coder_b, match)
        got = {s.label: (s.true_positives, s.n_a, s.n_b) for s in p.labels}
        assert got == ref
        tp, na, nb = (sum(v[k] for v in ref.values()) for k in range(3))
        f1 = 2 * tp / (na + nb) if na + nb else math.nan
        assert p.micro.f1 == pytest.approx(f1, nan_ok=True)
        macro = [2 * t / (x + y) for t, x, y in ref.values()]
        assert p.macro.f1 == pytest.approx(np.mean(macro) if macro else math.nan, nan_ok=True)
        # unmatched spans listed in the diagnosis, from both sides
        listed = [d for d in res.diagnosis if {d.coder, d.other_coder} == {p.coder_a, p.coder_b}]
        assert len(listed) == (na - tp) + (nb - tp)
    # labels ignored = every label the same
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.AccordWarning)
        one_label = SpanAnnotations.from_spans(
            [Span(s.document, s.start, s.end, "(span)", s.coder, s.fragments) for s in data.spans], seen=data.seen
        )
        assert span_f1(data, match=match, ignore_labels=True).pairs == span_f1(one_label, match=match).pairs


def test_span_f1_diagnosis_kinds():
    text = "Alice met Bob in Paris today."
    spans = [
        Span("d", 0, 5, "PER", "a"), Span("d", 10, 13, "PER", "a"), Span("d", 17, 22, "LOC", "a"),
        Span("d", 0, 5, "ORG", "b"), Span("d", 10, 14, "PER", "b"), Span("d", 23, 28, "DATE", "b"),
    ]
    res = span_f1(SpanAnnotations.from_spans(spans, texts={"d": text}))
    kinds = {(d.coder, d.text): d.kind for d in res.diagnosis}
    assert kinds == {
        ("a", "Alice"): "label", ("a", "Bob"): "boundary", ("a", "Paris"): "missing",
        ("b", "Alice"): "label", ("b", "Bob "): "boundary", ("b", "today"): "missing",
    }
    assert res.micro_f1 == 0.0
    assert span_f1(SpanAnnotations.from_spans(spans, texts={"d": text}), match="overlap").micro_f1 == pytest.approx(
        1 / 3
    )
    unlabelled = span_f1(SpanAnnotations.from_spans(spans, texts={"d": text}), ignore_labels=True)
    assert unlabelled.ignore_labels and [s.label for s in unlabelled.pairs[0].labels] == ["(span)"]
    assert unlabelled.pairs[0].micro.true_positives == 1  # Alice: same offsets, labels aside
    assert {d.kind for d in unlabelled.diagnosis} == {"boundary", "missing"}
    frame = res.to_frame()
    assert list(frame["label"]) == ["DATE", "LOC", "ORG", "PER", "(micro)", "(macro)"]
    assert res.to_dict()["pairs"][0]["micro"]["f1"] == 0.0


def test_span_f1_validation():
    one = SpanAnnotations.from_spans([Span("d", 0, 1, "X", "a")])
    with pytest.raises(AccordError, match="at least two coders"):
        span_f1(one)
    two = SpanAnnotations.from_spans([Span("d", 0, 1, "X", "a"), Span("d", 0, 1, "X", "b")])
    with pytest.raises(AccordError, match="match must be one of 'exact', 'overlap'; got 'fuzzy'"):
        span_f1(two, match="fuzzy")
    three = SpanAnnotations.from_spans(
        [Span("d", 0, 1, "X", "a"), Span("d", 0, 1, "X", "b"), Span("e", 0, 1, "X", "c")]
    )
    assert span_f1(three).unshared_pairs == (("a", "c"), ("b", "c"))
    empty = SpanAnnotations.from_spans([], seen=[("d", "a"), ("d", "b")])
    with pytest.warns(accord.AccordWarning, match="span F1 is undefined"):
        nothing = span_f1(empty)
    assert math.isnan(nothing.micro_f1) and "no coder marked a span" in nothing.undefined_reason
    apart = SpanAnnotations.from_spans([Span("d", 0, 1, "X", "a"), Span("e", 0, 1, "X", "b")])
    with pytest.raises(AccordError, match="no document was seen by two coders"):
        span_f1(apart)


# ---------------------------------------------------------------- tokens
def test_token_alpha_equals_alpha_on_hand_built_table():
    text = "Ann saw New York and Bob"  # tokens: Ann saw New York and Bob
    spans = [
        Span("d", 0, 3, "PER", "a"), Span("d", 8, 16, "LOC", "a"), Span("d", 21, 24, "PER", "a"),
        Span("d", 0, 3, "PER", "b"), Span("d", 12, 16, "LOC", "b"),
        Span("d", 0, 3, "ORG", "c"), Span("d", 8, 16, "LOC", "c"), Span("d", 21, 24, "PER", "c"),
    ]
    data = SpanAnnotations.from_spans(spans, texts={"d": text})
    O = OUTSIDE  # noqa: E741
    by_hand = Annotations.from_matrix(
        [
            ["PER", O, "LOC", "LOC", O, "PER"],
            ["PER", O, O, "LOC", O, O],
            ["ORG", O, "LOC", "LOC", O, "PER"],
        ]
    )
    res = token_agreement(data)
    assert res.n_tokens == 6
    assert res.alpha.alpha == pytest.approx(accord.alpha(by_hand).alpha, abs=1e-12)
    assert res.kappa is not None and res.kappa.coefficient == "fleiss_kappa"
    assert res.kappa.kappa == pytest.approx(accord.fleiss_kappa(by_hand).kappa, abs=1e-12)
    two = SpanAnnotations.from_spans([s for s in spans if s.coder != "c"], texts={"d": text})
    k2 = token_agreement(two).kappa
    assert k2 is not None and k2.kappa == pytest.approx(
        accord.cohen_kappa(Annotations.from_matrix(by_hand.to_matrix()[:2].tolist())).kappa, abs=1e-12
    )


def test_token_table_missing_documents_and_multilabel():
    data = SpanAnnotations.from_spans(
        [Span("d", 0, 3, "A", "a"), Span("d", 0, 3, "B", "a"), Span("e", 0, 2, "A", "b")],
        texts={"d": "one two", "e": "xy z"},
        seen=[("d", "a"), ("d", "b"), ("e", "b"), ("e", "c"), ("f", "c")],
    )
    table, doc_of_unit, n_multi = token_table(data)  # f: seen by one coder, nothing to compare, needs no text
    assert n_multi == 1
    assert table.to_matrix().tolist() == [
        ["A+B", OUTSIDE, None, None], [OUTSIDE, OUTSIDE, "A", OUTSIDE], [None, None, OUTSIDE, OUTSIDE]
    ]
    assert doc_of_unit.tolist() == [0, 0, 1, 1]
    assert token_agreement(data).n_documents == 2
    with pytest.raises(AccordError, match="tokens='export'"):
        token_table(data, tokens="export")
    with pytest.raises(AccordError, match="outside: 'A' is also a span label"):
        token_table(data, outside="A")
    given_tokens = {"d": [(0, 7)], "e": [(0, 4)]}
    t2, _, _ = token_table(data, tokens=given_tokens)
    assert t2.n_units == 2


def test_export_tokens_are_used():
    data = SpanAnnotations.from_spans(
        [Span("d", 0, 2, "A", "a"), Span("d", 0, 1, "A", "b")],
        texts={"d": "abcd"},
        tokens={"d": [(0, 1), (1, 2), (2, 4)]},
    )
    res = token_agreement(data, tokens="export")
    assert res.n_tokens == 3 and res.tokenisation == "export"


def test_emoji_before_a_span():
    text = "👋🏽 Zoë met Ólafur in Reykjavík."
    start = text.index("Ólafur")
    assert start == 11  # code points, not UTF-16 units (13) nor UTF-8 bytes
    spans = [
        Span("d", start, start + 6, "PER", "a", text="Ólafur"),
        Span("d", start, start + 6, "PER", "b"),
        Span("d", 3, 6, "PER", "a"),
        Span("d", text.index("Reykjavík"), text.index("Reykjavík") + 9, "LOC", "b"),
    ]
    data = SpanAnnotations.from_spans(spans, texts={"d": text})
    res = span_f1(data)
    assert res.pairs[0].micro.true_positives == 1
    assert {d.text for d in res.diagnosis} == {"Zoë", "Reykjavík"}
    tok = token_agreement(data)
    assert tok.n_tokens == 6  # the emoji with its skin tone is one whitespace token
    assert tok.table.to_matrix()[:, 3].tolist() == ["PER", "PER"]


# ---------------------------------------------------------------- unitizing
def _krippendorff_2004() -> SpanAnnotations:
    # Krippendorff (2004), Content Analysis, 2nd ed., p. 254, as DKPro Agreement's Krippendorff2004Test
    # builds it: continuum [150, 450), two observers i and j, categories c and k; moved here to start at 0.
    units = [
        (225, 70, "i", "c"), (370, 30, "i", "c"), (220, 80, "j", "c"), (355, 20, "j", "c"), (400, 20, "j", "c"),
        (180, 60, "i", "k"), (300, 50, "i", "k"), (180, 60, "j", "k"), (300, 50, "j", "k"),
    ]
    spans = [Span("doc", b - 150, b - 150 + n, lab, who) for b, n, who, lab in units]
    return SpanAnnotations.from_spans(spans, texts={"doc": "." * 300})


def test_unitizing_alpha_krippendorff_2004_example():
    res = unitizing_alpha(_krippendorff_2004())
    # DKPro's test: alpha .8591 +/- .0005; c: D_o .0144, D_e .0532, alpha .7286; k: D_o 0, D_e .0490, alpha 1
    assert res.alpha == pytest.approx(0.8591, abs=0.0005)
    assert res.alpha == pytest.approx(0.858665405184170, abs=1e-12)  # DKPro Agreement 2.x, run on this example
    c, k = res.categories
    assert (c.observed_disagreement, c.expected_disagreement, c.alpha) == pytest.approx((0.0144, 0.0532, 0.7286),
                                                                                        abs=1e-4)
    assert (k.observed_disagreement, k.expected_disagreement, k.alpha) == pytest.approx((0.0, 0.0490, 1.0), abs=1e-4)
    assert res.continuum_length == 300 and res.n_coders == 2
    frame = res.to_frame()
    assert list(frame["label"]) == ["c", "k", "(all)"]


def test_unitizing_observed_krippendorff_1995():
    # Krippendorff (1995), p. 57, as DKPro Agreement's Krippendorff1995Test: continuum of 24, four categories
    # (one per pair of observers there); observed disagreements .03125, 2.26736, .02777, .38715.
    units = {
        "A": [(2, 8, 0), (14, 6, 0), (4, 4, 1), (15, 2, 1)],
        "B": [(0, 18, 0), (0, 2, 1), (2, 1, 1), (3, 1, 1), (4, 1, 1), (5, 1, 1), (6, 3, 1), (9, 1, 1)],
        "C": [(2, 6, 0), (10, 2, 0), (14, 4, 0), (20, 2, 0), (0, 2, 1), (4, 4, 1), (10, 4, 1), (16, 2, 1),
              (20, 2, 1)],
        "D": [(0, 2, 0), (2, 8, 0), (10, 4, 0), (14, 6, 0), (20, 4, 0), (0, 4, 1), (4, 4, 1), (8, 7, 1),
              (15, 2, 1), (17, 7, 1)],
    }
    spans = [Span("t", b, b + n, lab, f"o{r}") for lab, us in units.items() for b, n, r in us]
    res = unitizing_alpha(SpanAnnotations.from_spans(spans, texts={"t": "." * 24}))
    observed = [c.observed_disagreement for c in res.categories]
    assert observed == pytest.approx([0.03125, 2.26736, 0.02777, 0.38715], abs=1e-5)
    # the paper's expected disagreements and alphas treat the continuum as (nearly) continuous: stretched
    # 50,000 times, as DKPro's test does, they come within its tolerances (D_e .005, alpha .02)
    k = 50_000
    spans = [Span("t", b * k, (b + n) * k, lab, f"o{r}") for lab, us in units.items() for b, n, r in us]
    res = unitizing_alpha(SpanAnnotations.from_spans(spans, texts={"t": "." * 24 * k}))
    assert [c.expected_disagreement for c in res.categories] == pytest.approx(
        [0.06990, 1.17731, 0.08642, 0.41445], abs=0.005
    )
    assert [c.alpha for c in res.categories] == pytest.approx([0.553, -0.926, 0.679, 0.066], abs=0.02)


def test_unitizing_documents_and_errors():
    base = _krippendorff_2004()
    # the same study twice as two documents: same alpha components scale, gaps do not run across documents
    twice = SpanAnnotations.from_spans(
        [*base.spans, *(Span("doc2", s.start, s.end, s.label, s.coder) for s in base.spans)],
        texts={"doc": "." * 300, "doc2": "." * 300, "unseen": "abc"},
    )
    res = unitizing_alpha(twice)
    assert res.n_documents == 2 and res.n_documents_dropped == 1 and res.continuum_length == 600
    assert res.categories[1].observed_disagreement == 0
    lo, hi = res.confidence_interval(n_resamples=50, rng=1)
    assert lo <= hi
    with pytest.raises(AccordError, match="not to overlap; coder 'a' has 'X' at \\[0, 5\\) and \\[3, 6\\)"):
        unitizing_alpha(SpanAnnotations.from_spans(
            [Span("d", 0, 5, "X", "a"), Span("d", 3, 6, "X", "a"), Span("d", 0, 5, "X", "b")]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        empty = unitizing_alpha(SpanAnnotations.from_spans(
            [Span("d", 0, 0, "X", "a"), Span("d", 0, 3, "X", "b")], texts={"d": "abcdef"}))
    assert empty.n_empty_units_dropped == 1
    # a document of length 0 drawn alone leaves no continuum: that resample is undefined, not a crash
    with_blank = SpanAnnotations.from_spans(
        [Span("d", 0, 3, "X", "a"), Span("d", 1, 3, "X", "b"), Span("d", 4, 6, "X", "b")],
        texts={"d": "abcdefgh", "blank": ""}, seen=[("blank", "a"), ("blank", "b")])
    lo, hi = unitizing_alpha(with_blank).confidence_interval(n_resamples=100, rng=0)
    assert lo <= hi


def test_unitizing_bootstrap_statistic_at_full_weights_is_the_estimate():
    data = SpanAnnotations.from_spans(
        [Span("d1", 0, 4, "X", "a"), Span("d1", 1, 4, "X", "b"), Span("d2", 2, 6, "X", "a"),
         Span("d2", 5, 9, "Y", "b"), Span("d3", 0, 3, "Y", "a"), Span("d3", 0, 3, "Y", "b")],
        texts={"d1": "." * 10, "d2": "." * 12, "d3": "." * 5},
    )
    res = unitizing_alpha(data)
    captured = {}

    import accord.spans._bootstrap as bs

    real = bs.bootstrap_groups

    def spy(n, statistic, **kw):
        captured["full"] = statistic(np.repeat(np.arange(n, dtype=float), 1))
        return real(n, statistic, **kw)

    bs.bootstrap_groups = spy
    try:
        res.confidence_interval(n_resamples=20, rng=0)
    finally:
        bs.bootstrap_groups = real
    assert captured["full"] == pytest.approx(res.alpha, abs=1e-12)


# ---------------------------------------------------------------- bootstrap
def test_document_bootstrap_intervals():
    rng = np.random.default_rng(3)
    spans, texts = [], {}
    for d in range(8):
        texts[f"d{d}"] = " ".join(["w"] * 20)
        for c in ("a", "b"):
            for _ in range(4):
                s = int(rng.integers(0, 18)) * 2
                spans.append(Span(f"d{d}", s, s + 1, str(rng.choice(["X", "Y"])), c))
    data = SpanAnnotations.from_spans(spans, texts=texts)
    f1 = span_f1(data)
    lo, hi = f1.confidence_interval(n_resamples=200, rng=0)
    assert lo <= f1.micro_f1 <= hi
    tok = token_agreement(data)
    lo, hi = tok.confidence_interval(n_resamples=200, rng=0)
    assert lo <= tok.alpha.alpha <= hi
    assert tok.confidence_interval(n_resamples=50, rng=4) == tok.confidence_interval(n_resamples=50, rng=4)
    single = SpanAnnotations.from_spans([Span("d", 0, 1, "X", "a"), Span("d", 0, 1, "Y", "b")], texts={"d": "a b"})
    with pytest.raises(AccordError, match="needs at least two; the data have 1"):
        span_f1(single).confidence_interval()


def test_discontinuous_spans_in_tokens_and_unitizing():
    text = "abc def ghi"
    gap = Span("d", 0, 11, "X", "a", fragments=((0, 3), (8, 11)))  # brat "X 0 3;8 11"
    data = SpanAnnotations.from_spans([gap, Span("d", 0, 3, "X", "b"), Span("d", 8, 11, "X", "b")],
                                      texts={"d": text})
    table, _, _ = token_table(data)
    assert table.to_matrix().tolist() == [["X", OUTSIDE, "X"], ["X", OUTSIDE, "X"]]
    assert token_agreement(data).alpha.alpha == 1.0
    # each fragment is a unit: the same units as b's two spans
    assert unitizing_alpha(data).alpha == 1.0
    # exact matching compares fragments: a's one discontinuous span matches neither of b's
    assert span_f1(data).pairs[0].micro.true_positives == 0
    assert span_f1(data, match="overlap").pairs[0].micro.true_positives == 1


def test_bio_scheme_tells_two_adjacent_spans_from_one():
    text = "Ann saw New York"
    one = [Span("d", 8, 16, "LOC", "a")]
    two = [Span("d", 8, 11, "LOC", "b"), Span("d", 12, 16, "LOC", "b")]
    data = SpanAnnotations.from_spans(one + two, texts={"d": text})
    plain, _, _ = token_table(data)
    assert plain.to_matrix()[:, 2:].tolist() == [["LOC", "LOC"], ["LOC", "LOC"]]
    bio, _, _ = token_table(data, scheme="bio")
    assert bio.to_matrix()[:, 2:].tolist() == [["B-LOC", "I-LOC"], ["B-LOC", "B-LOC"]]
    res = token_agreement(data, scheme="bio")
    assert res.scheme == "bio"
    assert res.alpha.alpha == pytest.approx(accord.alpha(bio).alpha)
    with pytest.raises(AccordError, match="scheme must be one of 'label', 'bio'; got 'iob2'"):
        token_agreement(data, scheme="iob2")
