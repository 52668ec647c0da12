"""Random continua for gamma's expected disorder (Mathet et al. 2015, section 5.2).

Two samplers, each fitted to one document's continuum and drawing continua
with the same annotators:

- ``"statistical"``: each annotator gets a number of units drawn from a normal
  law with the mean and standard deviation of the units per annotator; units
  follow one another with gaps (from the previous unit's end, the first from
  0) and durations drawn from normal laws with the observed means and
  standard deviations (a negative duration is mirrored, a zero one redrawn),
  and categories drawn with their observed frequencies.  This is the sampler
  of pygamma-agreement (``StatisticalContinuumSampler``), its default.
- ``"shuffle"``: the paper's sampler: each sampled annotator copies the units
  of an annotator drawn at random, shifted by a random pivot over the
  continuum's extent (wrapping past its end), no two annotators' pivots less
  than the mean unit length apart (section 5.2.1: "we do not allow the
  distance between two shifts to be less than the average length of units").
  The Java Gamma Software, and pygamma-agreement's ``ShuffleContinuumSampler``
  after it, keep them only half a mean length apart.  When no room is left for
  a pivot so far from the others (many annotators on a short continuum), it is
  drawn anywhere.

Both only read numpy arrays; a sample is a :class:`Continuum`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from accord._shared.errors import AccordError
from accord.spans._gamma.model import Continuum

__all__ = ["SAMPLERS", "sampler_for"]

SAMPLERS = ("statistical", "shuffle")

Sampler = Callable[[np.random.Generator], Continuum]


def _assemble(c: Continuum, ann: np.ndarray, start: np.ndarray, end: np.ndarray, cat: np.ndarray) -> Continuum:
    order = np.lexsort((cat, end, start, ann))
    return Continuum(document=c.document, annotators=c.annotators, categories=c.categories, annotator=ann[order],
                     start=start[order], end=end[order], category=cat[order],
                     unit_id=np.full(len(order), -1, dtype=np.int64))


def _statistical(c: Continuum) -> Sampler:
    n = c.n_annotators
    counts = np.bincount(c.annotator, minlength=n)
    mu_n, sd_n = float(counts.mean()), float(counts.std())
    first = np.ones(len(c), dtype=bool)
    first[1:] = c.annotator[1:] != c.annotator[:-1]
    gaps = np.where(first, c.start, c.start - np.concatenate([[0.0], c.end[:-1]]))
    if len(gaps) == 0:
        gaps = np.zeros(1)
    mu_g, sd_g = float(gaps.mean()), float(gaps.std())
    dur = c.end - c.start
    mu_d, sd_d = float(dur.mean()), float(dur.std())
    freq = np.bincount(c.category, minlength=len(c.categories)) / max(len(c), 1)
    cdf = freq.cumsum()  # rng.choice(len(freq), size, p=freq) without its checks: the same draws, a fifth faster
    if len(cdf):
        cdf /= cdf[-1]

    codes = np.arange(n, dtype=np.int64)
    fixed = np.full(n, int(mu_n))

    def draw(rng: np.random.Generator) -> Continuum:
        for _ in range(1000):
            k = np.abs(rng.normal(mu_n, sd_n, size=n).astype(np.int64)) if sd_n > 0 else fixed
            total = int(k.sum())
            if total > 0:
                break
        else:
            raise AccordError(f"document {c.document!r}: the statistical sampler drew no unit in 1000 tries")
        g = rng.normal(mu_g, sd_g, size=total)
        d = np.abs(rng.normal(mu_d, sd_d, size=total))
        if mu_d > 0:
            zero = d == 0
            while zero.any():
                d[zero] = np.abs(rng.normal(mu_d, sd_d, size=int(zero.sum())))
                zero = d == 0
        # start_i = end_{i-1} + gap_i within each annotator, the first from 0: the running sum of gap + duration,
        # less its value before the annotator's first unit
        run = np.empty(total + 1)
        run[0] = 0.0
        np.cumsum(g + d, out=run[1:])
        end = run[1:] - np.repeat(run[np.cumsum(k) - k], k)
        start = end - d
        cat = cdf.searchsorted(rng.random(total), side="right")
        return _assemble(c, np.repeat(codes, k), start, end, cat.astype(np.int64, copy=False))

    return draw


def _shuffle(c: Continuum) -> Sampler:
    n = c.n_annotators
    lo, hi = min(0.0, float(c.start.min())), float(c.end.max())
    span = hi - lo
    min_dist = float((c.end - c.start).mean())  # section 5.2.1 (the Java software halves it)
    offsets = c.offsets

    def draw(rng: np.random.Generator) -> Continuum:
        for _ in range(1000):
            free = [(lo, hi)]
            anns, starts, ends, cats = [], [], [], []
            for i in range(n):
                lengths = np.array([b - a for a, b in free])
                if len(free) and lengths.sum() > 0:
                    j = rng.choice(len(free), p=lengths / lengths.sum())
                    pivot = float(rng.uniform(*free[j]))
                    nxt = []
                    for a, b in free:
                        if a < pivot - min_dist:
                            nxt.append((a, min(b, pivot - min_dist)))
                        if b > pivot + min_dist:
                            nxt.append((max(a, pivot + min_dist), b))
                    free = [(a, b) for a, b in nxt if b > a]
                else:
                    pivot = float(rng.uniform(lo, hi))
                src = int(rng.integers(n))
                s, e = c.start[offsets[src]:offsets[src + 1]], c.end[offsets[src]:offsets[src + 1]]
                wrap = np.where(s + pivot > hi, span, 0.0)
                starts.append(s + pivot - wrap)
                ends.append(e + pivot - wrap)
                cats.append(c.category[offsets[src]:offsets[src + 1]])
                anns.append(np.full(len(s), i, dtype=np.int64))
            ann = np.concatenate(anns)
            if len(ann):
                return _assemble(c, ann, np.concatenate(starts), np.concatenate(ends), np.concatenate(cats))
        raise AccordError(f"document {c.document!r}: the shuffle sampler drew no unit in 1000 tries")

    return draw


def sampler_for(c: Continuum, kind: str) -> Sampler:
    """The sampler *kind* (``"statistical"`` or ``"shuffle"``) fitted to *c*.

    Examples
    --------
    >>> c = Continuum.from_arrays("d", [], ["A", "B"], [0, 1], [5, 6], ["x", "y"])
    >>> s = sampler_for(c, "shuffle")(np.random.default_rng(0))
    >>> s.annotators, len(s) > 0
    (('A', 'B'), True)
    """
    if kind == "statistical":
        return _statistical(c)
    if kind == "shuffle":
        return _shuffle(c)
    raise AccordError(f"sampler must be one of {', '.join(SAMPLERS)}; got {kind!r}")
