"""A plain table's columns given for an annotation tool's export are refused, not dropped: the export's importer
reads the tool's own fields, so ``--unit`` or ``--sep`` would change nothing the user could see."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord.cli import app

EXPORT = Path(__file__).parent / "data" / "importers" / "labelstudio" / "export.json"


@pytest.mark.parametrize(("args", "named"), [
    (["--unit", "id"], "--unit names"),
    (["--coder", "annotator"], "--coder names"),
    (["--layout", "long"], "--layout names"),
    (["--sep", ";"], "--sep names"),
])
def test_table_columns_for_an_export_are_refused(args: list[str], named: str) -> None:
    out = CliRunner().invoke(app, ["agree", str(EXPORT), "--field", "sentiment", *args])
    assert out.exit_code == 2, out.output
    assert f"{named} what to read in a plain table; this is a label-studio export" in out.output


def test_the_export_without_them_is_read() -> None:
    out = CliRunner().invoke(app, ["agree", str(EXPORT), "--field", "sentiment"])
    assert out.exit_code == 0, out.output


def test_python_callers_get_the_python_words() -> None:
    from accord import AccordError
    from accord.importers._input import read_annotations

    with pytest.raises(AccordError, match=r"^unit names what to read in a plain table; .*\(tool, field\)$"):
        read_annotations(EXPORT, unit="id")
