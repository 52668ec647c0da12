"""One call for the reliability of a coreference annotation: alpha both ways, coder pairs, scores."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError
from accord._shared.results import Result
from accord.coref._alpha import CorefAlphaResult, coref_alpha
from accord.coref._model import CorefAnnotations
from accord.coref._scores import CorefScores, coref_scores
from accord.coref._tokens import Align, check_align, placed_on
from accord.distances import Distance, get_distance

__all__ = ["CorefReliability", "coref_reliability"]


@dataclass(frozen=True)
class CorefReliability(Result):
    """Reliability of coreference chains (Passonneau 2004) with the usual scores beside it.

    Attributes
    ----------
    alpha : dict
        ``{distance name: {convention: CorefAlphaResult}}``: every requested
        distance under both value conventions (the class, and the class less
        the mention); the paper's convention for each is ``default_convention``.
    pairwise : list of dict
        Alpha of each pair of coders, with the last distance given (the set
        distance, by default) and its default convention.
    scores : dict
        ``{coder: CorefScores}`` against the key, when a key was given.
    n_mentions, n_partial_mentions : int
        Mentions, and those present for only some coders (see ``presence``).
    """

    alpha: dict[str, dict[str, CorefAlphaResult]]
    pairwise: list[dict[str, Any]]
    scores: dict[str, CorefScores] = field(default_factory=dict)
    coders: tuple[Any, ...] = ()
    n_documents: int = 0
    n_mentions: int = 0
    n_partial_mentions: int = 0
    missing_mentions: str = "singleton"

    def to_frame(self) -> pd.DataFrame:
        """One row per (distance, convention) with alpha and its parts."""
        rows = []
        for dist, by_conv in self.alpha.items():
            for conv, res in by_conv.items():
                rows.append(
                    {
                        "distance": dist,
                        "convention": conv,
                        "alpha": res.alpha,
                        "observed_disagreement": res.observed_disagreement,
                        "expected_disagreement": res.expected_disagreement,
                        "n_pairable": res.n_pairable,
                    }
                )
        return pd.DataFrame(rows)


def coref_reliability(
    data: CorefAnnotations,
    *,
    distances: tuple[str | Distance, ...] = ("nominal", "set-relation"),
    key: CorefAnnotations | None = None,
    align: Align = "tokens",
) -> CorefReliability:
    """Alpha under both conventions for each distance, pairwise coder alpha, and scores against a key.

    With a *key*, each document's tokens in the key and in the coders' files are compared first (*align*:
    ``"tokens"`` refuses a difference, ``"words"`` places the coders' mentions on the key's tokens by their
    words for the scores and says the differences; :func:`~accord.coref.read_coref`).  Alpha is over the
    coders' own mentions either way.

    Examples
    --------
    >>> from accord.coref import example_passonneau2004
    >>> rep = coref_reliability(example_passonneau2004())
    >>> round(rep.alpha["nominal"]["classes"].alpha, 2), round(rep.alpha["set-relation"]["classes-less-unit"].alpha, 2)
    (0.45, 0.74)
    """
    if not isinstance(data, CorefAnnotations):
        raise AccordError(f"data must be accord.coref.CorefAnnotations; got {type(data).__name__}")
    if not distances:
        raise AccordError("distances must name at least one distance")
    check_align(align)
    resolved = [get_distance(d) for d in distances]
    out: dict[str, dict[str, CorefAlphaResult]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for d in resolved:
            out[d.name] = {
                conv: coref_alpha(data, distance=d, convention=conv)  # type: ignore[arg-type]
                for conv in ("classes", "classes-less-unit")
            }
        pairwise = []
        coders = list(data.coders)
        for i in range(len(coders)):
            for j in range(i + 1, len(coders)):
                sub = data.select_coders([coders[i], coders[j]])
                try:
                    a = coref_alpha(sub, distance=resolved[-1]).alpha
                except AccordError:
                    a = np.nan
                pairwise.append({"coder_a": coders[i], "coder_b": coders[j], "distance": resolved[-1].name,
                                 "alpha": a})
    scores: dict[str, CorefScores] = {}
    if key is not None:
        if not isinstance(key, CorefAnnotations) or len(key.coders) != 1:
            raise AccordError("key must be a CorefAnnotations with exactly one coder (the key file)")
        key_part = key.partition(key.coders[0])
        placed = placed_on(key, data, align=align)
        for c in placed.coders:
            scores[str(c)] = coref_scores(key_part, placed.partition(c))
    return CorefReliability(
        alpha=out,
        pairwise=pairwise,
        scores=scores,
        coders=tuple(data.coders),
        n_documents=len(data.documents),
        n_mentions=data.n_mentions,
        n_partial_mentions=data.presence.n_partial,
        missing_mentions=data.missing_mentions,
    )
