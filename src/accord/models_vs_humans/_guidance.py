"""How to choose epsilon and the number of items for the alternative annotator test: the paper's guidance and
its simulation (Calderon, Reichart & Dror 2025, section 3.3 and appendix C).

The simulation draws datasets whose truth, humans and model follow the paper's noise model: per dataset,
class priors from a flat Dirichlet; per item a gold label from the priors; each human (and the model) keeps
the gold label with probability 1 - noise and otherwise draws a label from the priors.  For each number of
items, it draws items and humans from a pool and runs the test for every epsilon; the mean winning rate
against the number of items says how many items a model of that quality needs to pass.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning
from accord._shared.results import Result

__all__ = ["EPSILON_RULES", "AltTestGuidance", "alt_test_guidance"]

#: The paper's rule of thumb for epsilon by who the humans are (its FAQ, "How do I select the epsilon value?");
#: use a smaller epsilon when the humans agree little.
EPSILON_RULES: dict[str, float] = {"experts": 0.2, "skilled annotators": 0.15, "crowd workers": 0.1}

#: The paper's advice on the number of items: at least 30 for the t-test, 50 to 100 enough in most cases.
ITEMS_ADVICE = ("at least 30 items per human for the t-test's normal approximation; 50 to 100 suffice in most "
                "cases, and more items give the test more power")


@dataclass(frozen=True)
class AltTestGuidance(Result):
    """The simulated winning rate and advantage probability by number of items and epsilon.

    Attributes
    ----------
    n_categories, n_humans : int
    noise_humans, noise_model : float
        The probability that a human (the model) draws its label from the priors instead of keeping the gold
        one.
    epsilons : tuple of float
    sizes : tuple of int
    n_datasets, n_boots, pool_items, pool_humans : int
    alpha : float
    seed : int or None
    """

    n_categories: int
    n_humans: int
    noise_humans: float
    noise_model: float
    epsilons: tuple[float, ...]
    sizes: tuple[int, ...]
    n_datasets: int
    n_boots: int
    pool_items: int
    pool_humans: int
    alpha: float
    seed: int | None
    _frame: pd.DataFrame = field(repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per number of items: size, ``omega_<epsilon>`` (the mean winning rate) per epsilon, rho (the
        mean advantage probability) with its 5th and 95th percentiles, the humans' mean alpha, and the model's
        accuracy against the humans' majority label."""
        return self._frame.copy()

    def items_needed(self, *, omega: float = 0.5) -> dict[float, int | None]:
        """Per epsilon, the least number of items simulated from which the mean winning rate stays at least
        *omega* (None when it never does)."""
        out: dict[float, int | None] = {}
        for eps in self.epsilons:
            w = self._frame[f"omega_{eps:g}"].to_numpy()
            ok = w >= omega
            tail = np.flatnonzero(~ok)
            first = 0 if not len(tail) else tail[-1] + 1
            out[eps] = int(self._frame["size"].iloc[first]) if first < len(ok) else None
        return out

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        from accord._shared.results import jsonable

        out["rows"] = jsonable(self._frame.to_dict("records"))
        out["items_needed"] = {f"{k:g}": v for k, v in self.items_needed().items()}
        return out


def _check(n_categories: Any, n_humans: Any, noise_humans: Any, noise_model: Any, epsilons: Any, sizes: Any,
           n_datasets: Any, n_boots: Any, pool_items: Any, pool_humans: Any, alpha: Any) -> None:
    def integer(name: str, x: Any, low: int) -> None:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < low:
            raise AccordError(f"{name} must be an integer >= {low}; got {x!r}")

    integer("n_categories", n_categories, 2)
    integer("n_humans", n_humans, 2)
    integer("n_datasets", n_datasets, 1)
    integer("n_boots", n_boots, 1)
    integer("pool_humans", pool_humans, n_humans)
    for name, x in (("noise_humans", noise_humans), ("noise_model", noise_model)):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x <= 1:
            raise AccordError(f"{name} must be a number in [0, 1]; got {x!r}")
    if not epsilons or any(isinstance(e, bool) or not isinstance(e, (int, float)) or not 0 <= e < 1
                           for e in epsilons):
        raise AccordError(f"epsilons must be numbers in [0, 1); got {list(epsilons)!r}")
    if not sizes or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 2 for s in sizes):
        raise AccordError(f"sizes must be integers >= 2 (numbers of items); got {list(sizes)!r}")
    integer("pool_items", pool_items, max(sizes))
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise AccordError(f"alpha must be a number in (0, 1); got {alpha!r}")


def alt_test_guidance(
    *,
    n_categories: int = 4,
    n_humans: int = 3,
    noise_humans: float = 0.3,
    noise_model: float = 0.3,
    epsilons: Sequence[float] = (0.0, 0.05, 0.1, 0.15, 0.2),
    sizes: Sequence[int] = tuple(range(30, 201, 10)),
    n_datasets: int = 20,
    n_boots: int = 10,
    pool_items: int = 500,
    pool_humans: int = 6,
    alpha: float = 0.05,
    rng: int | np.random.Generator | None = None,
) -> AltTestGuidance:
    r"""Simulate the alternative annotator test to choose epsilon and the number of items.

    Parameters
    ----------
    n_categories : int, keyword-only
        Labels of the task.
    n_humans : int, keyword-only
        Humans per item in the test (those of your data).
    noise_humans, noise_model : float, keyword-only
        The probability that a human (the model) ignores the gold label and draws one from the priors; the
        paper maps human noise 0.1, 0.2, 0.3, 0.4 to inter-annotator agreement (Cohen's kappa) of about
        0.80, 0.63, 0.48, 0.36 with four categories.  The humans' alpha in the result shows the agreement
        the chosen noise gives.
    epsilons : sequence of float, keyword-only
    sizes : sequence of int, keyword-only
        Numbers of items to simulate (default 30 to 200 by 10, as the paper's figure).
    n_datasets, n_boots : int, keyword-only
        Datasets drawn (each with its own priors) and draws of items and humans per dataset and size.
    pool_items, pool_humans : int, keyword-only
        Items and humans of each simulated dataset, which the draws take from.
    alpha : float, keyword-only
        The false discovery rate of the test.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator: the same seed gives the same guidance.

    Returns
    -------
    AltTestGuidance

    Notes
    -----
    For an item with gold label g and priors :math:`\pi`, an annotator with noise :math:`\eta` gives label k
    with probability :math:`\eta\,\pi_k + (1 - \eta)\,1[k = g]` (appendix C).  Each draw runs
    :func:`accord.models_vs_humans._alt_test` with the accuracy score; the winning rates and advantage probabilities are
    averaged over datasets and draws.

    References
    ----------
    Calderon, N., Reichart, R., & Dror, R. (2025). The Alternative Annotator Test for LLM-as-a-Judge.
    *Proceedings of ACL 2025*, appendix C (simulation) and the FAQ (epsilon and the number of items).

    Examples
    --------
    >>> g = alt_test_guidance(sizes=[30, 100], epsilons=[0.1, 0.2], n_datasets=2, n_boots=2, rng=1)
    >>> list(g.to_frame().columns[:3])
    ['size', 'omega_0.1', 'omega_0.2']
    >>> g.to_frame().equals(alt_test_guidance(sizes=[30, 100], epsilons=[0.1, 0.2], n_datasets=2, n_boots=2,
    ...                                        rng=1).to_frame())
    True
    """
    sizes = [int(s) for s in sizes] if isinstance(sizes, (range, list, tuple, np.ndarray)) else sizes
    epsilons = [float(e) if isinstance(e, (int, np.integer)) and not isinstance(e, bool) else e for e in epsilons]
    _check(n_categories, n_humans, noise_humans, noise_model, epsilons, sizes, n_datasets, n_boots, pool_items,
           pool_humans, alpha)
    from accord.coefficients._alpha import alpha as krippendorff_alpha
    from accord.models_vs_humans._alt_test import benjamini_yekutieli, one_sided_t_test
    from accord.models_vs_humans._scoring import make_scorer

    seed = rng if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) else None
    gen = np.random.default_rng(rng)
    eps = np.asarray(epsilons, dtype=float)
    k = int(n_categories)
    labels = np.arange(k)
    records: dict[int, dict[str, list[float]]] = {s: {} for s in sizes}
    for _ in range(n_datasets):
        priors = gen.dirichlet(np.ones(k))
        gold = gen.choice(k, size=pool_items, p=priors)
        humans = _noisy(gen, gold, priors, noise_humans, pool_humans)
        model = _noisy(gen, gold, priors, noise_model, 1)[:, 0]
        for size in sizes:
            rec = records[size]
            for _ in range(n_boots):
                items = gen.choice(pool_items, size=size, replace=False)
                who = gen.choice(pool_humans, size=n_humans, replace=False)
                h, f = humans[np.ix_(items, who)], model[items]
                scorer = make_scorer("accuracy", h, f, labels)
                p_values = np.empty((len(eps), n_humans))
                rho_f = np.empty(n_humans)
                for j in range(n_humans):
                    _, w_f, w_h = scorer.indicators(j)
                    d = w_h.astype(float) - w_f.astype(float)
                    rho_f[j] = np.mean(w_f)
                    p_values[:, j] = [one_sided_t_test(d, e)[1] for e in eps]
                for e, p in zip(epsilons, p_values, strict=True):
                    rec.setdefault(f"omega_{e:g}", []).append(float(np.mean(benjamini_yekutieli(p, alpha=alpha)[0])))
                rec.setdefault("rho", []).append(float(np.mean(rho_f)))
                with warnings.catch_warnings():  # a draw where the humans never disagree: alpha undefined, NaN
                    warnings.simplefilter("ignore", AccordWarning)
                    a = krippendorff_alpha(h.T.astype(float)).alpha
                rec.setdefault("alpha_humans", []).append(a)
                majority = np.argmax(np.stack([(h == c).sum(axis=1) for c in labels], axis=1), axis=1)
                rec.setdefault("accuracy_majority", []).append(float(np.mean(f == majority)))
    rows = []
    for size in sizes:
        rec = records[size]
        row: dict[str, float] = {"size": size}
        for e in epsilons:
            row[f"omega_{e:g}"] = float(np.mean(rec[f"omega_{e:g}"]))
        row["rho"] = float(np.mean(rec["rho"]))
        row["rho_05"] = float(np.percentile(rec["rho"], 5))
        row["rho_95"] = float(np.percentile(rec["rho"], 95))
        row["alpha_humans"] = float(np.nanmean(rec["alpha_humans"]))
        row["accuracy_majority"] = float(np.mean(rec["accuracy_majority"]))
        rows.append(row)
    return AltTestGuidance(n_categories=k, n_humans=int(n_humans), noise_humans=float(noise_humans),
                           noise_model=float(noise_model), epsilons=tuple(float(e) for e in epsilons),
                           sizes=tuple(sizes), n_datasets=int(n_datasets), n_boots=int(n_boots),
                           pool_items=int(pool_items), pool_humans=int(pool_humans), alpha=float(alpha),
                           seed=None if seed is None else int(seed), _frame=pd.DataFrame(rows))


def _noisy(gen: np.random.Generator, gold: np.ndarray, priors: np.ndarray, noise: float, n: int) -> np.ndarray:
    """Labels of *n* annotators per item: the gold label with probability 1 - noise, else one from the priors."""
    keep = gen.random((len(gold), n)) >= noise
    drawn = gen.choice(len(priors), size=(len(gold), n), p=priors)
    return np.where(keep, gold[:, None], drawn)
