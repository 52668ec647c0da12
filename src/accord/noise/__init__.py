"""From annotator agreement to a noise model (Beigman Klebanov & Beigman 2009).

The model: every item is *easy* or *hard*.  All annotators agree on an easy item;
on a hard item each annotator independently flips a (possibly biased) coin, so a
hard item is agreed by chance with probability ``p``.  The ``d`` disagreed items
are therefore all hard, and some of the agreed items are hard too.  Given ``d``
disagreements among ``n`` items, equation 1 of the paper is the posterior tail
``P(X > t | A_d)`` of the number ``X`` of hard items; ``t_0`` is the smallest
``t`` with ``P(X > t | A_d) < 1 - confidence`` and ``gamma = (t_0 - d) / (n - d)``
bounds the share of hard (coin-flip) items among the agreed ones, the noise
level of a gold standard made of the agreed items.

This package holds, one module per concept,

- ``model``: the bound (:func:`noise_bound`), its tail (:func:`hard_items_tail`),
  its inverse (:func:`max_disagreements`), the chance agreement on hard items
  (:func:`hard_agreement_probability`, :func:`uniform_hard_agreement`) and the
  effect of adding an annotator (:func:`add_annotators`);
- ``comparison``: the chance difference between two algorithms on a noisy gold
  standard (:func:`chance_difference`);
- ``kappa``: the Siegel & Castellan K of equation 2 (:func:`siegel_castellan_k`,
  :func:`expected_k`) with the noise it implies (:func:`k_noise_estimate`);
- ``simulation``: a vectorised simulator of the generative model
  (:func:`simulate_annotations`, :func:`bound_coverage`);
- ``gold``: a gold standard from real annotations with its noise level
  (:func:`gold_standard`, :func:`estimate_hard_agreement`,
  :func:`read_long_table`).

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise
models. *Computational Linguistics* 35(4): 495-503.
"""

from __future__ import annotations

from accord.noise._comparison import (
    ChanceDifference,
    chance_difference,
)
from accord.noise._gold import (
    GoldStandard,
    HardAgreementEstimate,
    estimate_hard_agreement,
    gold_standard,
    read_long_table,
)
from accord.noise._kappa import (
    KNoiseEstimate,
    SiegelCastellanK,
    expected_k,
    k_noise_estimate,
    siegel_castellan_k,
)
from accord.noise._model import (
    AnnotatorProjection,
    DisagreementTolerance,
    NoiseBound,
    add_annotators,
    hard_agreement_probability,
    hard_items_tail,
    max_disagreements,
    noise_bound,
    uniform_hard_agreement,
)
from accord.noise._simulation import (
    BoundCoverage,
    SimulatedAnnotations,
    bound_coverage,
    simulate_annotations,
)
from accord.noise._study import NoiseModel, gold_standard_file, noise_model

__all__ = [
    "AnnotatorProjection",
    "BoundCoverage",
    "ChanceDifference",
    "DisagreementTolerance",
    "GoldStandard",
    "HardAgreementEstimate",
    "KNoiseEstimate",
    "NoiseBound",
    "NoiseModel",
    "SiegelCastellanK",
    "SimulatedAnnotations",
    "add_annotators",
    "bound_coverage",
    "chance_difference",
    "estimate_hard_agreement",
    "expected_k",
    "gold_standard",
    "gold_standard_file",
    "hard_agreement_probability",
    "hard_items_tail",
    "k_noise_estimate",
    "max_disagreements",
    "noise_bound",
    "noise_model",
    "read_long_table",
    "siegel_castellan_k",
    "simulate_annotations",
    "uniform_hard_agreement",
]
