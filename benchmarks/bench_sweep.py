"""Benchmark: ``nm.sweep`` against a fused single pass over the same points, on the presets as shipped.

Run:  python benchmarks/bench_sweep.py            (--json for a record; needs ``pip install -e '.[bench]'``)

Each row: 50,000 random configurations x 1..24 drives (1.2 M points) on one preset, as shipped (every layer
it carries: the Dell's root complexes and socket DMA, the Lenovo's switch, complexes and sockets, the
Stingray's switch and fabric); a switch's port count is raised to 24 so that 24 drives fit behind it (ports
enter no ceiling). Grids: *numeric* (PCIe generation, MPS, block size, read fraction, queue depth, the
drive's random-read limit) and *categorical* (I/O stack, drive model, transport by name; Ethernet MTU,
generation, block size). The sweep runs as a user calls it: ``check=True``, names validated.

The floors (``benchmarks/floor.py``), timed interleaved with the sweep (best of ``--repeat`` rounds):

* **fused**: a numba loop over the points, the per-configuration limits given (no implementation can reach it);
* **fused + levels**: plus those limits computed by the model's numpy code and names coded by the sweep's own lookup.

Also printed, as parts of the sweep (not floors): checking and coding its names, and the kernel's pass over the
drive counts (``Levels.fill``) with each chunk's limits computed beforehand.

Both must give the sweep's numbers bit for bit, binding included (checked here). Memory: tracemalloc's peak
of one sweep divided by its points, at two grid sizes (flat with chunking when both agree).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

import nvmemodel as nm
from nvmemodel.ceiling.derive import catalog_members, prepare, stack_cycles
from nvmemodel.ceiling.evaluate import _CHUNK_CONFIGS, sweep_parameters
from nvmemodel.ceiling.system import Levels, Work
from nvmemodel.parameters import PARAMETERS, encode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import floor
from _bench import goal, interleaved, machine

PRESETS = ("dell-r7525", "lenovo-sr850-810-4p", "broadcom-stingray")
GOAL = 3.0


def make_grid(configs: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "host.gen": rng.integers(3, 6, configs).astype(float),
        "pcie.mps": rng.choice([128.0, 256.0, 512.0], configs),
        "workload.block_size": rng.choice([4096.0, 8192.0, 16384.0, 65536.0, 131072.0], configs),
        "workload.read_fraction": rng.choice([0.0, 0.3, 0.7, 1.0], configs),
        "workload.iodepth": rng.choice([1.0, 8.0, 32.0, 128.0], configs),
        "drive.rand_read_iops": rng.uniform(2e5, 2.5e6, configs),
    }


def make_categorical_grid(configs: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "workload.io_stack": rng.choice(["libaio", "io_uring", "io_uring_polled", "spdk"], configs),
        "drive.model": rng.choice(list(nm.drive_catalog()), configs),
        "fabric.eth_mtu": rng.choice([1500.0, 4200.0, 9000.0], configs),
        "fabric.roce_mtu": np.zeros(configs),  # the largest that fits each MTU
        "fabric.transport": rng.choice(["rocev2", "tcp"], configs),
        "host.gen": rng.integers(3, 6, configs).astype(float),
        "workload.block_size": rng.choice([4096.0, 131072.0], configs),
    }


def topology(preset: str, drives: int) -> nm.Topology:
    topo = nm.preset(preset)
    return topo.replace(switch=topo.switch.replace(ports=drives)) if topo.switch else topo


def _levels_and_codes(topo, wl, grid):
    """The floor's per-configuration part: names → codes (the sweep's lookup), the catalog fields of
    drive models, then the model's limits (numpy) — what the sweep computes besides its checks."""
    codes = {name: (floor.names_to_codes(v, PARAMETERS[name])
                    if PARAMETERS[name].kind == "categorical" else v) for name, v in grid.items()}
    p = encode(topo.parameters(wl))
    p.update(codes)
    if "drive.model" in codes:
        p.update({k: v for k, v in catalog_members("drive", codes["drive.model"], p).items() if k not in codes})
    if "workload.io_stack" in codes and topo.host.cycles_per_io is None:
        p["host.cycles_per_io"] = stack_cycles(codes["workload.io_stack"])
    return Levels(prepare(p))


def run(preset: str, categorical: bool, configs: int, drives: int, repeat: int) -> dict:
    topo, wl = topology(preset, drives), nm.Workload("randread", "4K")
    grid = make_categorical_grid(configs) if categorical else make_grid(configs)
    n = np.arange(1, drives + 1)
    res = nm.sweep(topo, wl, drives=n, grid=grid)
    row = {"preset": preset, "grid": "categorical" if categorical else "numeric", "points": res.size}
    reason = floor.available()
    if reason is not None:
        row["floor"] = f"skipped: {reason}"
        row["sweep_s"] = min(_time(lambda: nm.sweep(topo, wl, drives=n, grid=grid)) for _ in range(repeat))
        return row
    p, _, _ = sweep_parameters(topo, wl, grid)
    lv = Levels(p)
    inputs = floor.per_config(lv, configs)
    compose = floor.kernel()
    nf = n.astype(float)

    loads, sock_of, on_of = floor.placement(nf, inputs)
    args = [inputs[k] for k in ("d", "g", "c", "sk", "system", "di", "gi", "ci", "si", "yi", "m", "sockets", "cps",
                                "fill", "tree")]

    tree = floor.general_tree(inputs)
    tree_args = [inputs[k] for k in ("d", "g", "c", "sk", "system", "di", "gi", "ci", "si", "yi", "sockets")]
    compose_tree = floor.tree_kernel()

    def fused():  # fresh result arrays, column-major as the sweep makes them
        out = np.empty((configs, drives), order="F")
        binding = np.empty((configs, drives), dtype=np.int8, order="F")
        if tree:  # the host-tree pass that loops over configurations innermost
            compose_tree(nf, *tree_args, loads, sock_of, on_of, out, binding)
        else:
            compose(nf, *args, loads, sock_of, on_of, out, binding)
        return out, binding

    out, binding = fused()  # compiles
    if not (np.array_equal(out, res.iops) and np.array_equal(binding, res.binding_index)):
        bad = np.flatnonzero((out != res.iops).ravel() | (binding != res.binding_index).ravel())
        raise AssertionError(f"{preset} {row['grid']}: the fused floor and nm.sweep differ at {bad.size} points")
    names = {k: v for k, v in grid.items() if PARAMETERS[k].kind == "categorical"}
    cpu: dict = {}
    best = interleaved({"sweep": lambda: nm.sweep(topo, wl, drives=n, grid=grid), "fused": fused,
                        "levels": lambda: _levels_and_codes(topo, wl, grid),
                        # where the sweep's time goes (parts of it, not floors): names checked and coded, and the
                        # kernel's per-drive-count pass over every chunk (Levels.fill) with the limits given
                        "names": lambda: [PARAMETERS[k].check(v) for k, v in names.items()],
                        "pass": _kernel_pass(p, configs, nf)}, repeat, cpu=cpu)
    row.update({"sweep_s": best["sweep"], "fused_s": best["fused"], "levels_s": best["levels"],
                "names_s": best["names"], "pass_s": best["pass"],
                "ratio": best["sweep"] / best["fused"],
                "ratio_with_levels": best["sweep"] / (best["fused"] + best["levels"]),
                # the same rounds in this process's CPU time: what the code costs whatever else the machine runs
                "cpu_sweep_s": cpu["sweep"], "cpu_fused_s": cpu["fused"], "cpu_ratio": cpu["sweep"] / cpu["fused"],
                "identical": True})
    return row


def _kernel_pass(p, configs, n):
    """The sweep's per-drive-count pass (:meth:`Levels.fill`) over its chunks, each chunk's limits computed
    beforehand: what ``nm.sweep`` spends in the kernel besides the per-configuration limits."""
    step = max(1, min(configs, _CHUNK_CONFIGS, max((1 << 18) // n.size, 1)))
    per_config = [k for k, v in p.items() if np.ndim(v) == 1 and v.shape[0] == configs]
    chunks = []
    for start in range(0, configs, step):
        pc = dict(p)
        pc.update({k: p[k][start:start + step] for k in per_config})
        chunks.append((start, min(start + step, configs), Levels(pc)))
    iops = np.empty((configs, n.size), order="F")
    binding = np.empty((configs, n.size), dtype=np.int8, order="F")
    work = Work(step)

    def run():
        for start, stop, lv in chunks:
            for j, nj in enumerate(n):
                lv.fill(nj, iops[start:stop, j], binding[start:stop, j], work)

    return run


def memory(preset: str, categorical: bool, drives: int) -> dict:
    """Peak traced bytes per point of one sweep at two grid sizes (flat with chunking when they agree)."""
    topo, wl = topology(preset, drives), nm.Workload("randread", "4K")
    out = {}
    for configs in (50_000, 200_000):
        grid = make_categorical_grid(configs) if categorical else make_grid(configs)
        tracemalloc.start()
        res = nm.sweep(topo, wl, drives=np.arange(1, drives + 1), grid=grid)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        out[configs] = peak / res.size
    return out


def _time(call) -> float:
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", type=int, default=50_000)
    ap.add_argument("--drives", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [run(p, cat, args.configs, args.drives, args.repeat) for p in PRESETS for cat in (False, True)]
    mem = memory("broadcom-stingray", True, args.drives)
    goals = [goal(f"sweep {r['preset']} {r['grid']}: time / fused floor", r["ratio"], GOAL, "x",
                  floor=f"numba fused pass, per-configuration limits given; CPU time {r['cpu_ratio']:.2f}x")
             for r in rows if "ratio" in r]
    sizes = sorted(mem)
    goals.append(goal("sweep memory: B/point at 4x the configurations / at 1x", mem[sizes[-1]] / mem[sizes[0]], 1.1,
                      "x", floor=f"{mem[sizes[0]]:.1f} B/point at {sizes[0]:,} configurations"))
    record = {"benchmark": "sweep", "machine": machine(), "rows": rows, "bytes_per_point": mem, "goals": goals}
    if args.json:
        print(json.dumps(record, indent=2))
        return record
    for r in rows:
        line = (f"{r['preset']:<20} {r['grid']:<11} {r['points']:>9,} points: sweep {r['sweep_s'] * 1e3:6.1f} ms "
                f"({r['points'] / r['sweep_s'] / 1e6:5.1f} M/s)")
        if "fused_s" in r:
            line += (f" | fused {r['fused_s'] * 1e3:5.1f} ms, levels+codes {r['levels_s'] * 1e3:5.1f} ms | "
                     f"ratio {r['ratio']:4.2f}x (CPU time {r['cpu_ratio']:4.2f}x; vs fused + levels "
                     f"{r['ratio_with_levels']:4.2f}x), identical | "
                     f"of the sweep: names {r['names_s'] * 1e3:4.1f} ms, kernel pass {r['pass_s'] * 1e3:5.1f} ms")
        else:
            line += f" | {r['floor']}"
        print(line)
    print("sweep memory (tracemalloc peak / points): " +
          ", ".join(f"{k:,} configurations {v:.1f} B/point" for k, v in mem.items()))
    return record


if __name__ == "__main__":
    main()
