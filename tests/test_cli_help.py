"""Help reads as command-line users expect: FILE, TEXT, INTEGER, bare flags (issue 19).

Typer's releases since 0.26 print Python types (``{file}``, ``<str>``, ``<bool>``, ``<list[Path]>``);
``--diagnostics <bool>`` reads as if the flag took a value.  :func:`accord.cli.conventional_metavars`
gives every parameter click's conventional metavar; this checks the help of every command as printed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from accord.cli import COMMANDS

PYTHON_TYPES = re.compile(r"<(?:str|bool|int|float|path|list\[[^\]]*\])>|\{[a-z_]+\}|\{[A-Z_]+\}")


def _help(*args: str) -> str:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "accord", *args, "--help"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("command", [None, *COMMANDS, "pyramid score", "pyramid show"])
def test_help_shows_conventional_metavars(command: str | None) -> None:
    out = _help(*(command.split() if command else ()))
    assert not PYTHON_TYPES.findall(out), PYTHON_TYPES.findall(out)
    for line in out.splitlines():  # a flag shows no value
        if re.search(r"--(help|json|force|quiet|diagnostics)\b", line):
            assert not re.search(r"--(help|json|force|quiet|diagnostics)\s+(TEXT|BOOLEAN)\b", line), line


def test_agree_help_names_values() -> None:
    out = _help("agree")
    assert re.search(r"Usage: .*agree \[OPTIONS\] FILE\b", out)
    assert re.search(r"--bootstrap\s+INTEGER", out) and re.search(r"--confidence\s+FLOAT", out)
    assert re.search(r"--unit\s+TEXT", out)


def test_python_m_accord_runs() -> None:
    assert "agree" in _help()
