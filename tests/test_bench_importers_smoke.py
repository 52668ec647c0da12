"""Smoke test of benchmarks/bench_importers.py: every contender runs in its subprocess on tiny exports.

No timing assertions (the figures are in BENCHMARKS.md); only that each contender ran and that every importer read
every value or span of the generated exports (one plan of records, written in each tool's schema).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the harness reads /proc (Linux)")


def _load():
    spec = importlib.util.spec_from_file_location("accord_benchmarks_bench_importers", BENCH / "bench_importers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_bench_importers_runs_every_contender(capsys: pytest.CaptureFixture[str]) -> None:
    module = _load()
    records = module.main(["--records", "150", "--csv-rows", "120", "--repeat", "1", "--quiet"])
    failed = [r for r in records if "failed" in r]
    assert not failed, failed
    out = {r["spec"]["contender"]: r["result"] for r in records}
    assert set(out) == {*module.CONTENDERS, module.CLI}
    annotated = sum(state == "annotated" for *_, state, _ in module.plan(150, 20261123))
    for name in ("label-studio choices", "label-studio spans", "prodigy spans", "doccano spans", "argilla labels",
                 "spreadsheet wide", "inception-agreement", "mturk", "csv", "csv quoted"):
        assert out[name] == annotated, name
    assert out["json.load"] == len({item for item, *_ in module.plan(150, 20261123)})
    spans = sum(sum(map(bool, labels)) for *_, labels in module._doc_plan(150, 20261123))
    assert out["inception spans"] == out["brat spans"] == spans
    assert out[module.CLI] == sum(state == "annotated" for *_, state, _ in module.plan(120, 20261123))
    text = capsys.readouterr().out
    assert "label-studio spans" in text and "load average (1 min) around the runs" in text


def test_bench_importers_prints_the_scaling_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    module = _load()
    records = module.main(["--records", "60,240", "--csv-rows", "0", "--tools", "csv,prodigy spans", "--repeat", "2",
                           "--quiet"])
    assert len(records) == 4 and not [r for r in records if "failed" in r]
    assert all(r["repeat"] == 2 and r["time_min"] <= r["time_s"] <= r["time_max"] for r in records)
    assert "CPU time ratio 240 / 60 records" in capsys.readouterr().out
