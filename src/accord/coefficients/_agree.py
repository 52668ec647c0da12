"""Every coefficient asked for, with its intervals and notes: what ``accord agree`` computes, for Python too.

:func:`agree` takes annotations in memory and the choices of ``accord agree`` (a coefficient by any name or
``"all"``, the distance, kappa weights, the number of categories, the ICC form, a bootstrap), decides what
applies, computes it and returns one :class:`Agreement`: the results, what was left out and why, the
intervals (alpha's and Light's kappa's by the bootstrap, the others' analytic ones), the notes a reader
should see and the scale hint.  The command line only reads its options and prints this object;
:func:`accord.engines.agree_file` builds the same object from a file, with a lazy engine where one fits.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, AccordWarning, Message, choice_error, for_cli
from accord._shared.names import coefficient as coefficient_name
from accord._shared.results import Result
from accord.coefficients._registry import (
    WEIGHTED,
    compute_chosen,
    kappas_that_apply,
    resolve,
)
from accord.distances._ordered import order_items, ordered_distance, parse_order

__all__ = ["Agreement", "agree", "check_agree_options", "check_icc_form", "interval_of", "refuse_kappa",
           "scale_categories", "with_intervals"]


@dataclass(frozen=True)
class Agreement(Result):
    """The coefficients of one data set as ``accord agree`` computes them (:func:`agree`).

    Attributes
    ----------
    coefficient : str
        What was asked: ``"all"`` or one of :data:`~accord.coefficients.ALL_COEFFICIENTS`.
    distance : Distance
        The distance, resolved once (with its order where one was given).
    results : dict
        Name -> result, in the order of :data:`~accord.coefficients.ALL_COEFFICIENTS`.
    left_out : dict
        With ``"all"``: name -> why it does not apply (a :class:`~accord.errors.Message`).
    notes : tuple
        What a reader should see beside the numbers: the warnings raised, what the weights apply to, the
        number of categories observed, a bootstrap that could not be drawn.
    confidence : float
        The level of every interval.
    bootstrap, seed
        The bootstrap's resamples (0: none) and seed.
    intervals : dict
        Name -> ``(low, high)`` (or None): the bootstrap's for alpha and Light's kappa, else the analytic one.
    scale_hint : ScaleHint or None
        Numbers read as nominal categories with no distance chosen (:func:`accord.coefficients.scale_hint`).
    diagnostics : dict or None
        ``units``, ``pairs`` and (three or more coders) ``left_out`` frames.
    """

    coefficient: str
    distance: Any
    results: dict[str, Any]
    left_out: dict[str, Any]
    notes: tuple[Any, ...]
    confidence: float
    bootstrap: int
    seed: int | None
    intervals: dict[str, tuple[float, float] | None]
    bootstrapped: tuple[str, ...] = ()
    scale_hint: Any = None
    diagnostics: dict[str, Any] | None = None
    n_coders: int = 0
    n_units: int = 0
    n_entries: int = 0
    weights: str | None = None
    weight_scores: str = "values"
    engine: str = "memory"
    memory_limit: str | None = None
    imported: Any = None
    read_as: Any = None
    sampled: bool = False
    source: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``accord agree --json`` prints: one coefficient's object, or with ``all`` one per name."""
        single = len(self.results) == 1 and self.coefficient != "all"
        if single:
            name, res = next(iter(self.results.items()))
            out: dict[str, Any] = with_intervals(name, res, self.confidence)
        else:
            out = {k: with_intervals(k, v, self.confidence) for k, v in self.results.items()}
        if self.coefficient == "all":
            out["left_out"] = dict(self.left_out)
        if "light" in self.bootstrapped:
            light = out if single else out["light"]
            light.update(confidence_interval=list(self.intervals["light"]), confidence_level=self.confidence,
                         bootstrap_resamples=self.bootstrap, bootstrap_seed=self.seed)
        if "alpha" in self.bootstrapped:
            out["confidence_interval"] = list(self.intervals["alpha"])
            out["confidence_level"] = self.confidence
            out["bootstrap_resamples"] = self.bootstrap
            out["bootstrap_seed"] = self.seed
        if self.diagnostics is not None:
            out["diagnostics"] = {k: v.to_dict("records") for k, v in self.diagnostics.items()}
        if self.engine != "memory":
            out["engine"] = self.engine
            if self.memory_limit:
                out["memory_limit"] = self.memory_limit
        if self.imported is not None:
            out["import"] = self.imported.to_dict()
        elif self.read_as is not None:
            out["read_as"] = self.read_as.to_dict()
        if getattr(self.distance, "order", None) is not None:
            out["order"] = list(self.distance.order)
        if self.scale_hint is not None:
            out["note"] = "; ".join(n for n in (out.get("note"), self.scale_hint.message.cli) if n)
            out["scale_hint"] = self.scale_hint.to_dict()
        return out


def agree(
    data: Any,
    coefficient: str = "alpha",
    distance: Any = None,
    *,
    order: str | Sequence[Any] | None = None,
    weights: str | None = None,
    weight_scores: str = "values",
    categories: Sequence[Any] | None = None,
    n_categories: int | str | Sequence[Any] | None = None,
    icc_form: str | None = None,
    bootstrap: int = 0,
    confidence: float = 0.95,
    rng: int | None = None,
    diagnostics: bool = False,
    progress: bool = False,
    default_distance: str = "nominal",
    source: str | None = None,
) -> Agreement:
    """The coefficient *coefficient* of *data* (or with ``"all"`` every one that applies), as ``accord agree``.

    Parameters
    ----------
    data : Annotations
        The annotations.
    coefficient : str
        A name of :data:`~accord.coefficients.ALL_COEFFICIENTS` or one people use (:func:`resolve`), or
        ``"all"``; ``"kappa"`` is refused with the kappas that apply to *data*.
    distance : str or Distance, optional
        The distance (default *default_distance*); given, no scale hint is looked for.
    order : str or sequence, optional
        The labels from lowest to highest (comma-separated text, or a sequence): the order of the
        ordinal, interval and ratio distances, or with *weights* the categories' order.
    weights, weight_scores, categories, icc_form
        As :func:`compute_chosen` takes them.
    n_categories : int, str or sequence, optional
        q for ``bennett`` and ``brennan-prediger``: a number, or the categories of the scale (a sequence,
        or comma-separated text), every value of the data among them.
    bootstrap : int
        Resamples of units for the intervals of alpha and Light's kappa (0: none), seeded by *rng*.
    confidence : float
        Level of every interval.
    diagnostics : bool
        Also the units with most disagreement, the coder pairs, and alpha with each coder left out.
    progress : bool
        Show the bootstrap's progress on stderr.
    default_distance : str
        The distance when none is given (nominal; the one that fits an export's values).
    source : str, optional
        The input's name in messages (default the data's own).

    Returns
    -------
    Agreement

    Examples
    --------
    >>> import accord
    >>> from accord.coefficients import agree
    >>> res = agree(accord.as_annotations([[1, 2, 2, 3], [1, 2, 3, 3]]), "all")
    >>> round(res.results["cohen"].kappa, 4), res.left_out["light"]
    (0.6364, "is for three or more coders (with two it is Cohen's kappa)")
    """
    coefficient = check_agree_options(coefficient, weights=weights, weight_scores=weight_scores, bootstrap=bootstrap)
    scale_chosen = distance is not None or weights is not None  # nominal by default says when values look like a scale
    dist, categories = _distance_and_order(data, distance or default_distance, order, weights=weights,
                                           categories=categories, source=source or data.source)
    if coefficient == "kappa":
        refuse_kappa(kappas_that_apply(data, dist))
    q = scale_categories(n_categories, data)
    results, left_out, notes = compute_named(data, coefficient, dist, weights=weights, n_categories=q,
                                             categories=categories, weight_scores=weight_scores, icc_form=icc_form)
    intervals, bootstrapped = bootstrap_intervals(results, confidence=confidence, bootstrap=bootstrap, rng=rng,
                                                  progress=progress, notes=notes)
    hint = None if scale_chosen else _hint(results, data, dist)
    diag = unit_diagnostics(data, dist) if diagnostics else None
    return Agreement(coefficient=coefficient, distance=dist, results=results, left_out=left_out, notes=tuple(notes),
                     confidence=confidence, bootstrap=bootstrap, seed=rng, intervals=intervals,
                     bootstrapped=bootstrapped, scale_hint=hint, diagnostics=diag, n_coders=data.n_coders,
                     n_units=data.n_units, n_entries=data.n_entries, weights=weights, weight_scores=weight_scores,
                     read_as=getattr(data, "read_as", None), source=source or data.source)


def check_agree_options(coefficient: str, *, weights: Any, weight_scores: str, bootstrap: int) -> str:
    """*coefficient* resolved (:func:`resolve`, ``kappa`` kept to be refused with the kappas that apply), the
    weights' scores and the bootstrap checked."""
    coefficient = resolve(coefficient)
    if weight_scores not in ("values", "ranks"):
        raise choice_error("weight_scores", weight_scores, ("values", "ranks"), flag="--weight-scores")
    if weight_scores != "values" and weights is None:
        raise AccordError(f"weight_scores={weight_scores!r} says how named weights space the categories: pass it "
                          "with weights= (linear, quadratic...)",
                          cli=f"--weight-scores {weight_scores} says how named weights space the categories: "
                          "pass it with --weights (linear, quadratic...)")
    if bootstrap < 0:
        raise AccordError(f"bootstrap must be >= 0; got {bootstrap}", cli=f"--bootstrap must be >= 0; got {bootstrap}")
    return coefficient


def _distance_and_order(data: Any, distance: Any, order: Any, *, weights: Any, categories: Any,
                        source: str | None) -> tuple[Any, Any]:
    """The distance, resolved once (with *order* where it is the distance's), and the categories' order."""
    from accord.distances import get_distance

    if weights is not None and order is not None and categories is None:
        # order with weights: the categories' order for the kappa weights, not a distance's
        items = parse_order(order) if isinstance(order, str) else list(order)
        return get_distance(distance), order_items(items or [], data.values)
    # text labels under an ordered distance need an order: refused before anything is computed
    return ordered_distance(distance, order, data.values, source=source, set_valued=data.is_set_valued), categories


def refuse_kappa(names: list[str]) -> None:
    """Refuse ``coefficient="kappa"``, naming the kappas that apply to these data (names to type)."""
    if not names:
        raise AccordError("coefficient='kappa': no kappa applies to these data; try coefficient='all'",
                          cli="--coefficient kappa: no kappa applies to these data; try --coefficient all")
    listed = "; ".join(f"{n}: {coefficient_name(n)}" for n in names)
    which = "kappa" if len(names) == 1 else "kappas"
    raise AccordError(f"coefficient='kappa' names no one coefficient; the {which} that apply to these data: "
                      f"{listed}. Pass one by its name (coefficient={names[0]!r}), or coefficient='all' for every "
                      "coefficient that applies",
                      cli=f"--coefficient kappa names no one coefficient; the {which} that apply to these data: "
                      f"{listed}. Pass one by its name (--coefficient {names[0]}), or --coefficient all for every "
                      "coefficient that applies")


def compute_named(
    data: Any, coefficient: str, distance: Any, *, weights: str | None, n_categories: int | None,
    categories: list[Any] | None, weight_scores: str = "values", icc_form: str | None = None,
) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The results, what ``all`` left out (name -> why) and the notes: the warnings raised, what the weights
    apply to, and the number of categories observed where none was given."""
    if weights is not None and coefficient != "all" and coefficient not in WEIGHTED:
        raise AccordError(f"weights apply to {', '.join(WEIGHTED)}; not to coefficient={coefficient!r}",
                          cli=f"--weights apply to {', '.join(WEIGHTED)}; not to --coefficient {coefficient}")
    if icc_form is not None:
        icc_form = check_icc_form(icc_form, coefficient)
    if n_categories is not None and coefficient not in ("all", "bennett", "brennan-prediger"):
        raise AccordError("n_categories is the number of categories of bennett and brennan-prediger; not of "
                          f"coefficient={coefficient!r}",
                          cli="--categories is the number of categories (or the categories) of bennett and "
                          f"brennan-prediger; not of --coefficient {coefficient}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        # one rule and one dispatch for this command and the agreement report (compute_chosen)
        results, left = compute_chosen(data, coefficient, distance, weights=weights, n_categories=n_categories,
                                       categories=categories, weight_scores=weight_scores, icc_form=icc_form)
    notes: list[Any] = [Message(str(w.message), cli=for_cli(w.message)) for w in caught
                        if issubclass(w.category, AccordWarning)]
    if weights is not None and coefficient == "all":
        plain = [n for n in results if n not in WEIGHTED]
        if plain:
            weighted = ", ".join(coefficient_name(n, results[n]) for n in results if n in WEIGHTED)
            rest = f"{', '.join(coefficient_name(n, results[n]) for n in plain)} use the distance {distance.name}"
            notes.append(Message(f"weights={weights!r} apply to {weighted}; {rest}",
                                 cli=f"--weights {weights} apply to {weighted}; {rest}"))
    for name in ("bennett", "brennan-prediger"):
        res = results.get(name)
        if res is not None and n_categories is None:
            q = getattr(res, "n_categories", None)
            if q is None:
                q = len({v for v in data.values[data.value_index].tolist()})
            notes.append(Message(f"{coefficient_name(name)}: q = {q}, the categories observed (pass n_categories= "
                                 "for a scale with more)",
                                 cli=f"{coefficient_name(name)}: q = {q}, the categories observed (pass --categories "
                                 "N for a scale with more)"))
    return results, left, notes


def scale_categories(categories: int | str | Sequence[Any] | None, data: Any) -> int | None:
    """The number of categories of the scale: *categories* itself, or the number of the categories named
    (a sequence, or comma-separated text), every value of the data among them: q for bennett and
    brennan-prediger.

    Examples
    --------
    >>> import accord
    >>> d = accord.as_annotations([["a", "b"], ["a", "a"]])
    >>> scale_categories("5", d), scale_categories("a, b, c", d), scale_categories(4, d)
    (5, 3, 4)
    """
    if categories is None:
        return None
    if isinstance(categories, (int, np.integer)) and not isinstance(categories, bool):
        return int(categories)
    text = categories if isinstance(categories, str) else ",".join(map(str, categories))
    if isinstance(categories, str) and categories.strip().isdigit():
        return int(categories.strip())
    items = order_items((parse_order(categories) if isinstance(categories, str) else list(categories)) or [],
                        data.values)

    def key(x: Any) -> Any:  # 2 and 2.0 are one category
        return float(x) if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) else str(x)

    if not items or len({key(x) for x in items}) != len(items):
        raise AccordError(f"n_categories takes a number or the categories once each; got {text!r}",
                          cli=f"--categories takes a number or the categories once each, comma-separated; got "
                          f"{text!r}")
    named = {key(x) for x in items}
    missing = [v for v in data.values[np.unique(data.value_index)].tolist() if key(v) not in named]
    if missing:
        shown = f"{missing[0]:g}" if isinstance(missing[0], float) else str(missing[0])
        where = f"the data hold the value {shown}, which is not among the categories {', '.join(map(str, items))}"
        raise AccordError(f"n_categories: {where}", cli=f"--categories: {where}")
    return len(items)


def check_icc_form(text: str, coefficient: str) -> str:
    """*text*, the ICC form reported as the ICC's value, as :func:`accord.icc` takes it (McGraw & Wong's or
    Shrout & Fleiss' name), for ``coefficient`` ``icc`` or ``all``.

    Examples
    --------
    >>> check_icc_form("icc(3,1)", "icc"), check_icc_form("ICC(C,K)", "all"), check_icc_form("ICC2", "icc")
    ('ICC(3,1)', 'ICC(C,k)', 'ICC(2,1)')
    """
    from accord.coefficients._icc import _SF, ICC_FORMS, _resolve

    if coefficient not in ("icc", "all"):
        raise AccordError(f"icc_form chooses the form of the ICC (coefficient='icc' or 'all'); not of "
                          f"coefficient={coefficient!r}",
                          cli=f"--icc-form chooses the form of the ICC (--coefficient icc or all); not of "
                          f"--coefficient {coefficient}")
    try:
        mw, model = _resolve(text, None)
    except AccordError:
        names = ", ".join(dict.fromkeys([f[0] for f in ICC_FORMS[:6]] + [f[4] for f in ICC_FORMS if f[4]]))
        raise AccordError(f"icc_form must be one of {names} (McGraw & Wong's or Shrout & Fleiss' names); got {text!r}",
                          cli=f"--icc-form must be one of {names} (McGraw & Wong's or Shrout & Fleiss' names); got "
                          f"{text!r}") from None
    if text.replace(" ", "").upper() in _SF:  # Shrout & Fleiss' name (or psych's) as they write it
        return next(f[4] for f in ICC_FORMS if f[0] == mw and f[1] == model and f[4])
    return mw


def interval_of(res: Any, confidence: float) -> tuple[float, float] | None:
    """The analytic interval of a result where it has one (not alpha's or Light's bootstrap), else None."""
    if (not hasattr(res, "confidence_interval") or hasattr(res, "bootstrap_distribution")
            or hasattr(res, "forms")):
        return None
    try:
        lo, hi = res.confidence_interval(confidence)
    except (AccordError, TypeError):
        return None
    return float(lo), float(hi)


def with_intervals(name: str, res: Any, confidence: float) -> dict[str, Any]:
    """``res.to_dict()`` with the analytic interval(s) at *confidence*.

    Every coefficient's object carries ``coefficient`` and ``value`` (:class:`accord.results.Coefficient`);
    the ICC's forms each carry their own, and its ``value`` is the form asked for (``form``).
    """
    out = res.to_dict()
    if name == "icc":
        for form, d in zip(res.forms, out["forms"], strict=True):
            d["confidence_interval"] = list(form.confidence_interval(confidence)) if not math.isnan(form.icc) else None
        out["confidence_level"] = confidence
    elif hasattr(res, "confidence_interval") and not hasattr(res, "bootstrap_distribution"):
        # the analytic interval the Python result gives (Cohen's kappa, Gwet's AC1/AC2...), null where it has none
        iv = interval_of(res, confidence)
        out["confidence_interval"] = list(iv) if iv else None
        out["confidence_level"] = confidence
    return out


def bootstrap_intervals(results: dict[str, Any], *, confidence: float, bootstrap: int, rng: int | None,
                        progress: bool, notes: list[Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Each result's interval: the analytic one, or with *bootstrap* alpha's and Light's kappa's by resampling
    units (a Light's kappa with no interval adds a note); and the names whose interval is a bootstrap's."""
    intervals = {name: interval_of(res, confidence) for name, res in results.items()}
    drawn: list[str] = []
    if bootstrap and "alpha" in results and not math.isnan(results["alpha"].alpha):
        from accord._shared.progress import Progress

        with Progress(enabled=progress, total=1, label="accord agree") as prog:
            with prog.step(f"bootstrap of alpha: {bootstrap} resamples of units"):
                intervals["alpha"] = results["alpha"].confidence_interval(confidence, n_resamples=bootstrap, rng=rng)
        drawn.append("alpha")
    if bootstrap and "light" in results and not math.isnan(results["light"].kappa):
        # Light's kappa has no variance of its own: the same bootstrap of units as alpha's
        try:
            intervals["light"] = results["light"].confidence_interval(confidence, n_resamples=bootstrap, rng=rng)
            drawn.append("light")
        except AccordError as exc:
            notes.append(Message(f"Light's kappa: no bootstrap interval ({exc})",
                                 cli=f"Light's kappa: no bootstrap interval ({exc.for_cli()})"))
    return intervals, tuple(drawn)


def _hint(results: dict[str, Any], source: Any, distance: Any) -> Any:
    """The scale hint of numbers read as nominal categories (alpha's counts used again where alpha was computed)."""
    from accord.coefficients._alpha import scale_hint

    alpha = results.get("alpha")
    return scale_hint(alpha if getattr(alpha, "_counts", None) is not None else source, distance=distance)


def unit_diagnostics(data: Any, distance: Any) -> dict[str, Any]:
    """The units with most disagreement (ten), the coder pairs, and with three or more coders alpha with each
    coder left out, as frames."""
    from accord.coefficients._diagnostics import coder_left_out, pairwise_agreement, unit_disagreement

    diag = {"units": unit_disagreement(data, distance=distance).to_frame().head(10),
            "pairs": pairwise_agreement(data, distance=distance).to_frame()}
    if data.n_coders >= 3:
        diag["left_out"] = coder_left_out(data, distance=distance).to_frame()
    return diag
