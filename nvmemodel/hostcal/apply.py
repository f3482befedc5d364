"""Charge a host the costs per I/O measured on the user's machine: ``with_costs(topology, costs=…, profile=…)``.

``costs``: what ``nvmemodel ingest --costs-out`` writes (schema ``nvmemodel.io-costs/1``), or an
:func:`~nvmemodel.hostcal.costs.io_costs` table. Per I/O stack one figure is charged, the one nearest the model's
own (its stack defaults are 4 KiB random-read costs at a queue that keeps the CPU busy): among the groups that
count as the stack's cost (``use``), the 4 KiB one (else the size nearest 4 KiB), reads before mixes and writes,
the deepest queue, the most runs.

``profile``: what ``nvmemodel calibrate`` writes (:mod:`~nvmemodel.hostcal.profile`). A step on the user's own
file or device (scope ``device``) is the stack's whole path, charged as measured. A step on a null character
device (scope ``no_device``) lacks the block layer, the driver and the interrupt: it is a lower bound of the stack's
cost, so it is charged only where it is above what the host would be charged otherwise (the stack's default or a
calibration) — then the default is known to be too low on this machine — and otherwise named beside the default
in its source.

Each charged figure becomes an entry of :attr:`nvmemodel.Host.stack_costs` whose source says where it was measured
("measured: here, fio …, files …"); ``nm.parameter_table`` and every explanation show it.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from ..errors import ParameterError

if TYPE_CHECKING:
    from ..topology import Topology
    from ..topology.mixed import MixedTopology

__all__ = ["host_costs", "read_costs", "stack_costs", "with_costs"]

_DIRECTION_ORDER = {"read": 0, "mixed": 1, "write": 2, "trim": 3}


def read_costs(source) -> dict:
    """An ``nvmemodel.io-costs/1`` document from a path, a dict, or an :func:`io_costs` table."""
    from .costs import COSTS_SCHEMA, costs_document

    if hasattr(source, "columns"):
        return {**costs_document(source), "_path": "an io_costs table"}
    if isinstance(source, dict):
        doc, path = source, "costs"
    else:
        from ..userfiles import read_input_text

        path = str(source)
        try:
            doc = json.loads(read_input_text(path, what="--costs"))
        except ValueError as exc:
            raise ParameterError("--costs", path, f"a JSON file written by 'nvmemodel ingest --costs-out' ({exc})") \
                from None
    if not isinstance(doc, dict) or doc.get("schema") != COSTS_SCHEMA:
        raise ParameterError(f"{path}: schema", doc.get("schema") if isinstance(doc, dict) else type(doc).__name__,
                             f"{COSTS_SCHEMA} (a file written by 'nvmemodel ingest --costs-out')")
    if not isinstance(doc.get("costs"), list):
        raise ParameterError(f"{path}: costs", type(doc.get("costs")).__name__, "a list of cost groups")
    for i, e in enumerate(doc["costs"]):
        if not isinstance(e, dict):
            raise ParameterError(f"{path}: costs[{i}]", type(e).__name__, "an object")
        sec = (e.get("cpu_seconds_per_io") or {}).get("median")
        if e.get("use") and not (isinstance(sec, (int, float)) and math.isfinite(sec) and sec > 0):
            raise ParameterError(f"{path}: costs[{i}].cpu_seconds_per_io.median", sec, "a positive number of seconds")
    return {**doc, "_path": path}


def _size_text(b) -> str:
    if b is None:
        return "mixed sizes"
    return f"{b / 1024:g} KiB" if b % 1024 == 0 else f"{b:.0f} B"


def _files_text(files: list) -> str:
    return ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")


def stack_costs(host, *, costs=None, profile=None) -> tuple:
    """``Host.stack_costs`` entries ``(stack, cycles per I/O, source)`` for ``host`` from ``costs`` and/or
    ``profile`` (a profile's figure replaces a costs file's for the same stack only where it measured the whole
    path)."""
    from ..topology.host import IoStack

    out: dict[str, tuple[str, float, str]] = {}
    if costs is not None:
        doc = read_costs(costs)
        clock = doc.get("clock_hz")
        by_stack: dict[str, list] = {}
        for e in doc["costs"]:
            if e.get("use") and e.get("stack"):
                by_stack.setdefault(str(e["stack"]), []).append(e)
        for stack, entries in by_stack.items():
            IoStack.parse(stack)

            def rank(e):
                b = e.get("block_size_bytes") or 4096.0
                return (abs(math.log(b / 4096.0)), _DIRECTION_ORDER.get(e.get("direction"), 9),
                        -(e.get("iodepth") or 0), -(e.get("runs") or 0))

            best = min(entries, key=rank)
            sec = best["cpu_seconds_per_io"]
            if clock:
                cyc, at = sec["median"] * clock, f"at {clock / 1e9:g} GHz ({doc.get('clock_source') or 'given'})"
                lo, hi = (sec.get("min") or sec["median"]) * clock, (sec.get("max") or sec["median"]) * clock
            else:
                cyc, at = sec["median"] * host.clock_hz, (f"at this host's clock {host.clock_hz / 1e9:g} GHz (the "
                                                          "runs' clock was not given)")
                lo, hi = (sec.get("min") or sec["median"]) * host.clock_hz, (sec.get("max") or sec["median"]) * \
                    host.clock_hz
            others = len(entries) - 1
            text = (f"measured: here, fio {best.get('ioengine')} {_size_text(best.get('block_size_bytes'))} "
                    f"{best.get('direction')} at iodepth {best.get('iodepth')}, {best.get('runs')} run(s) "
                    f"({_files_text(best.get('files') or [])}; {doc['_path']}): {cyc:,.0f} cycles per I/O (median; "
                    f"{lo:,.0f}-{hi:,.0f} over the runs) = {sec['median'] * 1e6:.3g} µs of CPU {at}"
                    + (f"; chosen of {others + 1} groups of this stack (nearest 4 KiB reads at the deepest queue)"
                       if others else ""))
            out[stack] = (stack, float(cyc), text)
    if profile is not None:
        from .profile import load_profile

        doc = load_profile(profile)
        clock = (doc.get("host") or {}).get("clock_hz")
        device: dict[str, dict] = {}  # stack → its step measured with the device
        partial: dict[str, dict] = {}  # stack → its step measured without one
        for step in doc["steps"]:
            if not step.get("stack") or not (step.get("cycles_per_io") or {}).get("median") \
                    or step.get("direction", "read") != "read" or step.get("polling"):
                continue  # (the stacks' defaults are read costs; a polling thread's CPU is busy whatever the rate)
            (device if step["scope"] == "device" else partial if step["scope"] == "no_device" else {})[
                step["stack"]] = step
        fio_step = next((s for s in doc["steps"] if s.get("scope") == "fio"), None)
        for stack, step in {**partial, **device}.items():
            c = step["cycles_per_io"]
            fio = (doc.get("fio") or {}).get("version", "fio")
            what = (f"here by nvmemodel calibrate ({doc['_path']}, {doc.get('created', '')}), {fio} "
                    f"{step.get('ioengine')} {_size_text(step.get('block_size_bytes'))} "
                    f"{step.get('direction')} at iodepth {step.get('iodepth')} on {step.get('target')}, "
                    f"{len(step.get('runs') or [])} run(s): {c['median']:,.0f} cycles per I/O (median; "
                    f"{c.get('min') or c['median']:,.0f}-{c.get('max') or c['median']:,.0f})"
                    + (f" at {clock / 1e9:g} GHz" if clock else "")
                    + (f" ({(doc.get('host') or {}).get('clock_source')})" if clock and (doc.get("host") or {})
                       .get("clock_source") else "")
                    + (f" on {(doc.get('host') or {}).get('model_name')}" if (doc.get("host") or {}).get("model_name")
                       else ""))
            if step["scope"] == "device":
                out[stack] = (stack, float(c["median"]), f"measured: {what}")
                continue
            current = out[stack][1] if stack in out else host.replace(stack_costs=()).cycles_for(IoStack.parse(stack))
            floor = (f"; fio's own work (null engine) {fio_step['cycles_per_io']['median']:,.0f}"
                     if fio_step and (fio_step.get("cycles_per_io") or {}).get("median") else "")
            if c["median"] > current:
                out[stack] = (stack, float(c["median"]), f"measured: at least this, {what} — without a device's "
                              f"block layer, driver and interrupt, yet above the {current:,.0f} charged otherwise"
                              + floor)
            else:
                src = (out[stack][2] if stack in out else str(host.replace(stack_costs=()).sources(stack)
                                                               ["host.cycles_per_io"]))
                out[stack] = (stack, float(current), f"{src} [consistent with {what}, a lower bound: no device's "
                              f"block layer, driver or interrupt{floor}]")
    return tuple(out[s] for s in sorted(out))


def host_costs(host, *, costs=None, profile=None):
    """``host`` charged the measured costs (:attr:`~nvmemodel.Host.stack_costs` replaced)."""
    if costs is None and profile is None:
        return host
    return host.replace(stack_costs=stack_costs(host, costs=costs, profile=profile))


def with_costs(topology: Topology | MixedTopology, *, costs: Any = None,
               profile: Any = None) -> Topology | MixedTopology:
    """``topology`` (a Topology or MixedTopology) whose host is charged the costs per I/O measured on the user's
    machine: ``costs`` from fio runs (``nvmemodel ingest --costs-out`` JSON, or an :func:`io_costs` table) and/or
    ``profile`` (``nvmemodel calibrate``'s JSON, a path or a loaded dict). Stacks not measured keep their
    defaults.

    >>> import nvmemodel as nm
    >>> doc = {"schema": "nvmemodel.io-costs/1", "clock_hz": 2.0e9, "clock_source": "given: 2 GHz",
    ...        "costs": [{"stack": "libaio", "ioengine": "libaio", "direction": "read", "block_size_bytes": 4096,
    ...                   "iodepth": 32, "runs": 3, "use": True, "files": ["r1.json", "r2.json", "r3.json"],
    ...                   "cpu_seconds_per_io": {"median": 5e-6, "min": 4.8e-6, "max": 5.5e-6}}]}
    >>> t = with_costs(nm.preset("ion-sr71mach5-linux"), costs=doc)
    >>> t.host.cycles_for(nm.IoStack.LIBAIO), t.host.cycles_for(nm.IoStack.IO_URING)   # measured; the default
    (10000.0, 7550.0)
    """
    if costs is None and profile is None:
        return topology
    return topology.replace(host=host_costs(topology.host, costs=costs, profile=profile))


def describe_costs(host) -> list[str]:
    """One line per measured stack of ``host``: ``libaio: 10,000 cycles per I/O (measured: …)``, or, where a lower
    bound measured without a device left the charged cost as it was, ``…, unchanged: measured …, below it (charged:
    …)``."""
    out = []
    for stack, cycles, text in host.stack_costs:
        if " [consistent with " in text:
            src, _, rest = text.partition(" [consistent with ")
            out.append(f"{stack}: {cycles:,.0f} cycles per I/O, unchanged: measured {rest.rstrip(']')}, below it "
                       f"(charged: {src})")
        else:
            out.append(f"{stack}: {cycles:,.0f} cycles per I/O ({text})")
    return out
