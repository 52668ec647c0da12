"""The command line stays thin (issue 31): each command reads its options, makes one library call, prints.

A command function over about 60 lines is doing work that belongs in the library, where the Python API gets
the same decision; and one ``accord agree`` resolves its ``--distance`` once.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from typing import Any

import pytest
from typer.testing import CliRunner

from accord.cli import COMMANDS, app, load_command
from accord.datasets import dataset_path

runner = CliRunner()
KRIPP = str(dataset_path("krippendorff2011.csv"))
#: most lines of a command function, its docstring not counted (its help text)
MOST_LINES = 60


def _callbacks() -> list[tuple[str, Any]]:
    out = []

    def walk(command: Any, name: str) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for sub_name, sub in subs.items():
                walk(sub, f"{name} {sub_name}")
        else:
            out.append((name, command.callback))

    for name in COMMANDS:
        walk(load_command(name), name)
    return out


def _body(func: Any) -> Any:
    """The function a command's callback runs: through cli_errors (``__wrapped__``) and the option groups
    (``__accord_command__``)."""
    while True:
        if hasattr(func, "__accord_command__"):
            func = func.__accord_command__
        elif hasattr(func, "__wrapped__"):
            func = func.__wrapped__
        else:
            return func


def _lines(func: Any) -> int:
    """The lines of *func*'s definition, from ``def`` to its end, less its docstring."""
    source = textwrap.dedent(inspect.getsource(func))
    node = ast.parse(source).body[0]
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    lines = node.end_lineno - node.lineno + 1
    doc = node.body[0]
    if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str):
        lines -= doc.end_lineno - doc.lineno + 1
    return lines


def test_every_command_is_found():
    names = [name for name, _ in _callbacks()]
    assert "agree" in names and "report" in names and "pyramid score" in names
    assert len(names) >= len(COMMANDS)


@pytest.mark.parametrize("name, callback", _callbacks(), ids=[name for name, _ in _callbacks()])
def test_no_command_function_is_long(name, callback):
    func = _body(callback)
    assert _lines(func) <= MOST_LINES, (
        f"accord {name}: {func.__module__}.{func.__qualname__} is {_lines(func)} lines; a command reads its "
        f"options, makes one library call and prints (issue 31): move the work into the library")


def _count_resolutions(monkeypatch) -> list[str]:
    """Count each name get_distance resolves, wherever a module bound it."""
    import accord.distances as distances

    original = distances.get_distance
    seen: list[str] = []

    def counting(distance: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(distance, str):
            seen.append(distance)
        return original(distance, *args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("accord") and getattr(module, "get_distance", None) is original:
            monkeypatch.setattr(module, "get_distance", counting)
    return seen


@pytest.mark.parametrize("distance, args", [
    ("interval", ["--distance", "interval", "--coefficient", "all", "--json"]),
    ("ordinal", ["--distance", "ordinal", "--diagnostics", "--bootstrap", "20", "--seed", "1"]),
    ("ratio", ["--distance", "ratio", "--coefficient", "all", "--diagnostics"]),
])
def test_one_agree_resolves_its_distance_once(monkeypatch, distance, args):
    load_command("agree")  # every module the command uses imported, so each binding is counted
    import accord.coefficients  # noqa: F401
    import accord.engines  # noqa: F401

    seen = _count_resolutions(monkeypatch)
    res = runner.invoke(app, ["agree", KRIPP, *args])
    assert res.exit_code == 0, res.output
    assert seen.count(distance) == 1, seen


def test_the_python_api_decides_as_accord_agree():
    import json

    import accord
    from accord.coefficients import agree
    from accord.engines import agree_file

    res = agree_file(KRIPP, "all", "interval")
    out = json.loads(runner.invoke(app, ["agree", KRIPP, "--coefficient", "all", "--distance", "interval",
                                         "--json"]).stdout)
    assert [k for k in out if k in res.results] == list(res.results)
    assert set(out["left_out"]) == set(res.left_out)
    assert out["alpha"]["value"] == res.results["alpha"].alpha
    assert res.distance.name == "interval" and res.read_as is not None
    # the refusal of a name that is no one coefficient, in the API's words and the command line's
    with pytest.raises(accord.AccordError) as e:
        agree(accord.as_annotations([[1, 2, 2, 3], [1, 2, 3, 3]]), "kappa")
    assert "coefficient='cohen'" in str(e.value) and "--coefficient cohen" in e.value.for_cli()
