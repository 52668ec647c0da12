r"""Gamma itself: observed disorder of the best alignment over the expected disorder of sampled continua.

Each document is a continuum of its own.  Over a corpus the disorders are
pooled: the observed disorder is the summed disorder of the documents' best
alignments over the summed mean numbers of units per annotator,

.. math:: \delta_o = \frac{\sum_d \sum_{\breve a \in \hat a_d} \delta(\breve a)}{\sum_d \bar x_d},

(for one document, exactly the paper's :math:`\delta(\hat a)`), and each
chance sample draws a random continuum for every document from that
document's sampler and pools the same way; :math:`\delta_e` is the mean over
samples and :math:`\gamma = 1 - \delta_o / \delta_e`.  The number of samples
follows the paper's rule (section 5.3): at least *min_samples*, then as many
as :math:`(1.96\, c_v / p)^2` for the coefficient of variation :math:`c_v` of
the sampled disorders and the precision *p*, so that :math:`\delta_e` is
within :math:`\pm p` of its limit with 95% confidence; the interval reported is
:math:`[1 - \delta_o / (\delta_e (1 - \hat p)), 1 - \delta_o / (\delta_e (1 + \hat p))]` with
:math:`\hat p = 1.96\, c_v / \sqrt{N}` the precision reached.

Short documents with the same annotators are aligned together, a batch of
them in one program whose candidates never mix two documents
(:mod:`accord.spans._gamma.batch`): each still gets its own best alignment, and
a corpus of many short documents no longer pays a program's set-up for each
of them in every sample.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, warn_undefined
from accord._shared.results import Coefficient, Result
from accord.spans._gamma.alignment import (
    DEFAULT_MAX_CANDIDATES,
    DEFAULT_WINDOW,
    AlignmentSolution,
    _check_options,
    align,
)
from accord.spans._gamma.batch import _names_only, align_many, batches
from accord.spans._gamma.dissimilarity import CombinedDissimilarity, Dissimilarity
from accord.spans._gamma.model import Continuum, continua
from accord.spans._gamma.sampling import SAMPLERS, sampler_for

__all__ = ["DocumentGamma", "GammaResult", "gamma"]


@dataclass(frozen=True)
class DocumentGamma(Result):
    """Gamma of one document (its own observed and expected disorder).

    Attributes
    ----------
    document : str
    gamma : float
        NaN when the document has no unit or its expected disorder is 0.
    observed_disorder, expected_disorder : float
    n_annotators, n_units, n_unitary_alignments, n_unaligned : int
        ``n_unaligned``: units left alone in the best alignment.
    n_candidates : int
        Candidate unitary alignments the program held explicitly.
    alignment : str
        How its best alignment was found: ``"exact"``, or ``"windowed"`` (an approximation).
    """

    document: str
    gamma: float
    observed_disorder: float
    expected_disorder: float
    n_annotators: int
    n_units: int
    n_unitary_alignments: int
    n_unaligned: int
    n_candidates: int
    alignment: str = "exact"


@dataclass(frozen=True)
class GammaResult(Coefficient):
    r"""Gamma over a corpus of continua, with the best alignment of each document.

    Attributes
    ----------
    gamma : float
        :math:`1 - \delta_o / \delta_e`; NaN when undefined (``undefined_reason``).
    observed_disorder, expected_disorder : float
    gamma_cat : float
        :math:`\gamma_{cat}` (Mathet 2017): categorical agreement of the aligned
        units, each pair weighted by its positional closeness; NaN when no
        aligned pair has weight, or for a dissimilarity without parts.
    gamma_k : mapping of str to float
        :math:`\gamma_k` per category (pairs where at least one unit has it).
    n_samples : int
        Sampled corpora behind ``expected_disorder``.
    precision : float
        The relative precision asked of the expected disorder.
    achieved_precision : float
        :math:`1.96\,c_v/\sqrt{N}` reached (above ``precision`` when *max_samples* stopped the sampling).
    interval : tuple of float
        Gamma's sampling interval at the achieved precision.
    sampler : str
    dissimilarity : str
    n_documents, n_annotators, n_units : int
    documents : tuple of DocumentGamma
    expected_samples : tuple of float
        The pooled disorder of each sampled corpus.
    undefined_reason : str or None
    alignment : str
        The option asked: ``"exact"``, ``"windowed"`` or ``"auto"``.
    approximate : bool
        True when any best alignment (a document's or a sample's) is windowed, an
        approximation: the observed or the expected disorder is then at least the exact one.
    n_windowed_samples : int
        Sampled corpora with at least one windowed alignment.
    """

    _value_field: ClassVar[str] = "gamma"
    _coefficient_id: ClassVar[str] = "gamma"

    gamma: float
    observed_disorder: float
    expected_disorder: float
    gamma_cat: float
    gamma_k: Mapping[str, float]
    n_samples: int
    precision: float
    achieved_precision: float
    interval: tuple[float, float]
    sampler: str
    dissimilarity: str
    n_documents: int
    n_annotators: int
    n_units: int
    documents: tuple[DocumentGamma, ...]
    expected_samples: tuple[float, ...] = ()
    undefined_reason: str | None = None
    alignment: str = "auto"
    approximate: bool = False
    n_windowed_samples: int = 0
    _continua: tuple[Continuum, ...] = field(default=(), repr=False, compare=False)
    _solutions: tuple[AlignmentSolution, ...] = field(default=(), repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """The best alignment, one row per unit.

        Columns: ``document``, ``alignment`` (the unitary alignment's number in
        its document), ``annotator``, ``unit`` (the unit's row or span number in
        the input), ``start``, ``end``, ``category``, ``disorder`` (of its
        unitary alignment), ``aligned`` (False for a unit left alone).
        """
        cols = ["document", "alignment", "annotator", "unit", "start", "end", "category", "disorder", "aligned"]
        frames = []
        for c, sol in zip(self._continua, self._solutions, strict=True):
            t = sol.tuples
            if len(t) == 0:
                continue
            r, k = np.nonzero(t >= 0)
            u = t[r, k]
            size = (t >= 0).sum(axis=1)
            frames.append(pd.DataFrame({
                "document": c.document, "alignment": r, "annotator": np.asarray(c.annotators, dtype=object)[k],
                "unit": c.unit_id[u], "start": c.start[u], "end": c.end[u],
                "category": np.asarray(c.categories, dtype=object)[c.category[u]], "disorder": sol.disorders[r],
                "aligned": size[r] >= 2,
            }))
        if not frames:
            return pd.DataFrame(columns=cols)
        return pd.concat(frames, ignore_index=True)[cols]

    def documents_frame(self) -> pd.DataFrame:
        """One row per document (:class:`DocumentGamma`)."""
        return pd.DataFrame([d.to_dict() for d in self.documents])

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Interval for gamma from the sampling error of the expected disorder (normal approximation).

        The observed disorder is exact; the expected disorder is the mean of
        ``n_samples`` sampled disorders, whose standard error gives the interval.
        """
        from scipy.stats import norm

        if not 0 < confidence_level < 1:
            raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
        if math.isnan(self.gamma):
            raise AccordError(f"gamma is undefined ({self.undefined_reason}); no confidence interval")
        s = np.asarray(self.expected_samples)
        if len(s) < 2:
            raise AccordError("gamma's interval needs at least two samples")
        half = float(norm.ppf(0.5 + confidence_level / 2) * s.std(ddof=1) / math.sqrt(len(s)))
        lo_e, hi_e = self.expected_disorder - half, self.expected_disorder + half
        lo = 1 - self.observed_disorder / lo_e if lo_e > 0 else -math.inf
        return (lo, 1 - self.observed_disorder / hi_e)


# -- gamma-cat --------------------------------------------------------------------------------------------------


def _aligned_pairs(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (u, v) of units aligned together in *t* (a unitary alignment per row), with the number of units
    of its unitary alignment."""
    ii, jj = np.triu_indices(t.shape[1], 1)
    left, right = t[:, ii], t[:, jj]
    ok = (left >= 0) & (right >= 0)
    return left[ok], right[ok], np.repeat(np.count_nonzero(t >= 0, axis=1), len(ii))[ok.ravel()]


def _cat_sums(items: Sequence[tuple[Continuum, AlignmentSolution, np.ndarray]], d: Dissimilarity,
              cats: tuple[str, ...]) -> tuple[float, float, np.ndarray, np.ndarray]:
    """Sums behind gamma-cat and gamma-k over alignments ``(continuum, solution, codes of its categories among
    cats)``: (num, den, num_k, den_k).  Every aligned pair of every alignment is weighed at once."""
    n_k = len(cats)
    num_k, den_k = np.zeros(n_k), np.zeros(n_k)
    if not isinstance(d, CombinedDissimilarity):
        return 0.0, 0.0, num_k, den_k
    items = [x for x in items if len(x[1].tuples)]
    if not items:
        return 0.0, 0.0, num_k, den_k
    if _names_only(d):  # one binding over the corpus's categories: the alignments of n annotators as one
        parts = []
        for n in sorted({x[1].tuples.shape[1] for x in items}):
            group = [x for x in items if x[1].tuples.shape[1] == n]
            off = np.cumsum([0] + [len(c) for c, _, _ in group])
            t = np.concatenate([np.where(s.tuples >= 0, s.tuples + o, -1) for (_, s, _), o in zip(group, off,
                                                                                                   strict=False)])
            start = np.concatenate([c.start for c, _, _ in group])
            end = np.concatenate([c.end for c, _, _ in group])
            k = np.concatenate([k_codes[c.category] for c, _, k_codes in group])
            u, v, nv = _aligned_pairs(t)
            parts.append((start[u], end[u], k[u], start[v], end[v], k[v], nv))
        s1, e1, ku, s2, e2, kv, nv = (np.concatenate(x) for x in zip(*parts, strict=True))
        args = (s1, e1, ku, s2, e2, kv)
        w = np.maximum(0.0, 1.0 - d.alpha * d.positional.bind(cats)(*args)) / (nv - 1)
        dc = d.categorical.bind(cats)(*args)
    else:  # each continuum's own binding
        parts = []
        for c, sol, k_codes in items:
            u, v, nv = _aligned_pairs(sol.tuples)
            args = (c.start[u], c.end[u], c.category[u], c.start[v], c.end[v], c.category[v])
            w = np.maximum(0.0, 1.0 - d.alpha * d.positional.bind(c.categories)(*args)) / (nv - 1)
            parts.append((w, d.categorical.bind(c.categories)(*args), k_codes[c.category[u]], k_codes[c.category[v]]))
        w, dc, ku, kv = (np.concatenate(x) for x in zip(*parts, strict=True))
    wd = w * dc
    other = ku != kv  # a pair of two categories counts for each
    num_k = np.bincount(ku, wd, n_k) + np.bincount(kv[other], wd[other], n_k)
    den_k = np.bincount(ku, w, n_k) + np.bincount(kv[other], w[other], n_k)
    return float(wd.sum()), float(w.sum()), num_k, den_k


# -- workers (module level, for processes) ---------------------------------------------------------------------

_STATE: dict[str, Any] = {}


def _init(conts: tuple[Continuum, ...], d: Dissimilarity, sampler: str, k_codes: tuple[np.ndarray, ...],
          cats: tuple[str, ...], how: tuple[str, int, int] = ("exact", DEFAULT_WINDOW, DEFAULT_MAX_CANDIDATES)) -> None:
    _STATE.update(conts=conts, d=d, sampler=sampler, k_codes=k_codes, cats=cats, how=how,
                  samplers=[sampler_for(c, sampler) if len(c) else None for c in conts])


def _observed(batch: list[int]) -> list[tuple[int, AlignmentSolution, str | None]]:
    """The best alignments of the documents of one batch (:func:`~accord.spans._gamma.batch.batches`)."""
    sols = align_many([_STATE["conts"][i] for i in batch], _STATE["d"], *_STATE["how"])
    return [(i, sol, why) for i, (sol, why) in zip(batch, sols, strict=True)]


def _one_sample(seed: Any) -> tuple[Any, ...]:
    """One sampled corpus: per-document (summed disorder, mean units), the pooled gamma-cat sums, and whether an
    alignment was windowed."""
    rng = np.random.default_rng(seed)
    conts, d = _STATE["conts"], _STATE["d"]
    tot = np.zeros(len(conts))
    xbar = np.zeros(len(conts))
    drawn = [(i, draw(rng)) for i, draw in enumerate(_STATE["samplers"]) if draw is not None]
    sols = align_many([s for _, s in drawn], d, *_STATE["how"])  # small documents aligned together
    for (i, s), (sol, _) in zip(drawn, sols, strict=True):
        tot[i], xbar[i] = sol.total, s.mean_units
    num, den, num_k, den_k = _cat_sums([(s, sol, _STATE["k_codes"][i]) for (i, s), (sol, _) in
                                        zip(drawn, sols, strict=True)], d, _STATE["cats"])
    return tot, xbar, num, den, num_k, den_k, any(sol.approximate for sol, _ in sols)


def _pool(n_jobs: int) -> Any:
    if n_jobs == 1:
        return None
    import concurrent.futures
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=n_jobs, mp_context=ctx, initializer=_init,
        initargs=(_STATE["conts"], _STATE["d"], _STATE["sampler"], _STATE["k_codes"], _STATE["cats"], _STATE["how"]))


def _map(pool: Any, fn: Any, items: Sequence[Any], advance: Any, weight: Any = None) -> list[Any]:
    """``fn`` over *items*, in a process pool when given; the progress advances by ``weight(item)`` (1)."""
    out = []
    results = map(fn, items) if pool is None else pool.map(fn, items)
    for it, r in zip(items, results, strict=True):
        out.append(r)
        advance(1 if weight is None else weight(it))
    return out


def gamma(
    data: Any,
    *,
    dissimilarity: Dissimilarity | None = None,
    sampler: str = "statistical",
    precision: float = 0.02,
    min_samples: int = 30,
    max_samples: int = 1000,
    annotators: Any = None,
    alignment: str = "auto",
    window: int = DEFAULT_WINDOW,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    n_jobs: int = 1,
    progress: Any = None,
    rng: np.random.Generator | int | None = None,
) -> GammaResult:
    r"""Gamma agreement of units placed and labelled on continua (Mathet, Widlöcher & Métivier 2015).

    Parameters
    ----------
    data : SpanAnnotations, DataFrame, list of records, Continuum or sequence of Continuum
        See :func:`accord.spans._gamma.continua`.
    dissimilarity : Dissimilarity, optional
        Default :class:`CombinedDissimilarity` (alpha = beta = 1, nominal
        categories, :math:`\Delta_\varnothing = 1`).
    sampler : {"statistical", "shuffle"}
        How chance continua are drawn (:mod:`accord.spans._gamma.sampling`).
    precision : float in (0, 1), default 0.02
        Relative precision asked of the expected disorder (the paper's 'medium').
    min_samples, max_samples : int
        At least *min_samples* sampled corpora, at most *max_samples*.
    annotators : optional
        For a unit table: who saw which document (see :func:`continua`).
    alignment : {"exact", "windowed", "auto"}, default "auto"
        How best alignments are found (the documents' and the samples'):
        exactly (an error when a step of the exact program would hold more
        than *max_candidates* candidates), by windows of *window* units per
        annotator (an approximation, pygamma-agreement's "fast" alignment), or
        exactly unless past the limit, then by windows with a warning.  The
        result says when an alignment is windowed (``approximate``).
    window : int, default 40
        Units per annotator in a window of the windowed alignment.
    max_candidates : int, default 5,000,000
        The exact program's limit.
    n_jobs : int, default 1
        Processes for the documents' alignments and the samples (-1: all cores).
    progress : bool or accord._shared.progress.Progress, optional
        A progress bar on stderr (terminal only).
    rng : numpy Generator or int, optional
        Seeds the sampling; results do not depend on *n_jobs*.

    Returns
    -------
    GammaResult

    Notes
    -----
    For a unitary alignment :math:`\breve a` of *k* units among *n* annotators,
    :math:`\delta(\breve a) = \binom n2^{-1}(\sum_{u,v\in\breve a} d(u,v) + (\binom n2 - \binom k2)\Delta_\varnothing)`;
    the best alignment :math:`\hat a` minimises the summed disorder (solved
    exactly, :mod:`accord.spans._gamma.alignment`) and
    :math:`\delta(\hat a) = \sum \delta(\breve a) / \bar x` with :math:`\bar x` the mean number of units per
    annotator.  :math:`\gamma = 1 - \delta_o/\delta_e`.  :math:`\gamma_{cat}` weights
    each aligned pair (u, v) of a unitary alignment of :math:`n_v` units by
    :math:`\max(0, 1 - \alpha d_{pos}(u, v)) / (n_v - 1)` and averages their categorical
    dissimilarity (Mathet 2017); its expected value comes from the sampled
    continua's best alignments.

    References
    ----------
    Mathet, Y., Widlöcher, A., & Métivier, J.-P. (2015). The unified and holistic method gamma (γ) for
    inter-annotator agreement measure and alignment. Computational Linguistics, 41(3), 437-479.
    Mathet, Y. (2017). The agreement measure γcat, a complement to γ focused on categorization of a
    continuum. Computational Linguistics, 43(3), 661-681.

    Examples
    --------
    >>> units = [("A", 0, 10, "x"), ("B", 1, 9, "x"), ("A", 20, 30, "y"), ("B", 20, 31, "y"),
    ...          ("A", 40, 45, "x"), ("B", 50, 60, "x")]
    >>> r = gamma([dict(zip(("annotator", "start", "end", "category"), u)) for u in units], rng=0)
    >>> round(r.observed_disorder, 4), r.n_samples >= 30, r.gamma > 0
    (0.6715, True, True)
    """
    from accord._shared.progress import Progress

    d = dissimilarity if dissimilarity is not None else CombinedDissimilarity()
    if not isinstance(d, Dissimilarity):
        raise AccordError(f"dissimilarity must be an accord Dissimilarity; got {type(d).__name__}")
    if sampler not in SAMPLERS:
        raise AccordError(f"sampler must be one of {', '.join(SAMPLERS)}; got {sampler!r}")
    if not (isinstance(precision, (int, float)) and 0 < precision < 1):
        raise AccordError(f"precision must be in (0, 1); got {precision!r}")
    if not (isinstance(min_samples, int) and isinstance(max_samples, int) and 2 <= min_samples <= max_samples):
        raise AccordError(f"min_samples and max_samples must be integers with 2 <= min_samples <= max_samples; "
                          f"got {min_samples!r} and {max_samples!r}")
    _check_options(alignment, window, max_candidates)
    if not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1:
        raise AccordError(f"n_jobs must be a positive integer or -1; got {n_jobs!r}")
    jobs = (os.cpu_count() or 1) if n_jobs == -1 else n_jobs
    conts = continua(data, annotators=annotators)
    if not conts:
        raise AccordError("gamma: no document to measure")
    if d.categories is not None:
        known = set(d.categories)
        for c in conts:
            bad = np.flatnonzero(~np.isin(np.asarray(c.categories, dtype=object), list(known)))
            if len(bad):
                i = int(np.flatnonzero(c.category == bad[0])[0])
                raise AccordError(f"{c.describe_unit(i)}: category {c.categories[bad[0]]!r} is not in the "
                                  f"dissimilarity's categories ({', '.join(map(repr, d.categories))})")
    all_cats = tuple(sorted({x for c in conts for x in c.categories}))
    k_of = {x: i for i, x in enumerate(all_cats)}
    k_codes = tuple(np.array([k_of[x] for x in c.categories], dtype=np.int64) for c in conts)
    how = (alignment, int(window), int(max_candidates))
    _init(conts, d, sampler, k_codes, all_cats, how)
    seed_seq = np.random.SeedSequence(
        rng.integers(2**63) if isinstance(rng, np.random.Generator) else rng)  # type: ignore[arg-type]
    n_units = sum(len(c) for c in conts)
    if n_units == 0:
        reason = "no annotator marked any unit"
        warn_undefined("gamma", reason)
        n = len({a for c in conts for a in c.annotators})
        docs0 = tuple(DocumentGamma(c.document, math.nan, math.nan, math.nan, c.n_annotators, 0, 0, 0, 0)
                      for c in conts)
        return GammaResult(math.nan, math.nan, math.nan, math.nan, {}, 0, float(precision), math.nan,
                           (math.nan, math.nan), sampler, d.describe(), len(conts), n, 0, docs0,
                           undefined_reason=reason, alignment=alignment, _continua=conts,
                           _solutions=tuple(align(c, d)[0] for c in conts))
    xbar_obs = np.array([c.mean_units for c in conts])
    bar = progress if isinstance(progress, Progress) else Progress(enabled=bool(progress), label="accord gamma")
    pool = _pool(jobs) if jobs > 1 else None
    try:
        with bar:
            with bar.counter("best alignments", len(conts)) as adv:
                # the same batches whatever n_jobs: a batch may pick another of equally good alignments
                sols_l = [x for part in _map(pool, _observed, batches(conts, d, alignment), adv, len) for x in part]
            sols_l.sort(key=lambda x: x[0])
            sols = tuple(s for _, s, _ in sols_l)
            for _i, _, why in sols_l:
                if why:
                    warnings.warn(f"{why}: aligned by windows of {window} units per annotator instead, an "
                                  "approximation (its disorder is at least the exact one)", AccordWarning,
                                  stacklevel=2)
            tot_obs = np.array([s.total for s in sols])
            samples: list[tuple[Any, ...]] = []
            need = min_samples
            with bar.counter("chance samples", max_samples) as adv:
                while len(samples) < need:
                    batch = seed_seq.spawn(need - len(samples))
                    samples.extend(_map(pool, _one_sample, batch, adv))
                    pooled = np.array([s[0].sum() / s[1].sum() for s in samples])
                    mean = pooled.mean()
                    cv = pooled.std() / mean if mean > 0 else 0.0
                    need = min(max_samples, max(need, math.ceil((1.96 * cv / precision) ** 2)))
    finally:
        if pool is not None:
            pool.shutdown()
    pooled = np.array([s[0].sum() / s[1].sum() for s in samples])
    n_s = len(samples)
    d_o = float(tot_obs.sum() / xbar_obs.sum()) if n_units else math.nan
    d_e = float(pooled.mean())
    cv = float(pooled.std() / d_e) if d_e > 0 else math.nan
    p_hat = 1.96 * cv / math.sqrt(n_s)
    reason = None
    if not d_e > 0:
        reason = "the expected disorder is 0"
    g = math.nan if reason else 1.0 - d_o / d_e
    interval = (math.nan, math.nan) if reason else (1 - d_o / (d_e * (1 - p_hat)), 1 - d_o / (d_e * (1 + p_hat)))
    if reason:
        warn_undefined("gamma", reason)
    # per document
    doc_tot = np.array([s[0] for s in samples])  # (samples, docs)
    doc_x = np.array([s[1] for s in samples])
    docs = []
    for i, (c, sol) in enumerate(zip(conts, sols, strict=True)):
        if len(c) == 0:
            docs.append(DocumentGamma(c.document, math.nan, math.nan, math.nan, c.n_annotators, 0, 0, 0, 0))
            continue
        de_i = float(np.mean(doc_tot[:, i] / doc_x[:, i]))
        do_i = sol.disorder
        size = (sol.tuples >= 0).sum(axis=1)
        docs.append(DocumentGamma(c.document, 1 - do_i / de_i if de_i > 0 else math.nan, do_i, de_i, c.n_annotators,
                                  len(c), len(sol.tuples), int((size == 1).sum()), sol.n_candidates, sol.method))
    # gamma-cat and gamma-k
    o_num, o_den, o_nk, o_dk = _cat_sums(list(zip(conts, sols, k_codes, strict=True)), d, all_cats)
    e_cat = [s[2] / s[3] for s in samples if s[3] > 0]
    g_cat = _ratio_gamma(o_num, o_den, e_cat)
    g_k = {}
    for j, name in enumerate(all_cats):
        e_k = [s[4][j] / s[5][j] for s in samples if s[5][j] > 0]
        g_k[name] = _ratio_gamma(float(np.asarray(o_nk)[j]) if len(all_cats) else 0.0,
                                 float(np.asarray(o_dk)[j]) if len(all_cats) else 0.0, e_k)
    n_win = sum(1 for s in samples if s[6])
    if n_win and alignment == "auto":
        warnings.warn(f"{n_win} of {n_s} sampled corpora had a document past the exact limit, aligned by windows "
                      "(an approximation: the expected disorder is at least the exact one)", AccordWarning,
                      stacklevel=2)
    return GammaResult(
        gamma=g, observed_disorder=d_o, expected_disorder=d_e, gamma_cat=g_cat, gamma_k=g_k, n_samples=n_s,
        precision=float(precision), achieved_precision=p_hat, interval=interval, sampler=sampler,
        dissimilarity=d.describe(), n_documents=len(conts),
        n_annotators=len({a for c in conts for a in c.annotators}), n_units=n_units, documents=tuple(docs),
        expected_samples=tuple(float(x) for x in pooled), undefined_reason=reason, alignment=alignment,
        approximate=bool(n_win) or any(s.approximate for s in sols), n_windowed_samples=n_win, _continua=conts,
        _solutions=sols,
    )


def _ratio_gamma(num: float, den: float, expected: list[float]) -> float:
    if den <= 0 or not expected:
        return math.nan
    e = float(np.mean(expected))
    if e <= 0:
        return math.nan
    return 1.0 - (num / den) / e

