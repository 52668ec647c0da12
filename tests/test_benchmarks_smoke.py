"""Smoke tests of the benchmark scripts: each runs end to end on a tiny size, so that the scripts cannot rot.

No timing or memory assertions (those are the scripts' business, recorded in BENCHMARKS.md); only that every
contender ran in its subprocess and that the contenders' alphas agree.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the harness reads /proc (Linux)")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"accord_benchmarks_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _ok(records: list[dict]) -> list[dict]:
    failed = [r for r in records if "failed" in r]
    assert not failed, failed
    for r in records:
        assert r["time_s"] >= 0 and r["peak_mib"] > 0 and r["life_peak_mib"] >= r["peak_mib"] - 1
    return records


def test_bench_alpha_runs_every_contender_and_they_agree(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("bench_alpha")
    records = _ok(bench.main(["--sizes", "300", "--levels", "nominal,interval", "--nltk-limit", "120", "--quiet"]))
    seen = {(r["spec"]["contender"], r["spec"]["level"]) for r in records}
    contenders = ("accord", "accord-annotations", "krippendorff", "nltk")
    assert seen == {(c, lv) for c in contenders for lv in ("nominal", "interval")}
    for level in ("nominal", "interval"):
        values = [r["result"] for r in records if r["spec"]["level"] == level]
        assert np.ptp(values) < 1e-12
    assert all(r["repeat"] == 3 and r["time_min"] <= r["time_s"] <= r["time_max"] for r in records)
    assert all(r["load_before"] >= 0 and r["load_after"] >= 0 for r in records)
    out = capsys.readouterr().out
    assert "| accord" in out and "target vs krippendorff" in out
    assert "load average (1 min) around the runs" in out


def test_bench_alpha_data_have_the_stated_shape() -> None:
    harness = _load("_harness")
    m = harness.make_matrix(10_000, seed=1)
    assert m.shape == (3, 10_000)
    assert set(np.unique(m[~np.isnan(m)])) == set(range(1, 11))
    assert 0.04 < np.isnan(m).mean() < 0.06


def _digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def test_shared_data_are_the_data_each_script_generated_before() -> None:
    """Section 1's matrix and the sets' codes, now made by the harness, are bit for bit what bench_alpha.py,
    bench_report.py and bench_sets.py each generated with their own copy (digests taken from those copies)."""
    harness = _load("_harness")
    assert _digest(harness.make_matrix(1000, seed=1)) == "df23988506c22bd6"
    assert _digest(_load("bench_sets").make_set_codes(1000, seed=1)) == "e1288e6858e2afe0"
    for name in ("bench_alpha", "bench_report"):
        source = (BENCH / f"{name}.py").read_text()
        assert "h.make_matrix(" in source and "def make_matrix" not in source, name


def test_bench_sets_runs_accord_and_nltk_and_they_agree(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("bench_sets")
    # --sizes equal to --nltk-units: accord is not run a second time at that size
    records = _ok(bench.main(["--nltk-units", "200", "--sizes", "200", "--quiet"]))
    by = {(r["spec"]["contender"], r["spec"]["n_units"]): r for r in records}
    assert set(by) == {("accord", 200), ("nltk", 200)}
    assert abs(by[("accord", 200)]["result"] - by[("nltk", 200)]["result"]) < 1e-10
    assert "krippendorff: cannot take set values" in capsys.readouterr().out


def test_bench_sets_data_are_sets_of_one_to_four_of_twenty() -> None:
    bench = _load("bench_sets")
    m = bench.make_sets(2_000, seed=1)
    sizes = np.vectorize(len)(m)
    assert m.shape == (3, 2_000) and sizes.min() == 1 and sizes.max() == 4
    assert set().union(*m.ravel()) == set(range(20))


def test_bench_coref_runs_both_conventions(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("bench_coref")
    records = _ok(bench.main(["--sizes", "2000", "--quiet"]))
    assert {r["spec"]["convention"] for r in records} == {"classes", "classes-less-unit"}
    for r in records:
        assert set(r["phases"]) == {"build", "alpha"}
        assert -1 <= r["result"]["alpha"] <= 1
    assert "classes-less-unit" in capsys.readouterr().out


def test_bench_coref_corpus_matches_the_coref_alpha_of_its_records() -> None:
    from accord.coref import CorefAnnotations
    from accord.coref._alpha import coref_alpha

    bench = _load("bench_coref")
    df = bench.make_corpus(1_000, seed=3, doc_size=100)
    assert len(df) == 3_000 and df["document"].nunique() == 10
    assert 0 < df["chain"].isna().mean() < 0.03
    data = CorefAnnotations.from_records(df)
    assert data.n_mentions == 1_000
    assert 0 < coref_alpha(data, distance="set-relation").alpha < 1


def test_bench_startup_runs_every_case_and_the_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("bench_startup")
    records = bench.main(["--repeat", "1", "--pairs", "2", "--quiet"])
    out = capsys.readouterr().out
    for case in ("import accord", "accord --help", "accord agree 100 rows"):
        assert case in out
    pair = records[-1]
    assert len(pair["ratios"]) == 2 and len(pair["times"]["accord"]) == len(pair["times"]["numpy"]) == 2
    assert pair["ratio"] == np.median(pair["ratios"]) and pair["load_before"] >= 0
    assert "ratio accord / numpy per pair: median (min-max)" in out
    assert 'target accord --help within 1.5x of python -c "import numpy": ' in out
    assert out.rstrip().endswith(("met", "MISSED"))


def test_bench_startup_runs_the_console_script_beside_the_interpreter(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    harness = _load("_harness")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert harness.accord_cli()[1:3] == ["-c", "import sys; from accord.cli import main; sys.argv[0] = 'accord'; "
                                                "main()"]  # no console script: the -c form
    (tmp_path / "accord").write_text("#!/bin/sh\n")
    assert harness.accord_cli() == [str(tmp_path / "accord")]
    assert harness.accord_cli(console_script=False)[1] == "-c"


def test_harness_repeats_warms_up_and_resolves_lazy_names() -> None:
    harness = _load("_harness")
    calls: list[int] = []

    def phase(x: int) -> int:
        calls.append(x)
        return x + 1

    record = harness.measure([("one", phase), ("two", phase)], 10, repeat=3, warmup=0)
    assert calls == [0, 1] + [10, 11] * 3  # the warm-up first, then three timed runs from the payload
    assert record["repeat"] == 3 and len(record["times"]) == 3 and record["result"] == 12
    assert record["time_min"] <= record["time_s"] <= record["time_max"]
    assert set(record["phases"]) == {"one", "two"} and record["cpu_s"] >= 0
    import accord

    assert harness.resolve("accord.alpha") is accord.alpha  # a lazy (PEP 562) attribute
    assert harness.resolve("numpy.linalg.norm") is np.linalg.norm


def test_harness_times_quick_calls_in_a_loop() -> None:
    harness = _load("_harness")
    calls: list[int] = []

    def quick(x: int) -> int:
        calls.append(x)
        return x + 1

    record = harness.measure([("call", quick)], 5, repeat=2, warmup=0, loop_under=0.01)
    n = record["number"]
    assert n > 1 and calls == [0, 5] + [5] * (2 * n)  # warm-up, the probe, then the loop, each from the payload
    assert record["result"] == 6 and record["time_s"] < 0.01  # a time per call
    slow = harness.measure([("call", quick)], 5, repeat=1, loop_under=1e-9)
    assert slow["number"] == 1


def test_harness_warns_when_the_machine_is_busy() -> None:
    harness = _load("_harness")
    quiet = harness.load_report([{"load_before": 0.1, "load_after": 0.2, "repeat": 3}])
    assert "0.10 to 0.20" in quiet and "WARNING" not in quiet
    busy = harness.load_report([{"load_before": 0.1, "load_after": 9.0, "repeat": 3}])
    assert "WARNING: the load reached 9.00" in busy and "rerun on a quiet machine" in busy


def test_harness_shares_the_drivers_plumbing(capsys: pytest.CaptureFixture[str]) -> None:
    harness = _load("_harness")
    assert harness.spread([]) == "-" and harness.spread([2.0]) == "2.00x"
    assert harness.spread([1.0, 3.0, 2.0]) == "2.00x (1.00x-3.00x)"
    assert harness.spread([1.0, 1.5], "{:.2f}".format) == "1.25 (1.00-1.50)"
    order: list[str] = []
    times = harness.in_turn([("a", lambda: order.append("a")), ("b", lambda: order.append("b"))], 3)
    assert order == ["a", "b"] * 3 and [len(v) for v in times.values()] == [3, 3]
    assert harness.target("x (1 unit)", "2 s (< 3 s)", True, "; tail") == "target x (1 unit): 2 s (< 3 s): met; tail"
    assert harness.target("x", "4 s", False) == "target x: 4 s: MISSED"
    assert harness.int_list("10, 20,,30") == [10, 20, 30]
    ap = harness.parser("Title.\n\nMore.", seed=7, each="case")
    args = ap.parse_args([])
    assert (args.seed, args.repeat, args.quiet) == (7, harness.DEFAULT_REPEAT, False)
    assert harness.choices(ap, "--levels", "nominal, interval", ("nominal", "interval")) == ["nominal", "interval"]
    with pytest.raises(SystemExit):
        harness.choices(ap, "--levels", "nominal,ratio", ("nominal", "interval"))
    assert "--levels: 'ratio' is not one of nominal, interval" in capsys.readouterr().err
    harness.logger(True)("hidden")
    harness.logger(False)("shown")
    assert capsys.readouterr().out == "shown\n"
