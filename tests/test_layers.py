"""The layers of the package hold (issue 31): the import-linter contracts of pyproject.toml pass, and they
would fail if an import ran upwards or closed a cycle again (``data`` importing from ``confusion``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")

ROOT = Path(__file__).resolve().parents[1]
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on the package under *tree*/src, with the contracts of *tree*/pyproject.toml."""
    return subprocess.run([sys.executable, "-c", LINT], cwd=tree, env={"PYTHONPATH": str(tree / "src")},
                          capture_output=True, text=True, timeout=300)


def _copy(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "src" / "accord", tmp_path / "src" / "accord",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tmp_path


def test_the_contracts_hold():
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_data_importing_from_confusion_breaks_the_contracts(tmp_path):
    tree = _copy(tmp_path)
    data = tree / "src" / "accord" / "data" / "_annotations.py"
    # confusion reads its tables into Annotations; data importing it back closes the old cycle
    data.write_text(data.read_text(encoding="utf-8") + "\n\ndef _back():\n"
                    "    from accord.data._confusion import read_confusion\n\n    return read_confusion\n",
                    encoding="utf-8")
    out = _lint(tree)
    assert out.returncode == 1
    assert "accord.data._annotations is not allowed to import accord.data._confusion" in out.stdout
    assert "No cycles are allowed in accord.data." in out.stdout


def test_an_upward_import_breaks_the_contracts(tmp_path):
    tree = _copy(tmp_path)
    alpha = tree / "src" / "accord" / "coefficients" / "_alpha.py"
    alpha.write_text(alpha.read_text(encoding="utf-8") + "\n\ndef _up():\n"
                     "    from accord.engines import reduce\n\n    return reduce\n", encoding="utf-8")
    out = _lint(tree)
    assert out.returncode == 1
    assert "accord.coefficients is not allowed to import accord.engines" in out.stdout


def test_the_design_page_shows_the_contracts_layers():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    contracts = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert [c["containers"] for c in contracts][0] == ["accord"]
    for contract in contracts:
        (container,) = contract["containers"]
        marker = "<!-- layers -->" if container == "accord" else f"<!-- layers {container} -->"
        block = page.split(f"{marker}\n```text\n", 1)[1].split("```", 1)[0]
        assert block.splitlines() == contract["layers"], container


def test_the_top_level_holds_packages_and_every_module_is_private():
    """No module shares its name with a function: implementation modules are private (``_alpha.py``)."""
    package = ROOT / "src" / "accord"
    assert sorted(p.name for p in package.glob("*.py")) == ["__init__.py", "__main__.py"]
    public = [str(p.relative_to(package)) for p in package.rglob("*.py")
              if not p.name.startswith("_") and not any(part.startswith("_") for part in p.relative_to(package).parts)]
    assert public == []
