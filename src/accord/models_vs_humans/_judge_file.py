"""The judge audit of a file: which reader reads it (the long table with its order and run columns, or any input
``accord alt-test`` reads), decided here so that the command line and Python decide alike (issue 31)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError
from accord.models_vs_humans._judge import judge_audit
from accord.models_vs_humans._judge_results import JudgeAuditResult

__all__ = ["judge_audit_file"]

#: tables the audit reads itself, with their position and run columns
_TABLES = (".csv", ".tsv", ".tab", ".parquet", ".pq")


def judge_audit_file(
    file: str | Path,
    *,
    judges: Any,
    position: str | None = None,
    run: str | None = None,
    importer: Any = None,
    unit: str | None = None,
    coder: str | None = None,
    value: str | None = None,
    layout: str | None = None,
    coders: list[str] | None = None,
    sep: str | None = None,
    say: Callable[[str], None] | None = None,
    **options: Any,
) -> JudgeAuditResult:
    """:func:`accord.judge_audit` of the judgments in *file*.

    A long table with a presentation-order or run column (*position*, *run*) is read by the audit itself; without
    them, *file* is read as :func:`accord.models_vs_humans.alt_test_file` reads it (a long or wide table, an
    annotation tool's export through *importer*), the reading said through *say*.
    """
    from accord.importers._input import ImportOptions, headed_table, read_annotations

    path = Path(file)
    importer = importer if importer is not None else ImportOptions()
    other_input = importer.tool is not None or bool(importer.given()) or layout is not None or coders is not None
    if position is not None or run is not None:
        if other_input:
            raise AccordError("--position and --run name columns of a long table; --from, --field, --sheet, "
                              "--layout and --coders read other inputs, which have no such columns")
        return judge_audit(path, judges=judges, position=position, run=run, unit=unit, coder=coder, value=value,
                           sep=sep, **options)
    if other_input or path.suffix.lower() not in _TABLES or headed_table(path) is not None:
        data, imported = read_annotations(path, importer, unit=unit, coder=coder, value=value, layout=layout,
                                          coders=coders, sep=sep, layouts=("long", "wide"), say=say)
        if data is None or (imported is not None and imported.kind == "spans"):
            raise AccordError(f"{file}: this export holds spans; the judge audit compares a verdict per item "
                              "(choose a field with field=)",
                              cli=f"{file}: this export holds spans; the judge audit compares a verdict per item "
                                  "(choose a field with --field)")
        return judge_audit(data, judges=judges, **options)
    return judge_audit(path, judges=judges, unit=unit, coder=coder, value=value, sep=sep, **options)
