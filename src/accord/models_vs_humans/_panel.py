"""What a lead reads beside the alternative annotator test: agreement among the humans, agreement with each
model added, and the items where a model departs from a (near-)unanimous human panel.

Agreement is Krippendorff's alpha (:func:`accord.alpha`, the pair engine); the panel's values are counted
by the engine's per-unit counts (:func:`accord.coefficients._pairs.count_values`); nothing here counts agreement again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError
from accord._shared.results import Result
from accord.coefficients._alpha import AlphaResult
from accord.data._annotations import Annotations, Layout
from accord.distances import Distance, DistanceFunction, get_distance
from accord.models_vs_humans._roles import ModelsArg, as_rater_data, coder_roles

__all__ = ["PanelAgreement", "PanelDepartures", "panel_agreement", "panel_departures"]


@dataclass(frozen=True)
class PanelAgreement(Result):
    """Alpha among the humans, and with each model added to them as one more coder.

    Attributes
    ----------
    humans : AlphaResult
        Alpha of the humans alone.
    with_models : tuple of AlphaResult
        Alpha of the humans and one model, per model (in the order of ``models``).
    models : tuple
        The models.
    n_humans : int
    distance : str
    """

    humans: AlphaResult
    with_models: tuple[AlphaResult, ...]
    models: tuple[Any, ...]
    n_humans: int
    distance: str

    def to_frame(self) -> pd.DataFrame:
        """One row for the humans, one per model added: coders, alpha, change from the humans', pairable units."""
        base = self.humans.alpha
        rows = [{"coders": "humans", "alpha": base, "change": 0.0, "n_pairable_units": self.humans.n_pairable_units}]
        for model, res in zip(self.models, self.with_models, strict=True):
            rows.append({"coders": f"humans + {model}", "alpha": res.alpha, "change": res.alpha - base,
                         "n_pairable_units": res.n_pairable_units})
        return pd.DataFrame(rows, columns=["coders", "alpha", "change", "n_pairable_units"])


def panel_agreement(
    data: Annotations | Any,
    *,
    models: ModelsArg,
    distance: str | Distance | DistanceFunction = "nominal",
    layout: Layout = "coders-by-units",
) -> PanelAgreement:
    """Krippendorff's alpha among the humans, and with each model added as one more coder.

    Adding a model to alpha does not say whether it may replace the humans (that is :func:`alt_test`); it
    says how the model moves the agreement a reader of the data would see: a model that agrees with the
    panel raises alpha, one that departs from it lowers it.

    Parameters
    ----------
    data : Annotations or array-like
    models : str or sequence, keyword-only
        The model coders (names, comma-separated, or patterns); the others are humans.
    distance : str, Distance or callable, keyword-only
        The distance of alpha (``"nominal"`` for labels, ``"interval"`` or ``"ordinal"`` for ratings,
        ``"masi-2006"`` or ``"jaccard"`` for sets).
    layout : {"coders-by-units", "units-by-coders"}, keyword-only

    Returns
    -------
    PanelAgreement

    Examples
    --------
    >>> data = Annotations.from_records(
    ...     [(i, c, v) for i, row in enumerate(["aaab", "bbbb", "abaa", "ccac"])
    ...      for c, v in zip(["h1", "h2", "h3", "llm"], row)])
    >>> panel_agreement(data, models="llm").to_frame().round(4)
             coders   alpha  change  n_pairable_units
    0        humans  0.5000  0.0000                 4
    1  humans + llm  0.4444 -0.0556                 4
    """
    from accord.coefficients._alpha import alpha

    data = as_rater_data(data, layout=layout)
    roles = coder_roles(data, models)
    dist = get_distance(distance)
    is_human = np.zeros(data.n_coders, dtype=bool)
    is_human[roles.humans] = True
    humans = alpha(data.select_coders(is_human), distance=dist)
    with_models = []
    for m in roles.models.tolist():
        keep = is_human.copy()
        keep[m] = True
        with_models.append(alpha(data.select_coders(keep), distance=dist))
    return PanelAgreement(humans=humans, with_models=tuple(with_models), models=tuple(roles.model_names),
                          n_humans=len(roles.humans), distance=dist.name)


@dataclass(frozen=True)
class PanelDepartures(Result):
    """The items where a model departs from a unanimous or near-unanimous panel of humans: the list to adjudicate.

    Attributes
    ----------
    models : tuple
    max_dissent, min_panel : int
        The panel of an item is near-unanimous when at most *max_dissent* of its at least *min_panel* humans
        depart from the value the others (a strict majority) share.
    n_panel_items : dict
        Per model, the items it annotated whose panel is near-unanimous (the items it could depart on).
    n_departures : dict
        Per model, the items of those where its value differs from the panel's.
    """

    models: tuple[Any, ...]
    max_dissent: int
    min_panel: int
    n_panel_items: dict[Any, int]
    n_departures: dict[Any, int]
    _rows: dict[str, np.ndarray] = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per (model, item) departure: model, unit, model_value, panel_value, n_agree, n_panel,
        unanimous; by model, then unanimous panels first, then the larger panels."""
        return pd.DataFrame(self._rows, columns=["model", "unit", "model_value", "panel_value", "n_agree",
                                                 "n_panel", "unanimous"])

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        from accord._shared.results import jsonable

        out["departures"] = jsonable(self.to_frame().to_dict("records"))
        return out


def panel_departures(
    data: Annotations | Any,
    *,
    models: ModelsArg,
    max_dissent: int = 1,
    min_panel: int = 2,
    layout: Layout = "coders-by-units",
) -> PanelDepartures:
    """The items where a model's value differs from the value a unanimous or near-unanimous human panel shares.

    These are the items to adjudicate first: either the model is wrong where the humans are sure, or the
    humans share a blind spot.

    Parameters
    ----------
    data : Annotations or array-like
    models : str or sequence, keyword-only
        The model coders; the others are humans.
    max_dissent : int, keyword-only
        How many humans of an item may depart from the shared value for the panel to count as near-unanimous
        (0: unanimous panels only).  The shared value must also hold a strict majority of the panel.
    min_panel : int, keyword-only
        The least number of humans on an item for it to have a panel (default 2).
    layout : {"coders-by-units", "units-by-coders"}, keyword-only

    Returns
    -------
    PanelDepartures

    Examples
    --------
    >>> data = Annotations.from_records(
    ...     [(i, c, v) for i, row in enumerate(["aaab", "bbbb", "abaa", "ccac"])
    ...      for c, v in zip(["h1", "h2", "h3", "llm"], row)])
    >>> panel_departures(data, models="llm").to_frame()
      model unit model_value panel_value n_agree n_panel unanimous
    0   llm    0           b           a       3       3      True
    """
    from accord.coefficients._pairs import count_values

    for name, x, low in (("max_dissent", max_dissent, 0), ("min_panel", min_panel, 2)):
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < low:
            raise AccordError(f"{name} must be an integer >= {low}; got {x!r}")
    data = as_rater_data(data, layout=layout)
    roles = coder_roles(data, models)
    is_human = np.zeros(data.n_coders, dtype=bool)
    is_human[roles.humans] = True
    uc = count_values(data.select_coders(is_human), min_values=1)
    # the modal value of each unit's panel and its count (a strict majority makes it unique)
    order = np.lexsort((-uc.count, uc.unit))
    first = np.ones(len(order), dtype=bool)
    first[1:] = uc.unit[order][1:] != uc.unit[order][:-1]
    top = order[first]
    unit_row = uc.unit[top]
    n_panel = uc.m[unit_row].astype(np.int64)
    n_agree = uc.count[top].astype(np.int64)
    ok = (n_panel >= min_panel) & (n_panel - n_agree <= max_dissent) & (2 * n_agree > n_panel)
    units = uc.unit_ids[unit_row[ok]]
    panel_value = uc.value[top][ok]
    n_panel, n_agree = n_panel[ok], n_agree[ok]
    panel_of = np.full(data.n_units, -1, dtype=np.int64)
    panel_of[units] = np.arange(len(units))
    cols: dict[str, list[Any]] = {k: [] for k in ("model", "unit", "model_value", "panel_value", "n_agree",
                                                  "n_panel", "unanimous")}
    n_items: dict[Any, int] = {}
    n_dep: dict[Any, int] = {}
    names = data.coders.tolist()
    for m in roles.models.tolist():
        mine = data.coder_index == m
        u, v = data.unit_index[mine], data.value_index[mine]
        p = panel_of[u]
        has = p >= 0
        u, v, p = u[has], v[has], p[has]
        off = v != panel_value[p]
        n_items[names[m]] = int(has.sum())
        n_dep[names[m]] = int(off.sum())
        u, v, p = u[off], v[off], p[off]
        cols["model"] += [names[m]] * len(u)
        cols["unit"] += data.units[u].tolist()
        cols["model_value"] += data.values[v].tolist()
        cols["panel_value"] += data.values[panel_value[p]].tolist()
        cols["n_agree"] += n_agree[p].tolist()
        cols["n_panel"] += n_panel[p].tolist()
        cols["unanimous"] += (n_agree[p] == n_panel[p]).tolist()
    frame = pd.DataFrame(cols)
    if len(frame):
        rank = {m: k for k, m in enumerate(roles.model_names)}
        frame["_model"] = frame["model"].map(rank)
        frame["_dissent"] = frame["n_panel"] - frame["n_agree"]
        frame = frame.sort_values(["_model", "_dissent", "n_panel"], ascending=[True, True, False], kind="stable")
        frame = frame.drop(columns=["_model", "_dissent"])
    rows = {k: _column(frame[k].tolist()) for k in cols}
    return PanelDepartures(models=tuple(roles.model_names), max_dissent=int(max_dissent), min_panel=int(min_panel),
                           n_panel_items=n_items, n_departures=n_dep, _rows=rows)


def _column(items: list[Any]) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out
