"""One shape for every coefficient's result (issue 30), in the manner of test_common.

Every public coefficient runs on data it applies to, and its result is read with no special case:
``.value``, ``.name``, ``.standard_error``, ``.z``, ``.p_value`` and ``to_dict()`` with ``coefficient``
and ``value``; the names each result had before (``.alpha``, ``.kappa``, ``.ac``...) stay.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

import accord
from accord import Annotations
from accord._shared.results import Coefficient
from accord.multilabel import MultiLabelData
from accord.spans import Span, SpanAnnotations, gamma

RATINGS = Annotations.from_matrix([[1, 2, 3, 3, 2, 4, 1, 2], [1, 3, 3, 2, 2, 4, 1, 1], [1, 2, 3, 3, 1, 4, 2, 2]])
TWO = Annotations.from_matrix([[1, 2, 3, 3, 2, 4, 1, 2], [1, 3, 3, 2, 2, 4, 1, 1]])
TEXT = "Ann met Bob in Paris on Monday and left."
SPANS = SpanAnnotations.from_spans(
    [Span("d", 0, 3, "PER", "a"), Span("d", 8, 11, "PER", "a"), Span("d", 15, 20, "LOC", "a"),
     Span("d", 0, 3, "PER", "b"), Span("d", 8, 11, "ORG", "b"), Span("d", 24, 30, "DATE", "b")],
    texts={"d": TEXT},
)
MULTI = MultiLabelData.from_dict({"A": {"i1": "a", "i2": "a,b", "i3": "b", "i4": "c"},
                                  "B": {"i1": "a", "i2": "b", "i3": "b,c", "i4": "c"}})

#: every public coefficient -> (its call, the attribute that held the value before)
COEFFICIENTS = {
    "alpha": (lambda: accord.alpha(RATINGS), "alpha"),
    "alpha weighted": (lambda: accord.alpha(RATINGS, weights="quadratic"), "alpha"),
    "percent_agreement": (lambda: accord.percent_agreement(RATINGS), "percent_agreement"),
    "cohen_kappa": (lambda: accord.cohen_kappa(TWO), "kappa"),
    "weighted_kappa": (lambda: accord.weighted_kappa(TWO, weights="linear"), "kappa"),
    "scott_pi": (lambda: accord.scott_pi(TWO), "kappa"),
    "fleiss_kappa": (lambda: accord.fleiss_kappa(RATINGS), "kappa"),
    "fleiss_kappa gwet": (lambda: accord.fleiss_kappa(RATINGS, missing="gwet"), "kappa"),
    "siegel_castellan_k": (lambda: accord.siegel_castellan_k(RATINGS), "kappa"),
    "multi_kappa": (lambda: accord.multi_kappa(RATINGS), "kappa"),
    "bennett_s": (lambda: accord.bennett_s(RATINGS), "kappa"),
    "gwet_ac1": (lambda: accord.gwet_ac1(RATINGS), "ac"),
    "gwet_ac2": (lambda: accord.gwet_ac2(RATINGS, weights="quadratic"), "ac"),
    "brennan_prediger": (lambda: accord.brennan_prediger(RATINGS), "kappa"),
    "conger_kappa": (lambda: accord.conger_kappa(RATINGS), "kappa"),
    "light_kappa": (lambda: accord.light_kappa(RATINGS), "kappa"),
    "icc": (lambda: accord.icc(RATINGS), "icc"),
    "icc_table": (lambda: accord.icc_table(RATINGS), None),
    "kendall_w": (lambda: accord.kendall_w(RATINGS), "w"),
    "lin_ccc": (lambda: accord.lin_ccc(TWO), "ccc"),
    "overall ccc": (lambda: accord.lin_ccc(RATINGS), "ccc"),
    "span_f1": (lambda: accord.span_f1(SPANS), "micro_f1"),
    "token_agreement": (lambda: accord.token_agreement(SPANS), None),
    "unitizing_alpha": (lambda: accord.unitizing_alpha(SPANS), "alpha"),
    "gamma": (lambda: gamma(SPANS, rng=1, precision=0.2), "gamma"),
    "coref_alpha": (lambda: accord.coref_alpha(accord.example_passonneau2004()), "alpha"),
    "coref_scores": (lambda: accord.coref_scores([["m1", "m2"], ["m3", "m4"], ["m5"]],
                                                 [["m1", "m2", "m3"], ["m4"], ["m5"]]), "conll_f1"),
    "augmented_kappa": (lambda: accord.augmented_kappa(MULTI, p=0.6), "kappa"),
}


def _run(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


@pytest.mark.parametrize("name", sorted(COEFFICIENTS))
def test_every_coefficient_has_one_shape(name):
    call, old = COEFFICIENTS[name]
    res = _run(call)
    assert isinstance(res, Coefficient)
    value = res.value
    assert isinstance(value, float) and -1.0 - 1e-9 <= value <= 1.0 + 1e-9
    assert isinstance(res.name, str) and res.name and "_" not in res.name
    for attr in ("standard_error", "z", "p_value"):
        assert isinstance(getattr(res, attr), float)
    d = res.to_dict()
    assert d["value"] == pytest.approx(value, abs=0) and isinstance(d["coefficient"], str)
    json.dumps(d)
    if old is not None:
        assert getattr(res, old) == value  # the names each had are kept
        assert d[old] == d["value"]


@pytest.mark.parametrize("name", sorted(COEFFICIENTS))
def test_z_is_the_value_over_the_standard_error_of_its_test(name):
    res = _run(COEFFICIENTS[name][0])
    if math.isnan(res.p_value) or math.isnan(res.z):
        return
    assert abs(res.z) > 0
    se = res.value / res.z
    assert se > 0


def test_gwet_chance_agreement_is_also_expected_agreement():
    res = accord.gwet_ac1(RATINGS)
    assert res.expected_agreement == res.chance_agreement
    assert res.to_dict()["expected_agreement"] == res.to_dict()["chance_agreement"]
    kappa = accord.fleiss_kappa(RATINGS)
    assert {"observed_agreement", "expected_agreement"} <= set(kappa.to_dict())


def test_names_are_the_readers():
    assert accord.gwet_ac1(RATINGS).name == "Gwet's AC1"
    assert accord.gwet_ac2(RATINGS, weights="linear").name == "Gwet's AC2"
    assert accord.cohen_kappa(TWO).name == "Cohen's kappa"
    assert accord.alpha(RATINGS).name == "Krippendorff's alpha"
    assert accord.lin_ccc(TWO).name == "Lin's CCC"
    assert accord.lin_ccc(RATINGS).name == "overall CCC"


def test_the_icc_table_reports_the_form_asked_for_and_each_form_its_own():
    table = accord.icc_table(RATINGS)
    d = table.to_dict()
    assert d["coefficient"] == "icc" and d["form"] == "ICC(A,1)"
    assert d["value"] == table["ICC(A,1)"].icc == accord.icc(RATINGS).value
    for form, fd in zip(table.forms, d["forms"], strict=True):
        assert fd["value"] == (None if math.isnan(form.icc) else form.icc) and fd["coefficient"] == "icc"


def test_p_value_and_z_where_a_test_is_defined():
    cohen = accord.cohen_kappa(TWO)
    assert cohen.z == pytest.approx(cohen.kappa / cohen.standard_error_null)
    ac = accord.gwet_ac1(RATINGS)
    assert ac.z == pytest.approx(ac.ac / ac.standard_error)
    assert math.isnan(accord.alpha(RATINGS).z) and math.isnan(accord.alpha(RATINGS).p_value)
    assert np.isnan(accord.percent_agreement(RATINGS).standard_error)


def test_the_icc_table_reports_the_form_asked_for():
    table = accord.icc_table(RATINGS, form="ICC(3,1)")
    assert table.value == table["ICC(C,1)"].icc and table.to_dict()["form"] == "ICC(3,1)"
    with pytest.raises(accord.AccordError):
        accord.icc_table(RATINGS, form="ICC(9,9)")
