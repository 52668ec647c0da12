"""The alternative annotator test (Calderon, Reichart & Dror 2025): can a model replace the human annotators?

Leave one human out; item by item, ask whether the model or that human better represents the remaining
humans; give the model its cost advantage epsilon; test per human with a one-sided t-test; control the false
discovery rate across humans (Benjamini-Yekutieli); the model passes when it wins against at least half of
the humans.  :func:`alt_test` runs it for one or several models side by side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, choice_error
from accord._shared.names import shown
from accord._shared.results import Result
from accord.data._annotations import Annotations, Layout
from accord.models_vs_humans._roles import ModelsArg, as_rater_data, coder_roles
from accord.models_vs_humans._scoring import SCORINGS, auto_scoring, make_scorer

__all__ = [
    "AltTestResult",
    "HumanComparison",
    "ModelAltTest",
    "NotTested",
    "alt_test",
    "benjamini_yekutieli",
    "one_sided_t_test",
]

#: The paper's least number of items per human for the t-test's normal approximation (its FAQ: "at least 30").
MIN_ITEMS = 30
#: The least number of humans the test is run with (the paper's FAQ recommends at least three).
MIN_HUMANS = 3


@dataclass(frozen=True)
class HumanComparison(Result):
    """The model against one left-out human.

    Attributes
    ----------
    human : object
        The human left out.
    n_items : int
        Items this human annotated that the model and at least one other human also annotated.
    rho_model : float
        rho_f^j: the share of those items where the model's alignment score with the remaining humans is at
        least the human's (the model's advantage probability against this human).
    rho_human : float
        rho_h^j: the share where the human's score is at least the model's.
    t_statistic : float
        (mean(d) - epsilon) / (s / sqrt(n)) for d = W_h - W_f item by item; infinite when d is constant.
    p_value : float
        One-sided p-value of H0: rho_h - rho_f >= epsilon (NaN when undefined; see *note*).
    p_adjusted : float
        The Benjamini-Yekutieli adjusted p-value across the humans tested against this model.
    model_wins : bool
        H0 rejected after the correction at level ``alpha``: the model is at least as good a representative
        of the others as this human, up to epsilon.
    note : str or None
        Why the p-value is undefined, when it is.
    """

    human: Any
    n_items: int
    rho_model: float
    rho_human: float
    t_statistic: float
    p_value: float
    p_adjusted: float
    model_wins: bool
    note: str | None = None


@dataclass(frozen=True)
class NotTested(Result):
    """A human the model is not tested against (its annotations still serve as one of the remaining humans)."""

    human: Any
    n_items: int
    reason: str


@dataclass(frozen=True)
class ModelAltTest(Result):
    """The alternative annotator test of one model.

    Attributes
    ----------
    model : object
    omega : float
        The winning rate: the share of the humans tested that the model wins against (NaN when undefined).
    rho : float
        The average advantage probability: the mean over the humans tested of ``rho_model``; the measure the
        paper recommends for comparing models (higher is better).
    passes : bool or None
        ``omega >= 0.5``: the model may replace the humans; None when the test is undefined.
    n_items : int
        Items the model annotated that at least two humans annotated (the items of the test).
    comparisons : tuple of HumanComparison
        One per human tested, in the data's coder order.
    not_tested : tuple of NotTested
        The humans left out of the test, each with its reason.
    undefined_reason : str or None
        Why the test is undefined for this model (too few humans share enough items with it).
    """

    model: Any
    omega: float
    rho: float
    passes: bool | None
    n_items: int
    comparisons: tuple[HumanComparison, ...]
    not_tested: tuple[NotTested, ...] = ()
    undefined_reason: str | None = None

    @property
    def verdict(self) -> str:
        """``passes`` (the model may replace the humans), ``fails`` or ``undefined``."""
        return "undefined" if self.passes is None else "passes" if self.passes else "fails"

    @property
    def n_humans(self) -> int:
        """The number of humans the model was tested against."""
        return len(self.comparisons)

    @property
    def n_wins(self) -> int:
        """The number of humans the model wins against."""
        return sum(c.model_wins for c in self.comparisons)

    def to_frame(self) -> pd.DataFrame:
        """One row per human tested: human, n_items, rho_model, rho_human, t_statistic, p_value, p_adjusted,
        model_wins."""
        cols = ["human", "n_items", "rho_model", "rho_human", "t_statistic", "p_value", "p_adjusted", "model_wins"]
        return pd.DataFrame([{c: getattr(x, c) for c in cols} for x in self.comparisons], columns=cols)


@dataclass(frozen=True)
class AltTestResult(Result):
    """The alternative annotator test of one or several models against the same humans.

    Attributes
    ----------
    tests : tuple of ModelAltTest
        One per model, in the data's coder order.
    humans : tuple
        The coders read as humans.
    epsilon, alpha : float
        The cost-benefit margin and the false discovery rate the test was run with.
    scoring : str
        The alignment score (``accuracy``, ``neg_rmse``, ``jaccard``, ``rank``, or the callable's name).
    min_items, min_humans : int
        The least items per human and the least humans the test was run with.
    n_units : int
        Units (items) in the data.
    source : str or None
        Where the data came from.
    """

    tests: tuple[ModelAltTest, ...]
    humans: tuple[Any, ...]
    epsilon: float
    alpha: float
    scoring: str
    min_items: int
    min_humans: int
    n_units: int
    source: str | None = None

    @property
    def models(self) -> list[Any]:
        """The models tested."""
        return [t.model for t in self.tests]

    def __getitem__(self, model: Any) -> ModelAltTest:
        for t in self.tests:
            if t.model == model or str(t.model) == str(model):
                return t
        raise KeyError(f"no model {model!r} in this test; the models are {', '.join(map(repr, self.models))}")

    def best(self) -> ModelAltTest | None:
        """The model with the highest advantage probability rho among those the test is defined for."""
        defined = [t for t in self.tests if not math.isnan(t.rho)]
        return max(defined, key=lambda t: t.rho) if defined else None

    def summary(self) -> pd.DataFrame:
        """One row per model: model, omega, rho, verdict, passes, humans tested, wins, items, why undefined."""
        cols = ["model", "omega", "rho", "verdict", "passes", "n_humans", "n_wins", "n_items", "undefined_reason"]
        return pd.DataFrame([{c: getattr(t, c) for c in cols} for t in self.tests], columns=cols)

    def to_frame(self) -> pd.DataFrame:
        """One row per (model, human tested), with the model's omega and rho repeated on its rows."""
        frames = []
        for t in self.tests:
            f = t.to_frame()
            f.insert(0, "model", [t.model] * len(f))
            f["omega"], f["rho"] = t.omega, t.rho
            frames.append(f)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def benjamini_yekutieli(p_values: Sequence[float] | np.ndarray, *, alpha: float = 0.05) -> tuple[np.ndarray,
                                                                                                 np.ndarray]:
    r"""The Benjamini-Yekutieli step-up procedure: which hypotheses are rejected, and the adjusted p-values.

    Parameters
    ----------
    p_values : array-like of float
        One p-value per hypothesis; NaN (an undefined p-value) counts among the m hypotheses and is never
        rejected.
    alpha : float, keyword-only
        The false discovery rate to control, in (0, 1).

    Returns
    -------
    rejected : numpy.ndarray of bool
    adjusted : numpy.ndarray of float
        min over k >= i of p_(k) m c(m) / k, at most 1 (NaN for NaN), in the input order.

    Notes
    -----
    With the p-values sorted, p_(1) <= ... <= p_(m), and c(m) = \sum_{i=1}^m 1/i, reject the hypotheses of
    p_(1), ..., p_(k) for the largest k with

    .. math:: p_{(k)} \le \frac{k}{m}\,\frac{\alpha}{c(m)}.

    The procedure controls the false discovery rate under any dependence between the tests, which the
    alt-test needs: every comparison reuses the same humans.

    References
    ----------
    Benjamini, Y., & Yekutieli, D. (2001). The control of the false discovery rate in multiple testing under
    dependency. *The Annals of Statistics* 29(4), 1165-1188, Theorem 1.1.

    Examples
    --------
    >>> rejected, adjusted = benjamini_yekutieli([0.001, 0.02, 0.04], alpha=0.05)
    >>> rejected.tolist()
    [True, False, False]
    >>> [round(x, 4) for x in adjusted.tolist()]
    [0.0055, 0.055, 0.0733]
    """
    p = np.asarray(p_values, dtype=float).reshape(-1)
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise AccordError(f"alpha must be a number in (0, 1); got {alpha!r}")
    if np.any((p < 0) | (p > 1)):
        raise AccordError(f"p_values must lie in [0, 1]; got {shown(p[(p < 0) | (p > 1)][0])}")
    m = len(p)
    rejected = np.zeros(m, dtype=bool)
    adjusted = np.full(m, np.nan)
    if m == 0:
        return rejected, adjusted
    order = np.argsort(p, kind="stable")  # NaN sorts last
    ranked = p[order]
    c_m = np.sum(1.0 / np.arange(1, m + 1))
    ranks = np.arange(1, m + 1)
    below = ranked <= (ranks / m) * (alpha / c_m)
    if below.any():
        rejected[order[: np.flatnonzero(below)[-1] + 1]] = True
    defined = ~np.isnan(ranked)
    k = int(defined.sum())
    if k:
        raw = ranked[:k] / ((ranks[:k] / m) / c_m)
        adjusted[order[:k]] = np.minimum(np.minimum.accumulate(raw[::-1])[::-1], 1.0)
    return rejected, adjusted


def one_sided_t_test(d: np.ndarray, epsilon: float) -> tuple[float, float, str | None]:
    r"""The one-sample t-test of H0: mean(d) >= epsilon against H1: mean(d) < epsilon.

    Returns ``(t, p, note)``: *note* says why the p-value is undefined (NaN) when it is.

    Notes
    -----
    With n items, the mean :math:`\bar d`, and :math:`s^2 = \frac{1}{n-1}\sum (d_i - \bar d)^2`:
    :math:`t = (\bar d - \varepsilon) / (s / \sqrt n)` and :math:`p = F_{n-1}(t)`, the Student t
    distribution's CDF.  Constant differences (s = 0) give :math:`t = \mp\infty` and p = 0 or 1 as the mean is
    below or above epsilon, as SciPy's ``ttest_1samp`` does; at epsilon exactly the test is undefined.

    Examples
    --------
    >>> t, p, _ = one_sided_t_test(np.array([0.0, -1.0, 1.0, -1.0]), 0.2)
    >>> round(t, 6), round(p, 6)
    (-0.940019, 0.208277)
    """
    from scipy.special import stdtr

    n = len(d)
    mean = float(np.mean(d))
    var = float(np.mean((d - mean) ** 2)) * (n / (n - 1))
    if var == 0.0:
        if mean < epsilon:
            return -math.inf, 0.0, None
        if mean > epsilon:
            return math.inf, 1.0, None
        return math.nan, math.nan, (f"the differences are all {mean:g}, equal to epsilon: the t-test is undefined")
    t = (mean - epsilon) / math.sqrt(var / n)
    return t, float(stdtr(n - 1, t)), None


def _check(epsilon: Any, alpha: Any, scoring: Any, min_items: Any, min_humans: Any) -> None:
    """The one validation step of :func:`alt_test`'s options."""
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not (0 <= epsilon < 1):
        raise AccordError(f"epsilon must be a number in [0, 1) (the paper: 0.2 for experts, 0.15 for skilled "
                          f"annotators, 0.1 for crowd workers); got {epsilon!r}",
                          cli=f"--epsilon must be a number in [0, 1) (the paper: 0.2 for experts, 0.15 for skilled "
                              f"annotators, 0.1 for crowd workers); got {epsilon!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not (0 < alpha < 1):
        raise AccordError(f"alpha must be a number in (0, 1), the false discovery rate; got {alpha!r}",
                          cli=f"--alpha must be a number in (0, 1), the false discovery rate; got {alpha!r}")
    if not callable(scoring) and scoring not in SCORINGS:
        raise choice_error("scoring", scoring, SCORINGS, api_also=" (or a callable f(annotation, others) -> float)")
    if isinstance(min_items, bool) or not isinstance(min_items, (int, np.integer)) or min_items < 2:
        raise AccordError(f"min_items must be an integer >= 2 (the paper asks for 30 or more); got {min_items!r}",
                          cli=f"--min-items must be an integer >= 2 (the paper asks for 30 or more); got {min_items!r}")
    if isinstance(min_humans, bool) or not isinstance(min_humans, (int, np.integer)) or min_humans < 2:
        raise AccordError(f"min_humans must be an integer >= 2 (the paper recommends 3 or more); got {min_humans!r}",
                          cli=f"--min-humans must be an integer >= 2 (the paper recommends 3 or more); got "
                              f"{min_humans!r}")


def alt_test(
    data: Annotations | Any,
    *,
    models: ModelsArg,
    epsilon: float = 0.2,
    alpha: float = 0.05,
    scoring: str | Callable[[Any, list[Any]], float] = "auto",
    min_items: int = MIN_ITEMS,
    min_humans: int = MIN_HUMANS,
    layout: Layout = "coders-by-units",
) -> AltTestResult:
    r"""The alternative annotator test: may each model replace the human annotators?

    Parameters
    ----------
    data : Annotations, an import, or array-like
        Reliability data holding the humans and the models as coders: :class:`accord.Annotations`
        (:func:`accord.read`), an annotation tool's export read by :func:`accord.read_export`, or a coders x
        units matrix as :func:`accord.as_annotations` reads it.
    models : str or sequence, keyword-only
        The coders that are models: names, a comma-separated string of names, or shell-style patterns
        (``"gpt-*"``); every other coder is a human.  Several models are tested side by side, each against
        the humans alone.
    epsilon : float, keyword-only
        The model's cost-benefit advantage, in [0, 1): the human must beat the model on a share of items
        larger by epsilon.  The paper's rule of thumb: 0.2 for experts, 0.15 for skilled annotators, 0.1 for
        crowd workers; smaller when the humans agree little.
    alpha : float, keyword-only
        The false discovery rate controlled across the humans (Benjamini-Yekutieli).
    scoring : str or callable, keyword-only
        The alignment score: ``"accuracy"`` (categorical labels), ``"neg_rmse"`` (numeric ratings),
        ``"jaccard"`` (label sets), ``"rank"`` (``neg_rmse`` over each coder's ranks), ``"auto"`` (jaccard for
        sets, neg_rmse for numbers, else accuracy; say ``"accuracy"`` for categories coded as numbers), or a
        callable ``f(annotation, others) -> float``, higher meaning *annotation* represents the list *others*
        better (called once per item, human and candidate).
    min_items : int, keyword-only
        A human is tested only on at least this many items shared with the model and another human (default
        30, the paper's floor for the t-test); one with fewer still serves as a remaining human.
    min_humans : int, keyword-only
        The least number of humans with values (default 3, as the paper recommends), and of humans a model
        must be tested against for its result to be defined.
    layout : {"coders-by-units", "units-by-coders"}, keyword-only
        Orientation of *data* when it is a matrix.

    Returns
    -------
    AltTestResult
        Per model (``result[model]``): omega, rho, the verdict and per human rho_f, rho_h, the p-value before
        and after the correction and whether the model wins; a model that too few humans share enough items
        with has NaN omega and rho and its reason.

    Raises
    ------
    AccordError
        For fewer than *min_humans* humans with values, models not among the coders, a model with no values,
        values the score cannot compare, and options out of range.

    Notes
    -----
    For each model f and human j, over the items i that j, f and at least one other human annotated, with
    S(a, i, j) the alignment score of annotation a with the humans other than j on item i:

    .. math::

        W^f_{i,j} = 1[S(f(x_i), i, j) \ge S(h_j(x_i), i, j)], \quad
        W^h_{i,j} = 1[S(h_j(x_i), i, j) \ge S(f(x_i), i, j)],

    :math:`\rho^f_j`, :math:`\rho^h_j` their means and :math:`d_i = W^h_{i,j} - W^f_{i,j}`.  The t-test of
    H0: :math:`\rho^h_j - \rho^f_j \ge \varepsilon` against H1: :math:`\rho^h_j - \rho^f_j < \varepsilon`
    (:func:`one_sided_t_test` on d) gives :math:`p_j`; the Benjamini-Yekutieli procedure at level
    :math:`\alpha` over the humans tested (:func:`benjamini_yekutieli`) rejects some; the winning rate is
    :math:`\omega = \frac{1}{m}\sum_j 1[H_{0j} \text{ rejected}]` and the model passes when
    :math:`\omega \ge 0.5`.  The average advantage probability is :math:`\rho = \frac{1}{m}\sum_j \rho^f_j`.

    Items are those the model annotated that at least two humans annotated; a human with fewer than
    *min_items* of them is not tested but still counts among the remaining humans, as in the authors' code.

    References
    ----------
    Calderon, N., Reichart, R., & Dror, R. (2025). The Alternative Annotator Test for LLM-as-a-Judge: How to
    Statistically Justify Replacing Human Annotators with LLMs. *Proceedings of ACL 2025*, 16051-16081,
    section 3 (the procedure), section 4 (rho), appendix C (epsilon and the number of items).

    Examples
    --------
    Three humans and a model on 4 items (``min_items=4`` for the example; use 30 or more):

    >>> data = Annotations.from_records(
    ...     [(i, c, v) for i, row in enumerate(["aaab", "bbbb", "abaa", "ccac"])
    ...      for c, v in zip(["h1", "h2", "h3", "llm"], row)])
    >>> res = alt_test(data, models="llm", epsilon=0.2, min_items=4)
    >>> res["llm"].to_frame()[["human", "rho_model", "rho_human"]]
      human  rho_model  rho_human
    0    h1       0.75       1.00
    1    h2       0.75       0.75
    2    h3       0.75       0.75
    >>> round(res["llm"].rho, 4), res["llm"].omega, res["llm"].verdict
    (0.75, 0.0, 'fails')
    """
    _check(epsilon, alpha, scoring, min_items, min_humans)
    data = as_rater_data(data, layout=layout)
    roles = coder_roles(data, models)
    where = f"{data.source}: " if data.source else ""
    # the humans with values; models with none are refused
    per_coder = np.bincount(data.coder_index, minlength=data.n_coders)
    humans = roles.humans[per_coder[roles.humans] > 0]
    if len(humans) < min_humans:
        names = ", ".join(map(repr, data.coders[humans].tolist())) or "none"
        raise AccordError(f"{where}the alternative annotator test needs at least {min_humans} humans with values; "
                          f"found {len(humans)} ({names}) besides the models "
                          f"{', '.join(map(repr, roles.model_names))}")
    empty = [c for c in roles.models.tolist() if per_coder[c] == 0]
    if empty:
        raise AccordError(f"{where}model {shown(data.coders[empty[0]])} has no values")
    name = scoring if isinstance(scoring, str) else getattr(scoring, "__name__", type(scoring).__name__)
    if scoring == "auto":
        name = scoring = auto_scoring(data.values, data.is_set_valued)
    # the units x coders matrix of value codes (-1: no value)
    codes = np.full((data.n_units, data.n_coders), -1, dtype=np.int64)
    codes[data.unit_index, data.coder_index] = data.value_index
    human_codes = codes[:, humans]
    n_humans_on = (human_codes >= 0).sum(axis=1)
    names = data.coders.tolist()
    tests = [_test_model(data, names[int(m)], codes[:, int(m)], human_codes, n_humans_on, humans, scoring,
                         epsilon=epsilon, alpha=alpha, min_items=min_items, min_humans=min_humans)
             for m in roles.models]
    if all(t.undefined_reason for t in tests):
        raise AccordError(where + "; ".join(f"model {t.model!r}: {t.undefined_reason}" for t in tests))
    return AltTestResult(tests=tuple(tests), humans=tuple(data.coders[humans].tolist()), epsilon=float(epsilon),
                         alpha=float(alpha), scoring=str(name), min_items=int(min_items), min_humans=int(min_humans),
                         n_units=data.n_units, source=data.source)


def _test_model(data: Annotations, model: Any, model_codes: np.ndarray, human_codes: np.ndarray,
                n_humans_on: np.ndarray, humans: np.ndarray, scoring: Any, *, epsilon: float, alpha: float,
                min_items: int, min_humans: int) -> ModelAltTest:
    items = np.flatnonzero((model_codes >= 0) & (n_humans_on >= 2))
    scorer = make_scorer(scoring, human_codes[items], model_codes[items], data.values)
    names = data.coders[humans].tolist()
    rows: list[tuple[Any, int, float, float, float, float, str | None]] = []
    skipped: list[NotTested] = []
    for j, human in enumerate(names):
        on, w_f, w_h = scorer.indicators(j)
        n = len(on)
        if n < min_items:
            skipped.append(NotTested(human, n, f"{n} items shared with the model and another human, fewer than "
                                               f"min_items={min_items}"))
            continue
        d = w_h.astype(float) - w_f.astype(float)
        t, p, note = one_sided_t_test(d, epsilon)
        rows.append((human, n, float(np.mean(w_f)), float(np.mean(w_h)), t, p, note))
    return _model_result(model, rows, skipped, len(items), alpha=alpha,
                         min_items=min_items, min_humans=min_humans)


def _model_result(model: Any, rows: list[tuple[Any, int, float, float, float, float, str | None]],
                  skipped: list[NotTested], n_items: int, *, alpha: float, min_items: int,
                  min_humans: int) -> ModelAltTest:
    if len(rows) < min_humans:
        counts = ", ".join(f"{s.human!r}: {s.n_items}" for s in skipped)
        reason = (f"only {len(rows)} humans share at least min_items={min_items} items with {model!r} (and "
                  f"another human); the test needs {min_humans} ({counts})")
        return ModelAltTest(model=model, omega=math.nan, rho=math.nan, passes=None, n_items=n_items,
                            comparisons=(), not_tested=tuple(skipped), undefined_reason=reason)
    rejected, adjusted = benjamini_yekutieli([r[5] for r in rows], alpha=alpha)
    comparisons = tuple(
        HumanComparison(human=h, n_items=n, rho_model=rf, rho_human=rh, t_statistic=t, p_value=p,
                        p_adjusted=float(adj), model_wins=bool(rej), note=note)
        for (h, n, rf, rh, t, p, note), rej, adj in zip(rows, rejected, adjusted, strict=True))
    omega = float(np.mean(rejected))
    rho = float(np.mean([c.rho_model for c in comparisons]))
    return ModelAltTest(model=model, omega=omega, rho=rho, passes=bool(omega >= 0.5), n_items=n_items,
                        comparisons=comparisons, not_tested=tuple(skipped))
