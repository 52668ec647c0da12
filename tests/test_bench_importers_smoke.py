"""Smoke test of benchmarks/bench_importers.py: every contender runs in its subprocess on a tiny export.

No timing assertions (the figures are in BENCHMARKS.md); only that each contender ran and that the three
importers read every value and span of the generated exports.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the harness reads /proc (Linux)")


def test_bench_importers_runs_every_contender(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("accord_benchmarks_bench_importers", BENCH / "bench_importers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    records = module.main(["--tasks", "50", "--quiet"])
    failed = [r for r in records if "failed" in r]
    assert not failed, failed
    out = {r["spec"]["contender"]: r["result"] for r in records}
    assert out["json.load"] == 50
    assert out["label-studio choices"] == out["label-studio spans"] == out["prodigy spans"] > 0
    assert "label-studio spans" in capsys.readouterr().out
