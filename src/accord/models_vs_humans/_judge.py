"""The judge audit: is an LLM judge consistent, repeatable and right, before it replaces anyone?

:func:`judge_audit` reads judgments as reliability data (:mod:`accord.models_vs_humans._judgments`) and, per
judge, measures

- **position consistency** (pairwise verdicts given in both orders): Zheng et al.'s (2023) consistency, biased
  toward first, biased toward second and error, with Wilson intervals, and McNemar's test of a preference for
  one position;
- **repeatability** across runs: alpha with the runs as coders, the share of items on which every run agrees,
  and the items that flip;
- **agreement with humans**: with each human and with the human majority, with and without ties, accuracy,
  Cohen's kappa and, for binary verdicts, the true positive and negative rates and the precision; beside them,
  the humans' agreement among themselves;
- **the pass rate, corrected**: the raw judge rate, the Rogan-Gladen estimate and the prediction-powered one;
- **the alternative annotator test** (:func:`accord.alt_test`) where three or more humans allow it.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, AccordWarning, choice_error
from accord.models_vs_humans._judge_results import (
    AgreementWith,
    Disagreement,
    HumanAgreement,
    JudgeAudit,
    JudgeAuditResult,
    PassRate,
    PositionConsistency,
    PositionFlip,
    Repeatability,
    RunFlip,
)
from accord.models_vs_humans._judgments import ERROR, TIE, Judgments, RefersTo, read_judgments
from accord.models_vs_humans._ppi import ppi_mean, rogan_gladen
from accord.models_vs_humans._proportions import check_level, mcnemar_test, proportion

__all__ = ["judge_audit"]

_ABSENT = -3
#: verdicts read as a pass when ``positive`` is not given (any case)
_PASS_WORDS = ("pass", "yes", "true", "correct", "good", "positive", "acceptable", "accept", "y")
_MCNEMAR = ("exact", "chi-square")
_INTERVALS = ("delta", "bootstrap")


def _majority(group: np.ndarray, value: np.ndarray, n_groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per group: the value of a strict majority (-1: none), the votes for the most common value, the votes."""
    votes = np.bincount(group, minlength=n_groups)
    best_v = np.full(n_groups, -1, dtype=np.int64)
    best_c = np.zeros(n_groups, dtype=np.int64)
    if len(group):
        k = int(value.max()) + 1
        uniq, cnt = np.unique(group.astype(np.int64) * k + value, return_counts=True)
        g, v = uniq // k, uniq % k
        order = np.lexsort((-cnt, g))
        first = order[np.r_[True, g[order][1:] != g[order][:-1]]]
        best_v[g[first]] = v[first]
        best_c[g[first]] = cnt[first]
    return np.where(best_c * 2 > votes, best_v, -1), best_c, votes


def _run_slots(j: Judgments) -> int:
    return len(j.runs) + 1


def _pair_table(j: Judgments, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The verdict of each (unit, run) in the canonical order and in the swapped one (``_ABSENT``: none)."""
    slots = _run_slots(j)
    key = j.unit[rows] * slots + (j.run[rows] + 1)
    c0 = np.full(len(j.units) * slots, _ABSENT, dtype=np.int64)
    c1 = c0.copy()
    pos = j.position[rows]
    c0[key[pos == 0]] = j.verdict[rows][pos == 0]
    c1[key[pos == 1]] = j.verdict[rows][pos == 1]
    return c0, c1


def _item_verdicts(j: Judgments, rows: np.ndarray) -> tuple[np.ndarray, int]:
    """The judge's verdict on each unit (-1: none, ``ERROR``: only errors) and the units without a majority.

    Per run, the two orders combine as Zheng et al. do: the same option in both is that option, different ones a
    tie, an error in either an error; across runs, the strict majority of the runs' verdicts (pairwise: a tie
    when there is none)."""
    slots = _run_slots(j)
    n_keys = len(j.units) * slots
    if j.position_column is not None:
        c0, c1 = _pair_table(j, rows)
        both = (c0 != _ABSENT) & (c1 != _ABSENT)
        either_error = (c0 == ERROR) | (c1 == ERROR)
        comb = np.where(both, np.where(either_error, ERROR, np.where(c0 == c1, c0, TIE)),
                        np.where(c0 != _ABSENT, c0, c1))
    else:
        comb = np.full(n_keys, _ABSENT, dtype=np.int64)
        comb[j.unit[rows] * slots + (j.run[rows] + 1)] = j.verdict[rows]
    keys = np.flatnonzero(comb != _ABSENT)
    unit, val = keys // slots, comb[keys]
    ok = val >= 0
    maj, _, votes = _majority(unit[ok], val[ok], len(j.units))
    out = np.full(len(j.units), -1, dtype=np.int64)
    out[np.unique(unit)] = ERROR
    out[maj >= 0] = maj[maj >= 0]
    no_major = (votes > 0) & (maj < 0)
    if j.kind == "pairwise":
        out[no_major] = TIE
        return out, 0
    out[no_major] = -1
    return out, int(no_major.sum())


def _position(j: Judgments, rows: np.ndarray, level: float, exact: bool) -> PositionConsistency:
    def undefined(reason: str, n: int = 0) -> PositionConsistency:
        return PositionConsistency(n, None, None, None, None, None, (), reason)

    if j.position_column is None:
        return undefined("no position column: each item was shown in one order (name it with position=)")
    c0, c1 = _pair_table(j, rows)
    pairs = np.flatnonzero((c0 != _ABSENT) & (c1 != _ABSENT))
    if not len(pairs):
        return undefined("no item was judged in both orders")
    a, b = c0[pairs], c1[pairs]
    error = (a == ERROR) | (b == ERROR)
    consistent = ~error & (a == b)
    # the position each order's verdict chose: option A is shown first in the canonical order, second in the swap
    pa = a
    pb = np.where((b >= 0) & (b < TIE), 1 - b, b)
    flip = ~error & ~consistent
    first = flip & ((pa == 0) | (pb == 0))
    second = flip & ((pa == 1) | (pb == 1))
    n = len(pairs)
    nf, ns = int(first.sum()), int(second.sum())
    slots = _run_slots(j)
    idx = np.flatnonzero(~consistent)
    keys = pairs[idx]
    labels = _value_labels(j)
    runs = keys % slots - 1
    run_labels = _labels(j.runs, runs) if len(j.runs) else [None] * len(idx)
    leans = np.where(error[idx], "error", np.where(first[idx], "first", "second")).tolist()
    flips = list(map(PositionFlip, _labels(j.units, keys // slots), run_labels, [labels[c] for c in a[idx].tolist()],
                     [labels[c] for c in b[idx].tolist()], leans))
    return PositionConsistency(
        n_pairs=n, consistency=proportion(int(consistent.sum()), n, confidence_level=level),
        biased_first=proportion(nf, n, confidence_level=level),
        biased_second=proportion(ns, n, confidence_level=level),
        error=proportion(int(error.sum()), n, confidence_level=level),
        mcnemar=mcnemar_test(nf, ns, exact=exact), flips=tuple(flips), significance=1.0 - level)


def _labels(table: np.ndarray, codes: np.ndarray) -> list[Any]:
    """The labels of *codes* (Python scalars; None for a negative code)."""
    out = table[np.maximum(codes, 0)].tolist() if len(table) else [None] * len(codes)
    return [x if c >= 0 else None for x, c in zip(out, codes.tolist(), strict=True)] if (codes < 0).any() else out


def _value_labels(j: Judgments) -> dict[int, Any]:
    """Verdict code -> how results name it."""
    out = {c: j.value_label(c) for c in range(len(j.values))}
    out[ERROR] = "error"
    return out


def _label(table: np.ndarray, code: int) -> Any:
    x = table[code]
    return x.item() if isinstance(x, np.generic) else x


def _distance(j: Judgments, distance: str) -> str:
    if distance != "auto":
        return distance
    return "interval" if j.numeric else "nominal"


def _ann(unit: np.ndarray, coder: np.ndarray, coders: list[Any], value: np.ndarray, values: np.ndarray,
         n_units: int) -> Any:
    """Annotations of coded entries (units labelled by their codes; each (unit, coder) once)."""
    from accord.data._annotations import Annotations

    used, vcodes = np.unique(value, return_inverse=True)
    table = np.empty(len(coders), dtype=object)
    table[:] = coders
    order = np.lexsort((coder, unit))
    return Annotations(unit_index=unit[order].astype(np.int64), coder_index=coder[order].astype(np.int64),
                       value_index=vcodes[order].astype(np.int64), units=np.arange(n_units, dtype=np.int64),
                       coders=table, values=np.asarray(values)[used])


def _repeatability(j: Judgments, rows: np.ndarray, level: float, distance: str, n_boot: int, rng: Any
                   ) -> Repeatability:
    dist = _distance(j, distance)
    runs = np.unique(j.run[rows])
    runs = runs[runs >= 0]
    if j.run_column is None:
        return Repeatability(1, 0, math.nan, math.nan, math.nan, dist, None, (),
                             "no run column: the judge was run once (name it with run=)")
    if len(runs) < 2:
        return Repeatability(len(runs), 0, math.nan, math.nan, math.nan, dist, None, (),
                             f"the judge has {len(runs)} run; repeatability needs two or more")
    ok = rows[j.verdict[rows] >= 0]
    stim = j.unit[ok] * 2 + np.maximum(j.position[ok], 0)
    n_stim = len(j.units) * 2
    order = np.lexsort((j.run[ok], stim))
    s, v, r = stim[order], j.verdict[ok][order], j.run[ok][order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    counts = np.diff(np.r_[starts, len(s)])
    lo = np.minimum.reduceat(v, starts) if len(s) else np.array([], dtype=np.int64)
    hi = np.maximum.reduceat(v, starts) if len(s) else np.array([], dtype=np.int64)
    multi = counts >= 2
    agree = multi & (lo == hi)
    n_items = int(multi.sum())
    fk = np.flatnonzero(multi & (lo != hi))
    labels = _value_labels(j)
    run_l = _labels(j.runs, r)
    val_l = [labels[c] for c in v.tolist()]
    st = s[starts[fk]]
    pos_l = [j.positions[k] for k in (st % 2).tolist()] if j.positions else [None] * len(fk)
    ends = (starts[fk] + counts[fk]).tolist()
    pairs = [tuple(zip(run_l[a:b], val_l[a:b], strict=True)) for a, b in zip(starts[fk].tolist(), ends, strict=True)]
    flips = list(map(RunFlip, _labels(j.units, st // 2), pos_l, pairs))
    alpha_value, low, high, reason = math.nan, math.nan, math.nan, None
    if n_items:
        from accord.coefficients._alpha import alpha

        ann = _ann(s, r, list(j.runs.tolist()), v, j.values, n_stim)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", AccordWarning)
                res = alpha(ann, distance=dist)
            alpha_value = float(res.alpha)
            if math.isnan(alpha_value):
                reason = f"alpha is undefined: {getattr(res, 'undefined_reason', None) or 'no variation'}"
            else:
                low, high = _alpha_interval(res, level, n_boot, rng)
        except AccordError as exc:
            reason = str(exc)
    else:
        reason = "no item has verdicts from two runs"
    return Repeatability(len(runs), n_items, alpha_value, float(low), float(high), dist,
                         proportion(int(agree.sum()), n_items, confidence_level=level), tuple(flips), reason)


def _alpha_interval(res: Any, level: float, n_boot: int, rng: Any) -> tuple[float, float]:
    """The unit bootstrap interval of alpha, drawn over the histogram of unit signatures (units with the same
    counts of each value are exchangeable; :func:`accord.coefficients._pairs.signature_counts`): the same
    resampling as :meth:`accord.AlphaResult.confidence_interval`, at the cost of the number of signatures."""
    import dataclasses

    from accord.coefficients._pairs import signature_counts

    counts = getattr(res, "_counts", None)
    if counts is not None and counts.weight is None:
        res = dataclasses.replace(res, _counts=signature_counts(counts))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        low, high = res.confidence_interval(level, n_resamples=n_boot, rng=rng)
    return float(low), float(high)


def _human_matrix(j: Judgments) -> np.ndarray:
    """Units x humans: each human's verdict (-1: none)."""
    h = np.full((len(j.units), len(j.humans)), -1, dtype=np.int64)
    col = np.full(len(j.coders), -1, dtype=np.int64)
    col[j.humans] = np.arange(len(j.humans))
    is_h = col[j.coder] >= 0
    h[j.unit[is_h], col[j.coder[is_h]]] = j.verdict[is_h]
    return h


def _positive(j: Judgments, positive: Any, codes: np.ndarray) -> tuple[int | None, str | None]:
    """The code of the verdict read as a pass, or why there is none."""
    used = np.unique(codes[codes >= 0])
    if len(used) != 2:
        labels = ", ".join(str(j.value_label(int(c))) for c in used[:6])
        return None, (f"the verdicts are not binary ({labels}): the pass rate needs two verdicts"
                      if len(used) > 2 else "the judge and the humans use fewer than two verdicts")
    labels = [j.value_label(int(c)) for c in used]
    if positive is not None:
        for c, lab in zip(used.tolist(), labels, strict=True):
            if lab == positive or str(lab) == str(positive):
                return int(c), None
        raise AccordError(f"positive={positive!r} is not a verdict of the data; the verdicts are "
                          f"{', '.join(map(repr, labels))}",
                          cli=f"--positive {positive} is not a verdict of the data; the verdicts are "
                              f"{', '.join(map(repr, labels))}")
    for c, lab in zip(used.tolist(), labels, strict=True):
        if lab is True or lab == 1 or (isinstance(lab, str) and lab.strip().lower() in _PASS_WORDS):
            return int(c), None
    return None, (f"which verdict is a pass is not told by its name ({', '.join(map(repr, labels))}); say it "
                  "with positive=")


def _kappa(judge: np.ndarray, other: np.ndarray, j: Judgments, dist: str, level: float
           ) -> tuple[float, float, float, str | None]:
    from accord.coefficients._kappa import cohen_kappa

    both = np.flatnonzero((judge >= 0) & (other >= 0))
    if len(both) < 2:
        return math.nan, math.nan, math.nan, f"{len(both)} item(s) with both verdicts"
    unit = np.r_[both, both]
    coder = np.r_[np.zeros(len(both), dtype=np.int64), np.ones(len(both), dtype=np.int64)]
    ann = _ann(unit, coder, ["judge", "other"], np.r_[judge[both], other[both]], j.values, len(j.units))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AccordWarning)
            res = cohen_kappa(ann, distance=dist)
    except AccordError as exc:
        return math.nan, math.nan, math.nan, str(exc)
    if math.isnan(res.kappa):
        return math.nan, math.nan, math.nan, res.undefined_reason or "kappa is undefined"
    try:
        lo, hi = res.confidence_interval(level)
    except AccordError as exc:
        return float(res.kappa), math.nan, math.nan, str(exc)
    return float(res.kappa), float(lo), float(hi), None


def _agreement(name: Any, judge: np.ndarray, other: np.ndarray, j: Judgments, dist: str, level: float,
               pos: int | None) -> AgreementWith:
    both = (judge >= 0) & (other >= 0)
    n = int(both.sum())
    acc = proportion(int((both & (judge == other)).sum()), n, confidence_level=level)
    no_tie = None
    if j.kind == "pairwise":
        nt = both & (judge != TIE) & (other != TIE)
        no_tie = proportion(int((nt & (judge == other)).sum()), int(nt.sum()), confidence_level=level)
    k, lo, hi, why = _kappa(judge, other, j, dist, level)
    tpr = tnr = prec = None
    if pos is not None:
        ref_pos, ref_neg, say_pos = both & (other == pos), both & (other != pos), both & (judge == pos)
        tpr = proportion(int((ref_pos & (judge == pos)).sum()), int(ref_pos.sum()), confidence_level=level)
        tnr = proportion(int((ref_neg & (judge != pos)).sum()), int(ref_neg.sum()), confidence_level=level)
        prec = proportion(int((say_pos & (other == pos)).sum()), int(say_pos.sum()), confidence_level=level)
    return AgreementWith(name, n, acc, no_tie, k, lo, hi, why, tpr, tnr, prec)


def _pooled(judge: np.ndarray, h: np.ndarray, level: float, pairwise: bool) -> tuple[Any, Any, Any, Any]:
    """Zheng et al.'s agreement over votes: judge with every human vote, and every pair of human votes."""
    on = (judge >= 0)[:, None] & (h >= 0)
    pooled = proportion(int((on & (h == judge[:, None])).sum()), int(on.sum()), confidence_level=level)
    # pairs of human votes on each item: sum over values of C(count, 2) agree, of C(votes, 2) in all
    k = int(h.max()) + 1 if h.size and h.max() >= 0 else 1
    counts = np.stack([(h == v).sum(axis=1) for v in range(k)], axis=1) if h.size else np.zeros((0, 1), int)
    votes = counts.sum(axis=1)
    hp = proportion(int((counts * (counts - 1) // 2).sum()), int((votes * (votes - 1) // 2).sum()),
                    confidence_level=level)
    pooled_nt = hp_nt = None
    if pairwise:
        nt = on & (h != TIE) & (judge != TIE)[:, None]
        pooled_nt = proportion(int((nt & (h == judge[:, None])).sum()), int(nt.sum()), confidence_level=level)
        c = counts[:, :TIE] if counts.shape[1] > TIE else counts
        v2 = c.sum(axis=1)
        hp_nt = proportion(int((c * (c - 1) // 2).sum()), int((v2 * (v2 - 1) // 2).sum()), confidence_level=level)
    return pooled, pooled_nt, hp, hp_nt


def _humans(j: Judgments, jv: np.ndarray, h: np.ndarray, majority: np.ndarray, level: float, dist: str,
            pos: int | None, humans_alpha: tuple[float, float, float]) -> HumanAgreement:
    names = [_label(j.coders, int(c)) for c in j.humans]
    if not names:
        return HumanAgreement((), None, 0, None, None, None, None, math.nan, math.nan, math.nan,
                              "no human in the data")
    with_h = tuple(_agreement(n, jv, h[:, i], j, dist, level, pos) for i, n in enumerate(names))
    voted = (h >= 0).any(axis=1)
    with_m = _agreement("human majority", jv, majority, j, dist, level, pos)
    pooled, pooled_nt, hp, hp_nt = _pooled(jv, h, level, j.kind == "pairwise")
    return HumanAgreement(with_h, with_m, int((voted & (majority < 0)).sum()), pooled, pooled_nt, hp, hp_nt,
                          *humans_alpha)


def _pass_rate(j: Judgments, jv: np.ndarray, h: np.ndarray, majority: np.ndarray, pos: int | None,
               why: str | None, level: float, interval: str, n_boot: int, power_tuned: bool, rng: Any) -> PassRate:
    judged = jv >= 0
    if pos is not None:
        labeled = judged & (majority >= 0)
        unlabeled = judged & (majority < 0)
        yhat_all = (jv[judged] == pos).astype(float)
        raw = proportion(int(yhat_all.sum()), int(judged.sum()), confidence_level=level)
        y = (majority[labeled] == pos).astype(float)
        f = (jv[labeled] == pos).astype(float)
        rg = rogan_gladen(int(yhat_all.sum()), int(judged.sum()), int(((y == 1) & (f == 1)).sum()),
                          int((y == 1).sum()), int(((y == 0) & (f == 0)).sum()), int((y == 0).sum()),
                          confidence_level=level, n_boot=n_boot if interval == "bootstrap" else None, rng=rng)
        ppi = ppi_mean(y, f, (jv[unlabeled] == pos).astype(float), power_tuned=power_tuned, confidence_level=level)
        return PassRate(j.value_label(pos), raw, raw.estimate, int(labeled.sum()), int(unlabeled.sum()), rg, ppi)
    if j.numeric:
        scores = np.asarray(j.values, dtype=float)
        has = (h >= 0).any(axis=1)
        labeled, unlabeled = judged & has, judged & ~has
        hv = np.where(h >= 0, scores[np.maximum(h, 0)], np.nan)
        y = np.nanmean(hv[labeled], axis=1) if labeled.any() else np.array([])
        f = scores[jv[labeled]]
        ppi = ppi_mean(y, f, scores[jv[unlabeled]], power_tuned=power_tuned, confidence_level=level)
        raw_mean = float(scores[jv[judged]].mean()) if judged.any() else math.nan
        return PassRate(None, None, raw_mean, int(labeled.sum()), int(unlabeled.sum()), None, ppi,
                        "scores: the Rogan-Gladen correction needs pass/fail verdicts; the prediction-powered "
                        "estimate is of the mean score")
    return PassRate(None, None, math.nan, 0, 0, None, None, why or "the verdicts are not binary")


def _alt_test(j: Judgments, verdicts: dict[int, np.ndarray], epsilon: float, alpha: float, min_items: int
              ) -> tuple[dict[int, Any], str | None]:
    """The alternative annotator test of every judge's verdicts: per judge its result, or why none."""
    from accord.models_vs_humans._alt_test import MIN_HUMANS, alt_test

    voters = int(((_human_matrix(j) >= 0).sum(axis=0) > 0).sum())
    if voters < MIN_HUMANS:
        return {}, (f"the alternative annotator test needs three or more humans; the data has {voters}")
    is_h = np.isin(j.coder, j.humans)
    units, coders, values = [j.unit[is_h]], [j.coder[is_h]], [j.verdict[is_h]]
    for c, jv in verdicts.items():
        on = np.flatnonzero(jv >= 0)
        units.append(on)
        coders.append(np.full(len(on), c, dtype=np.int64))
        values.append(jv[on])
    ann = _ann(np.concatenate(units), np.concatenate(coders), list(j.coders.tolist()), np.concatenate(values),
               j.values, len(j.units))
    names = [_label(j.coders, c) for c in verdicts]
    try:
        res = alt_test(ann, models=[str(n) for n in names], epsilon=epsilon, alpha=alpha,
                       scoring="auto" if j.numeric else "accuracy", min_items=min_items)
    except AccordError as exc:
        return {}, str(exc)
    return {c: res[str(n)] for c, n in zip(verdicts, names, strict=True)}, None


def _check(confidence_level: Any, mcnemar: Any, pass_rate_interval: Any, n_boot: Any, distance: Any) -> float:
    level = check_level(confidence_level)
    if mcnemar not in _MCNEMAR:
        raise choice_error("mcnemar", mcnemar, _MCNEMAR)
    if pass_rate_interval not in _INTERVALS:
        raise choice_error("pass_rate_interval", pass_rate_interval, _INTERVALS)
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise AccordError(f"n_boot must be a positive integer; got {n_boot!r}",
                          cli=f"--n-boot must be a positive integer; got {n_boot!r}")
    if distance not in ("auto", "nominal", "ordinal", "interval", "ratio"):
        raise choice_error("distance", distance, ("auto", "nominal", "ordinal", "interval", "ratio"))
    return level


def judge_audit(
    data: Any,
    *,
    judges: Any,
    position: str | None = None,
    run: str | None = None,
    verdict_refers_to: RefersTo | None = None,
    positions: tuple[Any, Any] | None = None,
    unit: str | None = None,
    coder: str | None = None,
    value: str | None = None,
    positive: Any = None,
    distance: str = "auto",
    confidence_level: float = 0.95,
    mcnemar: str = "exact",
    pass_rate_interval: str = "delta",
    n_boot: int = 2000,
    power_tuned: bool = False,
    epsilon: float = 0.2,
    alpha: float = 0.05,
    min_items: int = 30,
    rng: Any = None,
    sep: str | None = None,
    layout: str = "coders-by-units",
) -> JudgeAuditResult:
    r"""Audit LLM judges: consistent across orders, repeatable across runs, right against people?

    Parameters
    ----------
    data : path, DataFrame, Annotations, an import, or array-like
        The judgments: a file or a long table with a row per (item, coder, verdict) and, for the judges, the
        position and run columns; or any reliability data accord reads (no position or run there).
    judges : str or sequence, keyword-only
        The coders that are judges: names, a comma-separated string, or patterns (``gpt-*``); every other coder
        is a human.  Several judges are audited side by side, each against the humans alone.
    position : str, optional, keyword-only
        The column of the presentation order: two values, the canonical order (option A shown first) and its
        swap (the smaller value is canonical: ``AB`` before ``BA``, ``0`` before ``1``, ``original`` before
        ``swapped``; or say it with *positions*).  Humans may leave it empty.
    run : str, optional, keyword-only
        The column of the run, for repeated runs of a judge on the same items.
    verdict_refers_to : {"position", "option"}, keyword-only
        Needed with *position*: whether ``first`` names the answer shown first (a position; accord maps it
        back to its option) or option A wherever it was shown.
    positions : (canonical, swapped), optional, keyword-only
        The two values of the position column, the canonical order first.
    unit, coder, value : str, optional, keyword-only
        The columns of a table (default: told from their names, as :func:`accord.read` does).
    positive : optional, keyword-only
        The verdict that is a pass, for binary verdicts (default: told from its name: pass, yes, true, 1...).
    distance : {"auto", "nominal", "ordinal", "interval", "ratio"}, keyword-only
        The distance of alpha across runs, alpha among the humans and kappa (auto: interval for numeric
        scores, nominal otherwise).
    confidence_level : float, keyword-only
        The level of every interval (default 0.95).
    mcnemar : {"exact", "chi-square"}, keyword-only
        McNemar's test: the exact binomial test (default) or the chi-square with continuity correction.
    pass_rate_interval : {"delta", "bootstrap"}, keyword-only
        The Rogan-Gladen interval: the delta method (default) or a percentile bootstrap of *n_boot* draws.
    n_boot : int, keyword-only
        Bootstrap draws: of the Rogan-Gladen interval (with ``pass_rate_interval="bootstrap"``) and of alpha
        across runs (resampling items, :meth:`accord.AlphaResult.confidence_interval`).
    power_tuned : bool, keyword-only
        The prediction-powered estimate with the power-tuned lambda (PPI++) instead of the classic one.
    epsilon, alpha, min_items : keyword-only
        The alternative annotator test's options (:func:`accord.alt_test`).
    rng : int, numpy.random.Generator or None, keyword-only
        The bootstrap's randomness.
    sep : str, optional, keyword-only
        Text files: the delimiter.
    layout : keyword-only
        Orientation of *data* when it is a matrix.

    Returns
    -------
    JudgeAuditResult
        One :class:`~accord.models_vs_humans.JudgeAudit` per judge (``result[judge]``), each with
        ``to_dict()``.

    Raises
    ------
    AccordError
        A judge not among the coders; a position column that does not hold two values or is empty on a
        judge's row; a judge judging an item twice in one order and run; a verdict that is neither a position
        nor an option; options out of range.

    Notes
    -----
    **Position consistency** (Zheng et al. 2023, section 3.3 and Table 2).  For each item (and run) judged in
    both orders: *consistent* when both verdicts name the same option (two ties included); *error* when the
    judge failed to give either verdict; otherwise the verdict followed a position: *biased toward first*
    when the judge chose the answer shown first in at least one order (first in both, or first in one and a
    tie in the other), *biased toward second* likewise.  The four shares sum to 1; each has a Wilson
    interval.  McNemar's test compares the biased-first and biased-second counts (the discordant cells of the
    2 x 2 table of the option chosen in each order).

    **The judge's verdict on an item**: per run, the same option in both orders is that option, different ones
    a tie (Zheng et al.'s conservative rule), an error in either an error; across runs, the strict majority
    (pairwise: a tie when there is none; pointwise: no verdict, counted in ``n_no_verdict``).

    **Agreement with humans**: the human majority is the strict majority of the humans' votes on an item.
    Zheng et al.'s agreement is pooled over votes; "without ties" leaves out the pairs in which either gives
    a tie.

    **The pass rate** (binary verdicts): the judge's rate over every item it judged; sensitivity and
    specificity against the human majority on the items that have one; the Rogan-Gladen estimate
    (:func:`~accord.models_vs_humans._ppi.rogan_gladen`) and the prediction-powered one
    (:func:`~accord.models_vs_humans._ppi.ppi_mean`, the items without a human majority as the unlabelled
    ones).  For numeric scores, the prediction-powered mean score with the humans' mean as the label.

    References
    ----------
    Zheng, L., Chiang, W.-L., Sheng, Y., et al. (2023). Judging LLM-as-a-judge with MT-Bench and Chatbot
    Arena. *NeurIPS 2023 Datasets and Benchmarks*. arXiv:2306.05685.
    Rogan, W. J., & Gladen, B. (1978). Estimating prevalence from the results of a screening test. *American
    Journal of Epidemiology* 107(1), 71-76.
    Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I., & Zrnic, T. (2023). Prediction-powered
    inference. *Science* 382(6671), 669-674.
    Calderon, N., Reichart, R., & Dror, R. (2025). The Alternative Annotator Test for LLM-as-a-Judge.
    *Proceedings of ACL 2025*, 16051-16081.

    Examples
    --------
    A judge that always prefers the answer shown first, on three items shown in both orders:

    >>> import pandas as pd
    >>> rows = [(i, "llm", o, "first") for i in (1, 2, 3) for o in ("AB", "BA")]
    >>> rows += [(i, h, None, v) for i, h, v in [(1, "ann", "first"), (2, "ann", "second"), (3, "ann", "first")]]
    >>> df = pd.DataFrame(rows, columns=["item", "coder", "order", "verdict"])
    >>> res = judge_audit(df, judges="llm", position="order", verdict_refers_to="position")
    >>> p = res["llm"].position
    >>> p.consistency.estimate, p.biased_first.estimate, p.biased_second.estimate
    (0.0, 1.0, 0.0)
    """
    level = _check(confidence_level, mcnemar, pass_rate_interval, n_boot, distance)
    from accord.models_vs_humans._alt_test import _check as alt_check

    alt_check(epsilon, alpha, "accuracy", min_items, 3)
    j = read_judgments(data, judges=judges, position=position, run=run, verdict_refers_to=verdict_refers_to,
                       positions=positions, unit=unit, coder=coder, value=value, sep=sep, layout=layout)
    dist = _distance(j, distance)
    h = _human_matrix(j)
    is_h = np.isin(j.coder, j.humans) & (j.verdict >= 0)
    majority, n_major, n_votes = _majority(j.unit[is_h], j.verdict[is_h], len(j.units))
    humans_alpha = (math.nan, math.nan, math.nan)
    if len(j.humans) >= 2 and is_h.any():
        from accord.coefficients._alpha import alpha as k_alpha

        try:
            hann = _ann(j.unit[is_h], j.coder[is_h], list(j.coders.tolist()), j.verdict[is_h], j.values, len(j.units))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", AccordWarning)
                hres = k_alpha(hann, distance=dist)
            humans_alpha = (float(hres.alpha), math.nan, math.nan)
            if not math.isnan(hres.alpha):
                humans_alpha = (float(hres.alpha), *_alpha_interval(hres, level, n_boot, rng))
        except AccordError:
            pass  # too few pairable items for alpha or its interval: what could be computed stays
    per_judge: dict[int, tuple[np.ndarray, np.ndarray, int]] = {}
    for c in j.judges.tolist():
        rows = np.flatnonzero(j.coder == c)
        if not len(rows):
            raise AccordError(f"{j.source + ': ' if j.source else ''}judge {_label(j.coders, c)!r} has no verdicts")
        jv, no_verdict = _item_verdicts(j, rows)
        per_judge[c] = (rows, jv, no_verdict)
    alt, alt_reason = _alt_test(j, {c: v[1] for c, v in per_judge.items()}, epsilon, alpha, min_items)
    audits = []
    for c, (rows, jv, no_verdict) in per_judge.items():
        codes = np.r_[jv, j.verdict[is_h]]
        pos, why = _positive(j, positive, codes)
        disagree = np.flatnonzero((jv >= 0) & (majority >= 0) & (jv != majority))
        dis = tuple(Disagreement(_label(j.units, int(u)), j.value_label(int(jv[u])), j.value_label(int(majority[u])),
                                 int(n_major[u]), int(n_votes[u])) for u in disagree.tolist())
        res = alt.get(c)
        reason = alt_reason if res is None else res.undefined_reason
        audits.append(JudgeAudit(
            judge=_label(j.coders, c), kind=j.kind, n_items=int((jv >= 0).sum()), n_judgments=len(rows),
            n_errors=int((j.verdict[rows] == ERROR).sum()),
            position=_position(j, rows, level, mcnemar == "exact"),
            repeatability=_repeatability(j, rows, level, distance, n_boot, rng),
            humans=_humans(j, jv, h, majority, level, dist, pos, humans_alpha),
            pass_rate=_pass_rate(j, jv, h, majority, pos, why, level, pass_rate_interval, n_boot, power_tuned, rng),
            alt_test=res, alt_test_reason=reason, disagreements=dis, n_no_verdict=no_verdict))
    return JudgeAuditResult(audits=tuple(audits), humans=tuple(_label(j.coders, int(c)) for c in j.humans),
                            kind=j.kind, positions=tuple(j.positions), verdict_refers_to=j.refers_to,
                            confidence_level=level, epsilon=float(epsilon), alt_test_alpha=float(alpha),
                            min_items=int(min_items), n_missing=j.n_missing, source=j.source, n_boot=int(n_boot))
