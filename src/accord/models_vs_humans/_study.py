"""The whole study of ``accord alt-test``: the test, the panel's agreement, the departures, the guidance.

:func:`alt_test_study` runs, on one set of annotations, what a lead reads to decide whether a model may
replace the human annotators: the alternative annotator test (:func:`alt_test`), alpha among the humans and
with each model added under the distance that fits the score (:func:`panel_agreement`), the items where a
model departs from a (near-)unanimous panel (:func:`panel_departures`), and, when asked, the paper's
simulation for choosing epsilon and the number of items (:func:`alt_test_guidance`).
:func:`alt_test_file` reads the annotations first, as ``accord agree`` reads them in memory.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, AccordWarning, Message, for_cli
from accord._shared.results import Result

__all__ = ["PANEL_DISTANCE", "AltTestStudy", "alt_test_file", "alt_test_study"]

#: the distance of the panel's alpha that fits each score
PANEL_DISTANCE = {"accuracy": "nominal", "neg_rmse": "interval", "rank": "ordinal", "jaccard": "jaccard"}


@dataclass(frozen=True)
class AltTestStudy(Result):
    """What :func:`alt_test_study` gives: the test, the panel's agreement and departures, the notes, the guidance.

    Attributes
    ----------
    alt_test : AltTestResult
    panel_agreement : PanelAgreement
    panel_departures : PanelDepartures
    notes : tuple of Message
        The warnings the panel's alpha raised (an undefined alpha...), once each.
    guidance : AltTestGuidance or None
    imported : ImportResult or None
        The import, when the annotations were an annotation tool's export (:func:`alt_test_file`).
    read_as : ReadAs or None
        What was read from a plain table (:func:`alt_test_file`).
    """

    alt_test: Any
    panel_agreement: Any
    panel_departures: Any
    notes: tuple[Any, ...] = ()
    guidance: Any = None
    imported: Any = None
    read_as: Any = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``accord alt-test --json``."""
        out: dict[str, Any] = {"alt_test": self.alt_test.to_dict(),
                               "panel_agreement": self.panel_agreement.to_frame().to_dict("records"),
                               "panel_departures": self.panel_departures.to_dict(), "notes": list(self.notes)}
        if self.guidance is not None:
            out["guidance"] = self.guidance.to_dict()
        if self.imported is not None:
            out["import"] = self.imported.to_dict()
        elif self.read_as is not None:
            out["read_as"] = self.read_as.to_dict()
        return out


def alt_test_study(
    data: Any,
    *,
    models: Any,
    epsilon: float = 0.2,
    alpha: float = 0.05,
    scoring: str = "auto",
    min_items: int = 30,
    min_humans: int = 3,
    distance: Any = None,
    max_dissent: int = 1,
    guidance: bool = False,
    noise_humans: float = 0.3,
    noise_model: float = 0.3,
    sizes: str | Sequence[int] = (30, 40, 50, 60, 70, 80, 90, 100, 120, 140, 160, 180, 200),
    n_datasets: int = 20,
    n_boots: int = 10,
    rng: int | None = None,
) -> AltTestStudy:
    """The alternative annotator test of *data*'s models, the panel's agreement and departures, and the guidance.

    Parameters
    ----------
    data : Annotations
        The humans and the models as coders.
    models, epsilon, alpha, scoring, min_items, min_humans
        As :func:`alt_test` takes them.
    distance : str or Distance, optional
        Of the panel's alpha (default: nominal for accuracy, interval for neg_rmse, ordinal for rank, jaccard
        for label sets).
    max_dissent : int
        Humans who may disagree with the panel's value for it to count as near-unanimous (0: unanimous only).
    guidance : bool
        Also run the paper's simulation (categorical labels only) for this many labels and humans, with
        *noise_humans*, *noise_model*, *sizes* (numbers of items, or comma-separated text), *n_datasets*,
        *n_boots* and seed *rng*.

    Returns
    -------
    AltTestStudy
    """
    from accord.models_vs_humans._alt_test import _check, alt_test
    from accord.models_vs_humans._panel import panel_agreement, panel_departures

    _check(epsilon, alpha, scoring, min_items, min_humans)
    result = alt_test(data, models=models, epsilon=epsilon, alpha=alpha, scoring=scoring, min_items=min_items,
                      min_humans=min_humans)
    dist = distance or PANEL_DISTANCE.get(result.scoring, "nominal")
    if dist == "jaccard" and not data.is_set_valued:
        dist = "nominal"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        agreement = panel_agreement(data, models=models, distance=dist)
    notes = tuple(dict.fromkeys(Message(str(w.message), cli=for_cli(w.message)) for w in caught
                                if issubclass(w.category, AccordWarning)))
    departures = panel_departures(data, models=models, max_dissent=max_dissent)
    sim = None
    if guidance:
        sim = _guidance(data, result, alpha=alpha, epsilon=epsilon, noise_humans=noise_humans,
                        noise_model=noise_model, sizes=sizes, n_datasets=n_datasets, n_boots=n_boots, rng=rng)
    return AltTestStudy(alt_test=result, panel_agreement=agreement, panel_departures=departures, notes=notes,
                        guidance=sim)


def _guidance(data: Any, result: Any, *, alpha: float, epsilon: float, noise_humans: float, noise_model: float,
              sizes: str | Sequence[int], n_datasets: int, n_boots: int, rng: int | None) -> Any:
    """The paper's simulation for these labels and humans (appendix C)."""
    from accord.models_vs_humans._guidance import alt_test_guidance

    if result.scoring != "accuracy":
        raise AccordError(f"guidance simulates categorical labels (the paper's appendix C); this test scores with "
                          f"{result.scoring}",
                          cli=f"--guidance simulates categorical labels (the paper's appendix C); this test scores "
                          f"with {result.scoring}")
    if isinstance(sizes, str):
        try:
            sizes = [int(x) for x in sizes.split(",") if x.strip()]
        except ValueError:
            raise AccordError(f"sizes must be comma-separated numbers of items; got {sizes!r}",
                              cli=f"--sim-sizes must be comma-separated numbers of items; got {sizes!r}") from None
    sizes = list(sizes)
    return alt_test_guidance(n_categories=max(len(data.values), 2), n_humans=max(len(result.humans), 2),
                             noise_humans=noise_humans, noise_model=noise_model, alpha=alpha, rng=rng, sizes=sizes,
                             n_datasets=n_datasets, n_boots=n_boots,
                             epsilons=sorted({0.0, 0.05, 0.1, 0.15, 0.2, float(epsilon)}),
                             pool_items=max(500, *sizes), pool_humans=max(6, 2 * len(result.humans)))


def alt_test_file(
    file: str | Path,
    *,
    importer: Any = None,
    unit: str | None = None,
    coder: str | None = None,
    value: str | None = None,
    layout: str | None = None,
    coders: list[str] | None = None,
    sep: str | None = None,
    say: Callable[[str], None] | None = None,
    **options: Any,
) -> AltTestStudy:
    """:func:`alt_test_study` of the annotations in *file*, read as ``accord agree`` reads them in memory (a long
    or wide table, or an annotation tool's export: :func:`accord.importers.read_annotations`)."""
    from dataclasses import replace

    from accord.importers._input import read_annotations
    from accord.models_vs_humans._alt_test import _check

    _check(options.get("epsilon", 0.2), options.get("alpha", 0.05), options.get("scoring", "auto"),
           options.get("min_items", 30), options.get("min_humans", 3))
    data, imported = read_annotations(Path(file), importer, unit=unit, coder=coder, value=value, layout=layout,
                                      coders=coders, sep=sep, layouts=("long", "wide"), say=say)
    if imported is not None and imported.kind == "spans":
        held = "this export holds spans" if imported.field is None else f"field {imported.field!r} holds spans"
        where = "the alternative annotator test compares a label, rating or label set per item"
        raise AccordError(f"{file}: {held}; {where} (choose one with field=)",
                          cli=f"{file}: {held}; {where} (choose one with --field)")
    study = alt_test_study(data, **options)
    return replace(study, imported=imported, read_as=getattr(data, "read_as", None) if imported is None else None)
