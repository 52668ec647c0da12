"""Agreement on pyramids and on peer annotations (seed 000 sections 3-4, seed 002 section 4.1)."""

from __future__ import annotations

import pytest

from accord._shared.errors import AccordError
from accord.distances import get_distance
from accord.pyramid import (
    SCU,
    Contributor,
    ModelSummary,
    PeerAnnotation,
    Pyramid,
    Span,
    align_tokens,
    peer_agreement,
    peer_reliability_data,
    pyramid_agreement,
    tokenize,
    unit_values,
)

# ------------------------------------------------------------ seed 002, Figure 4
PEER_TEXT = (
    "Secretary-General Kofi Annan said Wednesday that he is considering a trip to Libya next week to close "
    "a deal to try Libyan suspects in the Pan Am Lockerbie bombing. Farrakhan repeatedly has urged an end to "
    "the sanctions, which were imposed to try to force Gadhafi to surrender two Libyans wanted in the 1988 "
    "bombing of a Pan Am jetliner over Lockerbie, Scotland, that killed 270 people."
)
A1 = [
    (
        23,
        "Secretary-General Kofi Annan said Wednesday that he is considering a trip to Libya next week to "
        "close a deal to try",
    ),
    (3, "Libyan suspects"),
    (17, "in the Pan Am"),
    (1, "Lockerbie bombing."),
    (34, "Farrakhan repeatedly has urged an end to the sanctions,"),
    (4, "which were imposed to try to force Gadhafi to surrender"),
    (3, "two Libyans wanted"),
    (7, "in the 1988"),
    (17, "bombing of a Pan Am jetliner"),
    (1, "over Lockerbie, Scotland,"),
    (19, "that killed 270 people."),
]
A2 = [
    (
        23,
        "Secretary-General Kofi Annan said Wednesday that he is considering a trip to Libya next week to "
        "close a deal",
    ),
    (3, "to try Libyan suspects"),
    (1, "in the Pan Am Lockerbie bombing."),
    (0, "Farrakhan repeatedly has urged an end to"),
    (4, "the sanctions, which were imposed to try to force Gadhafi to surrender two Libyans wanted"),
    (7, "in the 1988"),
    (1, "bombing of a Pan Am jetliner over Lockerbie, Scotland,"),
    (19, "that killed 270 people."),
]


def _fig4_peers() -> tuple[PeerAnnotation, PeerAnnotation]:
    return (
        PeerAnnotation.from_phrases(PEER_TEXT, A1, name="A1"),
        PeerAnnotation.from_phrases(PEER_TEXT, A2, name="A2"),
    )


def test_fig4_pse_objects_give_printed_alphas():
    # Passonneau 2010, section 4.1.3 / Figure 4: alpha_Dice 0.15, alpha_Binary 0.34, alpha_Binary' -0.07.
    a1, a2 = _fig4_peers()
    assert a1.n_pses == 11 and a2.n_pses == 8
    res = peer_agreement([a1, a2])
    assert res.n_units == 8  # SCUs 1, 3, 4, 7, 17, 19, 23, 34
    assert round(res.alpha_dice, 2) == 0.15
    assert round(res.alpha_binary, 2) == 0.34
    assert round(res.alpha_binary_prime, 2) == -0.07
    assert list(res.to_frame()["measure"]) == ["dice", "binary", "binary'"]


def test_fig4_per_scu_distances():
    # Figure 4's 1-Dice row: SCU1 0, SCU3 0.33, SCU4 0, SCU7 0, SCU17 1, SCU19 0, SCU23 0, SCU34 1.
    a1, a2 = _fig4_peers()
    data = peer_reliability_data([a1, a2])
    dice = get_distance("dice")
    expected = {1: 0, 3: 1 / 3, 4: 0, 7: 0, 17: 1, 19: 0, 23: 0, 34: 1}
    c1, c2 = a1.counts(), a2.counts()
    from accord.distances import multiset_value

    for sid, d in expected.items():
        v1, v2 = multiset_value({"y": c1.get(sid, 0)}), multiset_value({"y": c2.get(sid, 0)})
        assert dice(v1, v2) == pytest.approx(d)
    assert data.n_units == 8


def test_peer_agreement_errors():
    a1, _ = _fig4_peers()
    with pytest.raises(AccordError, match="at least 2"):
        peer_agreement([a1])
    other = PeerAnnotation.from_phrases("something else entirely", [(1, "something")])
    with pytest.raises(AccordError, match="different text"):
        peer_agreement([a1, other])
    with pytest.raises(AccordError, match="units"):
        peer_agreement([a1, a1], units="all")  # no pyramid attached


# ------------------------------------------------------ seed 000, Figures 1 and 4
def _span_pyramid(classes: list[list[int]]) -> tuple[Pyramid, list[Span]]:
    text = " ".join(f"s{i}" for i in range(1, 8))
    spans = [Span(3 * i, 3 * i + 2) for i in range(7)]
    scus = tuple(
        SCU(k + 1, "", tuple(Contributor((spans[i - 1],)) for i in cls)) for k, cls in enumerate(classes)
    )
    return Pyramid(text, (ModelSummary(0, 0, len(text)),), scus), spans


def test_fig1_equivalence_classes_over_spans():
    # Passonneau 2006, Figure 1: A1 {1,2,3,4} {5,7} {6}; A2 {1,...,7}; Figure 4 lists them per span.
    a1, spans = _span_pyramid([[1, 2, 3, 4], [5, 7], [6]])
    a2, _ = _span_pyramid([[1, 2, 3, 4, 5, 6, 7]])
    cls1 = [frozenset(i + 1 for i in v) for v in unit_values(a1, spans, less_unit=False)]
    cls2 = [frozenset(i + 1 for i in v) for v in unit_values(a2, spans, less_unit=False)]
    assert cls1 == [frozenset({1, 2, 3, 4})] * 4 + [frozenset({5, 7}), frozenset({6}), frozenset({5, 7})]
    assert cls2 == [frozenset(range(1, 8))] * 7


def test_table1_span_row():
    # Passonneau 2006, Table 1, spans as units: Nominal 0, Jaccard "44" (garbled in the text), MASI 0.14.
    # With the unit removed from its value (section 3.3), nominal alpha is 0 as printed: no span gets
    # identical sets from both annotators, and D_o = D_e.  Jaccard and MASI do not reproduce: alpha with
    # 1 - Jaccard is -0.018 and with 1 - J*M is 0.083 (1 - J*M with NLTK's 0.67/0.33 scale: 0.085;
    # (1 - J) * M: 0.388); keeping the unit in its value gives -0.238 / -0.327.  Seven units with one
    # annotator's value constant leave too little variation to pin down what was computed; the printed
    # values are not reproducible from the printed matrix, so the code is not bent to hit them.
    a1, spans = _span_pyramid([[1, 2, 3, 4], [5, 7], [6]])
    a2, _ = _span_pyramid([[1, 2, 3, 4, 5, 6, 7]])
    res = pyramid_agreement(a1, a2, units=spans)
    assert res.n_units == 7
    assert res.alphas["nominal"] == pytest.approx(0.0, abs=1e-12)
    assert res.alphas["jaccard"] == pytest.approx(-0.0184, abs=1e-4)
    assert res.alphas["masi-2006"] == pytest.approx(0.0831, abs=1e-4)


# --------------------------------------------------------- seed 002, Figure 5
SUMS = [
    "Saudi Arabian officials, under American pressure, asked Afghan leaders",
    "sought help from Saudi officials, who tried to convince Taliban leaders",
    "US and Saudi Arabian requests",
    "Through the Saudis, the United States asked",
    "US and Saudi officials then attempted",
]


def _fig5(separator: str = "\n") -> tuple[Pyramid, Pyramid]:
    a1 = Pyramid.from_models(
        SUMS,
        [
            {
                "id": 1,
                "label": "Americans asked Saudis for help",
                "contributors": [
                    {"model": 0, "parts": ["Saudi Arabian officials, under American pressure"]},
                    {"model": 1, "parts": ["sought help from Saudi officials"]},
                    {"model": 2, "parts": [SUMS[2]]},
                    {"model": 3, "parts": [SUMS[3]]},
                ],
            }
        ],
        separator=separator,
        name="A1",
    )
    a2 = Pyramid.from_models(
        SUMS,
        [
            {
                "id": 1,
                "label": "Via the Saudis, US tried to get cooperation from the Taliban",
                "contributors": [{"model": i, "parts": [s]} for i, s in enumerate(SUMS)],
            }
        ],
        separator=separator,
        name="A2",
    )
    return a1, a2


def test_fig5_word_sets_and_masi():
    # Passonneau 2010, Figure 5: A1 {1-6, 10-14, 21-32} (N = 23), A2 {1-38} (N = 38);
    # MASI (1 - J) x M = (1 - 23/38) x 1/3 = 0.13.
    a1, a2 = _fig5()
    v1, v2 = unit_values(a1, less_unit=False), unit_values(a2, less_unit=False)
    assert len(v1) == 38
    words1 = sorted(i + 1 for i in v1[0])
    assert words1 == [*range(1, 7), *range(10, 15), *range(21, 33)] and len(words1) == 23
    assert len(v2[0]) == 38
    assert get_distance("masi-2010")(v1[0], v2[0]) == pytest.approx((1 - 23 / 38) / 3)
    assert round(get_distance("masi-2010")(v1[0], v2[0]), 2) == 0.13


def test_pyramid_agreement_words_and_alignment():
    a1, a2 = _fig5()
    res = pyramid_agreement(a1, a2)
    assert res.n_units == 38 and res.n_unaligned == (0, 0)
    assert set(res.alphas) == {"nominal", "jaccard", "masi-2006", "masi-2010"}
    # A second pyramid laid out differently (header lines, other separators) aligns on the words.
    b1, _ = _fig5()
    _, b2 = _fig5(separator="\n\n=== next model ===\n\n")
    res2 = pyramid_agreement(b1, b2)
    assert res2.n_units == 38 and res2.n_unaligned[1] > 0
    assert res2.alphas == pytest.approx(res.alphas)
    assert len(res.to_frame()) == 4


def test_align_tokens_identity_and_gaps():
    ia, ib = align_tokens(tokenize("a b c"), tokenize("a b c"))
    assert ia.tolist() == ib.tolist() == [0, 1, 2]
    ia, ib = align_tokens(tokenize("a b c d"), tokenize("a x c d"))
    assert list(zip(ia.tolist(), ib.tolist(), strict=True)) == [(0, 0), (2, 2), (3, 3)]


def test_pyramid_agreement_errors():
    a1, a2 = _fig5()
    with pytest.raises(AccordError, match="units"):
        pyramid_agreement(a1, a2, units="sentences")  # type: ignore[arg-type]
    with pytest.raises(AccordError, match="distances"):
        pyramid_agreement(a1, a2, distances=())
