"""Every field of an export at once, as ``accord agree --field all`` measures them.

:func:`agree_fields` lists the export's layers (:func:`accord.importers.layers`), measures each field that
``accord agree`` measures with its own default distance (:func:`accord.engines.agree_file`, as
``accord agree --field NAME`` does), and lists every other part (spans, attributes, relations, parts set aside)
with the reason it is not measured here and the command that measures it.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, Message, for_cli, no_such_file
from accord._shared.results import Result
from accord.coefficients._agree import Agreement, check_agree_options

__all__ = ["ALL_FIELDS", "AgreementByField", "FieldNotMeasured", "agree_fields"]

#: the value of ``field`` (``--field``) that measures every field of an export
ALL_FIELDS = "all"
#: options that fix one scale for every field, which --field all refuses (each field has its own)
_ONE_SCALE = ("distance", "order", "weights")


@dataclass(frozen=True)
class FieldNotMeasured(Result):
    """A part of an export that ``accord agree --field all`` does not measure, and why.

    Attributes
    ----------
    field, kind : str
        The part as :func:`accord.importers.layers` names it, and its kind (``spans``, ``attribute``...).
    reason : str
        Why ``accord agree`` measures nothing on it (a :class:`~accord.errors.Message` where the command line
        words it differently).
    command : str or None
        The command that measures it, where one does.
    """

    field: str
    kind: str
    reason: str
    command: str | None = None


@dataclass(frozen=True)
class AgreementByField(Result):
    """The agreement of every field of an export (:func:`agree_fields`).

    Attributes
    ----------
    tool, source : str
        The importer and the file or folder read.
    coefficient : str
        What was asked of each field.
    fields : dict of str to Agreement
        Field -> its :class:`~accord.coefficients.Agreement`, in the export's order; each the one
        ``accord agree --field NAME`` gives.
    kinds : dict of str to str
        Field -> the kind of its values (``nominal``, ``set``, ``ordinal``...).
    not_measured : tuple of FieldNotMeasured
        Every other part of the export, with its reason.
    """

    tool: str
    source: str
    coefficient: str
    fields: dict[str, Agreement]
    kinds: dict[str, str]
    not_measured: tuple[FieldNotMeasured, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``tool``, ``source`` and ``fields``: a list with one object per field, its ``agreement`` (the JSON of
        ``accord agree --field NAME --json``) or, for a part not measured, its ``reason`` and ``command``."""
        entries: list[dict[str, Any]] = [
            {"field": name, "kind": self.kinds[name], "measured": True, "agreement": res.to_dict()}
            for name, res in self.fields.items()]
        entries += [{"field": x.field, "kind": x.kind, "measured": False, "reason": x.reason, "command": x.command}
                    for x in self.not_measured]
        return {"tool": self.tool, "source": self.source, "coefficient": self.coefficient, "fields": entries}

    def to_frame(self) -> Any:
        """One row per field and coefficient (field, kind, coefficient, value, observed, expected, units used,
        the interval), then one row per part not measured with its reason."""
        import pandas as pd

        rows: list[dict[str, Any]] = []
        for name, res in self.fields.items():
            for coef, r in res.results.items():
                iv = res.intervals.get(coef)
                rows.append({"field": name, "kind": self.kinds[name], "coefficient": coef, "value": value_of(r),
                             "observed": getattr(r, "observed_disagreement", math.nan),
                             "expected": getattr(r, "expected_disagreement", math.nan),
                             "units_used": units_used(r), "low": iv[0] if iv else math.nan,
                             "high": iv[1] if iv else math.nan, "reason": None})
        for x in self.not_measured:
            rows.append({"field": x.field, "kind": x.kind, "coefficient": None, "value": math.nan,
                         "observed": math.nan, "expected": math.nan, "units_used": None, "low": math.nan,
                         "high": math.nan, "reason": x.reason})
        frame = pd.DataFrame(rows, columns=["field", "kind", "coefficient", "value", "observed", "expected",
                                            "units_used", "low", "high", "reason"])
        return frame.astype({"units_used": "Int64"})


def value_of(res: Any) -> float:
    """The value of a coefficient's result (alpha, kappa, percent agreement, AC, W, CCC; the ICC's chosen form)."""
    for name in ("alpha", "kappa", "percent_agreement", "ac", "w", "ccc", "value"):
        if isinstance(getattr(res, name, None), (int, float)):
            return float(getattr(res, name))
    return math.nan


def units_used(res: Any) -> int | None:
    """The units a coefficient's result used (its pairable units, else its units)."""
    return getattr(res, "n_pairable_units", None) or getattr(res, "n_units", None)


def agree_fields(
    file: str | Path,
    coefficient: str = "alpha",
    *,
    importer: Any = None,
    say: Callable[[str], None] | None = None,
    **options: Any,
) -> AgreementByField:
    """The agreement of every field of an annotation tool's export, each measured as ``accord agree --field NAME``.

    Parameters
    ----------
    file : path
        The export file or folder.
    coefficient : str
        As :func:`accord.coefficients.agree` takes it, asked of every field.
    importer : ImportOptions, optional
        The tool (guessed when None) and its options; its ``field`` is ignored (every field is read).
    say : callable, optional
        Called with each line to tell the user (a tool guessed).
    **options
        Of :func:`accord.engines.agree_file`, but not ``distance``, ``order`` or ``weights``: each field is
        measured with its own default distance (the one ``accord agree --field NAME`` takes).

    Returns
    -------
    AgreementByField

    Raises
    ------
    AccordError
        When *file* is not an export, a scale is fixed for every field, or the options are invalid.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> def task(i, who, mood, stars):
    ...     return {"id": i, "data": {"text": "t"}, "annotations": [{"completed_by": c, "result": [
    ...         {"from_name": "mood", "to_name": "text", "type": "choices", "value": {"choices": [m]}},
    ...         {"from_name": "stars", "to_name": "text", "type": "rating", "value": {"rating": s}}]}
    ...         for c, m, s in zip(who, mood, stars)]}
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "export.json"
    >>> _ = f.write_text(json.dumps([task(1, [1, 2], ["up", "up"], [4, 4]), task(2, [1, 2], ["down", "up"], [2, 3]),
    ...                              task(3, [1, 2], ["down", "down"], [1, 1])]))
    >>> res = agree_fields(f)
    >>> {name: round(r.results["alpha"].alpha, 4) for name, r in res.fields.items()}
    {'mood': 0.4444, 'stars': 0.9}
    """
    from accord.importers import guess_tool
    from accord.importers._input import PLAIN_TABLES, ImportOptions, headed_table, reusing_reads, tool_options
    from accord.importers._layers import layers_and_reads

    file = Path(file)
    importer = importer or ImportOptions()
    fixed = [name for name in _ONE_SCALE if options.get(name) is not None]
    if fixed:
        raise AccordError(f"field='all' measures each field with its own default distance: not with "
                          f"{', '.join(fixed)}; pass field= to measure one field on a scale you choose",
                          cli=f"--field all measures each field with its own default distance: not with "
                          f"{', '.join('--' + n for n in fixed)}; pass --field NAME to measure one field on a scale "
                          "you choose")
    check_agree_options(coefficient, weights=None, weight_scores=options.get("weight_scores", "values"),
                        bootstrap=options.get("bootstrap", 0))
    if not file.exists():
        raise no_such_file(file)
    tool = importer.tool
    if tool is None and file.is_file() and file.suffix.lower() in PLAIN_TABLES and headed_table(file) is None:
        raise AccordError(f"{file}: field='all' measures every field of an annotation tool's export (with tool=); "
                          "a plain table is read with accord.read (its value column: value=)",
                          cli=f"{file}: --field all measures every field of an annotation tool's export (with "
                          "--from); a plain table is read without it (its value column: --value)")
    if tool is None:
        tool = guess_tool(file)
        if say is not None:
            say(f"accord: reading {file} with --from {tool} (guessed from the file; pass --from to choose)")
    read_with = tool_options(tool, importer)
    found, reads = layers_and_reads(file, tool=tool, **read_with)
    with reusing_reads(file, tool, read_with, reads):  # each field read once, by layers, not again to measure it
        fields, kinds, left = _measure(file, tool, found, coefficient, importer, options)
    return AgreementByField(tool=tool, source=str(file), coefficient=coefficient, fields=fields, kinds=kinds,
                            not_measured=tuple(left))


def _measure(file: Path, tool: str, found: Any, coefficient: str, importer: Any, options: dict[str, Any]
             ) -> tuple[dict[str, Agreement], dict[str, str], list[FieldNotMeasured]]:
    """Each field of *found* that ``accord agree`` measures, measured; every other part with its reason."""
    fields: dict[str, Agreement] = {}
    kinds: dict[str, str] = {}
    left: list[FieldNotMeasured] = []
    for layer in found.layers:
        words = shlex.split(layer.command or "")
        elsewhere = shlex.join(["accord", words[1], str(file), "--from", tool, *words[2:]]) if words else None
        if words[:2] != ["accord", "agree"]:
            why = layer.reason or (f"{layer.kind} of {layer.parent!r}" if layer.parent else f"holds {layer.kind}")
            left.append(FieldNotMeasured(layer.name, layer.kind, why if layer.reason or not elsewhere else
                                         f"{why}: measured by {elsewhere}", elsewhere))
            continue
        name = words[words.index("--field") + 1] if "--field" in words else None
        try:
            res = _agree_one(file, coefficient, replace(importer, tool=tool, field=name), **options)
        except AccordError as exc:  # this field only: said beside the others' numbers
            left.append(FieldNotMeasured(layer.name, layer.kind, Message(str(exc), cli=for_cli(exc)), elsewhere))
            continue
        key = name or (res.imported.field if res.imported is not None and res.imported.field else layer.name)
        fields[key] = res
        kinds[key] = layer.kind
    return fields, kinds, left


def _agree_one(file: Path, coefficient: str, importer: Any, **options: Any) -> Agreement:
    from accord.engines._agree import agree_file

    return agree_file(file, coefficient, importer=importer, **options)
