"""Relation agreement (accord.relations.agreement): F1 and the reasons by hand, alpha against krippendorff and
an independent construction of the candidate matrix, the argument alignments, and the refusals."""

from __future__ import annotations

import json
import math
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from accord import AccordError, AccordWarning
from accord.relations import Relation, RelationAnnotations, agreement
from accord.spans import Span


def sp(coder: str, s: int, e: int, label: str = "E", doc: str = "d") -> Span:
    return Span(doc, s, e, label, coder)


def rel(coder: str, typ: str, a: tuple[int, int], b: tuple[int, int], *, doc: str = "d", la: str = "E",
        lb: str = "E", directed: bool = True) -> Relation:
    return Relation(doc, coder, typ, sp(coder, *a, la, doc), sp(coder, *b, lb, doc), directed=directed)


X, Y, Z = (0, 4), (10, 14), (20, 24)


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        return func(*args, **kwargs)


# ------------------------------------------------------------------------------------------ F1 and reasons by hand
def test_direction_differs():
    """a: X->Y, b: Y->X, same directed type: typed F1 0 (reason direction on both sides), untyped F1 1."""
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("b", "T", Y, X)])
    res = quiet(agreement, data)
    assert (res.f1, res.f1_untyped) == (0.0, 1.0)
    assert [(u.coder, u.reason, u.other_type) for u in res.unmatched] == [("a", "direction", "T"),
                                                                           ("b", "direction", "T")]
    # the candidate values say the direction: forward for a, reversed for b
    frame = res.candidates_frame()
    assert frame["value"].tolist() == ["T", "T (reversed)"]


def test_undirected_type_matches_either_way():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("b", "T", Y, X)])
    res = quiet(agreement, data, undirected=["T"])
    assert (res.f1, res.f1_untyped) == (1.0, 1.0)
    assert res.unmatched == ()
    assert res.candidates_frame()["value"].tolist() == ["T", "T"]


def test_a_relation_going_both_ways_is_not_a_directed_one():
    """Label Studio's "bi": undirected for that relation only; against a directed one it is a direction
    difference, and its value says so."""
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y, directed=False), rel("b", "T", X, Y)])
    res = quiet(agreement, data)
    assert res.f1 == 0.0 and res.f1_untyped == 1.0
    assert {u.reason for u in res.unmatched} == {"direction"}
    assert res.candidates_frame()["value"].tolist() == ["T (undirected)", "T"]


def test_type_differs_and_absent_and_argument():
    """Hand-made: a has X->Y T, Y->Z T, X->Z T; b has X->Y S (type), marks Z and does not relate Y, Z
    (absent); c has only X and Y marked, relating X->Y T.

    Pair (a, b): a's 3 relations, b's 1, no typed match: F1 0; untyped: X-Y matches: 2 * 1 / 4 = 0.5.
    Pair (a, c): X->Y matches: 2 * 1 / (3 + 1) = 0.5; a's Y->Z and X->Z lack c's Z: reason argument.
    Pair (b, c): b's X->Y S vs c's X->Y T: type; F1 0, untyped 1.
    """
    data = RelationAnnotations.from_relations(
        [rel("a", "T", X, Y), rel("a", "T", Y, Z), rel("a", "T", X, Z), rel("b", "S", X, Y), rel("c", "T", X, Y)],
        spans=[sp("b", *Z)],
    )
    res = quiet(agreement, data)
    scores = {(p.coder_a, p.coder_b): (p.typed.f1, p.untyped.f1) for p in res.pairs}
    assert scores == {("a", "b"): (0.0, 0.5), ("a", "c"): (0.5, 0.5), ("b", "c"): (0.0, 1.0)}
    assert res.f1 == pytest.approx((0 + 0.5 + 0) / 3)
    why = {(u.coder, u.other_coder, u.source, u.target): (u.reason, u.missing, u.other_type) for u in res.unmatched}
    assert why[("a", "b", "[0, 4) 'E'", "[10, 14) 'E'")] == ("type", None, "S")
    assert why[("a", "b", "[10, 14) 'E'", "[20, 24) 'E'")] == ("absent", None, None)
    assert why[("a", "c", "[10, 14) 'E'", "[20, 24) 'E'")] == ("argument", "target", None)
    assert why[("b", "c", "[0, 4) 'E'", "[10, 14) 'E'")] == ("type", None, "T")
    assert why[("c", "b", "[0, 4) 'E'", "[10, 14) 'E'")] == ("type", None, "S")
    # candidates: X-Y, X-Z, Y-Z; values: a T T T; b S none none; c T missing missing
    assert res.n_candidates == 3
    m = {(r.candidate, r.coder): r.value for r in res.candidates_frame().itertuples()}
    assert m == {(0, "a"): "T", (0, "b"): "S", (0, "c"): "T", (1, "a"): "T", (1, "b"): "none",
                 (2, "a"): "T", (2, "b"): "none"}
    # alpha by krippendorff over the same matrix (T=1, S=2, none=3)
    matrix = np.array([[1, 1, 1], [2, 3, 3], [1, np.nan, np.nan]])
    assert res.alpha == pytest.approx(krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal"))
    assert math.isnan(res.kappa)  # three coders


def test_unmarked_as_none():
    """With unmarked="none", c (who saw the document) relates nothing on X-Z and Y-Z instead of being missing."""
    data = RelationAnnotations.from_relations(
        [rel("a", "T", X, Y), rel("a", "T", Y, Z), rel("c", "T", X, Y)], spans=[sp("b", *X)])
    res = quiet(agreement, data, unmarked="none")
    m = {(r.candidate, r.coder): r.value for r in res.candidates_frame().itertuples()}
    assert m == {(0, "a"): "T", (0, "b"): "none", (0, "c"): "T", (1, "a"): "T", (1, "b"): "none",
                 (1, "c"): "none"}
    matrix = np.array([[1, 1], [2, 2], [1, 2]])
    assert res.alpha == pytest.approx(krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal"))
    missing = quiet(agreement, data)
    assert missing.n_pairable == 1  # only X-Y has two values (a and c); b marked Y nowhere


def test_ignore_type_compares_related_or_not():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("b", "S", X, Y), rel("b", "S", Y, X)])
    res = quiet(agreement, data, ignore_type=True)
    assert res.candidates_frame()["value"].tolist() == ["related", "related + related (reversed)"]


def test_two_coders_kappa_is_cohen_on_the_candidates():
    data = RelationAnnotations.from_relations(
        [rel("a", "T", X, Y), rel("a", "S", Y, Z), rel("b", "T", X, Y), rel("b", "T", X, Z)],
        spans=[sp("a", *Z), sp("b", *Y)])
    res = quiet(agreement, data)
    frame = res.candidates_frame().pivot(index="candidate", columns="coder", values="value")
    assert res.kappa == pytest.approx(cohen_kappa_score(frame["a"], frame["b"]))
    assert res.kappa_result is not None


def test_events_are_roles_from_the_trigger():
    """An event: trigger span + role arguments = one relation per role from the trigger."""
    trig_a, trig_b = sp("a", 5, 9, "Bind"), sp("b", 5, 9, "Bind")
    rels = [Relation("d", "a", "Theme", trig_a, sp("a", *X, "Prot"), event="E1"),
            Relation("d", "a", "Theme", trig_a, sp("a", *Y, "Prot"), event="E1"),
            Relation("d", "b", "Theme", trig_b, sp("b", *X, "Prot"), event="E1"),
            Relation("d", "b", "Site", trig_b, sp("b", *Y, "Prot"), event="E1")]
    res = quiet(agreement, RelationAnnotations.from_relations(rels))
    assert res.f1 == 0.5
    assert [(u.coder, u.reason, u.other_type) for u in res.unmatched] == [("a", "type", "Site"), ("b", "type", "Theme")]


def test_argument_labels_required_or_not():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y, la="PER"), rel("b", "T", X, Y, la="ORG")])
    assert quiet(agreement, data).f1 == 0.0
    assert [u.missing for u in quiet(agreement, data).unmatched] == ["source", "source"]
    assert quiet(agreement, data, argument_labels=False).f1 == 1.0


def test_overlap_and_gamma_align_what_exact_does_not():
    """b's spans differ by one character: exact finds no argument, overlap and gamma align them."""
    data = RelationAnnotations.from_relations([rel("a", "T", (0, 5), (10, 15)), rel("b", "T", (1, 5), (10, 14))])
    assert quiet(agreement, data).f1 == 0.0
    assert quiet(agreement, data, match="overlap").f1 == 1.0
    assert quiet(agreement, data, match="gamma").f1 == 1.0


def test_overlap_aligns_one_to_one_the_most_overlapping():
    """a's [0, 10) overlaps b's [0, 3) and [2, 10); the alignment takes [2, 10) (overlap 8 of 10), so a's
    relation from [0, 10) matches b's relation from [2, 10)."""
    data = RelationAnnotations.from_relations([rel("a", "T", (0, 10), (20, 25)), rel("b", "T", (2, 10), (20, 25))],
                                              spans=[sp("b", 0, 3)])
    assert quiet(agreement, data, match="overlap").f1 == 1.0


def test_gamma_aligns_near_spans_that_do_not_overlap():
    data = RelationAnnotations.from_relations([rel("a", "T", (0, 10), (20, 25)), rel("b", "T", (10, 20), (20, 25))])
    assert quiet(agreement, data, match="overlap").f1 == 0.0
    assert quiet(agreement, data, match="gamma").f1 in (0.0, 1.0)  # defined, whatever gamma's cost decides


def test_repeated_relation_counts_once():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("b", "T", X, Y)]
                                              + [Relation("d", "a", "T", sp("a", *X), sp("a", *Y), id="R9")])
    res = quiet(agreement, data)
    assert res.f1 == 1.0 and res.n_merged == 1


def test_documents_only_one_coder_saw_are_not_compared():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("b", "T", X, Y),
                                               rel("a", "T", X, Y, doc="e")])
    res = quiet(agreement, data)
    assert res.f1 == 1.0 and res.pairs[0].typed.n_a == 1


def test_to_dict_is_json():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("b", "T", X, Y), rel("b", "S", Y, Z)],
                                              spans=[sp("a", *Z)])
    out = json.loads(json.dumps(quiet(agreement, data).to_dict()))
    assert out["coefficient"] == "relation_alpha"
    assert {"f1", "f1_untyped", "alpha", "pairs", "unmatched"} <= set(out)
    assert out["pairs"][0]["typed"]["f1"] == pytest.approx(2 / 3)


def test_alpha_undefined_is_said():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y)], spans=[sp("b", *Z)])
    with pytest.warns(AccordWarning, match="relation alpha is undefined"):
        res = agreement(data)
    assert math.isnan(res.alpha) and "two coders" in res.undefined_reason


def test_no_relation_at_all_is_undefined_not_a_crash():
    """Spans marked by two coders and no relation anywhere (an INCEpTION project whose relation layer is empty):
    alpha undefined with its reason, F1 of nothing, no error."""
    data = RelationAnnotations.from_relations([], spans=[sp("a", *X), sp("b", *X), sp("a", *Y)])
    with pytest.warns(AccordWarning, match="relation alpha is undefined"):
        res = agreement(data)
    assert math.isnan(res.alpha) and res.undefined_reason
    json.dumps(res.to_dict(), allow_nan=False)


# --------------------------------------------------------------------------------------------------- refusals
def test_refusals():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("b", "T", X, Y)])
    with pytest.raises(AccordError, match="match must be one of"):
        agreement(data, match="fuzzy")
    with pytest.raises(AccordError, match="undirected names 1 type no relation has: 'U'"):
        agreement(data, undirected=["U"])
    with pytest.raises(AccordError, match="undirected must be a collection"):
        agreement(data, undirected="T")
    with pytest.raises(AccordError, match="unmarked must be one of"):
        agreement(data, unmarked="zero")
    with pytest.raises(AccordError, match="needs at least two coders"):
        agreement(RelationAnnotations.from_relations([rel("a", "T", X, Y)]))
    with pytest.raises(AccordError, match="RelationAnnotations"):
        agreement([rel("a", "T", X, Y)])


def test_relation_arguments_must_be_of_its_coder_and_document():
    with pytest.raises(AccordError, match="its target span .* is of coder 'b'"):
        Relation("d", "a", "T", sp("a", *X), sp("b", *Y))
    with pytest.raises(AccordError, match="type must be a non-empty text"):
        Relation("d", "a", " ", sp("a", *X), sp("a", *Y))


def test_records_with_dangling_ids_are_refused():
    spans = [{"id": "T1", "document": "d", "coder": "a", "start": 0, "end": 4, "label": "E"}]
    with pytest.raises(AccordError, match="relation R1 of coder 'a' in document 'd': its target 'T2' is not a span id"):
        RelationAnnotations.from_records(spans, [{"id": "R1", "document": "d", "coder": "a", "type": "T",
                                                  "source": "T1", "target": "T2"}])
    with pytest.raises(AccordError, match="span id 'T1' is used twice"):
        RelationAnnotations.from_records(spans + spans, [])
    with pytest.raises(AccordError, match="relation 1 has no 'type'"):
        RelationAnnotations.from_records(spans, [{"document": "d", "coder": "a", "source": "T1", "target": "T1"}])


# ------------------------------------------------------------------------------------ the oracle on random data
def _oracle(rels: list[tuple[str, str, int, int, str]], marked: dict[str, set[int]], coders: list[str]):
    """F1 per pair and the candidate matrix, built here from the raw relations with exact arguments
    (argument = its position number; every coder saw the one document)."""
    own = {c: {(s, t, typ) for cc, typ, s, t, _ in rels if cc == c} for c in coders}
    f1 = {}
    for i, a in enumerate(coders):
        for b in coders[i + 1:]:
            na, nb = len(own[a]), len(own[b])
            f1[(a, b)] = 2 * len(own[a] & own[b]) / (na + nb) if na + nb else math.nan
    pairs = sorted({(min(s, t), max(s, t)) for _, _, s, t, _ in rels})
    codes: dict[str, int] = {}
    matrix = np.full((len(coders), len(pairs)), np.nan)
    for u, (x, y) in enumerate(pairs):
        for k, c in enumerate(coders):
            vals = sorted({typ + ("" if s <= t or s == t else " (reversed)") for s, t, typ in own[c]
                           if (min(s, t), max(s, t)) == (x, y)})
            if vals:
                v = " + ".join(vals)
            elif x in marked[c] and y in marked[c]:
                v = "none"
            else:
                continue
            matrix[k, u] = codes.setdefault(v, len(codes))
    return f1, matrix


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from(["T", "S"]), st.integers(0, 4),
                          st.integers(0, 4)), min_size=1, max_size=14),
       st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 4)), max_size=8))
def test_against_an_independent_count(raw, extra):
    coders = ["a", "b", "c"]
    pos = [(10 * k, 10 * k + 5) for k in range(5)]
    rels = [(c, typ, s, t, "") for c, typ, s, t in raw]
    marked = {c: {s for cc, _, s, t, _ in rels if cc == c} | {t for cc, _, s, t, _ in rels if cc == c}
              | {p for cc, p in extra if cc == c} for c in coders}
    data = RelationAnnotations.from_relations(
        [rel(c, typ, pos[s], pos[t]) for c, typ, s, t, _ in rels], spans=[sp(c, *pos[p]) for c, p in extra],
        seen=[("d", c) for c in coders])
    res = quiet(agreement, data)
    f1, matrix = _oracle(rels, marked, coders)
    for p in res.pairs:
        want = f1[(p.coder_a, p.coder_b)]
        assert (math.isnan(want) and math.isnan(p.typed.f1)) or p.typed.f1 == pytest.approx(want)
    pairable = (np.sum(~np.isnan(matrix), axis=0) >= 2).sum()
    assert res.n_pairable == pairable
    if pairable and len(np.unique(matrix[:, np.sum(~np.isnan(matrix), axis=0) >= 2][~np.isnan(
            matrix[:, np.sum(~np.isnan(matrix), axis=0) >= 2])])) > 1:
        want = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
        assert res.alpha == pytest.approx(want)


@given(st.lists(st.tuples(st.sampled_from(["T", "S"]), st.integers(0, 5), st.integers(0, 5)), min_size=1,
                max_size=10),
       st.sampled_from(["exact", "overlap", "gamma"]))
def test_a_copy_agrees_fully_and_a_slightly_shifted_copy_aligns_by_overlap(raw, match):
    """b copies a's relations: F1 1 with any alignment; b's spans one character shorter: still F1 1 by overlap
    and gamma (spans 10 apart, 5 long), 0 relations matched exactly."""
    pos = [(10 * k, 10 * k + 5) for k in range(6)]
    a = [rel("a", t, pos[s], pos[g]) for t, s, g in raw]
    same = [rel("b", t, pos[s], pos[g]) for t, s, g in raw]
    short = [rel("b", t, (pos[s][0], pos[s][1] - 1), (pos[g][0], pos[g][1] - 1)) for t, s, g in raw]
    assert quiet(agreement, RelationAnnotations.from_relations(a + same), match=match).f1 == 1.0
    res = quiet(agreement, RelationAnnotations.from_relations(a + short), match=match)
    assert res.f1 == (0.0 if match == "exact" else 1.0)
    assert all(u.reason == "argument" for u in res.unmatched)


def test_unmarked_none_leaves_a_coder_who_never_saw_the_document_missing():
    data = RelationAnnotations.from_relations(
        [rel("a", "T", X, Y), rel("b", "T", X, Y), rel("a", "T", X, Y, doc="e"), rel("b", "T", X, Y, doc="e")],
        spans=[sp("c", *Z)])  # c saw document d only
    res = quiet(agreement, data, unmarked="none")
    m = {(r.candidate, r.coder): (r.document, r.value) for r in res.candidates_frame().itertuples()}
    assert m[(0, "c")] == ("d", "none") and (1, "c") not in m


def test_pairs_are_symmetric_in_the_coders():
    data = RelationAnnotations.from_relations([rel("a", "T", X, Y), rel("a", "S", Y, Z), rel("b", "T", X, Y)],
                                              spans=[sp("b", *Z)])
    swapped = RelationAnnotations.from_relations(
        [Relation(r.document, {"a": "b", "b": "a"}[r.coder], r.type,
                  Span("d", r.source.start, r.source.end, "E", {"a": "b", "b": "a"}[r.coder]),
                  Span("d", r.target.start, r.target.end, "E", {"a": "b", "b": "a"}[r.coder])) for r in data.relations],
        spans=[sp("a", *Z)])
    one, two = quiet(agreement, data), quiet(agreement, swapped)
    assert (one.f1, one.f1_untyped, one.alpha, one.kappa) == (two.f1, two.f1_untyped, two.alpha, two.kappa)
    assert one.pairs[0].typed.precision == two.pairs[0].typed.recall
