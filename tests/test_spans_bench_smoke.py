"""Smoke test of benchmarks/bench_spans.py on a tiny corpus (no timing asserts; figures live in BENCHMARKS.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_spans.py"

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the harness reads /proc (Linux)")


def test_bench_spans_runs_every_statistic(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("accord_benchmarks_bench_spans", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    records = bench.main(["--spans", "600", "--quiet"])
    assert [r["spec"]["statistic"] for r in records] == list(bench.STATISTICS)
    for r in records:
        assert "failed" not in r, r
        assert -1 <= r["result"]["value"] <= 1
        lo, hi = r["result"]["interval"]
        assert lo <= hi
    assert "unitizing" in capsys.readouterr().out
