"""Start-up time of the command line and of ``import accord``, side by side with the libraries it rests on.

Each case runs in a fresh interpreter, ``--repeat`` times (the harness's rule: median and min-max); the median wall
time is printed with its ratio to a bare ``python -c pass``, and the 1-minute load average before and after each
case, with a warning when the machine was not quiet (``benchmarks/_harness.py``).  The 100-row ``agree`` input is
generated in a temporary folder.

    python benchmarks/bench_startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import load_report, loadavg  # noqa: E402


def _cases(small: Path) -> list[tuple[str, list[str]]]:
    py = sys.executable
    accord_cli = [py, "-c", "import sys; from accord.cli import main; sys.argv[0] = 'accord'; main()"]
    return [
        ("python -c pass", [py, "-c", "pass"]),
        ("import numpy", [py, "-c", "import numpy"]),
        ("import pandas", [py, "-c", "import pandas"]),
        ("import krippendorff", [py, "-c", "import krippendorff"]),
        ("import accord", [py, "-c", "import accord"]),
        ("accord --help", [*accord_cli, "--help"]),
        ("accord agree 100 rows", [*accord_cli, "agree", str(small)]),
    ]


def _write_small(folder: Path, rows: int = 100) -> Path:
    path = folder / "small.csv"
    lines = ["unit,coder,value"]
    for i in range(rows):
        lines.append(f"u{i // 4},c{i % 4},{'abc'[(i * 7) % 3]}")
    path.write_text("\n".join(lines) + "\n")
    return path


def run(repeat: int = 7) -> list[dict[str, float | str]]:
    with tempfile.TemporaryDirectory() as tmp:
        small = _write_small(Path(tmp))
        records = []
        for name, cmd in _cases(small):
            times = []
            load_before = loadavg()
            for _ in range(repeat):
                t0 = time.perf_counter()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times.append(time.perf_counter() - t0)
            records.append({"case": name, "median_s": statistics.median(times), "min_s": min(times),
                            "max_s": max(times), "repeat": repeat, "load_before": load_before,
                            "load_after": loadavg()})
    return records


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    records = run(args.repeat)
    base = records[0]["median_s"]
    print(f"{'case':<24} {'median s':>9} {'min s':>7} {'max s':>7} {'x pass':>7} {'load':>11}")
    for r in records:
        load = f"{r['load_before']:.2f}/{r['load_after']:.2f}"
        print(f"{r['case']:<24} {r['median_s']:9.3f} {r['min_s']:7.3f} {r['max_s']:7.3f} {r['median_s'] / base:7.1f} "
              f"{load:>11}")
    print(load_report(records))


if __name__ == "__main__":
    main()
