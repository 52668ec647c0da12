"""What the commands that read an annotation tool's export share: the importer options (one option group, for
``accord import``, ``agree``, ``alt-test``, ``spans`` and ``report``) and the long table.  Reading the export
and what it decides is the library's (:mod:`accord.importers._input`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from accord.cli._common import echo
from accord.cli._options import OptionGroup, with_options
from accord.importers._input import (
    PLAIN_TABLES,
    ImportOptions,
    describe_field,
    headed_table,
    parse_options,
    suggest,
)
from accord.importers._input import load_export as _load_export
from accord.importers._long import _cell as _cell  # noqa: F401  (tests read the cell writer here)
from accord.importers._long import long_table_text

__all__ = [
    "PLAIN_TABLES",
    "ImporterArgs",
    "describe_field",
    "headed_table",
    "importer_options",
    "load_export",
    "long_table_text",
    "parse_options",
    "suggest",
]

# ---------------------------------------------------------------------------------------------------------------
# The importer options: one block, added to a command by @importer_options (other shared options go beside it).
_IMPORTER_OPTIONS: dict[str, Any] = {
    "from_": Annotated[
        str | None,
        typer.Option("--from", help="The annotation tool that wrote the input: label-studio, prodigy, inception, "
                     "inception-agreement, doccano, brat, argilla, mturk, csv, spreadsheet (guessed for .json, "
                     ".zip, folders, JSON lines a tool wrote and tables with a tool's own header, such as an MTurk "
                     "batch or INCEpTION's agreement CSV; other plain tables are read as tables)."),
    ],
    "field": Annotated[
        str | None,
        typer.Option("--field", help="With an export: the control, question, answer, layer or column to read "
                     "(its short name or its column's); guessed when only one fits the command. accord agree and "
                     "accord report: all measures every field, each on its own default distance."),
    ],
    "sheet": Annotated[
        str | None, typer.Option("--sheet", help="Spreadsheets: the sheet, by name or 0-based index (default the "
                                 "first).")
    ],
    "offsets": Annotated[
        str | None,
        typer.Option("--offsets", help="doccano, Argilla: how span offsets count characters, utf16 (the browser's, "
                     "default) or codepoints."),
    ],
    "option": Annotated[
        list[str] | None,
        typer.Option("--option", help="With an export: an importer's option as NAME=VALUE (repeatable), e.g. "
                     "multiple=true, drafts=true, text_key=title, in_progress=skip; see docs/importers.md."),
    ],
}


class ImporterArgs(ImportOptions, OptionGroup):
    """The importer options a command was given (``--from``, ``--field``, ``--sheet``, ``--offsets``, ``--option``):
    the option group of every command that reads an export (:func:`accord.cli._options.with_options`)."""

    @classmethod
    def parameters(cls) -> list[inspect.Parameter]:
        return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=ann)
                for name, ann in _IMPORTER_OPTIONS.items()]

    @classmethod
    def from_options(cls, values: dict[str, Any]) -> ImporterArgs:
        return cls(tool=values.get("from_"), field=values.get("field"), sheet=values.get("sheet"),
                   offsets=values.get("offsets"), option=tuple(values.get("option") or ()))


F = TypeVar("F", bound=Callable[..., Any])


def importer_options(func: F) -> F:
    """Give the command *func* the importer options (its parameter ``importer: ImporterArgs``):
    :func:`~accord.cli._options.with_options`."""
    return with_options(func)


def load_export(file: Path, importer: ImportOptions, **kwargs: Any) -> Any:
    """:func:`accord.importers._input.load_export`, its guesses said on stderr."""
    kwargs.setdefault("say", lambda line: echo(line, err=True))
    return _load_export(file, importer, **kwargs)
