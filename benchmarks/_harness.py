"""Shared machinery of the benchmark scripts: one subprocess per contender, time and peak memory.

Each contender runs in a fresh Python process (``script --worker SPEC``), so that one contender's
memory cannot hide another's.  Inside the worker, the input data are built first; then the process's
peak-RSS counter (VmHWM) is reset through ``/proc/self/clear_refs`` and the timed call runs.  The
worker reports, as one JSON line on stdout:

- ``time_s``: wall time of the call (``time.perf_counter``), and per-phase times (``phases``) when the call
  has phases;
- ``peak_mib``: the peak resident memory of the process during the call (VmHWM after the reset);
  this includes the interpreter, the imported libraries and the input data; ``phase_peak_mib`` has the
  peak of each phase (the counter is reset before each);
- ``extra_mib``: ``peak_mib`` less the resident memory just before the call, i.e. what the call
  itself needed on top of its input;
- ``life_peak_mib``: the peak over the worker's whole life, input generation included (VmHWM read
  before the reset, and after each phase).

Linux only (``/proc``).  If the VmHWM reset is refused, ``peak_mib`` falls back to the whole-life
peak and ``peak_reset`` is false in the record.
"""

from __future__ import annotations

import gc
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

MIB = 1024.0


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as fh:
        match = re.search(rf"^{field}:\s+(\d+)\s+kB", fh.read(), re.MULTILINE)
    return int(match.group(1)) if match else 0


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def measure(phases: Sequence[tuple[str, Callable[[Any], Any]]], payload: Any) -> dict[str, Any]:
    """Run the phases in order (each gets the previous one's output), timing each; return the record.

    The first phase receives *payload*.  The result of the last phase is returned under ``result``
    (it must be JSON-serialisable).
    """
    gc.collect()
    rss_before = _status_kib("VmRSS")
    peak_before = _status_kib("VmHWM")  # the input generation's peak: read it before the reset erases it
    reset = _reset_peak()
    times: dict[str, float] = {}
    phase_peaks: dict[str, float] = {}
    peak = 0
    out = payload
    t_start = time.perf_counter()
    for i, (name, fn) in enumerate(phases):
        if i and reset:
            _reset_peak()
        t0 = time.perf_counter()
        out = fn(out)
        times[name] = time.perf_counter() - t0
        phase_peak = _status_kib("VmHWM")
        phase_peaks[name] = phase_peak / MIB
        peak = max(peak, phase_peak)
    total = time.perf_counter() - t_start
    # ru_maxrss follows VmHWM (the reset clears both), so the whole-life peak is the larger of the two reads
    life_peak = max(peak_before, peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    if not reset:
        peak = life_peak
    return {
        "time_s": total,
        "phases": times,
        "phase_peak_mib": phase_peaks,
        "peak_mib": peak / MIB,
        "extra_mib": max(peak - rss_before, 0) / MIB,
        "rss_before_mib": rss_before / MIB,
        "life_peak_mib": life_peak / MIB,
        "peak_reset": reset,
        "result": out,
    }


def worker_main(argv: Sequence[str], run: Callable[[dict[str, Any]], dict[str, Any]]) -> bool:
    """If *argv* asks for a worker (``--worker SPEC``), run it, print its JSON record and return True."""
    if len(argv) >= 2 and argv[0] == "--worker":
        spec = json.loads(argv[1])
        record = run(spec)
        record["spec"] = spec
        sys.stdout.write("\n" + json.dumps(record) + "\n")
        sys.stdout.flush()
        return True
    return False


def run_worker(script: str, spec: dict[str, Any], *, timeout: float | None = None) -> dict[str, Any]:
    """Run ``script --worker SPEC`` in a fresh interpreter; return its record (or a failure record)."""
    cmd = [sys.executable, script, "--worker", json.dumps(spec)]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=_child_env())
    except subprocess.TimeoutExpired:
        return {"spec": spec, "failed": f"timed out after {timeout:.0f} s", "wall_s": time.perf_counter() - t0}
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["(no stderr)"]
        return {"spec": spec, "failed": f"exit {proc.returncode}: {tail[0]}", "wall_s": time.perf_counter() - t0}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    record = json.loads(lines[-1])
    record["wall_s"] = time.perf_counter() - t0
    return record


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
        with open("/proc/meminfo") as fh:
            match = re.search(rf"^{field}:\s+(\d+)\s+kB", fh.read(), re.MULTILINE)
        return int(match.group(1)) if match else 0
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
