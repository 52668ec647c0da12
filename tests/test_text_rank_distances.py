"""Text, rank and taxonomy distances (issue 32): oracles written here, properties, alpha worked by hand.

Oracles: a plain dynamic-programming Levenshtein distance (not the library the code uses); for rankings
without ties scipy's ``kendalltau`` through d = (1 - tau) / 2; with ties a count over item pairs written
here (Fagin, Kumar, Mahdian, Sivakumar & Vee 2006, K^(p) with p = 1/2) and the footrule from mid-rank
positions (their F_prof); token sets and ancestor sets from Python sets.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import AccordError, Annotations, alpha
from accord.distances import (
    DISTANCE_NAMES,
    Footrule,
    KendallTau,
    Levenshtein,
    Taxonomy,
    TokenJaccard,
    check_rankings,
    get_distance,
    make_distance,
    ranking,
)

# ----------------------------------------------------------------------------------------------- oracles


def dp_levenshtein(a: str, b: str) -> int:
    """The textbook dynamic programme (Wagner & Fischer 1974)."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def bucket_of(r: tuple[frozenset, ...]) -> dict:
    return {x: b for b, g in enumerate(r) for x in g}


def kendall_pairs(r: tuple[frozenset, ...], t: tuple[frozenset, ...]) -> Fraction:
    """Fagin et al.'s K^(1/2) over item pairs, normalised by the number of pairs."""
    br, bt = bucket_of(r), bucket_of(t)
    items = sorted(br)
    total = Fraction(0)
    pairs = list(itertools.combinations(items, 2))
    for i, j in pairs:
        sr = (br[i] > br[j]) - (br[i] < br[j])
        st_ = (bt[i] > bt[j]) - (bt[i] < bt[j])
        if sr * st_ == -1:
            total += 1
        elif (sr == 0) != (st_ == 0):
            total += Fraction(1, 2)
    return total / len(pairs) if pairs else Fraction(0)


def footrule_positions(r: tuple[frozenset, ...]) -> dict:
    out, start = {}, 0
    for g in r:
        for x in g:
            out[x] = Fraction(2 * start + len(g) + 1, 2)  # mean of positions start+1 .. start+len(g)
        start += len(g)
    return out


def footrule_oracle(r, t) -> Fraction:
    pr, pt = footrule_positions(r), footrule_positions(t)
    n = len(pr)
    return sum((abs(pr[x] - pt[x]) for x in pr), Fraction(0)) / (n * n // 2) if n > 1 else Fraction(0)


def random_ranking(rng: random.Random, items: list, ties: bool = True) -> tuple[frozenset, ...]:
    order = items[:]
    rng.shuffle(order)
    groups: list[list] = []
    for x in order:
        if groups and ties and rng.random() < 0.4:
            groups[-1].append(x)
        else:
            groups.append([x])
    return ranking(groups)


def brute_alpha(records, delta) -> float:
    """Krippendorff's alpha from its definition, every pair of values within and across units."""
    units: dict = {}
    for u, _, v in records:
        units.setdefault(u, []).append(v)
    pairable = {u: vs for u, vs in units.items() if len(vs) >= 2}
    values = [v for vs in pairable.values() for v in vs]
    n = len(values)
    d_o = sum(sum(delta(a, b) for i, a in enumerate(vs) for j, b in enumerate(vs) if i != j) / (len(vs) - 1)
              for vs in pairable.values()) / n
    d_e = sum(delta(a, b) for i, a in enumerate(values) for j, b in enumerate(values) if i != j) / (n * (n - 1))
    return 1 - d_o / d_e


# ----------------------------------------------------------------------------------------------- rankings


def test_kendall_against_the_pair_count_with_ties():
    rng = random.Random(7)
    for n in (1, 2, 3, 5, 8):
        items = [f"i{k}" for k in range(n)]
        vals = [random_ranking(rng, items) for _ in range(40)]
        arr = np.empty(len(vals), dtype=object)
        arr[:] = vals
        p = KendallTau().prepare(arr, np.ones(len(vals)))
        m = p.matrix()
        for a in range(len(vals)):
            for b in range(len(vals)):
                assert m[a, b] == pytest.approx(float(kendall_pairs(vals[a], vals[b])), abs=1e-12)


def test_kendall_without_ties_is_scipys_tau():
    from scipy.stats import kendalltau

    rng = random.Random(3)
    items = list("abcdefg")
    for _ in range(50):
        r, t = random_ranking(rng, items, ties=False), random_ranking(rng, items, ties=False)
        pr = [bucket_of(r)[x] for x in items]
        pt = [bucket_of(t)[x] for x in items]
        tau = kendalltau(pr, pt).statistic
        assert KendallTau()(r, t) == pytest.approx((1 - tau) / 2, abs=1e-12)


def test_footrule_against_mid_rank_positions():
    rng = random.Random(11)
    for n in (2, 3, 4, 7):
        items = list(range(n))
        vals = [random_ranking(rng, items) for _ in range(30)]
        arr = np.empty(len(vals), dtype=object)
        arr[:] = vals
        m = Footrule().prepare(arr, np.ones(len(vals))).matrix()
        for a in range(len(vals)):
            for b in range(len(vals)):
                assert m[a, b] == pytest.approx(float(footrule_oracle(vals[a], vals[b])), abs=1e-12)


def test_fagin_worked_values():
    """a > b > c against a = b > c: one pair tied against ordered, 1/2 over 3 pairs; footrule 1/4."""
    r, t = ranking(["a", "b", "c"]), ranking([["a", "b"], "c"])
    assert KendallTau()(r, t) == pytest.approx(1 / 6)
    assert Footrule()(r, t) == pytest.approx(1 / 4)
    assert KendallTau()(r, ranking(["c", "b", "a"])) == 1.0
    assert KendallTau()(ranking([["a", "b", "c"]]), r) == pytest.approx(1 / 2)  # all tied: every pair 1/2


@pytest.mark.parametrize("dist", [KendallTau(), Footrule(), KendallTau(unranked="last"), Footrule(unranked="last")])
def test_prepared_paths_agree(dist):
    """pairs(), matrix() and the column-by-column expected sum against the dense sum."""
    rng = random.Random(5)
    items = list("abcdef")
    vals = list(dict.fromkeys(random_ranking(rng, items) for _ in range(60)))
    if dist.unranked == "last":
        vals = list(dict.fromkeys(ranking([list(g) for g in v][: rng.randint(1, len(v))]) for v in vals))
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    p = dist.prepare(arr, np.ones(len(vals)))
    m = p.matrix()
    i, j = np.meshgrid(np.arange(len(vals)), np.arange(len(vals)), indexing="ij")
    assert np.allclose(p.pairs(i.ravel(), j.ravel()).reshape(m.shape), m)
    w1, w2 = np.arange(len(vals), dtype=float), np.linspace(1, 2, len(vals))
    assert p.cross_sum(w1, w2) == pytest.approx(float(w1 @ m @ w2))


def test_rank_expected_sum_in_blocks(monkeypatch):
    """The expected sum is gathered over blocks of values (bounded memory): the same number block by block."""
    import accord.distances._rank as rank_module

    rng = random.Random(8)
    vals = list(dict.fromkeys(random_ranking(rng, list("abcdefg")) for _ in range(50)))
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    w1, w2 = np.linspace(0, 1, len(vals)), np.linspace(2, 1, len(vals))
    for dist in (KendallTau(), Footrule()):
        want = dist.prepare(arr, np.ones(len(vals))).cross_sum(w1, w2)
        monkeypatch.setattr(rank_module, "_PAIR_BLOCK", 40)
        assert dist.prepare(arr, np.ones(len(vals))).cross_sum(w1, w2) == pytest.approx(want)
        monkeypatch.undo()


def test_unranked_last_reads_a_top_k_list():
    """a > b of {a, b, c}: c is tied after b, so a > b equals a > b > c and is 1/3 from a > c > b."""
    d = KendallTau(unranked="last")
    arr = np.empty(3, dtype=object)
    arr[:] = [ranking(["a", "b"]), ranking(["a", "b", "c"]), ranking(["a", "c", "b"])]
    m = d.prepare(arr, np.ones(3)).matrix()
    assert m[0, 1] == 0.0
    assert m[1, 2] == pytest.approx(1 / 3)
    assert m[0, 2] == pytest.approx(1 / 3)  # (b, c): ordered against ordered the other way


def test_rankings_of_different_items_are_refused_naming_unit_and_coder():
    data = Annotations.from_records([("q1", "ann", ranking(["a", "b", "c"])), ("q1", "bob", ranking(["a", "b"])),
                                     ("q2", "ann", ranking(["a", "b", "c"])), ("q2", "bob", ranking(["c", "b", "a"]))])
    with pytest.raises(AccordError, match="unit 'q1': coder 'ann' ranks a > b > c and coder 'bob' ranks a > b: "
                                          "different items \\(only the first has c\\)"):
        alpha(data, distance="kendall")
    across = Annotations.from_records([("q1", "a1", ranking(["x", "y"])), ("q1", "a2", ranking(["y", "x"])),
                                       ("q2", "a1", ranking(["u", "v"])), ("q2", "a2", ranking(["u", "v"]))])
    with pytest.raises(AccordError, match="unit 'q2' ranks u, v.*every unit must rank the same items"):
        alpha(across, distance="footrule")
    # read as top-k lists, every ranking is over the union of the items
    assert not math.isnan(alpha(across, distance=KendallTau(unranked="last")).alpha)
    assert alpha(across, distance="kendall-top-k").alpha == alpha(across, distance=KendallTau(unranked="last")).alpha
    # the command line is told the name to use
    try:
        alpha(across, distance="footrule")
    except AccordError as exc:
        assert "--distance footrule-top-k" in exc.for_cli() and "unranked='last'" in str(exc)


@pytest.mark.parametrize("bad, message", [
    (["a", "b", "a"], "names item 'a' twice"),
    (["a", [], "b"], "empty tie group"),
    ([], "ranks no item"),
    ({"a": 1, "b": float("nan")}, "finite number"),
    ("abc", "sequence of items"),
])
def test_malformed_rankings(bad, message):
    with pytest.raises(AccordError, match=message):
        ranking(bad)


def test_a_list_value_is_not_a_ranking():
    """A list given as a value becomes a set (no order): the rank distances say so and name the cell."""
    data = Annotations.from_records([("q1", "ann", ["a", "b"]), ("q1", "bob", ["b", "a"])])
    with pytest.raises(AccordError, match="unit 'q1', coder 'ann'.*needs rankings.*accord.distances.ranking"):
        check_rankings(data)
    with pytest.raises(AccordError, match="repeated|twice"):
        KendallTau()(("a", "a"), ("a",))


def test_alpha_kendall_worked_by_hand():
    """Three units, two coders, rankings of a, b, c.

    r1 = a > b > c (3 values), r2 = a = b > c (1), r3 = c > b > a (2); n = 6.
    Kendall: d(r1, r2) = 1/6, d(r1, r3) = 1, d(r2, r3) = (1/2 + 1 + 1) / 3 = 5/6.
    D_o = (1/6) * (2 * 1/6) = 1/18 (only unit 2 disagrees);
    D_e = 2 * (3*1*1/6 + 3*2*1 + 1*2*5/6) / (6*5) = 49/90; alpha = 1 - (1/18) / (49/90) = 44/49.
    Footrule (norm 4): d(r1, r2) = 1/4, d(r1, r3) = 1, d(r2, r3) = 1;
    D_o = (1/6) * (2/4) = 1/12, D_e = 2 * (3/4 + 6 + 2) / 30 = 7/12; alpha = 6/7.
    """
    r1, r2, r3 = ranking("a b c".split()), ranking([["a", "b"], "c"]), ranking("c b a".split())
    records = [("u1", "A", r1), ("u1", "B", r1), ("u2", "A", r1), ("u2", "B", r2), ("u3", "A", r3), ("u3", "B", r3)]
    data = Annotations.from_records(records)
    assert alpha(data, distance="kendall").alpha == pytest.approx(44 / 49)
    assert alpha(data, distance="footrule").alpha == pytest.approx(6 / 7)
    assert brute_alpha(records, lambda a, b: float(kendall_pairs(a, b))) == pytest.approx(44 / 49)


def test_alpha_on_random_rankings_against_the_definition():
    rng = random.Random(2)
    items = list("abcd")
    records = [(u, c, random_ranking(rng, items)) for u in range(12) for c in "ABC" if rng.random() < 0.85]
    data = Annotations.from_records(records)
    want = brute_alpha(records, lambda a, b: float(kendall_pairs(a, b)))
    assert alpha(data, distance="kendall").alpha == pytest.approx(want)
    want_f = brute_alpha(records, lambda a, b: float(footrule_oracle(a, b)))
    assert alpha(data, distance="footrule").alpha == pytest.approx(want_f)


def test_pairwise_preferences_are_nominal():
    data = Annotations.from_records([(1, "A", "first"), (1, "B", "first"), (2, "A", "tie"), (2, "B", "second"),
                                     (3, "A", "second"), (3, "B", "second")])
    # nominal: D_o = 2/6, D_e = (2*2 + 2*3 + ... ) -> as the nominal alpha of the three labels
    assert alpha(data, distance="nominal").alpha == pytest.approx(
        brute_alpha([(1, "A", "first"), (1, "B", "first"), (2, "A", "tie"), (2, "B", "second"),
                     (3, "A", "second"), (3, "B", "second")], lambda a, b: float(a != b)))


# ----------------------------------------------------------------------------------------------- text


TEXTS = ["", "a", "ab", "ba", "abc", "kitten", "sitting", "flaw", "lawn", "the cat sat", "the cat ran", "Ünïcödé",
         "naïve café", "naive cafe", "  "]


@pytest.mark.parametrize("normalization", ["max", "metric"])
def test_levenshtein_against_a_plain_dynamic_programme(normalization):
    rng = random.Random(1)
    texts = list(dict.fromkeys(TEXTS + ["".join(rng.choice("abc ") for _ in range(rng.randint(0, 9)))
                                        for _ in range(40)]))
    arr = np.empty(len(texts), dtype=object)
    arr[:] = texts
    d = Levenshtein(normalization=normalization)
    p = d.prepare(arr, np.ones(len(texts)))
    m = p.matrix()
    for i, a in enumerate(texts):
        for j, b in enumerate(texts):
            lev = dp_levenshtein(a, b)
            if normalization == "max":
                want = lev / max(len(a), len(b)) if (a or b) else 0.0
            else:
                want = 2 * lev / (len(a) + len(b) + lev) if (a or b) else 0.0
            assert m[i, j] == pytest.approx(want, abs=1e-12)
    i, j = np.meshgrid(np.arange(len(texts)), np.arange(len(texts)), indexing="ij")
    assert np.allclose(p.pairs(i.ravel(), j.ravel()).reshape(m.shape), m)
    w = np.arange(len(texts), dtype=float)
    assert p.cross_sum(w, w) == pytest.approx(float(w @ m @ w))


def test_levenshtein_blocked_expected_sum_on_large_domains(monkeypatch):
    """Past DENSE_LIMIT values the expected sum runs block by block instead of through the cached matrix."""
    import accord.distances._text as text_module

    texts = list(dict.fromkeys(TEXTS))
    arr = np.empty(len(texts), dtype=object)
    arr[:] = texts
    w = np.linspace(0.5, 2, len(texts))
    dense = Levenshtein().prepare(arr, np.ones(len(texts)))
    want = dense.cross_sum(w, w)
    monkeypatch.setattr(text_module, "DENSE_LIMIT", 3)
    monkeypatch.setattr(text_module, "_BLOCK", 7)
    blocked = Levenshtein().prepare(arr, np.ones(len(texts)))
    assert blocked.cross_sum(w, w) == pytest.approx(want)
    assert blocked._matrix is None


@pytest.mark.parametrize("name", ["token-jaccard", "taxonomy"])
def test_set_based_expected_sum_past_the_dense_limit(monkeypatch, name):
    """Token sets and node sets: the set machinery's own expected sum when the domain is past DENSE_LIMIT."""
    import accord.distances._text as text_module

    if name == "token-jaccard":
        vals = list(dict.fromkeys(TEXTS))
    else:
        vals = [("A",), ("A", "B"), ("A", "B", "C"), frozenset({("A", "D"), ("E",)}), frozenset(), ("E", "F")]
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    w = np.linspace(0.5, 2, len(vals))
    want = get_distance(name).prepare(arr, np.ones(len(vals))).cross_sum(w, w)
    monkeypatch.setattr(text_module, "DENSE_LIMIT", 2)
    p = get_distance(name).prepare(arr, np.ones(len(vals)))
    assert p.cross_sum(w, w) == pytest.approx(want)
    assert p._matrix is None


def test_levenshtein_max_is_rapidfuzzs_normalised_distance():
    from rapidfuzz.distance import Levenshtein as RF

    for a, b in itertools.product(TEXTS, repeat=2):
        assert Levenshtein()(a, b) == pytest.approx(RF.normalized_distance(a, b))


def test_token_jaccard_from_python_sets():
    arr = np.empty(len(TEXTS), dtype=object)
    arr[:] = TEXTS
    p = TokenJaccard().prepare(arr, np.ones(len(TEXTS)))
    m = p.matrix()
    for i, a in enumerate(TEXTS):
        for j, b in enumerate(TEXTS):
            sa, sb = set(a.split()), set(b.split())
            want = 0.0 if not (sa | sb) else 1 - len(sa & sb) / len(sa | sb)
            assert m[i, j] == pytest.approx(want)
    w = np.linspace(0, 3, len(TEXTS))
    assert p.cross_sum(w, w) == pytest.approx(float(w @ m @ w))


def test_alpha_with_text_distances_and_a_callable():
    """The same alpha from the registry's distance and from a user's callable (as for embedding distances)."""
    rng = random.Random(4)
    words = ["red", "green", "blue", "dark red", "light blue"]
    records = [(u, c, rng.choice(words)) for u in range(15) for c in "ABC"]
    data = Annotations.from_records(records)
    want = brute_alpha(records, lambda a, b: dp_levenshtein(a, b) / max(len(a), len(b)))
    assert alpha(data, distance="levenshtein").alpha == pytest.approx(want)
    by_hand = make_distance(lambda a, b: dp_levenshtein(a, b) / max(len(a), len(b)), name="my-edit")
    assert alpha(data, distance=by_hand).alpha == pytest.approx(want)
    want_j = brute_alpha(records, lambda a, b: 1 - len(set(a.split()) & set(b.split()))
                         / len(set(a.split()) | set(b.split())))
    assert alpha(data, distance="token-jaccard").alpha == pytest.approx(want_j)


def test_text_distances_refuse_other_values():
    with pytest.raises(AccordError, match="levenshtein distance needs text values; got 3, which is not text"):
        Levenshtein()(3, "a")
    data = Annotations.from_records([("u1", "a", "x"), ("u1", "b", 3)], source="t.csv")
    for name in ("levenshtein", "token-jaccard"):
        with pytest.raises(AccordError, match=f"^t.csv: unit 'u1', coder 'b': the {name} distance needs text"):
            alpha(data, distance=name)


# ----------------------------------------------------------------------------------------------- taxonomy


def closure(value) -> set:
    paths = value if isinstance(value, frozenset) else {value if isinstance(value, tuple) else (value,)}
    return {p[:k] for p in paths for k in range(1, len(p) + 1)}


def test_taxonomy_worked_values():
    d = Taxonomy()
    cat, dog, bird = ("Animal", "Mammal", "Cat"), ("Animal", "Mammal", "Dog"), ("Animal", "Bird")
    assert d(cat, dog) == pytest.approx(1 / 2)  # shares Animal, Animal/Mammal of 4 nodes
    assert d(cat, bird) == pytest.approx(3 / 4)
    assert d(cat, ("Plant",)) == 1.0
    assert d(frozenset({cat}), frozenset({cat, ("Animal",)})) == 0.0  # an ancestor adds nothing
    assert d(frozenset(), frozenset()) == 0.0
    assert d(frozenset(), frozenset({cat})) == 1.0


def test_taxonomy_against_ancestor_sets_and_alpha():
    rng = random.Random(9)
    tree = [("A",), ("A", "B"), ("A", "B", "C"), ("A", "B", "D"), ("A", "E"), ("F",), ("F", "G")]
    vals = list(dict.fromkeys(frozenset(rng.sample(tree, rng.randint(0, 3))) for _ in range(60)))
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    p = Taxonomy().prepare(arr, np.ones(len(vals)))
    m = p.matrix()
    for i, a in enumerate(vals):
        for j, b in enumerate(vals):
            ca, cb = closure(a), closure(b)
            want = 0.0 if not (ca | cb) else 1 - len(ca & cb) / len(ca | cb)
            assert m[i, j] == pytest.approx(want)
    w = np.linspace(1, 2, len(vals))
    assert p.cross_sum(w, w) == pytest.approx(float(w @ m @ w))
    records = [(u, c, rng.choice(vals)) for u in range(10) for c in "AB"]
    want = brute_alpha(records, lambda a, b: 0.0 if not (closure(a) | closure(b)) else
                       1 - len(closure(a) & closure(b)) / len(closure(a) | closure(b)))
    assert alpha(Annotations.from_records(records), distance="taxonomy").alpha == pytest.approx(want)


def test_taxonomy_cycle_is_refused():
    with pytest.raises(AccordError, match="path A / B / A passes through 'A' twice \\(a cycle"):
        Taxonomy()(("A", "B", "A"), ("A",))
    data = Annotations.from_records([("u1", "a", ("A", "B", "A")), ("u1", "b", ("A",))], source="tax.json")
    with pytest.raises(AccordError, match="^tax.json: unit 'u1', coder 'a': .*passes through 'A' twice"):
        alpha(data, distance="taxonomy")


# ----------------------------------------------------------------------------------------------- properties

_items = list("abcde")
rankings = st.permutations(_items).flatmap(
    lambda order: st.lists(st.booleans(), min_size=len(order), max_size=len(order)).map(
        lambda cuts: ranking(_split(order, cuts))))


def _split(order, cuts):
    groups: list[list] = [[order[0]]]
    for x, c in zip(order[1:], cuts[1:], strict=True):
        if c:
            groups[-1].append(x)
        else:
            groups.append([x])
    return groups


taxa = st.frozensets(st.sampled_from([("A",), ("A", "B"), ("A", "B", "C"), ("A", "D"), ("E",), ("E", "F")]),
                     max_size=3)
texts = st.text(alphabet="ab c", max_size=6)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["kendall", "footrule"]), rankings, rankings, rankings)
def test_rank_distances_are_metrics(name, x, y, z):
    d = get_distance(name)
    assert d(x, x) == 0.0
    assert 0.0 <= d(x, y) <= 1.0
    assert d(x, y) == pytest.approx(d(y, x))
    assert (d(x, y) == 0.0) == (x == y)
    assert d(x, z) <= d(x, y) + d(y, z) + 1e-12


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["levenshtein-metric", "token-jaccard", "levenshtein"]), texts, texts, texts)
def test_text_distances_properties(name, x, y, z):
    d = get_distance(name)
    assert d(x, x) == 0.0
    assert 0.0 <= d(x, y) <= 1.0
    assert d(x, y) == pytest.approx(d(y, x))
    if name != "levenshtein":  # lev / max(|a|, |b|) breaks the triangle inequality ("ab", "bab", "ba")
        assert d(x, z) <= d(x, y) + d(y, z) + 1e-12


def test_normalised_levenshtein_is_no_metric():
    d = Levenshtein()
    assert d("ab", "ba") > d("ab", "bab") + d("bab", "ba")
    m = Levenshtein(normalization="metric")
    assert m("ab", "ba") <= m("ab", "bab") + m("bab", "ba")


@settings(max_examples=60, deadline=None)
@given(taxa, taxa, taxa)
def test_taxonomy_is_a_metric_in_the_unit_interval(x, y, z):
    d = Taxonomy()
    assert d(x, x) == 0.0 and 0.0 <= d(x, y) <= 1.0
    assert d(x, y) == pytest.approx(d(y, x))
    assert d(x, z) <= d(x, y) + d(y, z) + 1e-12


def test_names_resolve_and_are_listed():
    for name in ("levenshtein", "levenshtein-metric", "token-jaccard", "kendall", "footrule", "taxonomy",
                 "kendall-top-k", "footrule-top-k"):
        assert name in DISTANCE_NAMES
        assert get_distance(name).name == name
    assert get_distance("edit").name == "levenshtein"
    assert get_distance("kendall-tau").name == "kendall"
