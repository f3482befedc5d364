"""Benchmark: a typical fit and a 1,000-resample bootstrap, with model evaluations per second.

* ceiling model, 7 points (Dell R7525 preset, 4K random read at 1, 2, 4, 8, 12, 16, 24 drives), two free
  parameters (``drive.rand_read_iops``, ``host.cycles_per_io``), profile-likelihood 95 % intervals;
* the same with a seeded 1,000-resample residual bootstrap;
* exact-MVA queueing fit of 8 points with profile intervals (the QD-sweep case).

The points are SYNTHETIC: the model's own curve at chosen parameter values times seeded 2 % noise.
Run:  python benchmarks/bench_fit.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import nvmemodel as nm
from nvmemodel.fitting import SHAPES, ceiling, engine


def synthetic_table(x, y, x_name):
    return pd.DataFrame({"source_path": [f"synthetic/{i}" for i in range(len(x))], "direction": "read",
                         "pattern": "randread", "block_size_bytes": 4096.0, "iops": y, "bw_bytes_per_s": y * 4096,
                         x_name: x})


def counted(shape):
    """The shape with its function wrapped to count model evaluations (one per call, any vector length)."""
    calls = [0]
    func = shape.func

    def f(n, **kw):
        calls[0] += 1
        return func(n, **kw)

    import dataclasses
    return dataclasses.replace(shape, func=f), calls


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    dell = nm.preset("dell-r7525")
    wl = nm.Workload("randread", "4K")
    drives = np.array([1, 2, 4, 8, 12, 16, 24], float)
    truth = {"drive.rand_read_iops": 1.3e6, "host.cycles_per_io": 14000.0}  # the CPU binds at 16 and 24 drives
    y = nm.evaluate(dell, wl, drives=drives.astype(int), overrides=truth).iops
    y = y * (1 + 0.02 * np.random.default_rng(0).standard_normal(y.size))
    shape = ceiling.ceiling_shape(dell, wl, x="drives", y_unit="1/s", free=list(truth))

    for label, ci, n_boot, reps in (("ceiling, 7 points, 2 free, profile CIs", "profile", 0, a.repeat),
                                    ("ceiling, 7 points, 2 free, 1,000-resample bootstrap", "bootstrap", 1000, 1)):
        best, evals = np.inf, 0
        for _ in range(reps):
            s, calls = counted(shape)
            t = time.perf_counter()
            f = engine.fit_shape(s, drives, y, ci=ci, n_boot=n_boot or 1000)
            best = min(best, time.perf_counter() - t)
            evals = calls[0]
        print(f"{label}: {best:.2f} s, {evals} model evaluations ({evals / best:,.0f} per s), CI {f.ci_method}; "
              f"{', '.join(f'{k}={v:.4g} [{f.ci_low[k]:.4g}, {f.ci_high[k]:.4g}]' for k, v in f.values.items())}")

    x = np.array([1, 2, 4, 8, 16, 32, 64, 128], float)
    yq = SHAPES["mva"].func(x, x_max=3e5, r0=5e-5) * (1 + 0.02 * np.random.default_rng(1).standard_normal(x.size))
    best = np.inf
    for _ in range(a.repeat):
        s, calls = counted(SHAPES["mva"])
        t = time.perf_counter()
        engine.fit_shape(s, x, yq, ci="profile")
        best = min(best, time.perf_counter() - t)
    print(f"MVA queueing, 8 points, profile CIs: {best:.3f} s, {calls[0]} evaluations ({calls[0] / best:,.0f} per s)")

    t = time.perf_counter()
    r = nm.fit(synthetic_table(drives, y, "drives"), x="drives", y="iops", model="ceiling", topology=dell,
               workload=wl, free=list(truth))
    print(f"nm.fit end to end (table -> points -> ceiling fit -> findings): {time.perf_counter() - t:.2f} s; "
          f"chosen {r.chosen[()]}")


if __name__ == "__main__":
    main()
