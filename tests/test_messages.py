"""One message source, two readers: the API speaks arguments, the CLI flags; "did you mean" on a near miss."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import accord
from accord._shared.errors import AccordError, choice_error, did_you_mean
from accord.cli import app

RUNNER = CliRunner()


def test_did_you_mean_picks_the_close_choice() -> None:
    assert did_you_mean("intervall", ["nominal", "interval"]) == " (did you mean 'interval'?)"
    assert did_you_mean("Label-Studio", ["label-studio", "prodigy"]) == " (did you mean 'label-studio'?)"
    assert did_you_mean("zzz", ["nominal", "interval"]) == ""
    assert did_you_mean(3, ["nominal"]) == ""


def test_choice_error_has_both_forms() -> None:
    err = choice_error("distance", "ordnial", ["nominal", "ordinal"], api_also=" (or a Distance or a callable)")
    assert str(err) == ("distance must be one of nominal, ordinal (or a Distance or a callable); got 'ordnial' "
                        "(did you mean 'ordinal'?)")
    assert err.for_cli() == "--distance must be one of nominal, ordinal; got 'ordnial' (did you mean 'ordinal'?)"
    assert isinstance(err, ValueError)


def _data() -> accord.Annotations:
    return accord.Annotations.from_records([(1, "a", "x"), (1, "b", "x"), (2, "a", "y"), (2, "b", "x")])


def test_api_speaks_arguments() -> None:
    with pytest.raises(AccordError, match=r"^distance must be one of .*\(or a Distance or a callable\); "
                                          r"got 'intervall' \(did you mean 'interval'\?\)$"):
        accord.alpha(_data(), distance="intervall")


@pytest.mark.parametrize(("args", "expected"), [
    (["--distance", "intervall"], "accord: error: --distance must be one of nominal, "),
    (["--coefficient", "cohn"], "(did you mean 'cohen'?)"),
    (["--from", "labelstudio"], "(did you mean 'label-studio'?)"),
    (["--unit", "units"], "missing column 'units' (did you mean 'unit'?)"),
    (["--engine", "duckbd"], "--engine must be one of"),
])
def test_cli_speaks_flags(tmp_path, args: list[str], expected: str) -> None:
    f = tmp_path / "labels.csv"
    f.write_text("unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n")
    res = RUNNER.invoke(app, ["agree", str(f), *args])
    assert res.exit_code == 2
    line = res.output.strip().splitlines()[-1]
    assert expected in line, res.output
    assert "Distance or a callable" not in res.output and "=)" not in res.output


def test_mistyped_command_suggests() -> None:
    res = RUNNER.invoke(app, ["agre", "x.csv"])
    assert res.exit_code == 2 and "did you mean 'agree'?" in res.output
