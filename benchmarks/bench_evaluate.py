"""Benchmark: ``nm.evaluate`` of a 24-point curve against its floor, the kernel alone, in the same run.

Run:  python benchmarks/bench_evaluate.py        (--json for a record)

``nm.evaluate(topology, workload, drives=1..24)`` does, around the kernel: check the drive counts, build the
parameter vector (:meth:`Topology.parameters`), encode and derive (:func:`~nvmemodel.ceiling.derive.prepare`)
and wrap the arrays in a :class:`ScalingCurve` (sources are worked out when first read). The floor is the
kernel alone on an already prepared mapping with every component's ceiling
(:func:`~nvmemodel.ceiling.system.evaluate_prepared`): what evaluate cannot avoid computing. Best of many short
interleaved runs (each 20 calls); the Dell preset as shipped (a host tree: complexes and socket DMA), and the
Lenovo and Stingray presets (drives 1..4, as many as they hold).

A topology keeps its parameter vector per workload and ``prepare`` its result for the very same values, so a
topology evaluated again (a plot, a notebook, a loop over drive counts) skips both: that is the figure held
against the goal. *First call* is the same call with both emptied before each call — a topology evaluated once
(the command line) or a fit's every step (a new topology per step).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import nvmemodel as nm
from nvmemodel.ceiling import derive
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.system import evaluate_prepared

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import goal, interleaved, machine

GOAL_US = 100.0
CASES = (("dell-r7525", 24), ("lenovo-sr850-810-4p", 4), ("broadcom-stingray", 4))


def run(preset: str, drives: int, repeat: int) -> dict:
    topo, wl = nm.preset(preset), nm.Workload("randread", "4K")
    n = np.arange(1, drives + 1)
    params = topo.parameters(wl)
    p = prepare(params)
    nm.evaluate(topo, wl, drives=n)

    def first_call():  # what a topology evaluated once costs: nothing kept from an earlier call
        topo.__dict__.pop("_parameters_cache", None)
        derive._PREPARED.clear()
        nm.evaluate(topo, wl, drives=n)

    best = interleaved({"evaluate": lambda: nm.evaluate(topo, wl, drives=n),
                        "kernel": lambda: evaluate_prepared(p, n),
                        "first": first_call,
                        "parameters": lambda: topo.parameters(wl),  # where the rest goes (not part of the floor)
                        "prepare": lambda: prepare(params)}, repeat, number=20)
    return {"preset": preset, "drives": drives, "evaluate_us": best["evaluate"] * 1e6,
            "kernel_us": best["kernel"] * 1e6, "ratio": best["evaluate"] / best["kernel"],
            "first_call_us": best["first"] * 1e6,
            "parameters_us": best["parameters"] * 1e6, "prepare_us": best["prepare"] * 1e6}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [run(p, d, args.repeat) for p, d in CASES]
    goals = [goal(f"nm.evaluate {r['preset']}, {r['drives']} points", r["evaluate_us"], GOAL_US, "us",
                  floor=f"kernel alone {r['kernel_us']:.0f} us; first call on a topology {r['first_call_us']:.0f} us")
             for r in rows if r["drives"] == 24]
    record = {"benchmark": "evaluate", "machine": machine(), "rows": rows, "goals": goals}
    if args.json:
        print(json.dumps(record, indent=2))
        return record
    for r in rows:
        print(f"nm.evaluate {r['preset']:<20} {r['drives']:>2} drive counts: {r['evaluate_us']:6.0f} us; kernel alone "
              f"{r['kernel_us']:5.0f} us ({r['ratio']:.1f}x); first call on a topology {r['first_call_us']:.0f} us; of "
              f"the rest: Topology.parameters {r['parameters_us']:.0f} us, prepare {r['prepare_us']:.0f} us")
    return record


if __name__ == "__main__":
    main()
