"""The results of relation agreement: scores per coder pair, the unmatched relations, the whole."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from accord._shared.results import Coefficient, Result

__all__ = ["REASONS", "RelationAgreement", "RelationPairScores", "RelationScore", "UnmatchedRelation"]

#: Why a relation has no match in the other coder's relations, most telling first.
REASONS: dict[str, str] = {
    "argument": "an argument has no counterpart among the other coder's spans",
    "type": "the other coder related the same arguments, in the same direction, with another type",
    "direction": "the other coder related the same arguments with the same type, in the other direction",
    "type+direction": "the other coder related the same arguments with another type, in the other direction",
    "absent": "the other coder marked both arguments and did not relate them",
}


@dataclass(frozen=True)
class RelationScore(Result):
    """Precision, recall and F1 of coder b's relations against coder a's (for one type, or all).

    Attributes
    ----------
    label : str
        The relation type, or ``"(typed)"`` / ``"(untyped)"`` for all relations with or without their type.
    true_positives : int
        Relations of b matched one to one to a relation of a.
    n_a, n_b : int
        Relations of a (reference) and of b (response).
    precision, recall, f1 : float
        tp / n_b, tp / n_a and 2 tp / (n_a + n_b); NaN when the denominator is 0.
    """

    label: str
    true_positives: int
    n_a: int
    n_b: int
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class RelationPairScores(Result):
    """The relation scores of one pair of coders over the documents both saw.

    Attributes
    ----------
    coder_a, coder_b : str
    n_documents : int
    typed : RelationScore
        Relations match when both arguments and the type match (and the direction, for a directed type).
    untyped : RelationScore
        Relations match when both arguments match (in order, for a directed relation), whatever the type.
    types : tuple of RelationScore
        Typed scores per relation type.
    """

    coder_a: str
    coder_b: str
    n_documents: int
    typed: RelationScore
    untyped: RelationScore
    types: tuple[RelationScore, ...]


@dataclass(frozen=True)
class UnmatchedRelation(Result):
    """A relation of one coder with no typed match among the other coder's, and why.

    Attributes
    ----------
    document, coder, other_coder : str
    relation : str or None
        Its id in the export (brat ``R3``; an event's role ``E2:Theme``).
    type : str
    source, target : str
        The arguments as ``[start, end) 'label'``.
    reason : str
        A key of :data:`REASONS`: ``argument``, ``type``, ``direction``, ``type+direction`` or ``absent``.
    missing : str or None
        With ``argument``: which argument has no counterpart (``source``, ``target`` or ``both``).
    other_type : str or None
        With ``type`` and the direction reasons: the other coder's type on those arguments.
    """

    document: str
    coder: str
    other_coder: str
    relation: str | None
    type: str
    source: str
    target: str
    reason: str
    missing: str | None = None
    other_type: str | None = None


@dataclass(frozen=True)
class RelationAgreement(Coefficient):
    """Relation agreement: pairwise F1 with and without the type, and alpha over the candidate argument pairs.

    Attributes
    ----------
    match : str
        How arguments were aligned: ``exact``, ``overlap`` or ``gamma``.
    argument_labels : bool
        Whether spans of different labels could stand for one argument (False) or not (True).
    ignore_type : bool
        Whether the values alpha compares are the relations' types (False) or only "related" (True).
    unmarked : str
        ``"missing"``: a coder who did not mark an argument has no value on the pair; ``"none"``: they count
        as relating nothing there (when they saw the document).
    undirected : tuple of str
        The types declared undirected.
    coders : tuple of str
    pairs : tuple of RelationPairScores
        One per pair of coders sharing a document.
    f1, f1_untyped : float
        Means over coder pairs of the typed and untyped F1.
    alpha : float
        Nominal Krippendorff's alpha over the candidate pairs (see :func:`~accord.relations.agreement`).
    alpha_result : AlphaResult or None
        alpha's full result (None when it could not be computed: see ``undefined_reason``).
    kappa : float
        Cohen's kappa over the candidate pairs both coders have a value on; NaN unless there are two coders.
    kappa_result : KappaResult or None
    n_documents : int
        Documents seen by two coders or more.
    n_relations : int
        Relations in all (an event's roles counted one each).
    n_candidates : int
        Candidate argument pairs: the pairs of positions some coder related.
    n_pairable : int
        Candidates with values of two coders or more (those alpha compares).
    unmatched : tuple of UnmatchedRelation
        Every relation without a typed match, for each pair, from both sides.
    unshared_pairs : tuple of (str, str)
        Pairs of coders who saw no document in common.
    n_merged : int
        Relations that repeat another of the same coder (same arguments, type and direction), counted once.
    undefined_reason, kappa_undefined_reason : str or None
        Why alpha (or kappa) is NaN, when it is.
    bootstrap : int
        Resamples of documents drawn for alpha's interval (0: none asked).
    confidence : float
        The interval's level.
    alpha_ci_low, alpha_ci_high : float
        Alpha's bootstrap interval (:meth:`confidence_interval`); NaN without *bootstrap*, or when it could not
        be drawn (see ``interval_undefined_reason``).
    interval_undefined_reason : str or None
        Why the interval asked for could not be drawn: alpha undefined, fewer than two documents, alpha
        undefined on every resample.
    kappa_ci_low, kappa_ci_high : float
        Cohen's kappa's bootstrap interval over the same resamples of documents
        (``confidence_interval(coefficient="kappa")``); NaN without *bootstrap*, with other than two coders, or
        when it could not be drawn (see ``kappa_interval_undefined_reason``).
    kappa_interval_undefined_reason : str or None
        Why kappa's interval asked for could not be drawn: kappa undefined, fewer than two documents, kappa
        undefined on every resample.
    """

    _value_field: ClassVar[str] = "alpha"
    _coefficient_id: ClassVar[str] = "relation_alpha"

    match: str
    argument_labels: bool
    ignore_type: bool
    unmarked: str
    undirected: tuple[str, ...]
    coders: tuple[str, ...]
    pairs: tuple[RelationPairScores, ...]
    f1: float
    f1_untyped: float
    alpha: float
    alpha_result: Any
    kappa: float
    kappa_result: Any
    n_documents: int
    n_relations: int
    n_candidates: int
    n_pairable: int
    unmatched: tuple[UnmatchedRelation, ...]
    unshared_pairs: tuple[tuple[str, str], ...] = ()
    n_merged: int = 0
    undefined_reason: str | None = None
    kappa_undefined_reason: str | None = None
    bootstrap: int = 0
    confidence: float = 0.95
    alpha_ci_low: float = math.nan
    alpha_ci_high: float = math.nan
    interval_undefined_reason: str | None = None
    kappa_ci_low: float = math.nan
    kappa_ci_high: float = math.nan
    kappa_interval_undefined_reason: str | None = None
    _candidates: Any = field(default=None, repr=False, compare=False)
    _candidate_pairs: Any = field(default=None, repr=False, compare=False)  # (alignment, position pairs)
    _documents: Any = field(default=None, repr=False, compare=False)  # (document index of each candidate, count)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 1000,
        method: Literal["percentile", "basic", "BCa"] = "percentile",
        rng: Any = None,
        coefficient: Literal["alpha", "kappa"] = "alpha",
    ) -> tuple[float, float]:
        """Bootstrap interval for ``alpha`` (or ``kappa``), resampling documents (each with all its candidate pairs).

        Documents that two coders or more saw are drawn with replacement and nominal alpha (observed and
        expected disagreement), or Cohen's kappa (observed agreement and both coders' marginals, over the
        candidates both valued), is recomputed on each resample, with :func:`scipy.stats.bootstrap`; resamples
        on which it is undefined are left out of the percentile and basic intervals.

        Parameters
        ----------
        confidence_level : float
            In (0, 1).
        n_resamples : int
            Number of bootstrap resamples.
        method : {"percentile", "basic", "BCa"}
        rng : numpy.random.Generator, int or None
            Seed or generator, for reproducible intervals.
        coefficient : {"alpha", "kappa"}
            Whose interval: alpha's (default) or Cohen's kappa's (two coders).

        Returns
        -------
        (low, high) : tuple of float

        Raises
        ------
        AccordError
            The coefficient undefined, fewer than two documents to draw, or the coefficient undefined on every
            resample.
        """
        from accord._shared.errors import AccordError, choice_error
        from accord.relations._bootstrap import document_interval

        if coefficient not in ("alpha", "kappa"):
            raise choice_error("coefficient", coefficient, ("alpha", "kappa"))
        if coefficient == "alpha" and math.isnan(self.alpha):
            raise AccordError(f"relation alpha is undefined ({self.undefined_reason}); no confidence interval")
        if coefficient == "kappa" and math.isnan(self.kappa):
            raise AccordError(f"relation kappa is undefined ({self.kappa_undefined_reason}); no confidence "
                              "interval")
        if self._candidates is None or self._documents is None:
            raise AccordError("this result carries no data to resample")
        doc_of, n_docs = self._documents
        return document_interval(self._candidates, doc_of, n_docs, confidence_level=confidence_level,
                                 n_resamples=n_resamples, method=method, rng=rng, coefficient=coefficient)

    @property
    def candidates(self) -> Any:
        """The candidate pairs as :class:`~accord.Annotations` (unit = candidate number, value = the coder's
        type, ``"none"``, or missing), for any other coefficient of accord."""
        return self._candidates

    def candidates_frame(self) -> Any:
        """One row per (candidate, coder) value: the candidate's document and arguments, the coder, the value."""
        import pandas as pd

        cols = ["candidate", "document", "first", "second", "coder", "value"]
        data = self._candidates
        if data is None:
            return pd.DataFrame(columns=cols)
        rows = []
        for u, c, v in zip(data.unit_index.tolist(), data.coder_index.tolist(), data.value_index.tolist(), strict=True):
            unit = int(data.units[u])
            al, units = self._candidate_pairs
            x, y = units[unit]
            doc, first, second = al.document[x], al.describe(x), al.describe(y)
            rows.append({"candidate": unit, "document": doc, "first": first, "second": second,
                         "coder": str(data.coders[c]), "value": data.values[v]})
        frame = pd.DataFrame(rows, columns=cols).sort_values(["candidate", "coder"], kind="stable")
        return frame.reset_index(drop=True)

    def to_frame(self) -> Any:
        """One row per (coder pair, score): typed, untyped and per type."""
        import pandas as pd

        rows = []
        for p in self.pairs:
            for s in (p.typed, p.untyped, *p.types):
                rows.append({"coder_a": p.coder_a, "coder_b": p.coder_b, **s.to_dict()})
        cols = ["coder_a", "coder_b", "label", "true_positives", "n_a", "n_b", "precision", "recall", "f1"]
        return pd.DataFrame(rows, columns=cols)

    def unmatched_frame(self) -> Any:
        """The unmatched relations, one row each."""
        import pandas as pd

        cols = ["document", "coder", "other_coder", "relation", "type", "source", "target", "reason", "missing",
                "other_type"]
        return pd.DataFrame([u.to_dict() for u in self.unmatched], columns=cols)
