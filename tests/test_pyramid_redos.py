"""A pyramid file's ``<startDocumentRegEx>`` is untrusted (issue 10, part 5): no hang on ``(a+)+$``.

The pyramid is written by hand in DUCView's format (the DTD of ``accord/pyramid/_ducview.py``): one line of
40 ``a`` and a ``!`` (41 characters), on which a backtracking engine needs ~2^40 steps to fail ``(a+)+$``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord._shared.errors import AccordError
from accord.cli import app
from accord.pyramid import _saferegex as saferegex
from accord.pyramid import read_pyramid

runner = CliRunner()
EVIL = r"(a+)+$"
TEXT = "a" * 40 + "!"


def _pyr(tmp_path: Path, regex: str, lines: list[str]) -> Path:
    body = "".join(f"<line>{x}</line>" for x in lines)
    path = tmp_path / "evil.pyr"
    path.write_text(f"<pyramid><startDocumentRegEx><![CDATA[{regex}]]></startDocumentRegEx><text>{body}</text>"
                    "</pyramid>")
    return path


def test_cli_show_returns_promptly_on_re2(tmp_path):
    assert len(TEXT) == 41
    path = _pyr(tmp_path, EVIL, [TEXT])
    # The real command line in a child process: a hang fails the test at the timeout instead of blocking it.
    proc = subprocess.run(
        [sys.executable, "-c", "from accord.cli import main; main()", "pyramid", "show", str(path)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(saferegex.__file__).parents[2])},
    )
    assert proc.returncode == 2, proc.stderr
    assert "matches nowhere" in proc.stderr and EVIL in proc.stderr and "evil.pyr" in proc.stderr


def test_forced_fallback_refuses_with_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(saferegex, "_re2", lambda: None)
    monkeypatch.setattr(saferegex, "TIME_LIMIT", 0.5)
    path = _pyr(tmp_path, EVIL, [TEXT])
    r = runner.invoke(app, ["pyramid", "show", str(path)])
    assert r.exit_code == 2
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1
    assert "evil.pyr" in err and repr(EVIL) in err and "did not finish within 0.5 s" in err
    with pytest.raises(AccordError, match="google-re2 is not installed"):
        read_pyramid(path)


def test_fallback_runs_benign_patterns_and_what_re2_cannot_compile(tmp_path, monkeypatch):
    lines = ["== A", "one", "== B", "two"]
    assert read_pyramid(_pyr(tmp_path, "== ", lines)).n_models == 2
    assert saferegex.match_starts("== ", "== A\n== B", source="x")[1] == "re2"
    # A back-reference: RE2 cannot compile it, Python's re runs it in the child process.
    assert saferegex.match_starts(r"(=)\1 ", "== A\n== B", source="x") == ([0, 5], "re")
    assert read_pyramid(_pyr(tmp_path, r"(=)\1 ", lines)).n_models == 2
    monkeypatch.setattr(saferegex, "_re2", lambda: None)
    assert saferegex.match_starts("== ", "== A\n== B", source="x") == ([0, 5], "re")
    with pytest.raises(AccordError, match=r"evil\.pyr: startDocumentRegEx '\(' is not a valid"):
        read_pyramid(_pyr(tmp_path, "(", lines))


def test_start_regex_option_is_named_as_such(tmp_path, monkeypatch):
    path = _pyr(tmp_path, "== ", ["== A", TEXT])
    with pytest.raises(AccordError, match=r"evil\.pyr: start_regex '\(a\+\)\+\$' matches nowhere"):
        read_pyramid(path, start_regex=EVIL)
    monkeypatch.setattr(saferegex, "_re2", lambda: None)
    monkeypatch.setattr(saferegex, "TIME_LIMIT", 0.3)
    r = runner.invoke(app, ["pyramid", "show", str(path), "--start-regex", EVIL])
    assert r.exit_code == 2 and "start_regex '(a+)+$' did not finish" in r.stderr
