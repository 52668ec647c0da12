"""accord installed as a user installs it: the wheel, in a fresh venv, with no extras.

The test extras pull in every optional dependency (and, through them, libraries such as click that the
core does not declare), so the rest of the suite cannot see an import that a plain ``pip install accord``
lacks.  Here the wheel is built, installed alone into a new virtual environment, and run: ``accord
--help``, ``python -m accord``, ``accord agree`` on a small file, ``accord demo``, the Python API; every
module of the package is imported, and each one that fails must fail for an optional extra's library,
with a command that says which extra to install.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], *, cwd: Path, check: bool = True, timeout: float = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the accord wheel and its core dependencies only; its bin folder."""
    tmp = tmp_path_factory.mktemp("install")
    wheels = tmp / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(ROOT)], cwd=tmp)
    (wheel,) = wheels.glob("accord-*.whl")
    # the base interpreter, not this venv's: a venv made from a venv must not see the test extras
    base = Path(getattr(sys, "_base_executable", sys.executable))
    _run([str(base), "-m", "venv", str(tmp / "venv")], cwd=tmp)
    bin_ = tmp / "venv" / "bin"
    _run([str(bin_ / "python"), "-m", "pip", "install", "--quiet", str(wheel)], cwd=tmp)
    return bin_


def test_no_extra_is_installed(bare: Path) -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {req.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower()
             for reqs in extras.values() for req in reqs if not req.startswith("accord")}
    out = _run([str(bare / "python"), "-m", "pip", "list", "--format", "json"], cwd=bare).stdout
    installed = {p["name"].lower().replace("_", "-") for p in json.loads(out)}
    assert not (installed & {n.replace("_", "-") for n in names}), "an optional extra leaked into the bare install"


def test_cli_runs_without_extras(bare: Path, tmp_path: Path) -> None:
    assert "agree" in _run([str(bare / "accord"), "--help"], cwd=tmp_path).stdout
    assert "agree" in _run([str(bare / "python"), "-m", "accord", "--help"], cwd=tmp_path).stdout
    f = tmp_path / "labels.csv"
    f.write_text("unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,y\n3,a,x\n3,b,y\n")
    out = _run([str(bare / "accord"), "agree", str(f), "--json"], cwd=tmp_path).stdout
    # nominal: D_o = 2/6 (unit 3's two ordered pairs), D_e = 2*3*3/(6*5) = 0.6, alpha = 1 - (1/3)/0.6 = 4/9
    assert json.loads(out)["alpha"] == pytest.approx(4 / 9, abs=1e-12)
    demo = _run([str(bare / "accord"), "demo"], cwd=tmp_path).stdout
    assert "Passonneau" in demo


def test_python_api_without_extras(bare: Path, tmp_path: Path) -> None:
    code = (
        "import accord\n"
        "a = accord.Annotations.from_records([(1,'a','x'),(1,'b','x'),(2,'a','y'),(2,'b','x')])\n"
        "print(round(accord.alpha(a).alpha, 6))\n"
    )
    out = _run([str(bare / "python"), "-c", code], cwd=tmp_path).stdout
    # D_o = 2/4, D_e = 2*3*1/(4*3) = 0.5: alpha = 0
    assert float(out) == pytest.approx(0.0, abs=1e-12)


def test_every_module_imports_or_names_its_extra(bare: Path, tmp_path: Path) -> None:
    """Each module imports, or fails on a library of a declared optional extra, never on an undeclared one."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    code = (
        "import importlib, json, pkgutil, accord\n"
        "bad = {}\n"
        "for m in pkgutil.walk_packages(accord.__path__, 'accord.'):\n"
        "    try:\n"
        "        importlib.import_module(m.name)\n"
        "    except ModuleNotFoundError as e:\n"
        "        bad[m.name] = e.name\n"
        "print(json.dumps(bad))\n"
    )
    missing = json.loads(_run([str(bare / "python"), "-c", code], cwd=tmp_path).stdout)
    # import name -> distribution, for the libraries the optional extras declare
    optional_imports = {"jinja2", "altair", "vl_convert", "openpyxl", "odf", "re2", "duckdb", "dask",
                        "distributed", "pyspark", "polars", "pyarrow"}
    undeclared = {mod: name for mod, name in missing.items() if name.split(".")[0] not in optional_imports}
    declared = pyproject["dependencies"]
    assert not undeclared, f"modules importing libraries no dependency declares: {undeclared} ({declared})"


@pytest.mark.parametrize(("args", "extra"), [
    (["agree", "{csv_as}.parquet"], "parquet"),
    (["agree", "{csv_as}.ods"], "excel"),  # .xlsx reads in the base install (openpyxl is a dependency)
    (["agree", "{csv}", "--engine", "duckdb"], "duckdb"),
    (["agree", "{csv}", "--engine", "polars"], "polars"),
    (["agree", "{csv}", "--engine", "dask"], "dask"),
    (["agree", "{csv}", "--engine", "spark"], "spark"),
    (["report", "{csv}", "-o", "{tmp}/r.html"], "report"),
])
def test_missing_extra_says_which(bare: Path, tmp_path: Path, args: list[str], extra: str) -> None:
    """Without an extra, the command that needs it stops with one line naming the extra to install."""
    csv = tmp_path / "labels.csv"
    csv.write_text("unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,y\n")
    for suffix in (".parquet", ".ods"):  # the suffix alone picks the reader, which needs the extra
        (tmp_path / f"labels{suffix}").write_bytes(b"PK\x03\x04 not read")
    argv = [a.format(csv=csv, csv_as=tmp_path / "labels", tmp=tmp_path) for a in args]
    proc = _run([str(bare / "accord"), *argv], cwd=tmp_path, check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith("accord: error: ") and f"pip install 'accord[{extra}]'" in lines[-1], proc.stderr
    assert "Traceback" not in proc.stderr


def test_wheel_carries_license_and_metadata(tmp_path: Path) -> None:
    import zipfile

    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(ROOT)], cwd=tmp_path)
    (wheel,) = tmp_path.glob("accord-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert any(n.endswith("licenses/LICENSE") for n in names), names
    assert "License-Expression: BSD-3-Clause" in meta and "Classifier: Intended Audience :: Science/Research" in meta
    assert any(n == "accord/__main__.py" for n in names)


def test_readme_python_block_runs_without_extras(bare: Path, tmp_path: Path) -> None:
    """The README's first Python block (the quick start) runs on the base install, from a checkout's root."""
    import re
    import shutil

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert blocks, "README.md has no python block"
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")
    proc = _run([str(bare / "python"), "-c", blocks[0]], cwd=tmp_path, check=False)
    assert proc.returncode == 0, proc.stderr
    # the block after it names the extra of each line it needs
    for line in blocks[1].strip().splitlines():
        assert re.search(r"# the \w+ extra", line), f"README: a line needing an extra does not name it: {line}"


def test_files_as_people_keep_them_read_with_no_flags_and_no_extras(bare: Path, tmp_path: Path) -> None:
    """Semicolons with a byte-order mark and CRLF, TSV, JSON lines, a wide .xlsx and a pandas index dump:
    each read with no flag in the bare install gives the alpha of the named-column call."""
    import openpyxl

    # labels, not small numbers: a sheet of small whole numbers may be counts as easily as codes (refused)
    rows = [("i1", "ann1", "pos"), ("i1", "ann2", "neg"), ("i2", "ann1", "neu"), ("i2", "ann2", "neu"),
            ("i3", "ann1", "neg"), ("i3", "ann2", "neg"), ("i4", "ann1", "pos"), ("i4", "ann2", "neu")]
    named = tmp_path / "named.csv"
    named.write_text("unit,coder,value\n" + "".join(f"{u},{c},{v}\n" for u, c, v in rows))
    (tmp_path / "semicolons.csv").write_bytes(
        ("\ufeffItem;Annotator;Score\r\n" + "".join(f"{u};{c};{v}\r\n" for u, c, v in rows)).encode())
    (tmp_path / "crowd.tsv").write_text("question\tworker_id\tanswer\tcomment\n"
                                        + "".join(f"{u}\t{c}\t{v}\tok\n" for u, c, v in rows))
    (tmp_path / "lines.jsonl").write_text("".join(json.dumps({"doc_id": u, "rater": c, "label": v}) + "\n"
                                                  for u, c, v in rows))
    by_unit: dict[str, dict[str, str]] = {}
    for u, c, v in rows:
        by_unit.setdefault(u, {})[c] = v
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["item", "ann1", "ann2"])
    for u, vals in by_unit.items():
        sheet.append([u, vals["ann1"], vals["ann2"]])
    book.save(tmp_path / "wide.xlsx")
    (tmp_path / "dump.csv").write_text(",ann1,ann2\n" + "".join(f"{u},{v['ann1']},{v['ann2']}\n"
                                                              for u, v in by_unit.items()))

    def alpha_of(name: str, *flags: str) -> float:
        out = _run([str(bare / "accord"), "agree", str(tmp_path / name), "--json", *flags], cwd=tmp_path).stdout
        return json.loads(out)["alpha"]

    expected = alpha_of("named.csv", "--unit", "unit", "--coder", "coder", "--value", "value")
    for name in ("semicolons.csv", "crowd.tsv", "lines.jsonl", "wide.xlsx", "dump.csv"):
        assert alpha_of(name) == pytest.approx(expected, abs=1e-12), name
