"""The standard coreference scores against the CoNLL-2012 reference scorer's test cases
(conll/reference-coreference-scorers, test/TestCases.README, v8.01; Pradhan et al. 2014)
and the worked examples of the papers that define them."""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord._shared.errors import AccordError, AccordWarning
from accord.coref import CorefAnnotations, example_passonneau2004
from accord.coref._scores import b_cubed, blanc, ceaf, coref_scores, lea, muc


def P(*clusters: str) -> list[list[str]]:
    """A partition written as in TestCases.README: P("a", "bc") = {a} {bc}."""
    return [list(c) for c in clusters]


KEY_A = P("a", "bc", "def")

# id: (key, response, {metric: (recall, precision)}, {"blanc": f1 or components})
# Values from TestCases.README; "B" in TC-A-5/6 is a mention overlapping b (a different span),
# in TC-A-7/8/9 it is b itself repeated (the test of de-duplication).
CASES = {
    "TC-A-1": (KEY_A, P("a", "bc", "def"), {
        "b_cubed": (1, 1), "muc": (1, 1), "ceaf_m": (1, 1), "ceaf_e": (1, 1), "lea": (1, 1),
        "blanc": ((4, 4), (4, 4), (11, 11), (11, 11))}),
    "TC-A-2": (KEY_A, P("a", "de"), {
        "b_cubed": (Fr(7, 18), 1), "muc": (Fr(1, 3), 1), "ceaf_m": (Fr(3, 6), 1),
        "ceaf_e": (Fr(18, 30), Fr(18, 20)), "lea": (Fr(2, 6), 1),
        "blanc": ((1, 4), (1, 1), (2, 11), (2, 2))}),
    "TC-A-3": (KEY_A, P("a", "bcx", "defy", "z"), {
        "b_cubed": (1, Fr(55, 108)), "muc": (1, Fr(3, 5)), "ceaf_m": (1, Fr(6, 9)),
        "ceaf_e": ((1 + Fr(4, 5) + Fr(6, 7)) / 3, (1 + Fr(4, 5) + Fr(6, 7)) / 4),
        "lea": (1, Fr(4, 9)), "blanc": ((4, 4), (4, 9), (11, 11), (11, 27))}),
    "TC-A-4": (KEY_A, P("a", "bcx", "dy", "z"), {
        "b_cubed": (Fr(5, 9), Fr(17, 42)), "muc": (Fr(1, 3), Fr(1, 3)), "ceaf_m": (Fr(4, 6), Fr(4, 7)),
        "ceaf_e": (Fr(22, 30), Fr(22, 40)), "lea": (Fr(3, 6), Fr(2, 7)),
        "blanc": ((1, 4), (1, 4), (5, 11), (5, 17))}),
    "TC-A-5": (KEY_A, [["a"], ["b", "c", "x", "B"], ["d", "y"], ["z"]], {
        "b_cubed": (Fr(5, 9), Fr(5, 16)), "muc": (Fr(1, 3), Fr(1, 4)), "ceaf_m": (Fr(4, 6), Fr(4, 8)),
        "ceaf_e": ((1 + Fr(4, 6) + Fr(2, 5)) / 3, (1 + Fr(4, 6) + Fr(2, 5)) / 4),
        "lea": (Fr(3, 6), (1 + 4 * Fr(1, 6)) / 8), "blanc": ((1, 4), (1, 7), (5, 11), (5, 21))}),
    "TC-A-6": (KEY_A, [["a"], ["b", "c", "x"], ["d", "y"], ["B", "z"]], {
        "b_cubed": (Fr(5, 9), Fr(17, 48)), "muc": (Fr(1, 3), Fr(1, 4)), "ceaf_m": (Fr(4, 6), Fr(4, 8)),
        "ceaf_e": (Fr(22, 30), Fr(22, 40)), "lea": (Fr(3, 6), Fr(2, 8)),
        "blanc": ((1, 4), (1, 5), (5, 11), (5, 23))}),
}
_A4 = CASES["TC-A-4"][2]
CASES["TC-A-7"] = (KEY_A, [["a"], ["b", "c", "x", "b"], ["d", "y"], ["z"]], _A4)
CASES["TC-A-8"] = (KEY_A, [["a"], ["b", "c", "x"], ["d", "y"], ["b", "z"]], _A4)
CASES["TC-A-9"] = (KEY_A, [["a"], ["b", "c", "x"], ["d", "y"], ["b"] * 10 + ["z"]], _A4)
CASES.update({
    "TC-A-10": (KEY_A, P(*"abcdef"), {
        "b_cubed": (Fr(3, 6), 1), "muc": (0, 0), "lea": (Fr(1, 6), Fr(1, 6)),
        "blanc": ((0, 4), (0, 0), (11, 11), (11, 15))}),
    "TC-A-11": (KEY_A, P("abcdef"), {
        "b_cubed": (1, Fr(7, 18)), "muc": (1, Fr(3, 5)), "lea": (Fr(5, 6), Fr(4, 15)),
        "blanc": ((4, 4), (4, 15), (0, 11), (0, 0))}),
    "TC-A-12": (KEY_A, P(*"axycdez"), {
        "b_cubed": (Fr(13, 36), Fr(4, 7)), "muc": (0, 0), "lea": (Fr(1, 6), Fr(1, 7)),
        "blanc": ((0, 4), (0, 0), (5, 11), (5, 21))}),
    "TC-A-13": (KEY_A, P("axycdez"), {
        "b_cubed": (Fr(17, 36), Fr(6, 49)), "muc": (Fr(1, 3), Fr(1, 6)), "lea": (Fr(1, 6), Fr(1, 21)),
        "blanc": ((1, 4), (1, 21), (0, 11), (0, 0))}),
    "TC-B-1": (P("ab", "cde"), P("bcx", "de"), {
        "lea": (Fr(1, 5), Fr(2, 5)), "blanc": ((1, 4), (1, 4), (2, 6), (2, 6))}),
    "TC-C-1": (P("ab", "cde", "fg"), P("bcx", "de", "fg"), {
        "lea": (Fr(3, 7), Fr(4, 7)), "blanc": ((2, 5), (2, 5), (10, 16), (10, 16))}),
    # examples from the B-cubed paper (Bagga & Baldwin 1998)
    "TC-D-1": (P("12345", "67", "89ABC"), P("12345", "6789ABC"), {
        "b_cubed": (1, Fr(16, 21)), "muc": (1, Fr(9, 10)), "lea": (1, (5 + 7 * Fr(11, 21)) / 12)}),
    "TC-E-1": (P("12345", "67", "89ABC"), P("1234589ABC", "67"), {
        "b_cubed": (1, Fr(7, 12)), "muc": (1, Fr(9, 10)), "lea": (1, (10 * Fr(20, 45) + 2) / 12)}),
    # examples from the MUC paper (Vilain et al. 1995)
    "TC-F-1": (P("ABCD"), P("AB", "CD"), {"muc": (Fr(2, 3), 1), "lea": (Fr(2, 6), 1)}),
    "TC-G-1": (P("AB", "CD"), P("ABCD"), {"muc": (1, Fr(2, 3)), "lea": (1, Fr(2, 6))}),
    "TC-H-1": (P("ABCD"), P("ABCD"), {"muc": (1, 1), "lea": (1, 1)}),
    "TC-I-1": (P("ABCD"), P("AB", "CD"), {"muc": (Fr(2, 3), 1), "lea": (Fr(2, 6), 1)}),
    "TC-J-1": (P("ABC"), P("AC"), {"muc": (Fr(1, 2), 1), "lea": (Fr(1, 3), 1)}),
    "TC-K-1": (P("BCDEGHJ"), P("ABC", "DEF", "GHI"), {
        "muc": (Fr(3, 6), Fr(3, 6)), "lea": (Fr(3, 21), Fr(3, 9))}),
    "TC-L-1": (P("ABC", "DEFG"), P("AB", "CD", "FGH"), {
        "muc": (Fr(2, 5), Fr(2, 4)), "lea": ((3 * Fr(1, 3) + 4 * Fr(1, 6)) / 7, Fr(3, 7))}),
    # only coreferent mentions in the key
    "TC-M-1": (P("abcdef"), P("abcdef"), {
        "b_cubed": (1, 1), "muc": (1, 1), "ceaf_m": (1, 1), "ceaf_e": (1, 1), "lea": (1, 1),
        "blanc": ((15, 15), (15, 15), (0, 0), (0, 0))}),
    "TC-M-2": (P("abcdef"), P(*"abcdef"), {
        "muc": (0, 0), "lea": (0, 0), "blanc": ((0, 15), (0, 0), (0, 0), (0, 15))}),
    "TC-M-3": (P("abcdef"), P("ab", "cde", "f"), {
        "lea": (Fr(4, 15), Fr(5, 6)), "blanc": ((4, 15), (4, 4), (0, 0), (0, 11))}),
    "TC-M-4": (P("abcdef"), P("abcxyz"), {
        "lea": (Fr(3, 15), Fr(3, 15)), "blanc": ((3, 15), (3, 15), (0, 0), (0, 0))}),
    "TC-M-5": (P("abcdef"), P(*"abcxyz"), {
        "muc": (0, 0), "lea": (0, 0), "blanc": ((0, 15), (0, 0), (0, 0), (0, 15))}),
    "TC-M-6": (P("abcdef"), P("ab", "cxy", "z"), {
        "lea": (Fr(1, 15), Fr(2, 6)), "blanc": ((1, 15), (1, 4), (0, 0), (0, 11))}),
    # only singletons in the key
    "TC-N-1": (P(*"abcdef"), P(*"abcdef"), {
        "b_cubed": (1, 1), "muc": (0, 0), "ceaf_m": (1, 1), "ceaf_e": (1, 1), "lea": (1, 1),
        "blanc": ((0, 0), (0, 0), (15, 15), (15, 15))}),
    "TC-N-2": (P(*"abcdef"), P("abcdef"), {"lea": (0, 0), "blanc": ((0, 0), (0, 15), (0, 15), (0, 0))}),
    "TC-N-3": (P(*"abcdef"), P("ab", "cde", "f"), {
        "lea": (Fr(1, 6), Fr(1, 6)), "blanc": ((0, 0), (0, 4), (11, 15), (11, 11))}),
    "TC-N-4": (P(*"abcdef"), P(*"abcxyz"), {
        "muc": (0, 0), "lea": (Fr(1, 2), Fr(1, 2)), "blanc": ((0, 0), (0, 0), (3, 15), (3, 15))}),
    "TC-N-5": (P(*"abcdef"), P("abcxyz"), {"lea": (0, 0), "blanc": ((0, 0), (0, 15), (0, 15), (0, 0))}),
    "TC-N-6": (P(*"abcdef"), P("ab", "cxy", "z"), {
        "lea": (0, 0), "blanc": ((0, 0), (0, 4), (2, 15), (2, 11))}),
})

# BLANC F1 as printed (two decimals) where TestCases.README prints one
BLANC_F1 = {
    "TC-A-1": 1, "TC-A-2": 0.35, "TC-A-3": 0.60, "TC-A-4": 0.30, "TC-A-5": 0.25, "TC-A-6": 0.26,
    "TC-A-7": 0.30, "TC-A-10": 0.42, "TC-A-11": 0.21, "TC-A-12": 0.16, "TC-A-13": 0.04,
    "TC-B-1": 7 / 24, "TC-C-1": 0.5125, "TC-M-1": 1, "TC-M-2": 0, "TC-M-3": 0.42, "TC-M-4": 0.20,
    "TC-M-5": 0, "TC-M-6": 0.11, "TC-N-1": 1, "TC-N-2": 0, "TC-N-3": 0.85, "TC-N-4": 0.20, "TC-N-5": 0,
    "TC-N-6": 0.15,
}


def _f(x) -> float:
    return float(x)


@pytest.mark.parametrize("case", sorted(CASES))
def test_reference_scorer_cases(case):
    """TestCases.README of the CoNLL-2012 reference scorer (Pradhan et al. 2014)."""
    key, response, expected = CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        scores = coref_scores(key, response)
    for metric, exp in expected.items():
        if metric == "blanc":
            s = scores.blanc
            for half, (num_r, den_r), (num_p, den_p) in (
                (s.coreference, exp[0], exp[1]),
                (s.non_coreference, exp[2], exp[3]),
            ):
                assert (half.recall_numerator, half.recall_denominator) == (num_r, den_r), (case, half)
                assert (half.precision_numerator, half.precision_denominator) == (num_p, den_p), (case, half)
            continue
        s = getattr(scores, metric)
        assert s.recall == pytest.approx(_f(exp[0]), abs=1e-12), (case, metric, "recall")
        assert s.precision == pytest.approx(_f(exp[1]), abs=1e-12), (case, metric, "precision")
    if case in BLANC_F1:
        tol = 1e-12 if case in ("TC-B-1", "TC-C-1") else 0.005 + 1e-9
        assert scores.blanc.f1 == pytest.approx(BLANC_F1[case], abs=tol), case


def _truncated(value: float, printed: float) -> bool:
    """The reference scorer prints scores truncated, not rounded, to four places (int(x * 10000))."""
    return printed - 1e-12 <= value < printed + 1e-4 + 1e-12


def test_printed_f_values():
    """F values TestCases.README prints (exact fractions, or truncated to four places)."""
    s = coref_scores(KEY_A, P("a", "de"))
    assert s.ceaf_m.f1 == pytest.approx(6 / 9)
    assert s.ceaf_e.f1 == pytest.approx(3.6 / 5)
    assert _truncated(s.b_cubed.f1, 0.5599)
    s = coref_scores(KEY_A, P("a", "bcx", "defy", "z"))
    assert s.ceaf_m.f1 == pytest.approx(12 / 15)
    assert _truncated(s.b_cubed.f1, 0.6748)
    s = coref_scores(KEY_A, P("a", "bcx", "dy", "z"))
    assert s.ceaf_m.f1 == pytest.approx(8 / 13)
    assert s.ceaf_e.f1 == pytest.approx(4.4 / 7)
    assert _truncated(s.b_cubed.f1, 0.4683)
    assert s.muc.f1 == pytest.approx(1 / 3)
    s = coref_scores(KEY_A, [["a"], ["b", "c", "x", "B"], ["d", "y"], ["z"]])
    assert s.muc.f1 == pytest.approx(2 / 7)
    assert s.ceaf_m.f1 == pytest.approx(8 / 14)
    assert _truncated(s.b_cubed.f1, 0.4)
    d1 = coref_scores(P("12345", "67", "89ABC"), P("12345", "6789ABC"))
    assert d1.b_cubed.f1 == pytest.approx(0.864864865)
    assert d1.muc.f1 == pytest.approx(0.947368421)
    e1 = coref_scores(P("12345", "67", "89ABC"), P("1234589ABC", "67"))
    assert e1.b_cubed.f1 == pytest.approx(0.736842105)
    a13 = coref_scores(KEY_A, P("axycdez"))
    assert _truncated(a13.b_cubed.f1, 0.19447)


def test_passonneau2004_section4_muc_recall():
    """Passonneau 2004, section 4: recall of {C, H, J, K} partitioned by {{C, H}, {J, K}} is (4-2)/(4-1)."""
    s = muc([["C", "H", "J", "K"]], [["C", "H"], ["J", "K"]])
    assert (s.recall_numerator, s.recall_denominator) == (2, 3)
    # the same with RA.3 as key and RA.1 as response on the seed's Table 1
    data = example_passonneau2004()
    s = muc(data.partition("RA.3"), data.partition("RA.1"))
    # RA.3's chains {A,D} {B,E,F,L} {C,H,J,K} {G}: 1 + 3 + (4-2) + 0 over 1 + 3 + 3 + 0
    assert (s.recall_numerator, s.recall_denominator) == (6, 7)


def test_all_singleton_key_muc_is_zero_with_note():
    """An all-singleton key has no links: MUC recall 0/0 = 0 as the reference scorer reports."""
    with pytest.warns(AccordWarning, match="reported as 0"):
        s = muc(P(*"abc"), P("ab", "c"))
    assert s.recall == 0 and s.recall_denominator == 0 and s.f1 == 0
    assert "recall denominator is 0" in s.note


def test_documents_are_summed_not_averaged():
    """Counts are summed over documents before dividing (reference scorer)."""
    key = {"d1": P("abcd"), "d2": P("ab")}
    resp = {"d1": P("ab", "cd"), "d2": P("ab")}
    s = muc(key, resp)
    assert (s.recall_numerator, s.recall_denominator) == (3, 4)  # not (2/3 + 1) / 2
    b = b_cubed(key, resp)
    assert b.recall == pytest.approx((2 + 2) / 6)
    # a mention id in two documents is two mentions
    s = coref_scores({"d1": P("ab"), "d2": P("ab")}, {"d1": P("ab"), "d2": P("a", "b")})
    assert s.muc.recall == pytest.approx(1 / 2)
    assert s.n_documents == 2


def test_documents_missing_on_either_side():
    with pytest.warns(AccordWarning, match="not in the key"):
        s = muc({"d1": P("ab")}, {"d1": P("ab"), "d9": P("xy")})
    assert s.precision == 1
    s = b_cubed({"d1": P("ab"), "d2": P("cd")}, {"d1": P("ab")})
    assert s.recall == pytest.approx(0.5) and s.precision == 1


def test_ceaf_assignment_needs_the_solver():
    """A case where greedy alignment is not optimal: phi3 must take the two 2-overlaps."""
    key = [list("abc"), list("def")]
    resp = [list("abd"), list("ce"), list("f")]
    s = ceaf(key, resp, similarity="mention")
    assert s.recall_numerator == 3  # {abc}-{abd} (2) + {def}-{ce}|{f} (1)
    key = [list("abcd"), list("efgh")]
    resp = [list("abe"), list("cdfg")]
    # greedy on {cdfg} would pair it with one key and leave the other with 1; optimum is 2+2
    assert ceaf(key, resp, similarity="mention").recall_numerator == 4


def test_input_forms_and_errors():
    data = CorefAnnotations.from_records([("d", "a", "k", 1), ("d", "b", "k", 1), ("d", "c", "k", 2)])
    assert muc(data, {"d": P("ab", "c")}).f1 == 1
    with pytest.raises(AccordError, match="partition\\(coder\\)"):
        muc(example_passonneau2004(), data)
    with pytest.raises(AccordError, match="collection of mentions"):
        muc(["ab"], [["a", "b"]])
    with pytest.raises(AccordError, match="similarity"):
        ceaf(KEY_A, KEY_A, similarity="phi5")
    with pytest.raises(AccordError, match="must be"):
        muc(3, KEY_A)
    # spans given as lists (JSON) are the same mentions as tuples
    assert muc({"d": [[[0, 1], [3, 4]]]}, {"d": [[(0, 1), (3, 4)]]}).f1 == 1


def test_single_metric_functions_agree_with_coref_scores():
    key, resp = KEY_A, P("a", "bcx", "dy", "z")
    all_ = coref_scores(key, resp)
    assert lea(key, resp) == all_.lea
    assert blanc(key, resp) == all_.blanc
    assert ceaf(key, resp) == all_.ceaf_e
    assert ceaf(key, resp, similarity="mention") == all_.ceaf_m
    assert b_cubed(key, resp) == all_.b_cubed


def test_results_to_dict_and_frame():
    s = coref_scores(KEY_A, P("a", "bcx", "dy", "z"))
    d = s.to_dict()
    assert d["muc"]["recall_denominator"] == 3 and "coreference" in d["blanc"]
    frame = s.to_frame()
    assert list(frame.index) == ["muc", "b_cubed", "ceaf_m", "ceaf_e", "blanc", "lea", "conll"]
    assert s.conll_f1 == pytest.approx((s.muc.f1 + s.b_cubed.f1 + s.ceaf_e.f1) / 3)


# --------------------------------------------------------------------------- oracle: the definitions, plainly
def _naive(key, resp):
    def dedup(part):
        seen, out = set(), []
        for c in part:
            c2 = []
            for m in c:
                if m not in seen:
                    seen.add(m)
                    c2.append(m)
            if c2:
                out.append(frozenset(c2))
        return out

    key, resp = dedup(key), dedup(resp)
    kof = {m: i for i, c in enumerate(key) for m in c}
    rof = {m: i for i, c in enumerate(resp) for m in c}

    def muc_side(a, bof):
        num = sum(len(c) - len({bof.get(m, ("own", m)) for m in c}) for c in a)
        return num, sum(len(c) - 1 for c in a)

    rn, rd = muc_side(key, rof)
    pn, pd_ = muc_side(resp, kof)
    b3r = sum(len(k & r) ** 2 / len(k) for k in key for r in resp)
    b3p = sum(len(k & r) ** 2 / len(r) for k in key for r in resp)

    def best(phi):
        # brute force over injective maps (small inputs only)
        small, large, flip = (key, resp, False) if len(key) <= len(resp) else (resp, key, True)
        top = 0.0
        for perm in itertools.permutations(range(len(large)), len(small)):
            tot = sum(
                phi(small[i], large[j]) if not flip else phi(large[j], small[i]) for i, j in enumerate(perm)
            )
            top = max(top, tot)
        return top

    ceafm = best(lambda k, r: len(k & r))
    ceafe = best(lambda k, r: 2 * len(k & r) / (len(k) + len(r)))

    def links(part):
        c, n = set(), set()
        ms = [m for p in part for m in p]
        for x, y in itertools.combinations(ms, 2):
            pair = frozenset((x, y))
            same = any(x in p and y in p for p in part)
            (c if same else n).add(pair)
        return c, n

    ck, nk = links(key)
    cr, nr = links(resp)

    def lea_side(a, b, bof):
        num = 0.0
        for e in a:
            if len(e) == 1:
                (m,) = e
                res = 1.0 if m in bof and len(b[bof[m]]) == 1 else 0.0
            else:
                res = sum(len(e & o) * (len(e & o) - 1) / 2 for o in b) / (len(e) * (len(e) - 1) / 2)
            num += len(e) * res
        return num

    return {
        "muc": (rn, rd, pn, pd_),
        "b_cubed": (b3r, sum(map(len, key)), b3p, sum(map(len, resp))),
        "ceaf_m": (ceafm, sum(map(len, key)), ceafm, sum(map(len, resp))),
        "ceaf_e": (ceafe, len(key), ceafe, len(resp)),
        "blanc_c": (len(ck & cr), len(ck), len(ck & cr), len(cr)),
        "blanc_n": (len(nk & nr), len(nk), len(nk & nr), len(nr)),
        "lea": (lea_side(key, resp, rof), sum(map(len, key)), lea_side(resp, key, kof), sum(map(len, resp))),
    }


partitions = st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=5), min_size=0, max_size=5)


@settings(max_examples=150, deadline=None)
@given(key=partitions, resp=partitions)
def test_against_the_definitions(key, resp):
    """Every count equals a plain set computation of its definition (with first-occurrence de-duplication)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        s = coref_scores(key, resp)
    exp = _naive(key, resp)
    got = {
        "muc": s.muc, "b_cubed": s.b_cubed, "ceaf_m": s.ceaf_m, "ceaf_e": s.ceaf_e,
        "blanc_c": s.blanc.coreference, "blanc_n": s.blanc.non_coreference, "lea": s.lea,
    }
    for name, r in got.items():
        counts = (r.recall_numerator, r.recall_denominator, r.precision_numerator, r.precision_denominator)
        assert np.allclose(counts, exp[name], atol=1e-9), (name, counts, exp[name])


def test_large_corpus_is_fast():
    """Vectorised counts: 200 documents x 500 mentions in a few hundred milliseconds."""
    rng = np.random.default_rng(0)
    key, resp = {}, {}
    for d in range(200):
        k = rng.integers(0, 60, 500)
        r = np.where(rng.random(500) < 0.8, k, rng.integers(0, 80, 500))
        key[d] = [list(np.flatnonzero(k == e)) for e in np.unique(k)]
        resp[d] = [list(np.flatnonzero(r == e)) for e in np.unique(r)]
    s = coref_scores(key, resp)
    assert 0 < s.conll_f1 < 1
