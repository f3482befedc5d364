"""Benchmark: the planner over 1,327,104 configurations x 5 workloads against its floor, in the same run.

Run:  python benchmarks/bench_plan.py        (--json for a record)

* Planner: a Dell R7525-based space of 1,327,104 configurations (drive model x generation x sockets x
  connection x I/O stack x cores x clock x switch count x lanes per socket x usable CPU share), each against five
  workloads (4K random read / write, 4K 70/30, 128K read / write) with targets; best of ``--repeat`` untraced
  runs, and peak traced memory (tracemalloc, one more run) for the whole space and a quarter of its drive models
  (memory must not grow with the number of configurations); the same with the preset's host tree (root
  complexes, socket DMA), where every configuration's drive count is found by bisection.
* Floor: the same blocks of the same space with every configuration's drive-count-independent limits computed
  under every workload (:class:`~nvmemodel.ceiling.system.Levels`, the numpy code the planner runs) and nothing
  else — no drive counts solved, no ranking, no rows: what any planner of this model must compute.

Goal (issue 19/20): 1.3 M configurations x 5 workloads in about 0.6 s, held against the wall time; the CPU time
of this (single-threaded) process in the same rounds is printed beside it, since on a shared machine the wall
time also measures the other processes. These are records, not assertions: no test times anything.
"""

from __future__ import annotations

import argparse
import json
import sys
import tracemalloc
from pathlib import Path

import nvmemodel as nm
from nvmemodel.ceiling.system import Levels
from nvmemodel.parameters import encode
from nvmemodel.plan import STANDARD_WORKLOADS as W
from nvmemodel.plan import DesignSpace, Target, plan
from nvmemodel.plan.solve import CHUNK, _chunk_common, _chunk_parameters

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import goal, interleaved, machine

GOAL_S = 0.6

TARGETS = [Target(W["4k-randread"], iops=10e6), Target(W["4k-randwrite"], iops=2e6),
           Target(W["4k-oltp-70-30"], iops=4e6), Target(W["128k-read"], bytes_per_s=60e9),
           Target(W["128k-write"], bytes_per_s=20e9)]


def space(fraction: float = 1.0, *, tree: bool = False) -> DesignSpace:
    # a fraction of the space drops drive models, the outermost axis: the planner's blocks stay the same
    drives = list(nm.drive_catalog())[:9]  # nine models: 1,327,104 configurations, whatever the catalog holds
    axes = {"drive.model": drives[: max(1, round(len(drives) * fraction))], "host.gen": [3, 4, 5],
            "host.sockets": [1, 2], "connection": ["direct-x4", "direct-x2", "lenovo-1610-4p", "lenovo-810-4p"],
            "workload.io_stack": ["libaio", "io_uring", "io_uring_polled", "spdk"],
            "host.cores_per_socket": [8, 16, 24, 32, 48, 64, 96, 128],
            "host.clock_hz": [2.0e9, 2.5e9, 3.0e9, 3.5e9], "switch.count": [1, 2, 4, 8],
            "host.lanes_per_socket": [64, 128, 160], "host.cpu_utilization_max": [0.7, 0.8, 0.9, 1.0]}
    base = nm.preset("dell-r7525")
    # Without issue 11's per-socket DMA estimate the drive count has a closed form (direct attach); with it
    # every configuration is a host tree solved by bisection — measured separately ("tree").
    return DesignSpace(base if tree else base.replace(extras={}), axes, max_drives=24)


def levels_only(sp: DesignSpace, chunk: int = CHUNK) -> int:
    """The floor: every block's per-configuration limits under every target's workload, nothing else."""
    base = encode(sp.base.parameters(TARGETS[0].workload))
    count = 0
    for index, _, codes in sp.blocks(chunk):
        common = _chunk_common(sp, codes, base)
        for t in TARGETS:
            Levels(_chunk_parameters(sp, codes, common, t))
        count += index.size
    return count


def bench_planner(fraction: float, tree: bool = False, repeat: int = 3) -> dict:
    sp = space(fraction, tree=tree)
    plan(TARGETS, DesignSpace("dell-r7525", {"host.gen": [4, 5]}))  # warm caches (catalogs, imports)
    results, cpu = {}, {}
    best = interleaved({"plan": lambda: results.__setitem__("plan", plan(TARGETS, sp)),
                        "levels": lambda: levels_only(sp)}, repeat, cpu=cpu)  # untraced: tracemalloc's hook dominates
    tracemalloc.start()
    plan(TARGETS, sp)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"configurations": sp.size, "workloads": len(TARGETS), "seconds": best["plan"], "tree": tree,
            "cpu_s": cpu["plan"], "floor_cpu_s": cpu["levels"],
            "floor_s": best["levels"], "ratio": best["plan"] / best["levels"],
            "configs_per_s": sp.size / best["plan"], "feasible": results["plan"].feasible, "peak_mib": peak / 2**20}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = {"planner_quarter": bench_planner(0.25, repeat=args.repeat),
            "planner_full": bench_planner(1.0, repeat=args.repeat),
            "planner_tree_quarter": bench_planner(0.25, tree=True, repeat=args.repeat),
            "planner_tree_full": bench_planner(1.0, tree=True, repeat=args.repeat)}
    full = rows["planner_full"]
    goals = [goal(f"plan {full['configurations']:,} configurations x {full['workloads']} workloads", full["seconds"],
                  GOAL_S, "s", floor=f"limits alone {full['floor_s']:.2f} s; CPU time {full['cpu_s']:.2f} s "
                                     f"(limits alone {full['floor_cpu_s']:.2f} s)"),
             goal("planner memory: full space / a quarter of it (peak traced)",
                  full["peak_mib"] / rows["planner_quarter"]["peak_mib"], 1.1, "x",
                  floor=f"{rows['planner_quarter']['peak_mib']:.0f} MiB for a quarter")]
    record = {"benchmark": "plan", "machine": machine(), "rows": rows, "goals": goals}
    if args.json:
        print(json.dumps(record, indent=2))
        return record
    for r in rows.values():
        print(f"plan{' (tree)' if r['tree'] else ''} {r['configurations']:>9,} configurations x {r['workloads']} "
              f"workloads: {r['seconds']:.2f} s ({r['configs_per_s'] / 1e3:,.0f} K configurations/s; limits alone "
              f"{r['floor_s']:.2f} s, {r['ratio']:.1f}x; CPU time {r['cpu_s']:.2f} s), peak traced memory "
              f"{r['peak_mib']:.0f} MiB, "
              f"{r['feasible']:,} feasible")
    return record


if __name__ == "__main__":
    main()
