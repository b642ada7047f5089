"""The test suite's own speed (issue 48): `uv run pytest` on clones of the commits given, run
alternately, each run's wall time, its processes' CPU and the machine's (which also counts
the PostgreSQL servers the tests start: daemons, outside the process tree).

    uv run python bench/suite.py [--commits HEAD~1 HEAD] [--runs 2] [--fresh] [--load 4]

`--fresh` removes every bytecode cache before each run, as a fresh clone has none (the
clones' virtual environments are made once, by `uv sync --locked`, as `uv run` would);
`--load K` keeps K CPU-bound processes busy beside the suite (a machine busy with other
work). Compare only runs of one call: the machine's speed drifts within the hour.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Run:
    commit: str
    wall: float
    tree_cpu: float
    """User + sys of `uv run pytest` and every process it waited for."""
    machine_cpu: float
    """Busy time of all the machine's cores during the run."""
    passed: bool


def busy_seconds() -> float:
    """The machine's busy CPU time so far (`/proc/stat`: all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def clone(commit: str, into: Path) -> Path:
    """A clone of `commit` with its own environment, as a developer's fresh checkout."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(into)], check=True)
    subprocess.run(["git", "checkout", "-q", commit], cwd=into, check=True)
    subprocess.run(["uv", "sync", "--locked", "-q"], cwd=into, check=True)
    return into


def without_bytecode(tree: Path) -> None:
    for cache in list(tree.rglob("__pycache__")):
        shutil.rmtree(cache, ignore_errors=True)


def measured(commit: str, tree: Path) -> Run:
    """One `uv run pytest -q` in `tree`, as the README runs it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    machine, start = busy_seconds(), time.perf_counter()
    done = subprocess.run(["uv", "run", "pytest", "-q", "-p", "no:cacheprovider"], cwd=tree,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(commit, wall, cpu, busy_seconds() - machine, done.returncode == 0)


@contextmanager
def load(processes: int) -> Iterator[None]:
    """`processes` CPU-bound processes beside whatever runs meanwhile."""
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(processes)]
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


def table(runs: list[Run]) -> None:
    print("| commit | runs | wall (s) | process tree CPU (s) | machine CPU (s) | passed |")
    print("|---|---|---|---|---|---|")
    for commit in dict.fromkeys(r.commit for r in runs):
        mine = [r for r in runs if r.commit == commit]
        print(f"| {commit} | {len(mine)} | {spread([r.wall for r in mine])} "
              f"| {spread([r.tree_cpu for r in mine])} "
              f"| {spread([r.machine_cpu for r in mine])} "
              f"| {sum(r.passed for r in mine)}/{len(mine)} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commits", nargs="+", default=["HEAD"])
    parser.add_argument("--runs", type=int, default=2, help="runs per commit, alternating")
    parser.add_argument("--fresh", action="store_true", help="no bytecode before each run")
    parser.add_argument("--load", type=int, default=0, help="CPU-bound processes beside")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="keizer-suite-") as folder:
        trees = {c: clone(c, Path(folder) / str(k)) for k, c in enumerate(args.commits)}
        runs = []
        with load(args.load):
            for _ in range(args.runs):
                for commit, tree in trees.items():
                    if args.fresh:
                        without_bytecode(tree)
                    runs.append(measured(commit, tree))
    print(f"`uv run pytest -q`, {os.cpu_count()} cores, fresh: {args.fresh}, "
          f"load: {args.load} (median and range)\n")
    table(runs)


if __name__ == "__main__":
    main()
