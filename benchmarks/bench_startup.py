"""Start-up time of the command line and of ``import accord``, side by side with the libraries it rests on.

Each case runs in a fresh interpreter, ``--repeat`` times (the harness's rule: median and min-max); the median wall
time is printed with its ratio to a bare ``python -c pass``, and the 1-minute load average before and after each
case, with a warning when the machine was not quiet (``benchmarks/_harness.py``).  The 100-row ``agree`` input is
generated in a temporary folder.

Then the target of issue 31, ``accord --help`` within 1.5x of ``python -c "import numpy"``: the two commands run
as whole processes in turn, ``--pairs`` times (default 20), and the ratio is taken within each pair (the machine's
speed drifts over seconds); printed: each command's median wall time, the median (min-max) of the per-pair ratios,
the load around the pairs and the target's line.  ``accord`` is the console script installed beside the running
interpreter (``Path(sys.executable).parent / "accord"``, what a user types) when there is one, else ``python -c``
calling ``accord.cli.main`` as the table's cases do.

    python benchmarks/bench_startup.py [--repeat 7] [--pairs 20]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as h  # noqa: E402

#: issue 31: ``accord --help`` within this many times ``python -c "import numpy"``.
TARGET_RATIO = 1.5
NUMPY = [sys.executable, "-c", "import numpy"]


def _cases(small: Path) -> list[tuple[str, list[str]]]:
    py = sys.executable
    accord_cli = h.accord_cli(console_script=False)
    return [
        ("python -c pass", [py, "-c", "pass"]),
        ("import numpy", NUMPY),
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


def _process(cmd: Sequence[str]) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(repeat: int = 7) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        small = _write_small(Path(tmp))
        records = []
        for name, cmd in _cases(small):
            times = []
            load_before = h.loadavg()
            for _ in range(repeat):
                t0 = time.perf_counter()
                _process(cmd)
                times.append(time.perf_counter() - t0)
            records.append({"case": name, "median_s": statistics.median(times), "min_s": min(times),
                            "max_s": max(times), "repeat": repeat, "load_before": load_before,
                            "load_after": h.loadavg()})
    return records


def pairs(n: int = 20) -> dict[str, Any]:
    """``accord --help`` and ``python -c "import numpy"`` as whole processes in turn, *n* times: the record."""
    accord = [*h.accord_cli(), "--help"]
    _process(accord), _process(NUMPY)  # the disk cache warm for both, as for the table's cases
    load_before = h.loadavg()
    times = h.in_turn([("accord", lambda: _process(accord)), ("numpy", lambda: _process(NUMPY))], n)
    ratios = [a / b for a, b in zip(times["accord"], times["numpy"], strict=True)]
    return {"accord": accord, "times": times, "ratios": ratios, "ratio": statistics.median(ratios), "repeat": n,
            "load_before": load_before, "load_after": h.loadavg()}


def print_pairs(rec: dict[str, Any]) -> None:
    cmd = rec["accord"][0] if len(rec["accord"]) == 2 else "python -c (accord.cli.main)"
    numpy = 'python -c "import numpy"'
    print()
    print(f"accord --help beside {numpy}: {rec['repeat']} pairs run in turn, whole processes (accord: {cmd})")
    print(f"  {'accord --help':<26} median {h.fmt_time(statistics.median(rec['times']['accord']))}")
    print(f"  {numpy:<26} median {h.fmt_time(statistics.median(rec['times']['numpy']))}")
    print(f"  ratio accord / numpy per pair: median (min-max) {h.spread(rec['ratios'])}")
    h.print_load([rec])
    print(h.target(f"accord --help within {TARGET_RATIO:g}x of {numpy}",
                   f"{h.fmt_ratio(rec['ratio'])} (median of {rec['repeat']} pair ratios)",
                   rec["ratio"] <= TARGET_RATIO))


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run the table's cases and the pairs; print them; return the records (the pairs' last)."""
    parser = h.parser(__doc__, repeat=7, each="case")
    parser.add_argument("--pairs", type=int, default=20,
                        help="accord --help and import numpy in turn, this many pairs (default 20; 0: none)")
    args = parser.parse_args(argv)
    h.header(h.logger(args.quiet), "accord", "numpy", "typer", "rich")
    records = run(args.repeat)
    base = records[0]["median_s"]
    print(f"{'case':<24} {'median s':>9} {'min s':>7} {'max s':>7} {'x pass':>7} {'load':>11}")
    for r in records:
        print(f"{r['case']:<24} {r['median_s']:9.3f} {r['min_s']:7.3f} {r['max_s']:7.3f} {r['median_s'] / base:7.1f} "
              f"{h.fmt_load(r):>11}")
    h.print_load(records)
    if args.pairs > 0:
        rec = pairs(args.pairs)
        print_pairs(rec)
        records.append(rec)
    return records


if __name__ == "__main__":
    main()
