"""The results of the judge audit (:func:`accord.judge_audit`): one :class:`JudgeAudit` per judge."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from accord._shared.results import Result
from accord.models_vs_humans._ppi import PPIEstimate, RoganGladen
from accord.models_vs_humans._proportions import McNemarTest, Proportion

__all__ = ["AgreementWith", "Disagreement", "HumanAgreement", "JudgeAudit", "JudgeAuditResult", "PassRate",
           "PositionConsistency", "PositionFlip", "Repeatability", "RunFlip"]


@dataclass(frozen=True)
class PositionFlip(Result):
    """An item whose verdict changes when the two options swap places.

    ``canonical`` and ``swapped`` are the verdicts as options (A, B, tie, error) in the canonical order and
    in the swapped one; ``leans`` is ``first``, ``second`` (the position the judge followed) or ``error``."""

    unit: Any
    run: Any
    canonical: Any
    swapped: Any
    leans: str


@dataclass(frozen=True)
class PositionConsistency(Result):
    """How the judge's verdict holds when the options swap places (Zheng et al. 2023, Table 2).

    Attributes
    ----------
    n_pairs : int
        Items (per run) judged in both orders.
    consistency : Proportion
        The same option in both orders (a tie in both counts).
    biased_first, biased_second : Proportion
        The verdict follows the first (second) position: the answer shown first (second) chosen in both orders,
        or chosen in one order with a tie in the other.
    error : Proportion
        A verdict the judge failed to give in either order.
    mcnemar : McNemarTest or None
        McNemar's test of a preference for one position: biased_first against biased_second.
    flips : tuple of PositionFlip
        The pairs that are not consistent.
    undefined_reason : str or None
    significance : float
        The level McNemar's p-value is read at for :attr:`verdict`: 1 - the confidence level of the audit.
    """

    n_pairs: int
    consistency: Proportion | None
    biased_first: Proportion | None
    biased_second: Proportion | None
    error: Proportion | None
    mcnemar: McNemarTest | None
    flips: tuple[PositionFlip, ...] = ()
    undefined_reason: str | None = None
    significance: float = 0.05

    @property
    def verdict(self) -> str:
        """``undefined``, ``position bias`` (McNemar's p below :attr:`significance`) or ``no position bias
        shown``."""
        if self.mcnemar is None or math.isnan(self.mcnemar.p_value):
            return "undefined"
        return "position bias" if self.mcnemar.p_value < self.significance else "no position bias shown"


@dataclass(frozen=True)
class RunFlip(Result):
    """An item (in one order) on which the runs disagree; ``verdicts`` pairs each run with its verdict."""

    unit: Any
    position: Any
    verdicts: tuple[tuple[Any, Any], ...]


@dataclass(frozen=True)
class Repeatability(Result):
    """The judge against itself across runs, the runs as coders.

    Attributes
    ----------
    n_runs : int
    n_items : int
        Items (per order) with verdicts from two or more runs.
    alpha : float
        Krippendorff's alpha with the runs as coders and the data's distance.
    alpha_ci_low, alpha_ci_high : float
        Its bootstrap interval (items resampled; NaN when alpha is undefined).
    distance : str
    all_agree : Proportion
        The items on which every run gives the same verdict.
    flips : tuple of RunFlip
        The items on which they do not.
    undefined_reason : str or None
    """

    n_runs: int
    n_items: int
    alpha: float
    alpha_ci_low: float
    alpha_ci_high: float
    distance: str
    all_agree: Proportion | None
    flips: tuple[RunFlip, ...] = ()
    undefined_reason: str | None = None


@dataclass(frozen=True)
class AgreementWith(Result):
    """The judge against one human, or against the humans' majority.

    Attributes
    ----------
    other : object
        The human's name, or ``"human majority"``.
    n_items : int
    accuracy : Proportion
        The items with the same verdict (ties count as a verdict).
    accuracy_without_ties : Proportion or None
        The same over the items where neither gives a tie (pairwise verdicts; Zheng et al.'s "w/o tie").
    kappa, kappa_ci_low, kappa_ci_high : float
        Cohen's kappa (the data's distance) and its interval (Fleiss, Cohen & Everitt 1969 standard error).
    kappa_undefined_reason : str or None
    true_positive_rate, true_negative_rate, precision : Proportion or None
        Binary verdicts: the judge against the other as the reference.
    """

    other: Any
    n_items: int
    accuracy: Proportion
    accuracy_without_ties: Proportion | None
    kappa: float
    kappa_ci_low: float
    kappa_ci_high: float
    kappa_undefined_reason: str | None = None
    true_positive_rate: Proportion | None = None
    true_negative_rate: Proportion | None = None
    precision: Proportion | None = None


@dataclass(frozen=True)
class Disagreement(Result):
    """An item where the judge's verdict differs from the humans' majority."""

    unit: Any
    judge: Any
    majority: Any
    n_majority: int
    n_humans: int


@dataclass(frozen=True)
class HumanAgreement(Result):
    """The judge against the people, and the people among themselves (the ceiling).

    Attributes
    ----------
    with_humans : tuple of AgreementWith
        One per human, in the data's coder order.
    with_majority : AgreementWith or None
        Against the strict majority of the humans on each item (items without one are left out: see
        ``n_no_majority``).
    n_no_majority : int
    pooled, pooled_without_ties : Proportion or None
        Zheng et al.'s agreement: the share of (judge verdict, human vote) pairs that agree over every vote on
        every item, with ties and without (pairs where either is a tie left out).  The interval treats votes as
        independent.
    humans_pooled, humans_pooled_without_ties : Proportion or None
        The same among the humans: every pair of human votes on an item.
    humans_alpha : float
        Krippendorff's alpha among the humans (the data's distance).
    humans_alpha_ci_low, humans_alpha_ci_high : float
        Its bootstrap interval (items resampled).
    undefined_reason : str or None
    """

    with_humans: tuple[AgreementWith, ...]
    with_majority: AgreementWith | None
    n_no_majority: int
    pooled: Proportion | None
    pooled_without_ties: Proportion | None
    humans_pooled: Proportion | None
    humans_pooled_without_ties: Proportion | None
    humans_alpha: float
    humans_alpha_ci_low: float
    humans_alpha_ci_high: float
    undefined_reason: str | None = None


@dataclass(frozen=True)
class PassRate(Result):
    """The judge's pass rate (or mean score), raw and corrected by the items people labelled.

    Attributes
    ----------
    positive : object
        The verdict counted as a pass (None for scores).
    raw : Proportion or None
        The judge's pass rate over every item it judged (binary verdicts).
    raw_mean : float
        The judge's mean (its pass rate for binary verdicts).
    n_labeled, n_unlabeled : int
        Items with a human label (the majority; the mean of the scores) and the judge's, and items with the
        judge's only.
    rogan_gladen : RoganGladen or None
        Binary verdicts only.
    ppi : PPIEstimate or None
    undefined_reason : str or None
    """

    positive: Any
    raw: Proportion | None
    raw_mean: float
    n_labeled: int
    n_unlabeled: int
    rogan_gladen: RoganGladen | None
    ppi: PPIEstimate | None
    undefined_reason: str | None = None


@dataclass(frozen=True)
class JudgeAudit(Result):
    """The audit of one judge: consistent, repeatable, right?

    Attributes
    ----------
    judge : object
    kind : str
        ``pairwise`` (A, B, tie) or ``pointwise`` (labels or scores).
    n_items : int
        Items with a verdict of the judge (errors aside).
    n_judgments, n_errors : int
        Rows of the judge, and those with a verdict it failed to give.
    position : PositionConsistency
    repeatability : Repeatability
    humans : HumanAgreement
    pass_rate : PassRate
    alt_test : ModelAltTest or None
        The alternative annotator test of the judge's verdicts (:func:`accord.alt_test`).
    alt_test_reason : str or None
        Why the alt-test was not run or is undefined.
    disagreements : tuple of Disagreement
        The items where the judge's verdict differs from the humans' majority.
    n_no_verdict : int
        Items whose runs give no majority verdict (pointwise; pairwise items read as a tie) or only errors.
    """

    judge: Any
    kind: str
    n_items: int
    n_judgments: int
    n_errors: int
    position: PositionConsistency
    repeatability: Repeatability
    humans: HumanAgreement
    pass_rate: PassRate
    alt_test: Any
    alt_test_reason: str | None
    disagreements: tuple[Disagreement, ...] = ()
    n_no_verdict: int = 0

    def summary(self) -> dict[str, Any]:
        """The headline of each check, one flat mapping (for a table of judges side by side)."""
        p, r, h, pr = self.position, self.repeatability, self.humans, self.pass_rate
        maj = h.with_majority
        return {
            "judge": self.judge,
            "items": self.n_items,
            "errors": self.n_errors,
            "position consistency": p.consistency.estimate if p.consistency else math.nan,
            "biased first": p.biased_first.estimate if p.biased_first else math.nan,
            "biased second": p.biased_second.estimate if p.biased_second else math.nan,
            "McNemar p": p.mcnemar.p_value if p.mcnemar else math.nan,
            "runs alpha": r.alpha,
            "runs all agree": r.all_agree.estimate if r.all_agree else math.nan,
            "accuracy vs majority": maj.accuracy.estimate if maj else math.nan,
            "kappa vs majority": maj.kappa if maj else math.nan,
            "humans pooled": h.humans_pooled.estimate if h.humans_pooled else math.nan,
            "raw rate": pr.raw_mean,
            "Rogan-Gladen": pr.rogan_gladen.estimate if pr.rogan_gladen else math.nan,
            "PPI": pr.ppi.estimate if pr.ppi else math.nan,
            "alt-test": self.alt_test.verdict if self.alt_test is not None else "not run",
        }


@dataclass(frozen=True)
class JudgeAuditResult(Result):
    """The audits of one or several judges against the same humans.

    Attributes
    ----------
    audits : tuple of JudgeAudit
        One per judge, in the data's coder order (``result[judge]``).
    humans : tuple
    kind : str
    positions : tuple
        The two values of the position column, the canonical order first (empty without one).
    verdict_refers_to : str or None
    confidence_level : float
    epsilon, alt_test_alpha : float
        The alternative annotator test's margin and false discovery rate.
    min_items : int
        The alt-test's least items per human.
    n_missing : int
        Humans' rows without a verdict (empty, or ``error``), left out.
    source : str or None
    n_boot : int or None
        The bootstrap draws of alpha's intervals (across runs, among the humans) and of a bootstrap pass rate.
    """

    audits: tuple[JudgeAudit, ...]
    humans: tuple[Any, ...]
    kind: str
    positions: tuple[Any, ...]
    verdict_refers_to: str | None
    confidence_level: float
    epsilon: float
    alt_test_alpha: float
    min_items: int
    n_missing: int = 0
    source: str | None = None
    n_boot: int | None = None

    @property
    def judges(self) -> list[Any]:
        """The judges audited."""
        return [a.judge for a in self.audits]

    def __getitem__(self, judge: Any) -> JudgeAudit:
        for a in self.audits:
            if a.judge == judge or str(a.judge) == str(judge):
                return a
        raise KeyError(f"no judge {judge!r} in this audit; the judges are {', '.join(map(repr, self.judges))}")

    def summary(self) -> pd.DataFrame:
        """One row per judge: the headline of each check (:meth:`JudgeAudit.summary`)."""
        return pd.DataFrame([a.summary() for a in self.audits])
