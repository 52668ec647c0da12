"""Shared machinery of the benchmark scripts: one subprocess per contender, time and peak memory.

Each contender runs in a fresh Python process (``script --worker SPEC``), so that one contender's
memory cannot hide another's.  Inside the worker, the input data are built first; then the process's
peak-RSS counter (VmHWM) is reset through ``/proc/self/clear_refs`` and the timed call runs.  The
worker reports, as one JSON line on stdout:

- ``time_s``: wall time of the call (``time.perf_counter``), and per-phase times (``phases``) when the call
  has phases; ``cpu_s``: the process's CPU time during the call (``time.process_time``: all its threads; less
  moved by other jobs than the wall time, so the better measure of how a cost grows with the input);
- ``peak_mib``: the peak resident memory of the process during the call (VmHWM after the reset);
  this includes the interpreter, the imported libraries and the input data; ``phase_peak_mib`` has the
  peak of each phase (the counter is reset before each);
- ``extra_mib``: ``peak_mib`` less the resident memory just before the call, i.e. what the call
  itself needed on top of its input;
- ``life_peak_mib``: the peak over the worker's whole life, input generation included (VmHWM read
  before the reset, and after each phase).

Every script's driver shares the rest too: section 1's data (:func:`make_matrix`, :func:`copy_first_coder`), the
command line (:func:`parser`: ``--seed``, ``--repeat``, ``--quiet``; :func:`int_list`, :func:`choices`), the lines
above and under a table (:func:`header`, :func:`print_load`, :func:`target`), contenders run in turn
(:func:`in_turn`, :func:`spread`) and the command that runs accord's command line (:func:`accord_cli`).

Linux only (``/proc``).  If the VmHWM reset is refused, ``peak_mib`` falls back to the whole-life
peak and ``peak_reset`` is false in the record.

Figures that hold (issue 18):

- **Nothing but the call is timed.** A worker imports what its contender needs and resolves every attribute it
  calls (``accord.alpha`` is a lazy PEP 562 attribute: :func:`resolve` it) before :func:`measure`; a *warmup*
  payload (a tiny input) runs the phases once, untimed, so that imports done on first use inside a library
  (scipy's sparse module, the engine's kernels) are paid before the clock too, as ``import krippendorff`` is.
- **Every measurement is repeated** (``--repeat``, default :data:`DEFAULT_REPEAT`; the driver passes it to
  the worker in its spec): ``time_s`` is the median over the repetitions, ``time_min`` / ``time_max`` the
  spread, ``phases`` the median of each phase.  Memory figures are those of the first repetition (later ones
  reuse pages the allocator kept).
- **The load is read around each run**: :func:`run_worker` records the 1-minute load average before and after
  (``load_before``, ``load_after``); :func:`load_report` prints them with a warning when the load exceeds
  :data:`QUIET_LOAD` per core -- on a shared machine the contender with the larger arrays suffers more, so
  ratios inflate: such figures are not to be published.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

MIB = 1024.0
#: Repetitions of each timed call when the driver gives none.
DEFAULT_REPEAT = 3
#: The 1-minute load average per core above which a run is flagged as shared (0.5 on 2 cores).
QUIET_LOAD = 0.25
_repeat = DEFAULT_REPEAT  # set by worker_main from the spec


def loadavg() -> float:
    """The 1-minute load average (``/proc/loadavg``; NaN where it cannot be read)."""
    try:
        with open("/proc/loadavg") as fh:
            return float(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")


def resolve(dotted: str) -> Any:
    """The object *dotted* names (``"accord.alpha"``, ``"accord.engines.reduce"``), as ``from ... import`` finds it.

    For use before the clock: ``accord``'s public names are bound on first use (PEP 562), so a name looked up
    inside the timed call would time its import.  Each part is an attribute of the one before it (which is
    how ``from accord import alpha`` gets the function, not the module ``accord.alpha``), else a submodule.
    """
    import importlib

    parts = dotted.split(".")
    obj = importlib.import_module(parts[0])
    for k in range(1, len(parts)):
        try:
            obj = getattr(obj, parts[k])
        except AttributeError:
            obj = importlib.import_module(".".join(parts[: k + 1]))
    return obj


def _status_kib(field: str, path: str = "/proc/self/status") -> int:
    """A ``FIELD: N kB`` line of */proc/self/status* (or */proc/meminfo*), in KiB; 0 when it is not there."""
    with open(path) as fh:
        match = re.search(rf"^{field}:\s+(\d+)\s+kB", fh.read(), re.MULTILINE)
    return int(match.group(1)) if match else 0


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def measure(
    phases: Sequence[tuple[str, Callable[[Any], Any]]],
    payload: Any,
    *,
    repeat: int | None = None,
    warmup: Any = None,
    loop_under: float | None = None,
) -> dict[str, Any]:
    """Run the phases in order (each gets the previous one's output), timing each; return the record.

    The first phase receives *payload*.  The result of the last phase is returned under ``result``
    (it must be JSON-serialisable).  With *warmup* (a tiny input of the same kind), the phases run once on
    it before the clock.  The whole sequence runs *repeat* times (default: the driver's ``--repeat``), each
    time from *payload*: ``time_s`` and ``phases`` are medians, ``time_min`` and ``time_max`` the spread,
    ``times`` every total; the memory figures are the first repetition's.

    With *loop_under* (seconds), a sequence quicker than that (one untimed run on *payload* tells) is timed
    as :mod:`timeit` does: each repetition runs it ``number`` times in a row, for about ten times
    *loop_under*, and the times are per run.  A single run of a few milliseconds is otherwise dominated by
    the cold caches the collection before it leaves (about half a millisecond here); ``number`` is in the
    record.
    """
    repeat = max(1, _repeat if repeat is None else repeat)
    if warmup is not None:
        out = warmup
        for _, fn in phases:
            out = fn(out)
        del out
    number = 1
    if loop_under is not None:
        t0 = time.perf_counter()
        out = payload
        for _, fn in phases:
            out = fn(out)
        once = time.perf_counter() - t0
        del out
        if once < loop_under:
            number = max(1, min(10_000, round(10 * loop_under / max(once, 1e-6))))
    runs = [_measure_once(phases, payload, number) for _ in range(repeat)]
    record = runs[0]
    totals = [r["time_s"] for r in runs]
    record["times"] = totals
    record["repeat"] = repeat
    record["number"] = number
    record["time_s"] = statistics.median(totals)
    record["time_min"], record["time_max"] = min(totals), max(totals)
    record["cpu_s"] = statistics.median(r["cpu_s"] for r in runs)
    record["phases"] = {name: statistics.median(r["phases"][name] for r in runs) for name in record["phases"]}
    record["result"] = runs[-1]["result"]
    return record


def _measure_once(phases: Sequence[tuple[str, Callable[[Any], Any]]], payload: Any, number: int = 1) -> dict[str, Any]:
    gc.collect()
    rss_before = _status_kib("VmRSS")
    peak_before = _status_kib("VmHWM")  # the input generation's peak: read it before the reset erases it
    reset = _reset_peak()
    times: dict[str, float] = {}
    phase_peaks: dict[str, float] = {}
    peak = 0
    out = payload
    cpu_start = time.process_time()
    t_start = time.perf_counter()
    for i, (name, fn) in enumerate(phases):
        if i and reset:
            _reset_peak()
        t0 = time.perf_counter()
        if number == 1:
            out = fn(out)
        else:  # timeit's way for quick calls: the same input, *number* times in a row (a phase's input is kept)
            given = out
            for _ in range(number):
                out = fn(given)
        times[name] = (time.perf_counter() - t0) / number
        phase_peak = _status_kib("VmHWM")
        phase_peaks[name] = phase_peak / MIB
        peak = max(peak, phase_peak)
    total = (time.perf_counter() - t_start) / number
    cpu = (time.process_time() - cpu_start) / number
    # ru_maxrss follows VmHWM (the reset clears both), so the whole-life peak is the larger of the two reads
    life_peak = max(peak_before, peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    if not reset:
        peak = life_peak
    return {
        "time_s": total,
        "cpu_s": cpu,
        "phases": times,
        "phase_peak_mib": phase_peaks,
        "peak_mib": peak / MIB,
        "extra_mib": max(peak - rss_before, 0) / MIB,
        "rss_before_mib": rss_before / MIB,
        "life_peak_mib": life_peak / MIB,
        "peak_reset": reset,
        "result": out,
    }


def worker_main(argv: Sequence[str] | None, run: Callable[[dict[str, Any]], dict[str, Any]]) -> bool:
    """If *argv* (default: the command line) asks for a worker (``--worker SPEC``), run it, print its JSON record
    and return True."""
    global _repeat
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) >= 2 and argv[0] == "--worker":
        spec = json.loads(argv[1])
        _repeat = int(spec.get("repeat", DEFAULT_REPEAT))
        record = run(spec)
        record["spec"] = spec
        sys.stdout.write("\n" + json.dumps(record) + "\n")
        sys.stdout.flush()
        return True
    return False


def run_worker(
    script: str, spec: dict[str, Any], *, timeout: float | None = None, repeat: int | None = None
) -> dict[str, Any]:
    """Run ``script --worker SPEC`` in a fresh interpreter; return its record (or a failure record).

    *repeat* (when given) goes into the spec for :func:`measure`.  The record gets the 1-minute load
    average read just before the worker starts and just after it ends (``load_before``, ``load_after``).
    """
    if repeat is not None:
        spec = {**spec, "repeat": repeat}
    cmd = [sys.executable, script, "--worker", json.dumps(spec)]
    load_before = loadavg()
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=_child_env())
    except subprocess.TimeoutExpired:
        record = {"spec": spec, "failed": f"timed out after {timeout:.0f} s"}
    else:
        if proc.returncode != 0:
            tail = proc.stderr.strip().splitlines()[-1:] or ["(no stderr)"]
            record = {"spec": spec, "failed": f"exit {proc.returncode}: {tail[0]}"}
        else:
            lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            record = json.loads(lines[-1])
    record["wall_s"] = time.perf_counter() - t0
    record["load_before"], record["load_after"] = load_before, loadavg()
    return record


def fmt_spread(record: dict[str, Any]) -> str:
    """``median (min-max)`` of a repeated measurement, or the single time."""
    if "time_min" not in record or record.get("repeat", 1) < 2:
        return fmt_time(record.get("time_s"))
    return f"{fmt_time(record['time_s'])} ({fmt_time(record['time_min'])}-{fmt_time(record['time_max'])})"


def fmt_load(record: dict[str, Any]) -> str:
    """The 1-minute load average before / after the run."""
    before, after = record.get("load_before"), record.get("load_after")
    if before is None:
        return "-"
    return f"{before:.2f}/{after:.2f}"


def load_report(records: Sequence[dict[str, Any]]) -> str:
    """Lines for under a table: the load around the runs, and a warning when the machine was not quiet."""
    loads = [x for r in records for x in (r.get("load_before"), r.get("load_after")) if x is not None]
    if not loads:
        return ""
    cores = os.cpu_count() or 1
    limit = QUIET_LOAD * cores
    repeats = sorted({r.get("repeat", 1) for r in records if "failed" not in r})
    lines = [
        f"load average (1 min) around the runs: {min(loads):.2f} to {max(loads):.2f} on {cores} cores; "
        f"times are medians of {', '.join(map(str, repeats)) or '-'} runs (min-max in brackets)"
    ]
    if max(loads) > limit:
        lines.append(
            f"WARNING: the load reached {max(loads):.2f}, above {limit:.2f} ({QUIET_LOAD} per core): other jobs "
            "shared the machine, so times are slow and ratios skewed (the contender with the larger arrays "
            "suffers more). Do not publish these figures; rerun on a quiet machine."
        )
    return "\n".join(lines)


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    # the benchmarks measure single-process throughput; keep BLAS from spreading over the cores
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("MKL_NUM_THREADS", "1")
    return env


def machine() -> str:
    """One line describing the machine and the library versions."""
    import platform

    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem_gib = _meminfo_kib("MemTotal") / MIB / MIB
    return (
        f"{os.cpu_count()} cores ({cpu}), {mem_gib:.0f} GiB RAM, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )


def _meminfo_kib(field: str) -> int:
    try:
        return _status_kib(field, "/proc/meminfo")
    except OSError:
        return 0


def versions(*modules: str) -> str:
    """``name version`` for each importable distribution."""
    from importlib import metadata

    out = []
    for name in modules:
        try:
            out.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            out.append(f"{name} (not installed)")
    return ", ".join(out)


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 0.01:  # a few milliseconds: a ratio against them needs the tenths
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"


def fmt_mib(mib: float | None) -> str:
    if mib is None:
        return "-"
    if mib >= 1024:
        return f"{mib / 1024:.2f} GiB"
    return f"{mib:.0f} MiB"


def fmt_ratio(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.0f}x"
    if x >= 10:
        return f"{x:.1f}x"
    return f"{x:.2f}x"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub markdown table (readable as plain text too)."""
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h)) for i, h in enumerate(header)]
    line = "| " + " | ".join(str(h).ljust(w) for h, w in zip(header, widths, strict=True)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = ["| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
    return "\n".join([line, sep, *body])


def spread(values: Sequence[float], fmt: Callable[[float], str] = fmt_ratio) -> str:
    """``median (min-max)`` of *values* in *fmt*, or the one value; ``-`` for none."""
    if not values:
        return "-"
    mid = statistics.median(values)
    if len(values) == 1:
        return fmt(mid)
    return f"{fmt(mid)} ({fmt(min(values))}-{fmt(max(values))})"


def in_turn(contenders: Sequence[tuple[str, Callable[[], Any]]], rounds: int) -> dict[str, list[float]]:
    """Wall times of each contender, run one after the other *rounds* times (the machine's speed drifts over
    seconds, so that a ratio per round compares runs made under the same conditions)."""
    times: dict[str, list[float]] = {name: [] for name, _ in contenders}
    for _ in range(rounds):
        for name, fn in contenders:
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return times


# ----------------------------------------------------------------------------- what every script's driver shares
#: The seed of section 1's data (bench_alpha.py, and bench_sets.py's sets).
SEED = 20261122


def copy_first_coder(m: Any, rng: Any, p: float = 0.5) -> Any:
    """Each cell of the coders x units matrix *m* takes coder 0's value with probability *p* (one draw per cell,
    coder 0's own included, where it changes nothing); in place, and returned."""
    import numpy as np

    copy = rng.random(m.shape) < p
    m[copy] = np.broadcast_to(m[0], m.shape)[copy]
    return m


def make_matrix(n_units: int, *, seed: int, coders: int = 3, categories: int = 10, missing: float = 0.05) -> Any:
    """Section 1's data: a coders x units float matrix of codes 1..*categories*, NaN for missing cells.

    Each coder draws uniformly, then copies coder 0's code with probability 1/2 (:func:`copy_first_coder`, so
    alpha is about 0.4, not 0); then *missing* of the cells are blanked.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    m = rng.integers(1, categories + 1, size=(coders, n_units)).astype(float)
    copy_first_coder(m, rng)
    m[rng.random(m.shape) < missing] = np.nan
    return m


def parser(doc: str, *, seed: int | None = None, repeat: int = DEFAULT_REPEAT, each: str = "contender",
           quiet: bool = True) -> argparse.ArgumentParser:
    """The command line every script shares: its docstring's first paragraph, ``--repeat`` (timed runs of each
    *each*), ``--seed`` when the script takes one, ``--quiet``."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    if seed is not None:
        ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--repeat", type=int, default=repeat,
                    help=f"timed runs of each {each}, median and min-max reported (default {repeat})")
    if quiet:
        ap.add_argument("--quiet", action="store_true", help="print only the table, the load and the targets")
    return ap


def int_list(text: str) -> list[int]:
    """``"1000,20000"`` -> ``[1000, 20000]`` (empty entries skipped)."""
    return [int(s) for s in text.split(",") if s.strip()]


def choices(ap: argparse.ArgumentParser, option: str, text: str, allowed: Sequence[str]) -> list[str]:
    """The comma-separated names of *option*, each checked against *allowed* (else the parser's error)."""
    names = [s.strip() for s in text.split(",") if s.strip()]
    for name in names:
        if name not in allowed:
            ap.error(f"{option}: {name!r} is not one of {', '.join(allowed)}")
    return names


def logger(quiet: bool) -> Callable[[str], None]:
    """``log(msg)``: print and flush, unless *quiet*."""

    def log(msg: str = "") -> None:
        if not quiet:
            print(msg, flush=True)

    return log


def header(log: Callable[[str], None], *modules: str) -> None:
    """The lines above every table: the machine, and the versions of *modules*."""
    log(f"machine: {machine()}")
    log(f"versions: {versions(*modules)}")


def print_load(records: Sequence[dict[str, Any]]) -> None:
    """Print :func:`load_report` of *records* (nothing when no load was read)."""
    report = load_report(records)
    if report:
        print(report)


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def target(what: str, measured: str, ok: bool, tail: str = "") -> str:
    """A target's line: ``target WHAT: MEASURED: met`` (or ``MISSED``), then *tail*."""
    return f"target {what}: {measured}: {verdict(ok)}{tail}"


def accord_cli(*, console_script: bool = True) -> list[str]:
    """The command that runs accord's command line: the running interpreter's venv's console script when it
    exists (what a user types), else (or with *console_script* false) ``python -c`` calling ``accord.cli.main``."""
    script = Path(sys.executable).parent / "accord"
    if console_script and script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from accord.cli import main; sys.argv[0] = 'accord'; main()"]
