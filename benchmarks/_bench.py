"""Shared by the benchmarks: interleaved best-of-many timing, goal rows, the machine record."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable

import numpy as np


def interleaved(calls: dict[str, Callable[[], object]], repeat: int, number: int = 1,
                cpu: dict | None = None) -> dict[str, float]:
    """Best time per call of each entry (seconds), the entries run in turn ``repeat`` times: load from other
    processes on a shared machine then hits every entry alike, and the minimum is the least disturbed.

    ``cpu``: a dict to receive each entry's best CPU time of this process per call (``time.process_time``) from
    the same rounds — what a single-threaded call costs whatever else the machine runs."""
    best = dict.fromkeys(calls, float("inf"))
    if cpu is not None:
        cpu.update(dict.fromkeys(calls, float("inf")))
    for _ in range(repeat):
        for name, call in calls.items():
            c0, t0 = time.process_time(), time.perf_counter()
            for _ in range(number):
                call()
            best[name] = min(best[name], (time.perf_counter() - t0) / number)
            if cpu is not None:
                cpu[name] = min(cpu[name], (time.process_time() - c0) / number)
    return best


def goal(name: str, value: float, target: float, unit: str, *, lower_is_better: bool = True,
         floor: str = "") -> dict:
    """A row of the summary: a measured figure against its goal (``met`` when it holds)."""
    met = value <= target if lower_is_better else value >= target
    return {"name": name, "value": float(value), "goal": float(target), "unit": unit,
            "sense": "<=" if lower_is_better else ">=", "met": bool(met), "floor": floor}


def machine() -> dict:
    """Where and when: CPU, cores, Python, numpy, load average (the machine may be shared)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), cpu)
    except OSError:
        pass
    return {"date_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu": cpu, "cores": os.cpu_count(),
            "python": platform.python_version(), "numpy": np.__version__, "load_average": os.getloadavg()}
