"""The host profile ``nvmemodel calibrate`` writes (schema ``nvmemodel.host-profile/1``, docs/hosts.md).

A profile is one JSON object::

    {"schema": "nvmemodel.host-profile/1", "created": "2026-11-29T08:00:00Z", "nvmemodel": "0.2.0",
     "host": {"model_name": …, "logical_cpus": …, "sockets": …, "cores_per_socket": …, "clock_hz": …,
              "clock_source": …, "kernel": …, "virtualized": …, "load_average": [1, 5, 15 min]},
     "fio": {"version": "fio-3.33", "path": "/usr/bin/fio"},
     "seconds_per_run": …, "repeats": …,
     "steps": [{"step": "libaio-null-device", "stack": "libaio", "ioengine": "libaio", "scope": "no_device",
                "target": "/dev/zero", "direction": "read", "block_size_bytes": 4096, "iodepth": 8,
                "cycles_per_io": {"median": …, "min": …, "max": …},
                "seconds_per_io": {"median": …, "min": …, "max": …},
                "runs": [{"ios": …, "runtime_s": …, "cpu_busy": …, "cpu_seconds": …, "process_cpu_seconds": …,
                          "iops": …}, …],
                "command": ["fio", "--name=…", …]}, …],
     "skipped": [{"step": …, "reason": …}, …]}

``scope`` says what path a step's I/O took: ``fio`` (the null engine: fio's own work, no system call),
``no_device`` (a null character device, ``/dev/zero``: the system calls and fio, no block layer, driver or
interrupt — a lower bound of the stack's cost on a drive) or ``device`` (the file or device the user named,
with O_DIRECT: the whole path).
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..errors import ParameterError

__all__ = ["PROFILE_SCHEMA", "SCOPES", "load_profile", "profile_summary"]

PROFILE_SCHEMA = "nvmemodel.host-profile/1"
#: What path a step's I/O took (docs/hosts.md, "The host profile").
SCOPES = {"fio": "fio's null engine: fio's own work per I/O, no system call",
          "no_device": "a null character device (/dev/zero): system calls and fio, no block layer, driver or "
                       "interrupt — a lower bound of the stack's cost on a drive",
          "device": "the file or device named, with O_DIRECT: the whole path"}


def _check(cond: bool, path: str, field: str, value, expected: str) -> None:
    if not cond:
        raise ParameterError(f"{path}: {field}", value, expected)


def load_profile(source) -> dict:
    """A host profile from a path (a regular file, size-bounded) or an already loaded dict, checked: the schema
    name, and every step's stack, scope and cycles per I/O (positive where given). Raises ParameterError naming
    the file and the field."""
    from ..topology.host import IoStack

    if isinstance(source, dict):
        doc, path = source, "profile"
    else:
        from ..userfiles import read_input_text

        path = str(source)
        text = read_input_text(path, what="--profile")
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise ParameterError("--profile", path, f"a host profile in JSON written by 'nvmemodel calibrate' "
                                                    f"({exc})") from None
    _check(isinstance(doc, dict) and doc.get("schema") == PROFILE_SCHEMA, path, "schema",
           doc.get("schema") if isinstance(doc, dict) else type(doc).__name__,
           f"{PROFILE_SCHEMA} (a file written by 'nvmemodel calibrate')")
    steps: Any = doc.get("steps")  # JSON: checked to be a list just below
    _check(isinstance(steps, list), path, "steps", type(steps).__name__, "a list of measured steps")
    stacks = {s.value for s in IoStack}
    for i, step in enumerate(steps):
        where = f"steps[{i}]"
        _check(isinstance(step, dict), path, where, type(step).__name__, "an object")
        stack = step.get("stack")
        _check(stack is None or stack in stacks, path, f"{where}.stack", stack,
               f"null or one of {', '.join(sorted(stacks))}")
        _check(step.get("scope") in SCOPES, path, f"{where}.scope", step.get("scope"), f"one of {', '.join(SCOPES)}")
        cyc = step.get("cycles_per_io")
        _check(isinstance(cyc, dict), path, f"{where}.cycles_per_io", cyc, "an object with median, min, max")
        for k in ("median", "min", "max"):
            v = cyc.get(k)
            _check(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                                 and v > 0), path, f"{where}.cycles_per_io.{k}", v, "a positive number or null")
    host = doc.get("host")
    _check(isinstance(host, dict), path, "host", type(host).__name__, "an object of host facts")
    doc = dict(doc)
    doc["_path"] = path
    return doc


def profile_summary(profile: dict) -> str:
    """The profile as a few lines: per step, cycles per I/O with the spread; what was skipped and why."""
    h = profile["host"]
    clock = h.get("clock_hz")
    lines = [f"\nHost: {h.get('model_name')}, {h.get('logical_cpus')} logical CPU(s)"
             + (", virtual machine" if h.get("virtualized") else "") + f", kernel {h.get('kernel')}, "
             f"load average {h.get('load_average', [None])[0]}; {profile['fio']['version']}; "
             f"{profile.get('elapsed_seconds', 0):g} s; "
             + (f"clock {clock / 1e9:g} GHz ({h.get('clock_source')})" if clock else h.get("clock_source", "")),
             f"{'step':<28} {'scope':<9} {'cycles/IO':>10} {'range':>17} {'µs CPU/IO':>10} runs"]
    for s in profile["steps"]:
        c, sec = s["cycles_per_io"], s["seconds_per_io"]
        cyc = f"{c['median']:,.0f}" if c.get("median") else "-"
        rng = f"{c['min']:,.0f}-{c['max']:,.0f}" if c.get("median") else "-"
        lines.append(f"{s['step']:<28} {s['scope']:<9} {cyc:>10} {rng:>17} {sec['median'] * 1e6:>10.3g} "
                     f"{len(s['runs'])}" + ("  (polling: not charged)" if s.get("polling") else ""))
    for s in profile.get("skipped", []):
        lines.append(f"skipped {s['step']}: {s['reason']}")
    if not any(s["scope"] == "device" for s in profile["steps"]):
        lines.append("no step read a device (no --target, or none could run): every stack figure is a lower bound, "
                     "which --profile charges only where it is above the default; give --target FILE (a file on the "
                     "storage in question) to measure the whole path")
    if profile.get("runs_left"):
        lines.append(f"not run yet ({len(profile['runs_left'])}): time was up; run the same command again to finish")
    lines.append("scope: fio = fio's own work (null engine); no_device = /dev/zero, a lower bound of the stack on a "
                 "drive (no block layer, driver or interrupt); device = the target, the whole path")
    return "\n".join(lines)
