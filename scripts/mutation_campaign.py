"""The mutation campaign of issue 29: damaged and re-serialised copies of every input kind through the CLI.

Runs *--runs* mutants (the input kinds of ``tests/_mutation.py`` in turn, a mutation drawn for each from
``--seed``), each in process under a time limit, and prints a table of outcomes by input kind.  The failures
(traceback, a run over 5 s of CPU on an input under 1 MB, a run stopped at ``--limit``, a refusal that is not
one ``accord: error:`` line with exit 2, ``--json`` output that is not JSON, a success on damage no reader can
take whole, and for meaning-preserving mutations a refusal or a changed number) are written to ``--out`` as
JSON: kind, command, mutation, seed, what changed, the outcome and its first line; with ``--families`` the
failures are also printed grouped by symptom and place.

    python scripts/mutation_campaign.py --runs 3000 --seed 1 --out mutation-failures.json
    python scripts/mutation_campaign.py --replay csv-long/pad/17 --keep /tmp/case   # rebuild one case

Run from the repository's root (``make mutate RUNS=3000 SEED=1``).  A run that leaves the process unusable
is not expected; a memory limit (``--memory``, GiB of address space) keeps a runaway allocation a
``MemoryError`` rather than the machine's problem.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import _mutation as M  # noqa: E402


def _family(f: dict) -> str:
    """The symptom and place of a failure, for grouping: the exception and the accord frame, or the outcome."""
    if f["outcome"] == "traceback":
        exc, _, rest = f["first_line"].partition(": ")
        where = rest.rpartition(" @ ")[2]
        where = ":".join(p for i, p in enumerate(where.split(":")) if i != 1)  # file:function, no line number
        return f"traceback {exc} @ {where}"
    if f["outcome"] in ("numbers-changed", "refused-preserving", "read-damaged"):
        return f"{f['outcome']} {f['kind']} {f['mutation']}"
    return f"{f['outcome']} {f['kind']}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3000, help="Number of runs (mutants that apply).")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, help="JSON file of the failures.")
    ap.add_argument("--force", action="store_true", help="Replace an existing --out file.")
    ap.add_argument("--kinds", help="Comma-separated input kinds (default: all).")
    ap.add_argument("--mutations", help="Comma-separated mutations (default: all).")
    ap.add_argument("--limit", type=float, default=M.HARD_LIMIT, help="Seconds before a run is stopped.")
    ap.add_argument("--memory", type=float, default=8.0, help="GiB of address space (0: no limit).")
    ap.add_argument("--families", action="store_true", help="Print the failures grouped by symptom and place.")
    ap.add_argument("--replay", help="KIND/MUTATION/SEED: build that one case, run it and print what it did.")
    ap.add_argument("--keep", type=Path, help="With --replay: the folder to build the case in (kept).")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)

    if a.out and a.out.exists() and not a.force:
        ap.error(f"{a.out} exists (pass --force to replace it)")
    if a.memory > 0:
        try:
            import resource

            cap = int(a.memory * 2**30)
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard == resource.RLIM_INFINITY or hard > cap:
                resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        except (ImportError, ValueError, OSError):  # pragma: no cover - not on this platform
            pass
    os.environ.setdefault("COLUMNS", "120")

    if a.replay:
        kind, mutation, seed = a.replay.rsplit("/", 2)
        target = M.TARGET_BY_KIND[kind]
        base = Path(tempfile.mkdtemp(prefix="accord-replay-"))
        wd = a.keep or base / "case"
        if a.keep and a.keep.exists():
            shutil.rmtree(a.keep)
        res = M.run_mutant(target, mutation, int(seed), wd, limit=a.limit)
        if res is None:
            print("the mutation does not apply to that case")
            return 1
        m, out = res
        print(f"case:     {kind}/{mutation}/{seed}  ({m.file}: {m.detail})")
        print(f"folder:   {wd}")
        print(f"command:  cd {wd} && {M.command_line(m)}")
        print(f"outcome:  {out.outcome}  {out.detail}  ({out.seconds:.2f} s)")
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)
        return 0

    kinds = list(M.TARGETS)
    if a.kinds:
        kinds = [M.TARGET_BY_KIND[k] for k in a.kinds.split(",")]
    mutations = tuple(a.mutations.split(",")) if a.mutations else M.MUTATIONS
    unknown = set(mutations) - set(M.MUTATIONS)
    if unknown:
        ap.error(f"unknown mutations: {', '.join(sorted(unknown))}; known: {', '.join(M.MUTATIONS)}")

    base = Path(tempfile.mkdtemp(prefix="accord-mutate-"))
    table: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    by_mutation: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    failures: list[dict] = []
    slowest: list[tuple[float, str]] = []
    rng = random.Random(a.seed)
    done = skipped = 0
    t0 = time.perf_counter()
    i = 0
    try:
        while done < a.runs:
            target = kinds[i % len(kinds)]
            i += 1
            # a mutation that applies to this kind (a few draws; a kind none applies to is skipped)
            for _ in range(20):
                mutation, seed = rng.choice(mutations), rng.randrange(2**31)
                res = M.run_mutant(target, mutation, seed, base / "case", limit=a.limit)
                if res is not None:
                    break
                skipped += 1
            else:
                continue
            m, out = res
            done += 1
            table[target.kind][out.outcome] += 1
            slowest = sorted(slowest + [(out.seconds, f"{target.kind}/{mutation}/{seed} ({m.size:,} bytes, "
                                                     f"{out.outcome})")], reverse=True)[:5]
            by_mutation[mutation][out.outcome] += 1
            if out.outcome in M.FAILURES:
                failures.append({
                    "kind": target.kind, "mutation": mutation, "seed": seed, "file": m.file, "change": m.detail,
                    "command": M.command_line(m), "outcome": out.outcome, "first_line": out.detail,
                    "seconds": round(out.seconds, 3), "replay": f"{target.kind}/{mutation}/{seed}",
                })
            if not a.quiet and done % 100 == 0:
                print(f"{done} runs, {len(failures)} failures, {time.perf_counter() - t0:.0f} s", file=sys.stderr,
                      flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)

    outcomes = [o for o in M.OUTCOMES if any(c[o] for c in table.values())]
    w = max(len(k) for k in list(table) + list(by_mutation) + ["kind"])

    def print_table(title: str, rows: dict[str, collections.Counter]) -> None:
        print(f"{title:<{w}} " + " ".join(f"{o:>{max(len(o), 5)}}" for o in outcomes) + "  total")
        total: collections.Counter = collections.Counter()
        for k in sorted(rows):
            total.update(rows[k])
            print(f"{k:<{w}} " + " ".join(f"{rows[k][o]:>{max(len(o), 5)}}" for o in outcomes)
                  + f"  {sum(rows[k].values()):>5}")
        print(f"{'all':<{w}} " + " ".join(f"{total[o]:>{max(len(o), 5)}}" for o in outcomes)
              + f"  {sum(total.values()):>5}")

    print(f"{done} runs (seed {a.seed}; {skipped} draws did not apply), {time.perf_counter() - t0:.0f} s")
    print_table("kind", table)
    print()
    print_table("mutation", by_mutation)
    print("\nslowest runs (wall clock): " + "; ".join(f"{t:.2f} s {c}" for t, c in slowest))
    families = collections.defaultdict(list)
    for f in failures:
        families[_family(f)].append(f)
    print(f"\n{len(failures)} failures in {len(families)} families")
    if a.families:
        for fam, fs in sorted(families.items(), key=lambda kv: -len(kv[1])):
            ex = min(fs, key=lambda f: len(f["change"]))
            print(f"- {len(fs):4d}  {fam}\n        e.g. {ex['replay']}: {ex['first_line'][:160]}")
    if a.out:
        a.out.write_text(json.dumps({"runs": done, "seed": a.seed, "table": {k: dict(v) for k, v in table.items()},
                                     "slowest": [{"seconds": round(t, 3), "case": c} for t, c in slowest],
                                     "failures": failures}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {a.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
