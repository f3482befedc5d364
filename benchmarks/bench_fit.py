"""Benchmark: fits against their floor, a bare ``scipy.optimize.curve_fit`` of the same function, in the same run.

Run:  python benchmarks/bench_fit.py        (--json for a record)

* ceiling model, 24 points (Dell R7525 preset, 4K random read at 1..24 drives), two free parameters
  (``drive.rand_read_iops``, ``host.cycles_per_io``), ``ci="auto"`` (intervals included);
* exact-MVA queueing model, 8 points (a queue-depth sweep), ``ci="auto"``.

The points are SYNTHETIC: each model's own curve at chosen parameter values times seeded 2 % noise. The floor
fits the same shape function to the same points from the same start within the same bounds with
``curve_fit`` (trust-region reflective) and computes nothing else: no intervals, no diagnostics. Best of
``--repeat``, interleaved. Goal (issue 20): the auto fit with intervals on the 24-point curve <= 150 ms.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import goal, interleaved, machine

GOAL_S = 0.150


def _floor(shape, x, y):
    """``curve_fit`` of ``shape.func`` from ``shape.guess`` within ``shape.bounds``."""
    from scipy.optimize import curve_fit

    names = shape.params
    start = shape.guess(x, y)
    lo = [shape.bounds[p][0] for p in names]
    hi = [shape.bounds[p][1] for p in names]
    p0 = [float(np.clip(start[p], lo[i], hi[i])) for i, p in enumerate(names)]

    def f(n, *a):
        return np.asarray(shape.func(n, **dict(zip(names, a, strict=True))), dtype=float)

    return lambda: curve_fit(f, x, y, p0=p0, bounds=(lo, hi))


def main(argv=None) -> dict:
    import nvmemodel as nm
    from nvmemodel.fitting import SHAPES, ceiling, engine

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    dell, wl = nm.preset("dell-r7525"), nm.Workload("randread", "4K")
    drives = np.arange(1, 25, dtype=float)
    truth = {"drive.rand_read_iops": 1.3e6, "host.cycles_per_io": 14000.0}  # the CPU binds beyond ~16 drives
    y = nm.evaluate(dell, wl, drives=drives.astype(int), overrides=truth).iops
    y = y * (1 + 0.02 * np.random.default_rng(0).standard_normal(y.size))
    shape = ceiling.ceiling_shape(dell, wl, x="drives", y_unit="1/s", free=list(truth))

    xq = np.array([1, 2, 4, 8, 16, 32, 64, 128], float)
    yq = SHAPES["mva"].func(xq, x_max=3e5, r0=5e-5) * (1 + 0.02 * np.random.default_rng(1).standard_normal(xq.size))

    cases = {"ceiling, 24 points, 2 free": (shape, drives, y), "MVA queueing, 8 points": (SHAPES["mva"], xq, yq)}
    rows = []
    for label, (s, x, yy) in cases.items():
        fit = engine.fit_shape(s, x, yy, ci="auto")
        best = interleaved({"fit": lambda s=s, x=x, yy=yy: engine.fit_shape(s, x, yy, ci="auto"),
                            "curve_fit": _floor(s, x, yy)}, args.repeat)
        rows.append({"case": label, "fit_s": best["fit"], "curve_fit_s": best["curve_fit"],
                     "ratio": best["fit"] / best["curve_fit"], "ci_method": fit.ci_method,
                     "values": fit.values, "ci_low": fit.ci_low, "ci_high": fit.ci_high})
    goals = [goal(f"fit with intervals: {rows[0]['case']}", rows[0]["fit_s"] * 1e3, GOAL_S * 1e3, "ms",
                  floor=f"curve_fit {rows[0]['curve_fit_s'] * 1e3:.0f} ms")]
    record = {"benchmark": "fit", "machine": machine(), "rows": rows, "goals": goals}
    if args.json:
        print(json.dumps(record, indent=2, default=float))
        return record
    for r in rows:
        cis = ", ".join(f"{k}={v:.4g} [{r['ci_low'][k]:.4g}, {r['ci_high'][k]:.4g}]" for k, v in r["values"].items())
        print(f"{r['case']}: fit (ci {r['ci_method']}) {r['fit_s'] * 1e3:7.1f} ms; curve_fit alone "
              f"{r['curve_fit_s'] * 1e3:6.1f} ms ({r['ratio']:.1f}x); {cis}")
    return record


if __name__ == "__main__":
    main()
