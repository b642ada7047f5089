"""Pairing benchmark on the stored instances (bench/instances.py): time per phase, optimality,
and how the traditional top-down pairing compares. Prints markdown tables.

    uv run python bench/pairing.py [--repeats 20] [--full-repeats 5] [--cpsat]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path

from core.pairing import Engine, PairingRequest, baseline, blossom, pair, request_for_round
from core.pairing.evaluate import evaluate
from core.pairing.selection import Selection, to_pairing
from core.season import read_season

HERE = Path(__file__).parent / "instances"


def load() -> list[tuple[str, PairingRequest]]:
    out = []
    for path in sorted(HERE.glob("*.json")):
        season = read_season(path.read_text(encoding="utf-8"))
        out.append((path.stem, request_for_round(season, len(season.rounds))))
    return out


def group(name: str) -> str:
    if name.startswith("small"):
        return "small clubs 13-17, last round"
    if name.startswith("impossible"):
        return f"impossible, N={name.removeprefix('impossible')}"
    n, phase = re.match(r"n(\d+)-(\w+)", name).groups()  # type: ignore[union-attr]
    return f"N={int(n)}, {phase}"


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:.1f} / {p95 * 1000:.1f} / {ordered[-1] * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--full-repeats", type=int, default=5,
                        help="repeats of the solve with and without pruning")
    parser.add_argument("--cpsat", action="store_true", help="also time CP-SAT (N <= 101)")
    args = parser.parse_args()
    rows: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for name, request in load():
        runs = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            p = pair(request)
            runs.append((time.perf_counter() - start, p))
        first = runs[0][1]
        row = rows[group(name)]
        row["n"].append(len(request.present))
        for seconds, p in runs:
            row["evaluate"].append(p.timings.evaluate)
            row["build"].append(p.timings.build)
            row["solve"].append(p.timings.solve)
            row["total"].append(seconds)
        row["optimal"].append(all(p.optimal for _, p in runs))
        row["identical"].append(all((p.boards, p.bye, p.broken) ==
                                    (first.boards, first.bye, first.broken) for _, p in runs))
        row["broken"].append(len(first.broken))
        start = time.perf_counter()
        top = baseline(request)
        row["baseline_time"].append(time.perf_counter() - start)
        if top is None:
            row["baseline_failed"].append(1)
        else:
            row["baseline_failed"].append(0)
            assert first.objective <= top.objective, name
            worse = top.objective.distance / first.objective.distance - 1 \
                if first.objective.distance else 0.0
            row["baseline_worse"].append(worse)
        for _ in range(args.full_repeats):
            start = time.perf_counter()
            engine = pair(request)
            row["pruned"].append(time.perf_counter() - start)
            start = time.perf_counter()
            table = evaluate(request)
            chosen = blossom.solve(table, blossom.build(table), prune=False)
            row["all_boards"].append(time.perf_counter() - start)
            assert isinstance(chosen, Selection), name
            every = to_pairing(request, table, chosen, optimal=True, engine="blossom",
                               timings=engine.timings)
            row["same_as_all"].append(every == engine)
        if args.cpsat and len(request.present) <= 101:
            start = time.perf_counter()
            c = pair(request, Engine.CPSAT)
            row["cpsat"].append(time.perf_counter() - start)
            assert c.objective == first.objective, name

    print(f"Pairing, whole round in-process, {args.repeats} repeats per instance "
          "(times in ms: median / p95 / max)\n")
    print("| instances | N | evaluate | build | solve | total | optimal | identical | "
          "rules broken |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key, r in rows.items():
        print(f"| {key} | {min(r['n'])}-{max(r['n'])} | {ms(r['evaluate'])} | {ms(r['build'])} "
              f"| {ms(r['solve'])} | {ms(r['total'])} | {sum(r['optimal'])}/{len(r['optimal'])} "
              f"| {sum(r['identical'])}/{len(r['identical'])} | {sum(r['broken'])} |")
    print("\nThe whole round as the engine pairs it (the band, each player's nearest boards, "
          "the bound), against pricing every board and one matching on all of them "
          f"({args.full_repeats} repeats, alternating)\n")
    print("| instances | engine | every board | same pairing |")
    print("|---|---|---|---|")
    for key, r in rows.items():
        print(f"| {key} | {ms(r['pruned'])} | {ms(r['all_boards'])} "
              f"| {sum(r['same_as_all'])}/{len(r['same_as_all'])} |")
    print("\nAgainst the traditional top-down pairing (backtracking, 200,000 nodes)\n")
    print("| instances | top-down fails | top-down worse | worse by (mean, max) "
          "| top-down time (median / p95 / max) |")
    print("|---|---|---|---|---|")
    for key, r in rows.items():
        worse = [w for w in r["baseline_worse"] if w > 0]
        spread = f"{statistics.mean(worse):.0%}, {max(worse):.0%}" if worse else "-"
        print(f"| {key} | {sum(r['baseline_failed'])}/{len(r['baseline_failed'])} "
              f"| {len(worse)}/{len(r['baseline_worse'])} | {spread} | {ms(r['baseline_time'])} |")
    if args.cpsat:
        print("\nCP-SAT (tuned: 1 worker, linearization 2, 5 cut rounds), same objective\n")
        print("| instances | CP-SAT total (median / p95 / max) |")
        print("|---|---|")
        for key, r in rows.items():
            if r["cpsat"]:
                print(f"| {key} | {ms(r['cpsat'])} |")


if __name__ == "__main__":
    main()
