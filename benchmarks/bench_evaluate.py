"""Benchmark: ``nm.evaluate`` of a 24-point curve against its floor, the kernel's pass over the drive counts, in the same run.

Run:  python benchmarks/bench_evaluate.py        (--json for a record)

``nm.evaluate(topology, workload, drives=1..24)`` does, around the kernel: check the drive counts, build the
parameter vector (:meth:`Topology.parameters`), find the topology's :class:`~nvmemodel.ceiling.system.Levels`
(:func:`~nvmemodel.ceiling.system.levels_of`: encode and derive with ``prepare``, then every component's limit
per level — nothing in it depends on the drive count), run the kernel's pass over the drive counts (the system
ceiling and the binding component) and wrap the arrays in a :class:`ScalingCurve` (each component alone and the
sources are worked out when first read). The floor is that pass alone on the topology's levels
(:meth:`Levels.total_and_binding`): what evaluate cannot avoid computing for a new set of drive counts. Best of
many short interleaved runs (each 20 calls); the Dell preset as shipped (a host tree: complexes and socket DMA),
and the Lenovo and Stingray presets (drives 1..4, as many as they hold).

A topology keeps its parameter vector per workload, ``prepare`` its result and ``levels_of`` its levels for the
very same values, so a topology evaluated again (a plot, a notebook, a loop over drive counts) skips all three:
that is the figure held against the goal. *First call* is the same call with all three emptied before each call
— a topology evaluated once (the command line) or a fit's every step (a new topology per step). Also printed:
the kernel with its levels and every component alone (:func:`~nvmemodel.ceiling.compose.evaluate_prepared` on a
prepared mapping: the floor of the sessions before), and the parts of the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import nvmemodel as nm
from nvmemodel.ceiling import derive, system
from nvmemodel.ceiling.compose import evaluate_prepared
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.system import Levels, levels_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import goal, interleaved, machine

GOAL_US = 100.0
CASES = (("dell-r7525", 24), ("lenovo-sr850-810-4p", 4), ("broadcom-stingray", 4))


def run(preset: str, drives: int, repeat: int) -> dict:
    topo, wl = nm.preset(preset), nm.Workload("randread", "4K")
    n = np.arange(1, drives + 1)
    nf = n.astype(float)
    params = topo.parameters(wl)
    p = prepare(params)
    lv = levels_of(params)
    nm.evaluate(topo, wl, drives=n)

    def first_call():  # what a topology evaluated once costs: nothing kept from an earlier call
        topo.__dict__.pop("_parameters_cache", None)
        derive._PREPARED.clear()
        system._KEPT.clear()
        nm.evaluate(topo, wl, drives=n)

    best = interleaved({"evaluate": lambda: nm.evaluate(topo, wl, drives=n),
                        "floor": lambda: lv.total_and_binding(nf),
                        "first": first_call,
                        "kernel": lambda: evaluate_prepared(p, n),
                        # where the rest goes (not part of the floor)
                        "parameters": lambda: topo.parameters(wl),
                        "levels_of": lambda: levels_of(topo.parameters(wl)),
                        "prepare": lambda: prepare(params),
                        "levels": lambda: Levels(p)}, repeat, number=20)
    us = {k: v * 1e6 for k, v in best.items()}
    # kernel_us (what run_all.py prints as "kernel alone"): the floor, the kernel's pass on the kept levels
    return {"preset": preset, "drives": drives, "evaluate_us": us["evaluate"], "kernel_us": us["floor"],
            "ratio": best["evaluate"] / best["floor"], "first_call_us": us["first"],
            "kernel_with_levels_us": us["kernel"], "parameters_us": us["parameters"], "levels_of_us": us["levels_of"],
            "prepare_us": us["prepare"], "levels_us": us["levels"]}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [run(p, d, args.repeat) for p, d in CASES]
    goals = [goal(f"nm.evaluate {r['preset']}, {r['drives']} points", r["evaluate_us"], GOAL_US, "us",
                  floor=f"the kernel's pass over the drive counts {r['kernel_us']:.0f} us; first call on a topology "
                        f"{r['first_call_us']:.0f} us")
             for r in rows if r["drives"] == 24]
    record = {"benchmark": "evaluate", "machine": machine(), "rows": rows, "goals": goals}
    if args.json:
        print(json.dumps(record, indent=2))
        return record
    for r in rows:
        print(f"nm.evaluate {r['preset']:<20} {r['drives']:>2} drive counts: {r['evaluate_us']:5.0f} us; the kernel's pass "
              f"over the drive counts {r['kernel_us']:4.0f} us ({r['ratio']:.1f}x); first call on a topology "
              f"{r['first_call_us']:.0f} us. Apart: the kernel with its levels and every component alone "
              f"{r['kernel_with_levels_us']:.0f} us; kept: Topology.parameters {r['parameters_us']:.0f} us, levels_of "
              f"{r['levels_of_us']:.0f} us, prepare {r['prepare_us']:.0f} us; computed: Levels {r['levels_us']:.0f} us")
    return record


if __name__ == "__main__":
    main()
