"""Tests of accord.multilabel: augmented kappa (Rosenberg & Binkowski 2004) and its studies."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import accord
from accord._shared.errors import AccordError, AccordWarning
from accord.multilabel import (
    ITEM_CLASSES,
    MultiLabelData,
    annotation_matrix,
    augmented_kappa,
    augmented_kappa_sweep,
    bootstrap_augmented_kappa,
    classify_items,
    load_multilabel_example,
    masi_alpha,
    read_multilabel,
    sharpen,
)
from accord.multilabel._kappa import _pairs, _resampled_kappa
from accord.multilabel._weights import _matrices

# Rosenberg & Binkowski (2004), Table 1: annotator A's labels on five messages.
TABLE1 = {"Msg1": "a,b", "Msg2": "b,a", "Msg3": "b", "Msg4": "c", "Msg5": "c,b"}
CATS = ["a", "b", "c", "d"]


def table1_data() -> MultiLabelData:
    return MultiLabelData.from_dict({"A": TABLE1}, categories=CATS)


# ---------------------------------------------------------------- the paper
def test_table2_annotation_matrix_p06():
    """Rosenberg & Binkowski 2004, Table 2: M_A from Table 1 at p = 0.6 (N = 5)."""
    m = annotation_matrix(table1_data(), "A", p=0.6)
    expected = np.array(
        [
            [0.6, 0.4, 0, 0],  # Msg1 a,b
            [0.4, 0.6, 0, 0],  # Msg2 b,a
            [0, 1, 0, 0],  # Msg3 b
            [0, 0, 1, 0],  # Msg4 c
            [0, 0.4, 0.6, 0],  # Msg5 c,b
        ]
    )
    np.testing.assert_allclose(m.matrix, expected, rtol=0, atol=1e-15)
    # the Total row of Table 2: 1, 2.4, 1.6, 0 (and N = 5)
    np.testing.assert_allclose(m.column_totals, [1, 2.4, 1.6, 0], rtol=0, atol=1e-15)
    assert m.n_items == 5
    assert m.items == ("Msg1", "Msg2", "Msg3", "Msg4", "Msg5")
    assert m.categories == tuple(CATS)
    frame = m.to_frame()
    assert list(frame.index) == ["Msg1", "Msg2", "Msg3", "Msg4", "Msg5", "Total"]
    np.testing.assert_allclose(frame.loc["Total"].to_numpy(dtype=float), [1, 2.4, 1.6, 0], atol=1e-15)


def test_table3_frequencies_p06():
    """Rosenberg & Binkowski 2004, Table 3: Freq_A = 0.2, 0.48, 0.32, 0 (p = 0.6, N = 5)."""
    m = annotation_matrix(table1_data(), "A", p=0.6)
    np.testing.assert_allclose(m.frequencies, [0.2, 0.48, 0.32, 0], rtol=0, atol=1e-15)
    assert m.to_dict()["frequencies"] == pytest.approx([0.2, 0.48, 0.32, 0])


def test_table1_through_both_readers(tmp_path):
    """Rosenberg & Binkowski 2004, Tables 1-2 read from the ranked and the compact file formats."""
    ranked = tmp_path / "t1.csv"
    lines = ["item,annotator,label,rank"]
    for msg, cell in TABLE1.items():
        lines += [f"{msg},A,{lab},{r}" for r, lab in enumerate(cell.split(","), start=1)]
    ranked.write_text("\n".join(lines) + "\n")
    jsonl = tmp_path / "t1.jsonl"
    jsonl.write_text(
        "\n".join(json.dumps({"item": k, "annotator": "A", "labels": v.split(",")})
                  for k, v in TABLE1.items())
    )
    for path in (ranked, jsonl):
        m = annotation_matrix(read_multilabel(path, categories=CATS), "A", p=0.6)
        np.testing.assert_allclose(m.column_totals, [1, 2.4, 1.6, 0], atol=1e-15)
        np.testing.assert_allclose(m.frequencies, [0.2, 0.48, 0.32, 0], atol=1e-15)


@pytest.mark.parametrize("p", [0.5, 0.6, 0.75, 1.0])
def test_partial_agreement_cases_of_section_4(p):
    """Rosenberg & Binkowski 2004, section 4: the ten combinations {A's labels, B's labels}.

    Each item's agreement sum_y M_A[x, y] M_B[x, y] follows from the weights of section 5.1.
    """
    cases = {
        "a,a": ("a", "a", 1.0),
        "a,b": ("a", "b", 0.0),
        "ab,a": ("a,b", "a", p),
        "ab,b": ("a,b", "b", 1 - p),
        "ab,c": ("a,b", "c", 0.0),
        "ab,ab": ("a,b", "a,b", p * p + (1 - p) ** 2),
        "ab,ba": ("a,b", "b,a", 2 * p * (1 - p)),
        "ab,ac": ("a,b", "a,c", p * p),
        "ab,bc": ("a,b", "b,c", p * (1 - p)),
        "ab,cd": ("a,b", "c,d", 0.0),
    }
    data = MultiLabelData.from_dict(
        {"A": {k: v[0] for k, v in cases.items()}, "B": {k: v[1] for k, v in cases.items()}}
    )
    sweep = augmented_kappa_sweep(data, grid=[p])
    got = dict(zip(sweep.items, sweep.item_agreement[:, 0], strict=True))
    for name, (_, _, want) in cases.items():
        assert got[name] == pytest.approx(want, abs=1e-12), name
    # p(A) is the mean of the items' agreement (section 5.1)
    res = augmented_kappa(data, p=p)
    assert res.observed_agreement == pytest.approx(np.mean([c[2] for c in cases.values()]), abs=1e-12)


def test_kappa_by_hand():
    """p(A), p(E) and K' of section 5 computed by hand for two annotators at p = 0.6."""
    data = MultiLabelData.from_dict({"A": TABLE1, "B": {"Msg1": "a", "Msg2": "a,b", "Msg3": "b",
                                                        "Msg4": "d", "Msg5": "b,c"}}, categories=CATS)
    res = augmented_kappa(data, p=0.6)
    ma = np.array([[.6, .4, 0, 0], [.4, .6, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, .4, .6, 0]])
    mb = np.array([[1, 0, 0, 0], [.6, .4, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, .6, .4, 0]])
    pa = (ma * mb).sum() / 5
    pe = ma.mean(axis=0) @ mb.mean(axis=0)
    assert res.observed_agreement == pytest.approx(pa, abs=1e-14)
    assert res.expected_agreement == pytest.approx(pe, abs=1e-14)
    assert res.kappa == pytest.approx((pa - pe) / (1 - pe), abs=1e-14)
    assert res.to_frame().shape == (1, 7)


# ------------------------------------------------------- Cohen's kappa at p=1
def _random_cells(rng: np.random.Generator, n_items: int, n_cats: int, two_share: float) -> list[str]:
    cells = []
    for _ in range(n_items):
        if rng.random() < two_share:
            a, b = rng.choice(n_cats, size=2, replace=False)
            cells.append(f"c{a},c{b}")
        else:
            cells.append(f"c{rng.integers(n_cats)}")
    return cells


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_items=st.integers(2, 40), n_cats=st.integers(2, 6),
       two_share=st.floats(0, 1))
def test_p1_equals_cohen_kappa_on_primaries(seed, n_items, n_cats, two_share):
    """K' at p = 1 ignores secondaries: it is Cohen's kappa on the primary labels (scikit-learn)."""
    rng = np.random.default_rng(seed)
    a, b = _random_cells(rng, n_items, n_cats, two_share), _random_cells(rng, n_items, n_cats, two_share)
    prim_a, prim_b = [c.split(",")[0] for c in a], [c.split(",")[0] for c in b]
    if len(set(prim_a) | set(prim_b)) < 2:
        return  # Cohen's kappa is undefined with a single category
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = cohen_kappa_score(prim_a, prim_b)
        got = augmented_kappa(MultiLabelData.from_dict({"A": a, "B": b}), p=1.0).kappa
    if math.isnan(want):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(want, abs=1e-12)


def test_p1_three_annotators_is_mean_of_pairwise_cohen():
    """With three annotators K' is the mean over pairs ("average kappa across the three annotators")."""
    rng = np.random.default_rng(7)
    cells = {k: _random_cells(rng, 50, 4, 0.5) for k in ("A", "B", "C")}
    res = augmented_kappa(MultiLabelData.from_dict(cells), p=1.0)
    prim = {k: [c.split(",")[0] for c in v] for k, v in cells.items()}
    pair = [cohen_kappa_score(prim[x], prim[y]) for x, y in (("A", "B"), ("A", "C"), ("B", "C"))]
    assert res.kappa == pytest.approx(np.mean(pair), abs=1e-12)
    assert [t.kappa for t in res.pairs] == pytest.approx(pair, abs=1e-12)
    assert len(res.to_frame()) == 3


def test_p1_longer_lists_with_a_rule_still_cohen():
    """Every rule gives the primary weight 1 at p = 1, so K' is Cohen's kappa on primaries."""
    a = ["x,y,z", "y", "z,x", "x", "y,z,x", "z"]
    b = ["x", "y,x,z", "x", "x,z", "y", "y"]
    want = cohen_kappa_score([c[0] for c in a], [c[0] for c in b])
    for rule in ("geometric", "primary-rest"):
        assert augmented_kappa(MultiLabelData.from_dict({"A": a, "B": b}), p=1.0, rule=rule).kappa == \
            pytest.approx(want, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), p=st.floats(0.5, 1.0))
def test_symmetry_and_item_order(seed, p):
    """K' is symmetric in the annotators and does not depend on the order of items."""
    rng = np.random.default_rng(seed)
    a, b = _random_cells(rng, 15, 3, 0.5), _random_cells(rng, 15, 3, 0.5)
    perm = rng.permutation(15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        k1 = augmented_kappa(MultiLabelData.from_dict({"A": a, "B": b}), p=p).kappa
        k2 = augmented_kappa(MultiLabelData.from_dict({"B": b, "A": a}), p=p).kappa
        k3 = augmented_kappa(
            MultiLabelData.from_dict({"A": [a[i] for i in perm], "B": [b[i] for i in perm]}), p=p
        ).kappa
    assert k1 == pytest.approx(k2, abs=1e-12, nan_ok=True)
    assert k1 == pytest.approx(k3, abs=1e-12, nan_ok=True)


# ------------------------------------------------------------------ weights
def test_weight_rules():
    data = MultiLabelData.from_dict({"A": ["a,b,c", "a,b"], "B": ["a", "b"]})
    geo = _matrices(data, 0.6, "geometric")[0]
    np.testing.assert_allclose(geo[0], [0.6, 0.24, 0.16])
    np.testing.assert_allclose(geo[1], [0.6, 0.4, 0])
    rest = _matrices(data, 0.6, "primary-rest")[0]
    np.testing.assert_allclose(rest[0], [0.6, 0.2, 0.2])

    def thirds(k, p):
        return [1 / k] * k

    np.testing.assert_allclose(_matrices(data, 0.6, thirds)[0][0], [1 / 3] * 3)
    assert augmented_kappa(data, p=0.7, rule=thirds).rule == "thirds"

    def bad(k, p):
        return [1.0] * k

    with pytest.raises(AccordError, match="rule must return"):
        augmented_kappa(data, p=0.6, rule=bad)
    with pytest.raises(AccordError, match="rule must be one of"):
        augmented_kappa(data, p=0.6, rule="linear")


# ---------------------------------------------------------- sweep and items
def test_item_kappa_mean_is_kappa():
    rng = np.random.default_rng(3)
    data = MultiLabelData.from_dict(
        {"A": _random_cells(rng, 30, 4, 0.6), "B": _random_cells(rng, 30, 4, 0.6)}
    )
    sweep = augmented_kappa_sweep(data)
    np.testing.assert_allclose(sweep.item_kappa.mean(axis=0), sweep.kappa, atol=1e-12)
    for j, p in enumerate(sweep.grid):
        assert sweep.kappa[j] == pytest.approx(augmented_kappa(data, p=p).kappa, abs=1e-12)
    assert sweep.to_frame().shape[0] == 11
    assert sweep.to_frame("items").shape == (30 * 11, 4)


def _class_dataset(rng: np.random.Generator, n_annotators: int, per_class: int):
    """Items built to fall in each of the paper's four classes (section 6)."""
    cats = [f"L{k}" for k in range(8)]
    cells = {f"ann{k}": {} for k in range(n_annotators)}
    truth = {}
    anns = list(cells)
    for cls in ITEM_CLASSES:
        for j in range(per_class):
            item = f"{cls}-{j}"
            truth[item] = cls
            x, y, z, *rest = rng.choice(cats, size=n_annotators + 3, replace=False)
            if cls == "constant_high":  # everybody the same single label
                labels = [x] * n_annotators
            elif cls == "constant_low":  # all different single labels
                labels = [x, y, z, *rest][:n_annotators]
            elif cls == "better_at_p1":  # same primary, inconsistent secondaries
                labels = [f"{x},{y}", x, f"{x},{z}"][:n_annotators]
            elif n_annotators == 2:  # better_at_p05: primary and secondary swapped
                labels = [f"{x},{y}", f"{y},{x}"]
            else:  # better_at_p05 with three: a cycle of swaps
                labels = [f"{x},{y}", f"{y},{z}", f"{z},{x}"]
            for a, lab in zip(anns, labels, strict=True):
                cells[a][item] = lab
    return MultiLabelData.from_dict(cells), truth


@pytest.mark.parametrize("n_annotators", [2, 3])
@pytest.mark.parametrize("scale", ["kappa", "agreement"])
def test_four_classes_synthetic(n_annotators, scale):
    """A synthetic data set built so its items fall in each of the paper's four classes is classified so."""
    data, truth = _class_dataset(np.random.default_rng(11 + n_annotators), n_annotators, 15)
    classes = augmented_kappa_sweep(data).classify(scale=scale)
    got = dict(zip(classes.items, classes.classes, strict=True))
    assert got == truth
    assert classes.counts == {**dict.fromkeys(ITEM_CLASSES, 15), "unpaired": 0}
    assert set(classes.items_in("better_at_p05")) == {k for k, v in truth.items() if v == "better_at_p05"}
    assert classes.to_frame().shape == (60, 5)


def test_bundled_example_classes():
    data = load_multilabel_example()
    classes = classify_items(augmented_kappa_sweep(data))
    assert classes.counts == {**dict.fromkeys(ITEM_CLASSES, 6), "unpaired": 1}
    assert dict(zip(classes.items, classes.classes, strict=True))["msg25"] is None
    # the file interleaves the classes: high, p1, low, p05, ...
    assert classes.classes[:4] == ("constant_high", "better_at_p1", "constant_low", "better_at_p05")


def test_classify_thresholds_and_errors():
    data, _ = _class_dataset(np.random.default_rng(0), 2, 3)
    sweep = augmented_kappa_sweep(data)
    everything_constant = sweep.classify(tolerance=10.0, high=2.0)
    assert everything_constant.counts["constant_low"] == 12
    with pytest.raises(AccordError, match="tolerance"):
        sweep.classify(tolerance=-1)
    with pytest.raises(AccordError, match="scale"):
        sweep.classify(scale="odds")
    with pytest.raises(AccordError, match="contain 0.5 and 1"):
        augmented_kappa_sweep(data, grid=[0.6, 0.8]).classify()


# ------------------------------------------------------------------ bad input
def test_three_labels_need_a_rule():
    data = MultiLabelData.from_dict({"A": {"m1": "a,b,c", "m2": "a"}, "B": {"m1": "a", "m2": "a"}})
    with pytest.raises(AccordError, match=r"annotator 'A' gave item 'm1' 3 labels.*rule="):
        augmented_kappa(data, p=0.6)
    with pytest.raises(AccordError, match="rule="):
        augmented_kappa_sweep(data)
    assert math.isfinite(augmented_kappa(data, p=0.6, rule="geometric").observed_agreement)


@pytest.mark.parametrize("cell", [",b", ["", "b"], [None, "b"]])
def test_secondary_without_primary_compact(cell):
    with pytest.raises(AccordError, match="secondary label without a primary"):
        MultiLabelData.from_records([("m1", "A", cell), ("m1", "B", "a")])


def test_secondary_without_primary_ranked(tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("item,annotator,label,rank\nm1,A,a,1\nm1,B,b,2\n")
    with pytest.raises(AccordError, match=r"r.csv, line 3.*secondary label.*without a primary"):
        read_multilabel(f)
    f.write_text("item,annotator,label,rank\nm1,A,a,1\nm1,A,b,3\n")
    with pytest.raises(AccordError, match="rank 3 without rank 2"):
        read_multilabel(f)


@pytest.mark.parametrize("p", [0.49, 1.01, -1, float("nan"), "high", None, True])
def test_p_outside_range(p):
    data = load_multilabel_example()
    with pytest.raises(AccordError, match=r"^p must"):
        augmented_kappa(data, p=p)
    with pytest.raises(AccordError, match=r"^p must"):
        annotation_matrix(data, "ann1", p=p)
    with pytest.raises(AccordError, match=r"^p must"):
        sharpen(data, p=p)
    with pytest.raises(AccordError, match=r"^p must"):
        bootstrap_augmented_kappa(data, p=p)


def test_grid_outside_range():
    with pytest.raises(AccordError, match="grid values must be in"):
        augmented_kappa_sweep(load_multilabel_example(), grid=[0.4, 0.5, 1.0])


def test_items_labelled_by_one_annotator_are_counted():
    data = MultiLabelData.from_dict({"A": {"m1": "a", "m2": "b", "m3": "a,b", "m4": "c"},
                                     "B": {"m1": "a", "m2": "a", "m3": "b"}})
    res = augmented_kappa(data, p=0.6)
    assert res.n_items == 3
    assert res.n_items_unpaired == 1
    assert res.unpaired_items == ("m4",)
    assert res.to_dict()["unpaired_items"] == ["m4"]
    assert res.pairs[0].n_items == 3
    classes = augmented_kappa_sweep(data).classify()
    assert classes.counts["unpaired"] == 1


def test_single_annotator_is_an_error():
    with pytest.raises(AccordError, match="at least two annotators"):
        augmented_kappa(table1_data(), p=0.6)


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([("m1", "A", "a,a"), ("m1", "B", "a")], "label 'a' given twice"),
        ([("m1", "A", "a"), ("m1", "A", "b")], "already labelled this item"),
        ([("m1", "A", {"a", "b"}), ("m1", "B", "a")], "unordered set"),
        ([("m1", "A", "a,,b"), ("m1", "B", "a")], "empty label at position 2"),
        ([(None, "A", "a"), ("m1", "B", "a")], "the 'item' column is empty"),
    ],
)
def test_bad_compact_records(records, message):
    with pytest.raises(AccordError, match=message):
        MultiLabelData.from_records(records)


def test_bad_ranked_records():
    with pytest.raises(AccordError, match="two labels with rank 1"):
        MultiLabelData.from_ranked([("m1", "A", "a", 1), ("m1", "A", "b", 1)])
    with pytest.raises(AccordError, match="rank must be a positive integer"):
        MultiLabelData.from_ranked([("m1", "A", "a", 1.5)])
    with pytest.raises(AccordError, match="rank must be a positive integer"):
        MultiLabelData.from_ranked([("m1", "A", "a", "first")])
    with pytest.raises(AccordError, match="label' column is empty"):
        MultiLabelData.from_ranked([("m1", "A", "", 1)])
    with pytest.raises(AccordError, match="not one of categories"):
        MultiLabelData.from_ranked([("m1", "A", "z", 1)], categories=["a", "b"])


def test_reader_errors(tmp_path):
    f = tmp_path / "x.dat"  # a .txt is a text table (issue 28)
    f.write_text("")
    with pytest.raises(AccordError, match=r"\.csv, \.tsv, \.jsonl"):
        read_multilabel(f)
    g = tmp_path / "x.csv"
    g.write_text("item,who,labels\nm1,A,a\n")
    with pytest.raises(AccordError, match="missing column 'annotator'"):
        read_multilabel(g)
    h = tmp_path / "x.jsonl"
    h.write_text('{"item": "m1", "annotator": "A", "labels": "a"}\n{oops\n')
    with pytest.raises(AccordError, match="x.jsonl, line 2: not valid JSON"):
        read_multilabel(h)
    with pytest.raises(AccordError, match="format must be"):
        read_multilabel(g, format="wide")


def test_readers_and_frames(tmp_path):
    tsv = tmp_path / "x.tsv"
    tsv.write_text("msg\tcoder\tlabs\nm1\tA\tq > a\nm1\tB\tq\nm2\tA\t\nm2\tB\ta\n")
    data = read_multilabel(tsv, item="msg", annotator="coder", labels="labs", sep=">")
    assert data.labels_of("A", "m1") == ("q", "a")
    assert data.labels_of("A", "m2") == ()  # an empty cell: not labelled
    assert data.unpaired_items == ("m2",)
    long = data.to_frame()
    assert list(long.columns) == ["item", "annotator", "label", "rank"]
    assert long["rank"].tolist() == [1, 2, 1, 1]
    back = MultiLabelData.from_ranked(long)
    mixed = MultiLabelData.from_records([(1, "A", "x"), ("two", "A", "y"), (1, "B", "y,x")])
    assert mixed.to_frame()["item"].tolist() == [1, 1, 1, "two"]
    assert back.labels_of("A", "m1") == ("q", "a")
    polars = pytest.importorskip("polars")
    frame = polars.DataFrame({"item": ["m1", "m1"], "annotator": ["A", "B"], "labels": ["q,a", "a"]})
    assert MultiLabelData.from_records(frame).labels_of("A", "m1") == ("q", "a")
    pdf = pd.DataFrame({"item": ["m1", "m1"], "annotator": ["A", "B"], "labels": [["q", "a"], "a"]})
    assert MultiLabelData.from_records(pdf).labels_of("A", "m1") == ("q", "a")
    assert data.select_annotators(["B"]).annotators == ("B",)


# --------------------------------------------------------- undefined results
def test_undefined_pairs_are_reported():
    data = MultiLabelData.from_dict({"A": {"m1": "a", "m2": "b"}, "B": {"m1": "a", "m2": "a,b"},
                                     "C": {"m3": "a", "m4": "b"}})
    with pytest.warns(AccordWarning, match="averages 1 of 3 pairs"):
        res = augmented_kappa(data, p=0.6)
    assert res.n_pairs_undefined == 2
    assert math.isfinite(res.kappa)
    assert res.kappa == pytest.approx(res.pairs[0].kappa)
    assert "no items labelled by both" in res.reason
    assert res.pairs[1].reason == "no items labelled by both annotators"


def test_expected_agreement_one_is_nan():
    data = MultiLabelData.from_dict({"A": ["a", "a"], "B": ["a", "a"]})
    with pytest.warns(AccordWarning, match="undefined"):
        res = augmented_kappa(data, p=0.6)
    assert math.isnan(res.kappa)
    assert "p(E) = 1" in res.reason
    assert res.to_dict()["kappa"] is None


# ------------------------------------------------------------------ bootstrap
def test_bootstrap_statistic_matches_recomputation():
    """The vectorised replicate statistic equals K' recomputed on the resampled items."""
    rng = np.random.default_rng(5)
    cells = {k: _random_cells(rng, 20, 4, 0.5) for k in ("A", "B", "C")}
    data = MultiLabelData.from_dict(cells)
    stat = _resampled_kappa(_matrices(data, 0.7, "pair"), data.labelled, _pairs(3))
    idx = rng.integers(0, 20, size=(5, 20))
    got = stat(idx)
    for row, value in zip(idx, got, strict=True):
        resampled = {k: [v[i] for i in row] for k, v in cells.items()}
        want = augmented_kappa(MultiLabelData.from_dict(resampled), p=0.7).kappa
        assert value == pytest.approx(want, abs=1e-12)


def test_bootstrap_interval():
    data = load_multilabel_example()
    res = augmented_kappa(data, p=0.6)
    ci = bootstrap_augmented_kappa(data, p=0.6, n_resamples=500, rng=1)
    assert ci.low < res.kappa < ci.high
    assert ci.n_items == 24
    again = bootstrap_augmented_kappa(data, p=0.6, n_resamples=500, rng=1)
    assert (again.low, again.high) == (ci.low, ci.high)
    assert res.confidence_interval(n_resamples=500, rng=1) == (ci.low, ci.high)
    boot = ci.bootstrap_distribution  # the replicates behind the interval, kept for the report's histogram
    assert boot.shape == (500,)
    assert np.quantile(boot, [0.025, 0.975]) == pytest.approx([ci.low, ci.high])
    assert "bootstrap_distribution" not in ci.to_dict() and "_distribution" not in ci.to_dict()
    wider = bootstrap_augmented_kappa(data, p=0.6, n_resamples=500, rng=1, confidence_level=0.99)
    assert wider.low <= ci.low and wider.high >= ci.high
    bca = bootstrap_augmented_kappa(data, p=0.6, n_resamples=300, rng=2, method="BCa")
    assert bca.low < res.kappa < bca.high
    with pytest.raises(AccordError, match="confidence_level"):
        bootstrap_augmented_kappa(data, p=0.6, confidence_level=95)
    with pytest.raises(AccordError, match="n_resamples"):
        bootstrap_augmented_kappa(data, p=0.6, n_resamples=1)


# ----------------------------------------------------------------- sharpening
def test_sharpening_downweights_a_random_annotator():
    rng = np.random.default_rng(9)
    truth = rng.choice(list("abcde"), size=60)
    good1 = [t if rng.random() < 0.9 else "a" for t in truth]
    good2 = [t if rng.random() < 0.85 else "b" for t in truth]
    good3 = [f"{t},{'c' if t != 'c' else 'd'}" if rng.random() < 0.5 else t for t in truth]
    noise = list(rng.choice(list("abcde"), size=60))
    data = MultiLabelData.from_dict({"g1": good1, "g2": good2, "g3": good3, "noise": noise})
    res = sharpen(data, p=0.6)
    assert res.converged
    assert res.annotator_weights.argmin() == 3
    assert res.annotator_weights[3] < 0.3
    assert res.annotator_weights.max() == 1.0
    agree = np.mean([lab == t for lab, t in zip(res.item_labels, truth, strict=True)])
    assert agree > 0.95
    assert ((res.item_weights >= 0) & (res.item_weights <= 1)).all()
    assert ((res.item_confidence > 0) & (res.item_confidence <= 1)).all()
    var = sharpen(data, p=0.6, item_measure="variance")
    assert var.annotator_weights.argmin() == 3
    assert res.to_frame().shape == (60, 5)


def test_sharpening_two_annotators_equal_weights():
    data = MultiLabelData.from_dict({"A": ["a", "b", "a,b", "c"], "B": ["a", "b", "b", "c,a"]})
    res = sharpen(data, p=0.6)
    np.testing.assert_allclose(res.annotator_weights, [1.0, 1.0])
    assert res.item_labels[:2] == ("a", "b")
    assert res.item_weights[0] == pytest.approx(1.0)
    with pytest.raises(AccordError, match="item_measure"):
        sharpen(data, p=0.6, item_measure="gini")


def test_sharpening_reports_max_iter():
    data = load_multilabel_example()
    with pytest.warns(AccordWarning, match="max_iter=1"):
        res = sharpen(data, p=0.6, max_iter=1, tol=1e-15)
    assert not res.converged
    assert res.n_iterations == 1


# ---------------------------------------------------------- alpha beside it
def test_masi_alpha_beside_kappa():
    """Alpha with MASI (Passonneau 2006) on the same items as label sets, against NLTK's."""
    pytest.importorskip("accord.coefficients._alpha", reason="accord.alpha (the lead's core) is not there yet")
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import masi_distance

    data = load_multilabel_example()
    triples = [
        (a, i, frozenset(data.labels_of(a, i))) for a in data.annotators for i in data.items
        if i != "msg25"  # labelled by ann1 only: unpairable for alpha
    ]
    want = AnnotationTask(data=triples, distance=masi_distance).alpha()
    # the installed NLTK's masi_distance uses M = 2/3 and 1/3 exactly (older releases used 0.67 / 0.33)
    res = masi_alpha(data)
    assert res.distance == "masi-2006"
    assert res.alpha == pytest.approx(want, abs=1e-12)


def test_masi_alpha_rejects_other_data():
    with pytest.raises(AccordError, match="MultiLabelData"):
        masi_alpha([("m1", "A", "a")])


# ------------------------------------------------------------------------ CLI
def _cli():
    import typer
    from typer.testing import CliRunner

    from accord.cli._multilabel import register

    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:  # keep "multilabel" as a sub-command
        pass

    return app, CliRunner()


EXAMPLE = str(Path(accord.__file__).parent / "datasets" / "multilabel_example.csv")


def test_cli_json():
    app, runner = _cli()
    res = runner.invoke(app, ["multilabel", EXAMPLE, "--p", "0.6", "--classes", "--json", "--no-masi"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    want = augmented_kappa(load_multilabel_example(), p=0.6).kappa
    assert out["augmented_kappa"]["kappa"] == pytest.approx(want)
    assert out["augmented_kappa"]["n_items_unpaired"] == 1
    assert out["classes"]["counts"] == {**dict.fromkeys(ITEM_CLASSES, 6), "unpaired": 1}
    assert len(out["sweep"]["grid"]) == 11
    assert "masi_alpha" not in out


def test_cli_table_plot_ci_sharpen(tmp_path):
    pytest.importorskip("vl_convert")
    app, runner = _cli()
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    res = runner.invoke(app, ["multilabel", EXAMPLE, "--sweep", "--classes", "--plot", str(png), "--ci",
                              "--n-resamples", "200", "--seed", "3", "--sharpen", "--no-masi"])
    assert res.exit_code == 0, res.output
    assert "Pairwise K'" in res.output and "constant high" in res.output and "msg25" in res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = runner.invoke(app, ["multilabel", EXAMPLE, "--plot", str(svg), "--no-masi"])
    assert res.exit_code == 0, res.output
    assert "<svg" in svg.read_text()


def test_cli_errors(tmp_path):
    app, runner = _cli()
    res = runner.invoke(app, ["multilabel", EXAMPLE, "--p", "0.3"])
    assert res.exit_code == 2
    assert "p must be in [0.5, 1]" in res.stderr
    bad = tmp_path / "three.csv"
    bad.write_text('item,annotator,labels\nm1,A,"a,b,c"\nm1,B,a\n')
    res = runner.invoke(app, ["multilabel", str(bad), "--no-masi"])
    assert res.exit_code == 2 and "--rule geometric" in res.stderr and "rule=" not in res.stderr
    res = runner.invoke(app, ["multilabel", str(bad), "--rule", "geometric", "--no-masi", "--json"])
    assert res.exit_code == 0
    res = runner.invoke(app, ["multilabel", EXAMPLE, "--plot", str(tmp_path / "x.gif"), "--no-masi"])
    assert res.exit_code == 2 and "must end in .svg, .png, .pdf or .html" in res.stderr


def _one_error_line(res) -> str:
    """The CLI's refusal: exit status 2 and exactly one line on stderr."""
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accord: error: "), res.stderr
    return lines[0]


def test_cli_plot_refuses_its_input_even_with_force(tmp_path):
    app, runner = _cli()
    src = tmp_path / "ann.svg"  # an input whose name is a plot's: --plot must still refuse it
    src.write_bytes(Path(EXAMPLE).read_bytes())
    before = src.read_bytes()
    for extra in ([], ["--force"]):
        line = _one_error_line(runner.invoke(app, ["multilabel", str(src), "--plot", str(src), "--no-masi", *extra]))
        assert "input of this command" in line
        assert src.read_bytes() == before
    csv = tmp_path / "ann.csv"  # the usual slip, the data file as the plot: refused as an input, not for its suffix
    csv.write_bytes(before)
    line = _one_error_line(runner.invoke(app, ["multilabel", str(csv), "--plot", str(csv), "--force"]))
    assert "input of this command" in line and csv.read_bytes() == before


def test_cli_plot_replaces_an_existing_file_only_with_force(tmp_path):
    pytest.importorskip("vl_convert")
    app, runner = _cli()
    out = tmp_path / "sweep.svg"
    out.write_text("keep me")
    line = _one_error_line(runner.invoke(app, ["multilabel", EXAMPLE, "--plot", str(out), "--no-masi"]))
    assert "exists; pass --force" in line and str(out) in line
    assert out.read_text() == "keep me"
    res = runner.invoke(app, ["multilabel", EXAMPLE, "--plot", str(out), "--no-masi", "--force"])
    assert res.exit_code == 0, res.output
    assert "<svg" in out.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["sweep.svg"]  # no temporary file left behind


def test_plot_sweep_needs_force_to_replace(tmp_path):
    pytest.importorskip("vl_convert")
    from accord.multilabel._plot import plot_sweep

    sweep = augmented_kappa_sweep(load_multilabel_example())
    out = tmp_path / "s.svg"
    out.write_text("keep me")
    with pytest.raises(AccordError, match="exists; pass force=True"):
        plot_sweep(sweep, out)
    assert out.read_text() == "keep me"
    assert plot_sweep(sweep, out, force=True) == out and "<svg" in out.read_text()


def test_plot_errors(tmp_path):
    from accord.multilabel._plot import plot_sweep

    with pytest.raises(AccordError, match="AugmentedKappaSweep"):
        plot_sweep("not a sweep", tmp_path / "x.png")


def test_sweep_chart_is_k_against_p_with_the_classes():
    pytest.importorskip("altair")
    from accord.multilabel import sweep_chart

    sweep = augmented_kappa_sweep(load_multilabel_example())
    classes = sweep.classify()
    chart = sweep_chart(sweep, classes=classes, title="t")
    spec = chart.to_dict()
    assert spec["title"] == "t" and [layer["mark"]["type"] for layer in spec["layer"]] == ["rule", "line", "point"]
    rows = chart.layer[1].data.values
    overall = [r for r in rows if r["kind"] == "overall"]
    assert [r["p"] for r in overall] == pytest.approx(sweep.grid.tolist())
    assert [r["value"] for r in overall] == pytest.approx(sweep.kappa.tolist())
    series = list(dict.fromkeys(r["series"] for r in rows))
    assert series[0] == "K' (all items)" and len(series) == 1 + len(ITEM_CLASSES)
    assert all(f"n = {classes.counts[name]}" in s for name, s in zip(ITEM_CLASSES, series[1:], strict=True))
    high = [r["value"] for r in rows if r["series"].startswith("constant high")]
    assert high == pytest.approx(classes.class_curves["constant_high"].tolist())
    assert spec["layer"][1]["encoding"]["y"]["title"] == "K' / mean item kappa"
    # without classes: the one line; an undefined K' is a gap (null), never NaN in the spec
    with pytest.warns(AccordWarning, match="undefined"):
        bare = sweep_chart(augmented_kappa_sweep(MultiLabelData.from_dict({"A": ["a", "a"], "B": ["a", "a"]})))
    values = [r["value"] for r in bare.layer[1].data.values]
    assert values and all(v is None for v in values)
    assert bare.to_dict()["layer"][1]["encoding"]["y"]["title"] == "K'"
    json.dumps(bare.to_dict(), allow_nan=False)


def test_plot_sweep_svg_png_pdf_html(tmp_path):
    pytest.importorskip("vl_convert")
    from accord.multilabel import plot_sweep

    sweep = augmented_kappa_sweep(load_multilabel_example())
    classes = sweep.classify()
    svg = plot_sweep(sweep, tmp_path / "s.svg", classes=classes).read_text()
    assert svg.startswith("<svg")
    # the marks drew: the lines (K' and four classes), their points, the rule at 0, the legend
    assert svg.count('class="mark-line role-mark') >= 1 and "mark-symbol" in svg and "mark-rule" in svg
    assert svg.count("<path") >= 5 + 5 * 11
    assert "constant high (class 1), n = 6" in svg and "p (weight of the primary label)" in svg
    assert plot_sweep(sweep, tmp_path / "s.png", classes=classes).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plot_sweep(sweep, tmp_path / "s.PDF").read_bytes()[:5] == b"%PDF-"
    html = plot_sweep(sweep, tmp_path / "s.html", classes=classes).read_text()
    assert "<html" in html and "vega" in html and "<script src=" not in html  # scripts inlined: offline


def test_plot_needs_the_report_extra(tmp_path, monkeypatch):
    import sys

    from accord.multilabel import plot_sweep, sweep_chart

    sweep = augmented_kappa_sweep(load_multilabel_example())
    monkeypatch.setitem(sys.modules, "altair", None)  # import altair now raises ImportError
    with pytest.raises(AccordError, match=r"altair.*accord\[report\]"):
        sweep_chart(sweep)
    with pytest.raises(AccordError, match=r"accord\[report\]"):
        plot_sweep(sweep, tmp_path / "s.svg")
    monkeypatch.delitem(sys.modules, "altair")
    pytest.importorskip("altair")
    monkeypatch.setitem(sys.modules, "vl_convert", None)
    with pytest.raises(AccordError, match=r"vl-convert-python.*accord\[report\]"):
        plot_sweep(sweep, tmp_path / "s.svg")
    assert not (tmp_path / "s.svg").exists()


def test_cli_plot_pdf(tmp_path):
    pytest.importorskip("vl_convert")
    app, runner = _cli()
    out = tmp_path / "sweep.pdf"
    res = runner.invoke(app, ["multilabel", EXAMPLE, "--classes", "--plot", str(out), "--no-masi"])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:5] == b"%PDF-" and f"wrote {out}" in res.output.replace("\n", "")
