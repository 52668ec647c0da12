"""Pyramid scores: raw, original (equation 1), modified (equation 2), with named conventions.

References
----------
Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
method for summary content evaluation. *Natural Language Engineering* 16(2),
107-131, section 2.4. doi:10.1017/S1351324909990164
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from accord._shared.errors import AccordError, AccordWarning, Message, warn_undefined
from accord._shared.lazy import stats
from accord._shared.results import Result
from accord.pyramid._ducview import models_from_peers, pyramid_differences
from accord.pyramid._model import PSE, PeerAnnotation, Pyramid, WeightBy

__all__ = [
    "CONVENTIONS",
    "EMBEDDED_NOTE",
    "JackknifeScores",
    "PeerScore",
    "PeerScores",
    "ScoringConvention",
    "TierTable",
    "ZipfFit",
    "average_scus_per_model",
    "embedded_notes",
    "jackknife_scores",
    "max_score",
    "round_x",
    "score_peer",
    "score_peers",
    "tier_table",
    "zipf_fit",
]

Rounding = Literal["fractional", "floor", "half-up", "ceil"]
#: Which pyramid a peer is scored against: the one given, or the copy its ``.pan`` file embeds.
Against = Literal["given", "embedded"]
#: A regex matching the warnings of :func:`embedded_notes` (to filter them where the notes are shown).
EMBEDDED_NOTE = r"(?:peer annotation|\d+ peer annotations) .* embed"


@dataclass(frozen=True)
class ScoringConvention(Result):
    """How a tool turns a pyramid into scores.

    Attributes
    ----------
    name : str
        The preset name.
    weight : {"models", "contributors"}
        SCU weight as distinct contributing models (the paper) or as contributors (DUCView).
    x_a_rounding : {"fractional", "floor", "half-up", "ceil"}
        What happens to the fractional X_a of equation (2): kept, the remainder
        taken at the next tier's weight (``"fractional"``); floored; rounded half
        up; rounded up.
    cap : bool
        Whether the modified score is capped at 1.
    source : str
        Where the convention comes from.
    """

    name: str
    weight: WeightBy = "models"
    x_a_rounding: Rounding = "fractional"
    cap: bool = False
    source: str = ""


CONVENTIONS: dict[str, ScoringConvention] = {
    "paper": ScoringConvention(
        "paper", "models", "fractional", False,
        "Passonneau (2010), section 2.4: weight = distinct models (2.1), equations (1) and (2) as printed",
    ),
    "pyreval": ScoringConvention(
        "pyreval", "models", "fractional", False,
        "PyrEval Scoring/scoring.py: getLayerSizes (average = sum of i*|T_i| / n, not rounded) and "
        "maxRawScore (the remainder taken at the next tier's weight)",
    ),
    "ducview-1.5": ScoringConvention(
        "ducview-1.5", "contributors", "floor", True,
        "DUCView 1.5 (Penn State, 2019) DucView.getScore: weight = contributors, "
        "Math.round(int / int) floors the average, coverage score = min(1, raw / max)",
    ),
    "nist-duc": ScoringConvention(
        "nist-duc", "contributors", "half-up", False,
        "DUCView 1.4 (Columbia, 2005), the build NIST used for the official DUC 2006 and 2007 modified "
        "scores: weight = contributors, X_a rounded half up, no cap at 1",
    ),
    "sacrerouge": ScoringConvention(
        "sacrerouge", "models", "ceil", False,
        "sacrerouge metrics/pyramid_score.py: weight = distinct summaries, math.ceil of the average, no cap",
    ),
}
CONVENTIONS["ducview-1.4"] = replace(CONVENTIONS["nist-duc"], name="ducview-1.4")


def _convention(convention: str | ScoringConvention) -> ScoringConvention:
    if isinstance(convention, ScoringConvention):
        return convention
    try:
        return CONVENTIONS[convention]
    except (KeyError, TypeError):
        raise AccordError(
            f"convention: must be one of {sorted(CONVENTIONS)} or a ScoringConvention, got {convention!r}"
        ) from None


def round_x(x: float, rounding: Rounding) -> float:
    """Apply an X_a rounding rule.

    Examples
    --------
    >>> [round_x(7.5, r) for r in ("fractional", "floor", "half-up", "ceil")]
    [7.5, 7.0, 8.0, 8.0]
    >>> round_x(6.5, "half-up")  # not banker's rounding
    7.0
    """
    if rounding == "fractional":
        return float(x)
    if rounding == "floor":
        return float(math.floor(x))
    if rounding == "half-up":
        return float(math.floor(x + 0.5))
    if rounding == "ceil":
        return float(math.ceil(x))
    raise AccordError(f"rounding: must be 'fractional', 'floor', 'half-up' or 'ceil', got {rounding!r}")


def _tier_arrays(tiers: Mapping[int, int] | Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Weights (descending) and sizes; a sequence is read as |T_n| ... |T_1|."""
    if isinstance(tiers, Mapping):
        items = sorted(((int(w), int(c)) for w, c in tiers.items()), reverse=True)
        w = np.array([i for i, _ in items], dtype=np.int64)
        c = np.array([n for _, n in items], dtype=np.int64)
    else:
        c = np.asarray(tiers, dtype=np.int64)
        w = np.arange(c.size, 0, -1, dtype=np.int64)
    if np.any(c < 0) or np.any(w < 1):
        raise AccordError("tiers: weights must be >= 1 and tier sizes >= 0")
    return w, c


def max_score(tiers: Mapping[int, int] | Sequence[int], x: float) -> float:
    """Equation (1): the largest weight sum of *x* SCUs drawn from the pyramid without replacement.

    Parameters
    ----------
    tiers : mapping of weight to tier size, or sequence |T_n|, ..., |T_1|
        The pyramid's tiers.
    x : float
        The number of SCUs.  A fractional *x* takes its remainder at the weight
        of the next tier (the "fractional" X_a convention).

    Notes
    -----
    .. math:: \\mathrm{Max} = \\sum_{i=j+1}^{n} i |T_i| + j \\Big(X - \\sum_{i=j+1}^{n} |T_i|\\Big),
              \\quad j = \\max_i \\Big(\\sum_{t=i}^{n} |T_t| \\ge X\\Big)

    Max is the piecewise-linear cumulative weight of the SCUs sorted by weight,
    evaluated at X; beyond the number of SCUs it stays at the total weight.

    References
    ----------
    Passonneau (2010), section 2.4, equation (1).

    Examples
    --------
    D30042 (Table 1) and a peer with eleven PSEs: 3x10 + 2x9 + 2x8 + 2x7 + 2x6 = 90.

    >>> max_score([3, 2, 2, 2, 4, 5, 4, 4, 11, 16], 11)
    90.0
    >>> max_score({3: 1, 2: 2, 1: 5}, 2.5)  # 3 + 2 + 0.5 x 2
    6.0
    """
    if not np.isfinite(x) or x < 0:
        raise AccordError(f"x: must be a finite number >= 0, got {x!r}")
    w, c = _tier_arrays(tiers)
    cum_n = np.concatenate([[0], np.cumsum(c)]).astype(float)
    cum_w = np.concatenate([[0], np.cumsum(w * c)]).astype(float)
    return float(np.interp(float(x), cum_n, cum_w))


def average_scus_per_model(tiers: Mapping[int, int] | Pyramid, n_models: int | None = None, *,
                           by: WeightBy = "models") -> float:
    """Equation (2): X_a = sum_i i |T_i| / n, the average number of SCUs per model.

    Parameters
    ----------
    tiers : mapping of weight to tier size, or Pyramid
        The tiers, or a pyramid (its tiers under *by*, n = its number of models).
    n_models : int, optional
        n; for a mapping, defaults to the top weight.
    by : {"models", "contributors"}, keyword-only
        SCU weight convention when *tiers* is a Pyramid.

    References
    ----------
    Passonneau (2010), section 2.4, equation (2).

    Examples
    --------
    >>> average_scus_per_model(dict(zip(range(10, 0, -1), [3, 2, 2, 2, 4, 5, 4, 4, 11, 16])))
    19.3
    """
    if isinstance(tiers, Pyramid):
        n_models = tiers.n_models if n_models is None else n_models
        tiers = tiers.tiers(by=by)
    w, c = _tier_arrays(tiers)
    n = int(n_models) if n_models is not None else (int(w.max()) if w.size else 0)
    if n < 1:
        raise AccordError(f"n_models: must be >= 1, got {n_models!r}")
    return float(np.sum(w * c) / n)


@dataclass(frozen=True)
class PeerScore(Result):
    """Raw, original and modified pyramid scores of one peer.

    ``original = raw / max_original`` with ``max_original = Max(n_pses)``
    (equation 1, X = PSEs incl. zero weight); ``modified = raw / max_modified``
    with ``max_modified = Max(x_a_used)`` (equation 2 and the convention's
    rounding), capped at 1 if the convention says so.  ``n_models`` is the n
    of equation (2) and ``models_found_by`` the rule that found the models
    (:data:`~accord.pyramid._model.MODEL_RULES`); ``pyramid_used`` is
    ``"given"`` or ``"embedded"`` (the copy the peer's ``.pan`` file carries).
    """

    peer: str
    raw: float
    n_pses: int
    n_scus_expressed: int
    n_zero_weight: int
    max_original: float
    original: float
    x_a: float
    x_a_used: float
    max_modified: float
    modified: float
    convention: str
    n_models: int = 0
    models_found_by: str = "given"
    reason: str | None = None
    pyramid_used: str = "given"


@dataclass(frozen=True)
class PeerScores(Result):
    """Scores of several peers against one pyramid (``models_found_by``: the rule that found its models).

    ``against`` is ``"given"`` or ``"embedded"`` (each peer against the pyramid its ``.pan`` file embeds);
    ``notes`` name the peers whose embedded pyramid differs from the one given, and the SCUs that differ.
    """

    scores: tuple[PeerScore, ...]
    convention: str
    n_models: int | None = None
    models_found_by: str = ""
    against: str = "given"
    notes: tuple[str, ...] = ()

    def to_frame(self) -> Any:
        """One row per peer."""
        import pandas as pd

        return pd.DataFrame([s.to_dict() for s in self.scores])


def _check_against(against: Any) -> None:
    if against not in ("given", "embedded"):
        raise AccordError(f"against: must be 'given' or 'embedded', got {against!r}")


def _pyramid_for(peer: PeerAnnotation, pyramid: Pyramid | None, against: str) -> Pyramid:
    """The pyramid *peer* is scored against."""
    if against == "embedded":
        if peer.pyramid is None:
            head = f"peer {peer.name!r} embeds no pyramid (a DUCView .pan file does); "
            raise AccordError(head + "against='embedded' scores each peer against its own copy",
                              cli=head + "--pyramid embedded scores each peer against its own copy")
        return peer.pyramid
    pyr = models_from_peers(pyramid, [peer]) if pyramid is not None else peer.pyramid
    if pyr is None:
        raise AccordError(f"pyramid: peer {peer.name!r} carries no pyramid; pass pyramid=")
    return pyr


def embedded_notes(peers: Sequence[PeerAnnotation], pyramid: Pyramid | None, *,
                   against: Against = "given") -> tuple[str, ...]:
    """The peers whose embedded pyramid differs from *pyramid*, naming the SCUs that differ (one note per set
    of differences, so that peers embedding the same copy share it).

    In DUC 2007 a peer annotation's embedded pyramid can differ from the distributed ``.pyr`` (an SCU with
    four contributors in the ``.pan``, three in the ``.pyr``); NIST's official scores used the embedded one.
    """
    if pyramid is None:
        return ()
    given = pyramid.name or "the pyramid given"
    groups: dict[tuple[tuple[int | None, str], ...], list[str]] = {}
    for peer in peers:
        if peer.pyramid is None:
            continue
        diffs = pyramid_differences(pyramid, peer.pyramid, a_name=given, b_name="the embedded pyramid")
        if diffs:
            groups.setdefault(diffs, []).append(peer.name)
    notes = []
    for diffs, names in groups.items():
        ids = [sid for sid, _ in diffs if sid is not None]
        scus = (f"SCU {ids[0]}" if len(ids) == 1 else f"SCUs {', '.join(map(str, ids))}") if ids else "its text"
        shown = "; ".join(f"SCU {sid}: {what}" if sid is not None and len(diffs) > 1 else what
                          for sid, what in diffs[:8])
        if len(diffs) > 8:
            shown += f"; and {len(diffs) - 8} more"
        who = (f"peer annotation {names[0]}" if len(names) == 1 else
               f"{len(names)} peer annotations ({', '.join(names[:4])}{', ...' if len(names) > 4 else ''})")
        its = "its" if len(names) == 1 else "their"
        if against == "given":
            head = (f"{who} embed{'s' if len(names) == 1 else ''} a pyramid that differs from {given} in "
                    f"{scus} ({shown}); scored against {given}; NIST's official DUC scores used the embedded "
                    "pyramid: score against it with ")
            notes.append(Message(head + "against='embedded'", cli=head + "--pyramid embedded"))
        else:
            notes.append(f"{who} scored against {its} embedded pyramid, which differs from {given} in {scus} "
                         f"({shown})")
    return tuple(notes)


def score_peer(
    peer: PeerAnnotation,
    pyramid: Pyramid | None = None,
    *,
    convention: str | ScoringConvention = "paper",
    unknown: Literal["error", "zero"] = "error",
    against: Against = "given",
) -> PeerScore:
    """Score a peer annotation against a pyramid.

    Parameters
    ----------
    peer : PeerAnnotation
        The peer's PSEs.
    pyramid : Pyramid, optional
        The pyramid; defaults to ``peer.pyramid`` (a ``.pan`` file embeds one).
    convention : str or ScoringConvention, keyword-only
        ``"paper"`` (default), ``"pyreval"``, ``"ducview-1.5"``, ``"nist-duc"``
        (= ``"ducview-1.4"``) or ``"sacrerouge"``; see :data:`CONVENTIONS`.
    unknown : {"error", "zero"}, keyword-only
        A PSE coindexed with an SCU id the pyramid lacks is an error, or weighs 0
        (used when jackknifing removes the SCU's only model).
    against : {"given", "embedded"}, keyword-only
        Score against *pyramid* (default), or against the pyramid the peer's
        ``.pan`` file embeds, as NIST's official DUC scores were.  When the
        peer is scored against a *pyramid* its embedded pyramid differs from,
        an :class:`~accord.AccordWarning` names the SCUs that differ.

    Notes
    -----
    Raw = sum of the weights of the distinct SCUs expressed (a repeated SCU
    counts once).  Original = Raw / Max(X) with X the number of PSEs (zero-weight
    PSEs included); modified = Raw / Max(X_a), X_a = sum_i i |T_i| / n.
    Undefined (NaN, with ``reason``) when a Max is 0.

    References
    ----------
    Passonneau (2010), section 2.4.

    Examples
    --------
    >>> p = Pyramid.from_models(["a b c", "a b", "a d"], [
    ...     {"id": 1, "label": "a", "contributors": [{"model": i, "parts": ["a"]} for i in range(3)]},
    ...     {"id": 2, "label": "b", "contributors": [{"model": 0, "parts": ["b"]},
    ...                                              {"model": 1, "parts": ["b"]}]},
    ...     {"id": 3, "label": "c", "contributors": [{"model": 0, "parts": ["c"]}]},
    ...     {"id": 4, "label": "d", "contributors": [{"model": 2, "parts": ["d"]}]}])
    >>> peer = PeerAnnotation.from_phrases(
    ...     "a then c and more a", [(1, "a"), (3, "c"), (0, "and more"), (1, "a")])
    >>> s = score_peer(peer, p)
    >>> s.raw, s.n_pses, s.max_original, s.original
    (4.0, 4, 7.0, 0.5714285714285714)
    >>> round(s.x_a, 4), s.max_modified, round(s.modified, 4)
    (2.3333, 5.3333, 0.75)
    """
    conv = _convention(convention)
    if unknown not in ("error", "zero"):
        raise AccordError(f"unknown: must be 'error' or 'zero', got {unknown!r}")
    _check_against(against)
    pyr = _pyramid_for(peer, pyramid, against)
    for note in embedded_notes([peer], pyramid, against=against) if against == "given" else ():
        warnings.warn(note, AccordWarning, stacklevel=2)
    return _score(peer, pyr, conv, unknown, used="embedded" if pyr is peer.pyramid else "given")


def _score(peer: PeerAnnotation, pyr: Pyramid, conv: ScoringConvention, unknown: str, used: str) -> PeerScore:
    """Equations (1) and (2) for *peer* against *pyr* (options checked by the caller)."""
    weights = pyr.weights(by=conv.weight)
    expressed = peer.scu_ids()
    missing = sorted(expressed - weights.keys())
    if missing and unknown == "error":
        raise AccordError(
            f"peer {peer.name!r}: PSE coindexed with SCU {missing[0]}, which pyramid {pyr.name!r} "
            "does not have"
        )
    raw = float(sum(weights.get(i, 0) for i in expressed))
    tiers = pyr.tiers(by=conv.weight)
    x = peer.n_pses
    max_o = max_score(tiers, x)
    x_a = average_scus_per_model(tiers, pyr.n_models)
    x_used = round_x(x_a, conv.x_a_rounding)
    max_m = max_score(tiers, x_used)
    reasons = []
    if max_o > 0:
        original = raw / max_o
    else:
        original = math.nan
        reasons.append(f"Max(X={x}) is 0 (no PSEs or an empty pyramid): original score undefined")
    if max_m > 0:
        modified = raw / max_m
        if conv.cap:
            modified = min(1.0, modified)
    else:
        modified = math.nan
        reasons.append(f"Max(X_a={x_used}) is 0: modified score undefined")
    reason = "; ".join(reasons) or None
    if reason:
        warn_undefined("pyramid score", reason, stacklevel=4)
    return PeerScore(
        peer=peer.name,
        raw=raw,
        n_pses=x,
        n_scus_expressed=len(expressed),
        n_zero_weight=sum(1 for p in peer.pses if p.scu_id == 0 or weights.get(p.scu_id, 0) == 0),
        max_original=max_o,
        original=original,
        x_a=x_a,
        x_a_used=x_used,
        max_modified=max_m,
        modified=modified,
        convention=conv.name,
        n_models=pyr.n_models,
        models_found_by=pyr.models_found_by,
        reason=reason,
        pyramid_used=used,
    )


def score_peers(
    peers: Sequence[PeerAnnotation],
    pyramid: Pyramid | None = None,
    *,
    convention: str | ScoringConvention = "paper",
    against: Against = "given",
) -> PeerScores:
    """Score several peers against one pyramid (see :func:`score_peer`).

    When *pyramid*'s models were guessed (its file had no start regex) and the
    peers' embedded pyramids carry one, the models are taken from them
    (:func:`~accord.pyramid._ducview.models_from_peers`, which checks that the
    copies hold the same text and SCUs).

    With ``against="embedded"`` each peer is scored against the pyramid its
    ``.pan`` file embeds (NIST's official DUC 2006/2007 scores were), and
    *pyramid*, if given, only serves to say where the copies differ from it.
    Peers whose embedded pyramid differs from *pyramid* are named, with the
    SCUs that differ, in the result's ``notes`` (one per set of differences),
    and, when they are scored against *pyramid*, in an
    :class:`~accord.AccordWarning`.
    """
    conv = _convention(convention)
    _check_against(against)
    peers = list(peers)
    notes = embedded_notes(peers, pyramid, against=against)
    if pyramid is not None and against == "given":
        pyramid = models_from_peers(pyramid, peers)
    chosen = [_pyramid_for(p, pyramid, against) for p in peers]  # refusals come before any warning
    for note in notes if against == "given" else ():  # with "embedded" the user chose the copies: a note only
        warnings.warn(note, AccordWarning, stacklevel=2)
    scores = [_score(p, pyr, conv, "error", used="embedded" if pyr is p.pyramid else "given")
              for p, pyr in zip(peers, chosen, strict=True)]
    rules = sorted({s.models_found_by for s in scores})
    ns = {s.n_models for s in scores}
    return PeerScores(tuple(scores), conv.name, n_models=ns.pop() if len(ns) == 1 else None,
                      models_found_by=", ".join(rules), against=against, notes=notes)


# ---------------------------------------------------------------- jackknifing
def _drop_model(pyramid: Pyramid, model: int) -> Pyramid:
    scus = []
    for s in pyramid.scus:
        kept = tuple(c for c in s.contributors if pyramid.contributor_model(c) != model)
        if kept:
            scus.append(replace(s, contributors=kept))
    models = tuple(m for m in pyramid.models if m.index != model)
    return replace(pyramid, models=models, scus=tuple(scus), defects=())


def _model_as_peer(pyramid: Pyramid, model: int, kept_ids: set[int]) -> PeerAnnotation:
    pses = []
    for s in pyramid.scus:
        for c in s.contributors:
            if pyramid.contributor_model(c) == model:
                pses.append(PSE(s.id if s.id in kept_ids else 0, c.spans, c.label))
    m = pyramid.models[model]
    return PeerAnnotation(pyramid.text, tuple(pses), name=m.name or f"model {model + 1}")


@dataclass(frozen=True)
class JackknifeScores(Result):
    """Jackknifed scores.

    ``model_scores[i]``: model *i* scored as a peer against the pyramid of the
    other models (its contributors as PSEs; SCUs only it expressed become
    zero-weight PSEs).  ``peer_scores[k]``: peer *k*'s original and modified
    scores averaged over the n leave-one-model-out pyramids.
    """

    model_scores: tuple[PeerScore, ...]
    peer_scores: tuple[PeerScore, ...]
    convention: str

    def to_frame(self) -> Any:
        """One row per scored summary, with a ``kind`` column (model or peer)."""
        import pandas as pd

        rows = [{"kind": "model", **s.to_dict()} for s in self.model_scores]
        rows += [{"kind": "peer", **s.to_dict()} for s in self.peer_scores]
        return pd.DataFrame(rows)


def jackknife_scores(
    pyramid: Pyramid,
    peers: Sequence[PeerAnnotation] = (),
    *,
    convention: str | ScoringConvention = "paper",
) -> JackknifeScores:
    """Score the models against the pyramids of the other models, and peers by the jackknife mean.

    Parameters
    ----------
    pyramid : Pyramid
        A pyramid of n >= 2 models.
    peers : sequence of PeerAnnotation
        Peers annotated against the full pyramid.
    convention : str or ScoringConvention, keyword-only
        See :func:`score_peer`.

    Notes
    -----
    Leaving model i out removes its contributors (SCUs left with none vanish)
    and lowers n to n - 1.  A peer PSE for a vanished SCU then weighs 0.  A
    pyramid whose file had no start regex takes its models from the peers'
    embedded copies, as :func:`score_peers` does.

    Examples
    --------
    >>> p = Pyramid.from_models(["a b", "a c", "a b"], [
    ...     {"id": 1, "label": "a", "contributors": [{"model": i, "parts": ["a"]} for i in range(3)]},
    ...     {"id": 2, "label": "b", "contributors": [{"model": 0, "parts": ["b"]},
    ...                                              {"model": 2, "parts": ["b"]}]},
    ...     {"id": 3, "label": "c", "contributors": [{"model": 1, "parts": ["c"]}]}])
    >>> [round(s.modified, 3) for s in jackknife_scores(p).model_scores]
    [1.0, 0.5, 1.0]
    """
    conv = _convention(convention)
    peers = list(peers)
    pyramid = models_from_peers(pyramid, peers)
    n = pyramid.n_models
    if n < 2:
        raise AccordError(f"pyramid {pyramid.name!r}: jackknifing needs at least 2 models, got {n}")
    models, per_peer = [], [[] for _ in peers]
    for i in range(n):
        sub = _drop_model(pyramid, i)
        kept = {s.id for s in sub.scus}
        models.append(_score(_model_as_peer(pyramid, i, kept), sub, conv, "zero", used="given"))
        for k, peer in enumerate(peers):
            per_peer[k].append(_score(peer, sub, conv, "zero", used="given"))
    peer_scores = []
    for peer, runs in zip(peers, per_peer, strict=True):
        mean = {f: float(np.mean([getattr(r, f) for r in runs])) for f in
                ("raw", "max_original", "original", "x_a", "x_a_used", "max_modified", "modified")}
        peer_scores.append(replace(runs[0], peer=peer.name, **mean))
    return JackknifeScores(tuple(models), tuple(peer_scores), conv.name)


# ------------------------------------------------------------ tiers and Zipf
@dataclass(frozen=True)
class TierTable(Result):
    """Tier sizes |T_i| by weight (Passonneau 2010, Table 1)."""

    weights: tuple[int, ...]
    sizes: tuple[int, ...]
    n_models: int
    n_scus: int
    x_a: float
    weight_by: str = "models"

    def to_frame(self) -> Any:
        """Columns ``weight`` and ``n_scus``, top weight first."""
        import pandas as pd

        return pd.DataFrame({"weight": self.weights, "n_scus": self.sizes})


def tier_table(
    pyramid: Pyramid | Mapping[int, int],
    *,
    by: WeightBy = "models",
    n_models: int | None = None,
) -> TierTable:
    """The tier table of a pyramid (or of given tier sizes).

    Examples
    --------
    >>> t = tier_table(dict(zip(range(10, 0, -1), [3, 2, 2, 2, 4, 5, 4, 4, 11, 16])))
    >>> t.n_scus, t.x_a
    (53, 19.3)
    """
    if isinstance(pyramid, Pyramid):
        n_models = pyramid.n_models
        tiers = pyramid.tiers(by=by)
    else:
        tiers = dict(pyramid)
    w, c = _tier_arrays(tiers)
    n = int(n_models) if n_models is not None else int(w.max())
    return TierTable(
        weights=tuple(int(i) for i in w), sizes=tuple(int(i) for i in c), n_models=n,
        n_scus=int(c.sum()), x_a=average_scus_per_model(tiers, n), weight_by=by,
    )


@dataclass(frozen=True)
class ZipfFit(Result):
    """A power-law fit |T_w| = C w^(-exponent) of tier size on weight, by least squares in log-log."""

    exponent: float
    log_c: float
    r_squared: float
    p_value: float
    stderr: float
    n_points: int
    weights: tuple[int, ...]
    sizes: tuple[int, ...]
    reason: str | None = None

    def predicted(self) -> np.ndarray:
        """Fitted tier sizes at ``weights``."""
        return np.exp(self.log_c) * np.asarray(self.weights, dtype=float) ** (-self.exponent)

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """t-based interval for the exponent (n_points - 2 degrees of freedom)."""
        if not 0 < confidence_level < 1:
            raise AccordError(f"confidence_level: must lie in (0, 1), got {confidence_level!r}")
        if self.n_points < 3 or not np.isfinite(self.stderr):
            return (math.nan, math.nan)
        q = stats.t.ppf(0.5 + confidence_level / 2, self.n_points - 2)
        return (self.exponent - q * self.stderr, self.exponent + q * self.stderr)


def zipf_fit(tiers: Pyramid | Mapping[int, int] | Sequence[int], *, by: WeightBy = "models") -> ZipfFit:
    """Fit a Zipf (power-law) curve to the tier sizes, as seed 002 section 2.2 suggests.

    Empty tiers are left out (log 0).  Uses :func:`scipy.stats.linregress` on
    ``log |T_w|`` against ``log w``; the exponent is minus the slope.

    Examples
    --------
    >>> f = zipf_fit([3, 2, 2, 2, 4, 5, 4, 4, 11, 16])  # D30042, Table 1
    >>> round(f.exponent, 2), f.n_points
    (0.89, 10)
    """
    if isinstance(tiers, Pyramid):
        tiers = tiers.tiers(by=by)
    w, c = _tier_arrays(tiers)
    keep = c > 0
    w, c = w[keep], c[keep]
    if w.size < 2 or np.unique(w).size < 2:
        reason = "fewer than two non-empty tiers"
        warn_undefined("Zipf fit", reason)
        nan = math.nan
        return ZipfFit(nan, nan, nan, nan, nan, int(w.size), tuple(map(int, w)), tuple(map(int, c)), reason)
    res = stats.linregress(np.log(w), np.log(c))
    return ZipfFit(
        exponent=float(-res.slope), log_c=float(res.intercept), r_squared=float(res.rvalue**2),
        p_value=float(res.pvalue), stderr=float(res.stderr), n_points=int(w.size),
        weights=tuple(int(i) for i in w), sizes=tuple(int(i) for i in c),
    )
