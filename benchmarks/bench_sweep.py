"""Benchmark: evaluate >= 1,000,000 (configuration x drive-count) points in one vectorized call.

Run:  python benchmarks/bench_sweep.py            (prints points/s; --json for a machine record)

The grid varies PCIe generation, MPS, block size, read fraction, queue depth and the drive's
random-read limit over 50,000 configurations, each evaluated at 1..24 drives (1.2 M points)
on the Dell R7525 and Lenovo 810-4P presets (a switched topology exercises every branch).
A categorical grid (I/O stack x drive model x Ethernet MTU x transport, given by name) runs on
the Broadcom Stingray preset (NVMe-oF), where those choices matter.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

import nvmemodel as nm


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
    drives = [k for k in nm.drive_catalog()]
    return {
        "workload.io_stack": rng.choice(["libaio", "io_uring", "io_uring_polled", "spdk"], configs),
        "drive.model": rng.choice(drives, configs),
        "fabric.eth_mtu": rng.choice([1500.0, 4200.0, 9000.0], configs),
        "fabric.roce_mtu": np.zeros(configs),  # the largest that fits each MTU
        "fabric.transport": rng.choice(["rocev2", "tcp"], configs),
        "host.gen": rng.integers(3, 6, configs).astype(float),
        "workload.block_size": rng.choice([4096.0, 131072.0], configs),
    }


def run(preset: str, configs: int, drives: int, repeat: int, check: bool, categorical: bool = False) -> dict:
    topo = nm.preset(preset)
    topo = topo.replace(switch=topo.switch.replace(ports=drives)) if topo.switch else topo
    grid = make_categorical_grid(configs) if categorical else make_grid(configs)
    n = np.arange(1, drives + 1)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = nm.sweep(topo, nm.Workload("randread", "4K"), drives=n, grid=grid, check=check)
        times.append(time.perf_counter() - t0)
    best = min(times)
    return {"preset": preset, "points": res.size, "configs": configs, "drives": drives, "check": check,
            "grid": "categorical" if categorical else "numeric", "best_s": best, "points_per_s": res.size / best}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", type=int, default=50_000)
    ap.add_argument("--drives", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [run(p, args.configs, args.drives, args.repeat, check) for p in ("dell-r7525", "lenovo-sr850-810-4p")
            for check in (True, False)]
    rows.append(run("broadcom-stingray", args.configs, args.drives, args.repeat, True, categorical=True))
    if args.json:
        print(json.dumps({"machine": platform.processor() or platform.machine(), "numpy": np.__version__,
                          "results": rows}, indent=2))
        return
    for r in rows:
        print(f"{r['preset']:<22} {r['grid']:<11} {r['points']:>10,} points  check={r['check']!s:<5}  "
              f"best {r['best_s'] * 1e3:7.1f} ms  ->  {r['points_per_s'] / 1e6:6.1f} M points/s")


if __name__ == "__main__":
    main()
