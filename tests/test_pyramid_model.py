"""Pyramid model and guideline validation (Passonneau 2010, sections 2.1-2.3)."""

from __future__ import annotations

import pytest

from accord._shared.errors import AccordError
from accord.pyramid import (
    PSE,
    SCU,
    Contributor,
    ModelSummary,
    PeerAnnotation,
    Pyramid,
    Span,
    check_pyramid,
    merge_duplicate_contributors,
    tokenize,
    validate_pyramid,
)


def _fig1_pyramid() -> Pyramid:
    """Seed 002 Figure 1: SCU49 (W = 4), four contributors with gaps."""
    models = [
        "Plaid Cymru wants full independence",
        "Plaid Cymru, whose policy is to try and go for an independent Wales within the EU",
        "calls by the nationalists (Plaid Cymru) for a fully self-governing Wales within the EU",
        "Plaid Cymru renewed its campaign for equal rights to Welsh self-determination",
    ]
    return Pyramid.from_models(
        models,
        [
            {
                "id": 49,
                "label": "Plaid Cymru wants full independence",
                "contributors": [
                    {"model": 0, "parts": ["Plaid Cymru wants full independence"]},
                    {
                        "model": 1,
                        "parts": [
                            "Plaid Cymru",
                            "whose policy is to",
                            "go for an independent Wales within the EU",
                        ],
                    },
                    {
                        "model": 2,
                        "parts": ["calls by", "(Plaid Cymru)", "fully self-governing Wales within the EU"],
                    },
                    {
                        "model": 3,
                        "parts": ["Plaid Cymru", "its campaign for equal rights to Welsh self-determination"],
                    },
                ],
            }
        ],
    )


def test_fig1_scu_weight_is_four_and_contributors_have_gaps():
    # Passonneau 2010, Figure 1: SCU49 has W = 4; contributors can contain gaps.
    p = _fig1_pyramid()
    assert p.weights() == {49: 4}
    assert p.weights(by="contributors") == {49: 4}
    c = p.scu(49).contributors[1]
    assert len(c.spans) == 3 and p.text[c.spans[0].start : c.spans[0].end] == "Plaid Cymru"
    assert p.tiers() == {4: 1, 3: 0, 2: 0, 1: 0}
    assert check_pyramid(p).ok


def test_weight_counts_repetition_in_one_model_once():
    # Section 2.1: a model that re-expresses an SCU counts once.
    p = Pyramid.from_models(
        ["a b a", "a"],
        [
            {
                "id": 1,
                "label": "a",
                "contributors": [
                    {"model": 0, "parts": ["a"]},
                    {"model": 0, "parts": [(4, 5)]},
                    {"model": 1, "parts": ["a"]},
                ],
            }
        ],
    )
    assert p.weights() == {1: 2}
    assert p.weights(by="contributors") == {1: 3}
    rep = check_pyramid(p)
    assert [d.kind for d in rep.errors] == ["duplicate-model-contributor"]
    assert "model 1" in rep.errors[0].message
    with pytest.raises(AccordError, match="duplicate-model-contributor"):
        validate_pyramid(p)
    merged = validate_pyramid(p, duplicates="merge")
    assert len(merged.scu(1).contributors) == 2
    assert merged.scu(1).contributors[0].spans == (Span(0, 1), Span(4, 5))


def test_duplicate_error_names_both_contributors():
    p = Pyramid.from_models(
        ["alpha beta gamma"],
        [
            {
                "id": 7,
                "label": "x",
                "contributors": [
                    {"model": 0, "parts": ["alpha"], "label": "first"},
                    {"model": 0, "parts": ["gamma"], "label": "second"},
                ],
            }
        ],
    )
    msg = check_pyramid(p).errors[0].message
    assert "'first' at 0-5" in msg and "'second' at 11-16" in msg


def test_partition_style_refuses_overlap_relaxed_allows_it():
    p = Pyramid.from_models(
        ["the court ruled in New Orleans"],
        [
            {"id": 1, "label": "court ruled", "contributors": [{"model": 0, "parts": ["the court ruled"]}]},
            {
                "id": 2,
                "label": "court in NO",
                "contributors": [{"model": 0, "parts": ["the court", "in New Orleans"]}],
            },
        ],
    )
    assert [d.kind for d in check_pyramid(p).defects] == ["overlapping-contributors"]
    assert check_pyramid(p, style="relaxed").ok
    with pytest.raises(AccordError, match="style"):
        check_pyramid(p, style="loose")  # type: ignore[arg-type]


def test_span_outside_text_and_contributor_in_two_models():
    text = "aaa bbb"
    models = (ModelSummary(0, 0, 3), ModelSummary(1, 4, 7))
    p = Pyramid(
        text,
        models,
        (SCU(1, "x", (Contributor((Span(0, 3), Span(4, 7))),)), SCU(2, "y", (Contributor((Span(5, 99),)),))),
    )
    kinds = sorted(d.kind for d in check_pyramid(p).defects)
    assert kinds == ["contributor-spans-models", "span-out-of-range"]


def test_bad_input_errors_name_the_parameter():
    with pytest.raises(AccordError, match="SCU id 3"):
        Pyramid("a", (ModelSummary(0, 0, 1),), (SCU(3, "", ()), SCU(3, "", ())))
    with pytest.raises(AccordError, match="reserved"):
        Pyramid("a", (ModelSummary(0, 0, 1),), (SCU(0, "", ()),))
    with pytest.raises(AccordError, match="does not occur"):
        Pyramid.from_models(
            ["abc"], [{"id": 1, "label": "", "contributors": [{"model": 0, "parts": ["zz"]}]}]
        )
    with pytest.raises(AccordError, match="'model' must be an index"):
        Pyramid.from_models(["abc"], [{"id": 1, "label": "", "contributors": [{"model": 5, "parts": ["a"]}]}])
    with pytest.raises(AccordError, match="span"):
        PSE(1, ())
    with pytest.raises(AccordError, match="pattern"):
        tokenize("x", pattern="(")


def test_tokenize_offsets_and_pse_counts():
    t = tokenize("Through the Saudis, the United States asked")
    assert t.words() == ["Through", "the", "Saudis", "the", "United", "States", "asked"]
    assert [t.text[s:e] for s, e in zip(t.starts, t.ends, strict=True)] == t.words()
    # Seed 002 Figure 2: SCUs 1, 3 and 17 expressed by two PSEs each; duplicates count once.
    peer = PeerAnnotation(
        "x" * 20, tuple(PSE(i, ((k, k + 1),)) for k, i in enumerate([23, 3, 17, 1, 34, 4, 3, 7, 17, 1, 19]))
    )
    assert peer.n_pses == 11
    assert peer.scu_ids() == {1, 3, 4, 7, 17, 19, 23, 34}
    assert peer.counts()[3] == 2 and peer.counts()[4] == 1


def test_merge_is_identity_without_duplicates():
    p = _fig1_pyramid()
    assert merge_duplicate_contributors(p) == p
