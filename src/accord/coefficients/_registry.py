"""The coefficients by name: which apply to a data set, and one computed by its name.

``accord agree --coefficient``, the reliability report and :mod:`accord.engines` name the coefficients
alike; this module holds the names, the rule that says which of them apply to a data set, and the
dispatch from a name to the function, for in-memory :class:`~accord.Annotations` here and for the
reductions of a lazy engine in :mod:`accord.engines` (same rule, same dispatch, other functions).

Examples
--------
>>> import accord
>>> from accord.coefficients._registry import applicable, compute
>>> data = accord.as_annotations([[1, 2, 2], [1, 2, 3]])  # coders x units
>>> applicable(data)
['alpha', 'percent', 'cohen', 'scott', 'fleiss', 'multi-kappa', 'bennett', 'gwet', 'conger', 'brennan-prediger']
>>> round(compute(data, "cohen").kappa, 4)
0.5

``accord agree --coefficient all`` and the agreement report both take what :func:`choose` (or, computing them,
:func:`compute_chosen`) says applies, with the reason for each coefficient left out, and name the
coefficients by :data:`LABELS`.
"""

from __future__ import annotations

import math
import re
from types import SimpleNamespace
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, Message, choice_error, did_you_mean
from accord._shared.names import COEFFICIENTS as _NAMES
from accord._shared.names import coefficient as _name

__all__ = ["ALIASES", "ALL_COEFFICIENTS", "COEFFICIENTS", "KAPPAS", "LABELS", "MEMORY_COEFFICIENTS", "WEIGHTED",
           "applicable", "choose", "compute", "compute_chosen", "kappas_that_apply", "label", "resolve",
           "same_coefficients"]

#: Every coefficient's name that a lazy engine computes too, in the order tables list them.
COEFFICIENTS = ("alpha", "percent", "cohen", "scott", "fleiss", "multi-kappa", "bennett", "gwet")
#: Coefficients computed in memory only: by their authors' names, and for numeric ratings.
MEMORY_COEFFICIENTS = ("conger", "brennan-prediger", "light", "icc", "kendall-w", "ccc")
#: All of them.
ALL_COEFFICIENTS = COEFFICIENTS + MEMORY_COEFFICIENTS
#: The coefficients that take agreement weights (``weights=``): the kappa family's named weights, and alpha and
#: Scott's pi with the distance 1 - w (:func:`accord.alpha`, :func:`accord.scott_pi`).
WEIGHTED = ("alpha", "scott", "cohen", "fleiss", "gwet", "conger", "brennan-prediger", "light")
#: What a reader sees for each name: the rows of ``accord agree``'s table and the cards of the report
#: (:data:`accord._shared.names.COEFFICIENTS`, the one table of names).
LABELS = _NAMES


#: The names people type for a coefficient -> accord's name (JSON keys and results keep accord's names).
#: :func:`resolve` reads a typed name in any case, with spaces, underscores or hyphens and with or without
#: the possessive ("Cohen's kappa").
ALIASES = {
    **{n: "alpha" for n in ("krippendorff", "kripp", "krippendorff-alpha", "krippendorffs-alpha", "k-alpha",
                            "kalpha", "kripp-alpha")},
    **{n: "percent" for n in ("percent-agreement", "agreement", "pa", "raw-agreement", "observed-agreement",
                              "simple-agreement")},
    **{n: "cohen" for n in ("cohen-kappa", "cohens-kappa")},
    **{n: "scott" for n in ("scott-pi", "scotts-pi", "pi")},
    **{n: "fleiss" for n in ("fleiss-kappa", "fleisss-kappa", "fleiss-k")},
    **{n: "multi-kappa" for n in ("multikappa", "multi", "davies-fleiss")},
    **{n: "bennett" for n in ("bennett-s", "bennetts-s", "s")},
    **{n: "gwet" for n in ("ac1", "ac2", "gwet-ac", "gwet-ac1", "gwet-ac2", "gwets-ac1", "gwets-ac2")},
    **{n: "conger" for n in ("conger-kappa", "congers-kappa")},
    **{n: "brennan-prediger" for n in ("brennan", "bp", "brennan-prediger-kappa")},
    **{n: "light" for n in ("light-kappa", "lights-kappa")},
    **{n: "icc" for n in ("intraclass", "intraclass-correlation")},
    **{n: "kendall-w" for n in ("kendall", "w", "kendalls-w", "kendall-s-w")},
    **{n: "ccc" for n in ("lin", "lin-ccc", "lins-ccc", "concordance", "concordance-correlation")},
}
#: The kappas (the chance-corrected coefficients of the kappa family), for ``--coefficient kappa``.
KAPPAS = ("cohen", "fleiss", "conger", "light", "brennan-prediger", "multi-kappa")


def _typed(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower()).replace("'", "").replace("\u2019", "")


def resolve(name: str, *, extra: tuple[str, ...] = ("all",)) -> str:
    """accord's name for a coefficient as a person types it: ``krippendorff``, ``Cohen's kappa``, ``AC1``, ``W``.

    Names of :data:`ALL_COEFFICIENTS` and *extra* are kept (in lower case); ``kappa`` alone stays ``kappa``
    (several coefficients go by it: :func:`kappas_that_apply` says which); anything else is refused with the
    names accepted.

    Examples
    --------
    >>> resolve("krippendorff"), resolve("Cohen's kappa"), resolve("fleiss_kappa"), resolve("AC1"), resolve("W")
    ('alpha', 'cohen', 'fleiss', 'gwet', 'kendall-w')
    >>> resolve("kappa"), resolve("all")
    ('kappa', 'all')
    """
    typed = _typed(str(name))
    if typed in ALL_COEFFICIENTS or typed in extra or typed == "kappa":
        return typed
    if typed in ALIASES:
        return ALIASES[typed]
    hint = did_you_mean(typed, [*ALL_COEFFICIENTS, *extra, *ALIASES, "kappa"])
    listed = (f"one of {', '.join((*ALL_COEFFICIENTS, *extra))}, or a name people use for one (krippendorff, "
              f"kripp, cohen-kappa, fleiss-kappa, kendall, lin, ...)")
    raise AccordError(f"coefficient must be {listed}; got {name!r}{hint}",
                      cli=f"--coefficient must be {listed}; got {name!r}{hint}")


def kappas_that_apply(data: Any, distance: Any = "nominal") -> list[str]:
    """The names of the kappas (:data:`KAPPAS`) that apply to *data*, as :func:`choose` decides.

    Examples
    --------
    >>> import accord
    >>> kappas_that_apply(accord.as_annotations([[1, 2, 2], [1, 2, 3]]))
    ['cohen', 'fleiss', 'conger', 'brennan-prediger', 'multi-kappa']
    """
    names = choose(data, distance)[0]
    return [k for k in KAPPAS if k in names]


def label(name: str, res: Any = None) -> str:
    """The name a reader sees for the coefficient *name* (with its result *res*, Gwet's AC1 or AC2 and Lin's
    CCC or the overall CCC of more coders): :func:`accord._shared.names.coefficient`.

    Examples
    --------
    >>> label("kendall-w"), label("gwet")
    ("Kendall's W", "Gwet's AC")
    """
    return _name(name, res)


def applicable_to(n_coders: int, values_per_unit: np.ndarray) -> list[str]:
    """The coefficients that apply to *n_coders* coders whose units hold *values_per_unit* values each.

    Alpha, percent agreement, Bennett's S and Gwet's AC1/AC2 take any data; Cohen's kappa and Scott's pi
    need exactly two coders; Fleiss' kappa needs the same number (two or more) of values in every unit;
    multi-kappa needs every coder in every unit.
    """
    m = np.asarray(values_per_unit)
    m = m[m > 0]
    complete = len(m) > 0 and m.min() == m.max() and m.min() >= 2
    out = ["alpha", "percent", "bennett", "gwet"]
    if n_coders == 2:
        out += ["cohen", "scott"]
    if complete:
        out += ["fleiss"]
        if m.min() == n_coders:
            out += ["multi-kappa"]
    return [c for c in COEFFICIENTS if c in out]


def compute_with(functions: Any, data: Any, coefficient: str, distance: Any = "nominal") -> Any:
    """The coefficient named *coefficient* of *data*, from the namespace *functions* (``alpha``,
    ``percent_agreement``, ``cohen_kappa``, ``scott_pi``, ``fleiss_kappa``, ``multi_kappa``, ``bennett_s``,
    ``gwet_ac1``, ``gwet_ac2``): accord's in-memory functions or :mod:`accord.engines._coefficients`.

    ``gwet`` is AC1 under the nominal distance and AC2 under any other.
    """
    if coefficient not in COEFFICIENTS:
        raise choice_error("coefficient", coefficient, COEFFICIENTS)
    from accord.distances import get_distance

    dist = get_distance(distance)
    f = functions
    if coefficient == "percent":
        return f.percent_agreement(data)
    if coefficient == "gwet":
        return f.gwet_ac1(data) if dist.name == "nominal" else f.gwet_ac2(data, distance=dist)
    func = {"alpha": f.alpha, "cohen": f.cohen_kappa, "scott": f.scott_pi, "fleiss": f.fleiss_kappa,
            "multi-kappa": f.multi_kappa, "bennett": f.bennett_s}[coefficient]
    return func(data, distance=dist)


def _memory_functions() -> Any:
    from accord.coefficients._alpha import alpha
    from accord.coefficients._fleiss import bennett_s, fleiss_kappa, multi_kappa, scott_pi
    from accord.coefficients._gwet import gwet_ac1, gwet_ac2
    from accord.coefficients._kappa import cohen_kappa, percent_agreement

    return SimpleNamespace(alpha=alpha, percent_agreement=percent_agreement, cohen_kappa=cohen_kappa,
                           scott_pi=scott_pi, fleiss_kappa=fleiss_kappa, multi_kappa=multi_kappa,
                           bennett_s=bennett_s, gwet_ac1=gwet_ac1, gwet_ac2=gwet_ac2)


def _all_functions() -> Any:
    """Every coefficient function by its public name, from the module that defines it."""
    from accord.coefficients._cac import brennan_prediger, conger_kappa, light_kappa
    from accord.coefficients._concordance import kendall_w, lin_ccc
    from accord.coefficients._icc import icc_table

    return SimpleNamespace(**vars(_memory_functions()), brennan_prediger=brennan_prediger, conger_kappa=conger_kappa,
                           light_kappa=light_kappa, icc_table=icc_table, kendall_w=kendall_w, lin_ccc=lin_ccc)


def applicable(data: Any, distance: Any = "nominal") -> list[str]:
    """The coefficients that apply to *data* under *distance* (as ``accord agree --coefficient all`` and the
    agreement report choose them): :func:`choose` without the reasons for the others.

    Parameters
    ----------
    data : Annotations
        The annotations.
    distance : str or Distance
        The level of measurement: the coefficients for numeric ratings (ICC, Kendall's W, Lin's CCC) apply
        under the distances of their scales only.

    Returns
    -------
    list of str
        Names among :data:`ALL_COEFFICIENTS`, in its order.
    """
    return choose(data, distance)[0]


def compute(
    data: Any, coefficient: str, distance: Any = "nominal", *, weights: Any = None, n_categories: int | None = None,
    categories: Any = None, weight_scores: str = "values", icc_form: str | None = None,
) -> Any:
    """One coefficient of *data* by its name (a name of :data:`ALL_COEFFICIENTS`).

    Parameters
    ----------
    data : Annotations
        The annotations.
    coefficient : str
        One of :data:`ALL_COEFFICIENTS`; ``gwet`` is AC1 under the nominal distance, AC2 under any other
        or with weights; ``icc`` is the table of the ten forms.
    distance : str or Distance
        The distance (ignored by percent agreement and the coefficients for numeric ratings).
    weights : str or array-like, optional
        Agreement weights (a name or a q x q matrix) for the coefficients of :data:`WEIGHTED`: the kappas'
        weights, and for alpha and Scott's pi the distance 1 - w.
    n_categories : int, optional
        q for ``bennett`` and ``brennan-prediger``.
    categories : sequence, optional
        The categories in order, for weights over labels.
    weight_scores : {"values", "ranks"}
        What named weights measure distances on (:func:`accord.kappa_weights`): the codes' values (default,
        irrCAC's) or the categories' ranks (R irr's).
    icc_form : str, optional
        ``icc``: the form the table's ``value`` reports, named as :func:`accord.icc` takes it (McGraw & Wong's
        ``ICC(A,1)``... or Shrout & Fleiss' ``ICC(2,1)``...); default ``ICC(A,1)``.

    Returns
    -------
    The coefficient's result (``AlphaResult``, ``KappaResult``, ``AgreementResult``, ``GwetResult``,
    ``ChanceCorrectedResult``, ``LightKappaResult``, ``ICCTable``, ``KendallWResult`` or ``CCCResult``).
    """
    if coefficient not in ALL_COEFFICIENTS:
        raise AccordError(f"coefficient must be one of {', '.join(ALL_COEFFICIENTS)}; got {coefficient!r}")
    if weights is not None and coefficient not in WEIGHTED:
        raise AccordError(f"weights apply to {', '.join(WEIGHTED)}; not to {coefficient}")
    if n_categories is not None and coefficient not in ("bennett", "brennan-prediger"):
        raise AccordError(f"the number of categories applies to bennett and brennan-prediger; not to {coefficient}")
    if icc_form is not None and coefficient != "icc":
        raise AccordError(f"icc_form applies to icc; not to {coefficient}")
    from accord.coefficients._weights import check_weight_scores

    check_weight_scores(weight_scores, weights)
    if coefficient in COEFFICIENTS and weights is None and n_categories is None and categories is None:
        return compute_with(_memory_functions(), data, coefficient, distance)
    accord = _all_functions()  # by their modules: the registry sits below the package that exports them

    kw: dict[str, Any] = {"weights": weights, "categories": categories} if weights is not None else {}
    if weights is not None and weight_scores != "values":
        kw["weight_scores"] = weight_scores
    if coefficient in ("alpha", "scott") and weights is not None:  # the distance 1 - w (their weights=)
        return (accord.alpha if coefficient == "alpha" else accord.scott_pi)(data, **kw)
    if coefficient == "bennett":
        return accord.bennett_s(data, distance=distance, n_categories=n_categories)
    if coefficient == "brennan-prediger":
        if weights is None:
            kw = {"distance": distance, "categories": categories}
        return accord.brennan_prediger(data, n_categories=n_categories, **kw)
    if coefficient in ("cohen", "fleiss", "conger", "light"):
        func = {"cohen": accord.cohen_kappa, "fleiss": accord.fleiss_kappa, "conger": accord.conger_kappa,
                "light": accord.light_kappa}[coefficient]
        return func(data, **kw) if weights is not None else func(data, distance=distance, categories=categories)
    if coefficient == "gwet":
        if weights is not None:
            return accord.gwet_ac2(data, **kw)
        return compute_with(_memory_functions(), data, coefficient, distance)
    if coefficient == "icc":
        return accord.icc_table(data, form=icc_form or "ICC(A,1)")
    if coefficient == "kendall-w":
        return accord.kendall_w(data)
    if coefficient == "ccc":
        return accord.lin_ccc(data)
    return compute_with(_memory_functions(), data, coefficient, distance)


def compute_chosen(
    data: Any, coefficient: str = "all", distance: Any = "nominal", *, weights: Any = None,
    n_categories: int | None = None, categories: Any = None, weight_scores: str = "values",
    icc_form: str | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """The coefficient *coefficient* of *data*, or with ``"all"`` every one that applies, and what was left out.

    ``"all"`` computes what :func:`choose` says applies; one that still cannot be computed on these data
    (its function refuses them) joins the left-out ones with the first line of its message.  Weights go to the
    coefficients of :data:`WEIGHTED` (with *weight_scores*), *n_categories* to ``bennett`` and
    ``brennan-prediger``, *icc_form* to ``icc``; the others take *distance*.  Warnings are the caller's to record.

    Returns
    -------
    (dict, dict)
        name -> result in the order of :data:`ALL_COEFFICIENTS`, and name -> why it was left out (a
        :class:`~accord._shared.errors.Message`, in the Python API's words and the command line's).

    Examples
    --------
    >>> import accord
    >>> results, left_out = compute_chosen(accord.as_annotations([[1, 2, 2], [1, 2, 3], [1, 3, 3]]))
    >>> list(results)[:3]
    ['alpha', 'percent', 'fleiss']
    >>> print(left_out["icc"].cli)
    is for interval or ratio ratings; the distance is nominal (pass --distance interval for numeric ratings)
    """
    if coefficient == "all":
        names, left = choose(data, distance)
    elif coefficient in ALL_COEFFICIENTS:
        names, left = [coefficient], {}
    else:
        raise AccordError(f"coefficient must be 'all' or one of {', '.join(ALL_COEFFICIENTS)}; got {coefficient!r}")
    results: dict[str, Any] = {}
    for name in names:
        kw: dict[str, Any] = {}
        if weights is not None and name in WEIGHTED:
            kw = {"weights": weights, "categories": categories, "weight_scores": weight_scores}
        if icc_form is not None and name == "icc":
            kw["icc_form"] = icc_form
        if n_categories is not None and name in ("bennett", "brennan-prediger"):
            kw["n_categories"] = n_categories
        try:
            results[name] = compute(data, name, distance, **kw)
        except AccordError as exc:
            if coefficient != "all":
                raise
            left[name] = Message(str(exc).splitlines()[0], cli=exc.for_cli().splitlines()[0])
    return results, {c: left[c] for c in ALL_COEFFICIENTS if c in left}


def choose(data: Any, distance: Any = "nominal") -> tuple[list[str], dict[str, str]]:
    """What ``accord agree --coefficient all`` computes for *data*, and what it leaves out and why.

    Returns
    -------
    (list of str, dict)
        The names that apply, in the order of :data:`ALL_COEFFICIENTS`, and name -> the reason for each
        of the others.

    Examples
    --------
    >>> import accord
    >>> names, left_out = choose(accord.as_annotations([[1, 2, 2], [1, 2, 3], [1, 3, 3]]), "interval")
    >>> names[:6]
    ['alpha', 'percent', 'fleiss', 'multi-kappa', 'bennett', 'gwet']
    >>> names[6:]
    ['conger', 'brennan-prediger', 'light', 'icc', 'kendall-w', 'ccc']
    >>> left_out["cohen"]
    'needs exactly two coders; the data have 3'
    """
    from accord.data._annotations import Annotations
    from accord.distances import get_distance

    if not isinstance(data, Annotations):
        raise AccordError(f"data must be accord.Annotations; got {type(data).__name__}")
    n_coders = len(np.unique(data.coder_index))
    per_unit = np.bincount(data.unit_index, minlength=data.n_units)
    names = applicable_to(n_coders, per_unit) + ["conger", "brennan-prediger"]
    left: dict[str, str] = {}
    coded = per_unit[per_unit > 0]
    for name in ("cohen", "scott"):
        if name not in names:
            left[name] = f"needs exactly two coders; the data have {n_coders}"
    if "fleiss" not in names:
        left["fleiss"] = "needs the same number (two or more) of values in every unit"
    if "multi-kappa" not in names:
        left["multi-kappa"] = "needs every coder to rate every unit (Conger's kappa takes missing ratings)"
    complete = int(np.count_nonzero(per_unit == n_coders)) if n_coders else 0
    if n_coders < 3:
        left["light"] = "is for three or more coders (with two it is Cohen's kappa)"
    elif complete == 0:
        left["light"] = "no unit was rated by every coder"
    else:
        names.append("light")
    kind = get_distance(distance).name
    from accord.distances._scalar import number_labels

    numeric = data.values.dtype.kind != "b" and number_labels(data.values) is not None  # "4" is a number too
    needs = {"icc": ("interval", "ratio"), "kendall-w": ("ordinal", "interval", "ratio"), "ccc": ("interval", "ratio")}
    least = {"icc": 2, "kendall-w": 2, "ccc": 3}
    for name, scales in needs.items():
        if not numeric:
            left[name] = "needs numeric ratings; the values are labels"
        elif kind not in scales:
            left[name] = Message(f"is for {' or '.join(scales)} ratings; the distance is {kind} "
                                 f"(pass distance={scales[0]!r} for numeric ratings)",
                                 cli=f"is for {' or '.join(scales)} ratings; the distance is {kind} "
                                     f"(pass --distance {scales[0]} for numeric ratings)")
        elif n_coders < 2 or complete < least[name]:
            left[name] = f"needs {least[name]} or more units rated by every coder; the data have {complete}"
        else:
            names.append(name)
    if len(coded) and not (coded >= 2).any():
        return [], {n: "no unit holds two or more values" for n in ALL_COEFFICIENTS}
    return [c for c in ALL_COEFFICIENTS if c in names], {c: left[c] for c in ALL_COEFFICIENTS if c in left}


def same_coefficients(results: dict[str, Any]) -> list[tuple[str, str]]:
    """The (older name, newer name) pairs of *results* that are one coefficient computed twice.

    On data where every coder rated every unit, multi-kappa is Conger's kappa and Bennett's S is
    Brennan-Prediger (:mod:`accord.coefficients._cac`: they differ only in how missing ratings are averaged); the report
    shows one card for each such pair and the command line says so under its table.

    Examples
    --------
    >>> import accord
    >>> results, _ = compute_chosen(accord.as_annotations([[1, 2, 2], [1, 2, 3], [1, 3, 3]]))
    >>> same_coefficients(results)
    [('multi-kappa', 'conger'), ('bennett', 'brennan-prediger')]
    """
    out = []
    for old, new in (("multi-kappa", "conger"), ("bennett", "brennan-prediger")):
        if old in results and new in results:
            a, b = float(results[old].kappa), float(results[new].kappa)
            if math.isfinite(a) and math.isfinite(b) and abs(a - b) <= 1e-12 * max(1.0, abs(a)):
                out.append((old, new))
    return out
