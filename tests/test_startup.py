"""Start-up cost: ``import accord`` and ``accord --help`` import only what they need (issue 10, part 4).

Times are measured in ``benchmarks/bench_startup.py``; these tests guard what gets imported.
"""

import importlib
import subprocess
import sys

import accord
from accord.cli import COMMANDS, load_command


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(out.stdout.split())


def test_import_accord_loads_neither_pandas_nor_scipy():
    loaded = _modules_after("import accord")
    assert not {m for m in loaded if m.split(".")[0] in {"pandas", "scipy", "polars", "pyarrow"}}


def test_help_imports_no_command_module():
    loaded = _modules_after(
        "import sys\nfrom accord.cli import main\nsys.argv = ['accord', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    assert not {m for m in loaded if m.startswith("accord.cli.") and m != "accord.cli._common"}
    assert "pandas" not in loaded


def test_every_public_name_resolves_and_alpha_stays_the_function():
    importlib.import_module("accord.coefficients._alpha")  # alpha is defined in a private module

    for name in accord.__all__:
        assert getattr(accord, name) is not None, name
    assert callable(accord.alpha) and accord.alpha.__module__ == "accord.coefficients._alpha"
    assert set(accord.__all__) <= set(dir(accord))


def test_the_help_table_matches_each_command():
    for name, (_, short) in COMMANDS.items():
        command = load_command(name)
        assert command.name == name
        assert short == command.get_short_help_str(limit=200), name


def test_bootstrap_commands_take_quiet_and_show_no_bar_off_a_terminal(tmp_path):
    from typer.testing import CliRunner

    from accord.cli import app

    f = tmp_path / "spans.csv"
    f.write_text(
        "document,coder,start,end,label\n"
        + "".join(
            f"d{d},{c},0,4,PER\nd{d},{c},6,9,{'LOC' if c == 'a' or d % 2 else 'ORG'}\n" for d in range(4) for c in "ab"
        )
    )
    out = CliRunner().invoke(app, ["spans", str(f), "--bootstrap", "20", "--seed", "1", "--quiet", "--json"])
    assert out.exit_code == 0, out.output
    assert "accord spans" not in out.output  # no progress bar: not a terminal, and quiet


def test_subpackages_are_attributes_imported_on_first_use():
    loaded = _modules_after("import accord\nassert callable(accord.engines.agree)\nassert accord.spans.span_f1")
    assert "accord.engines" in loaded
