"""Compose the component ceilings over a topology into a scaling curve (the kernel).

For ``n`` identical drives spread round-robin over ``m`` switches (or root ports)::

    d      = min(drive media, drive PCIe link, Little's law per drive)     per drive
    G      = min(switch uplink × efficiency, switch processing cap)        per switch
    local  = Σ_switches min(G, k_j · d)          (k_j drives on switch j; Σ k_j = n)
    X(n)   = min(local, host CPU, fabric, Little's law for the system)

Each component is also reported *alone* as a system ceiling (e.g. the uplink alone
allows ``min(n, m) · G``); the binding component is the smallest of those, ties going
to the component nearest the drive (the order of :data:`COMPONENTS`). Every argument
broadcasts, so one call evaluates whole curves and configuration grids.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..topology.drive import drive_iops
from .fabric import fabric_iops
from .host import cpu_iops, littles_law_iops, qd1_latency_s
from .pcie import link_iops

__all__ = ["COMPONENTS", "COMPONENT_LABELS", "evaluate_parameters"]

#: Components in tie-break order (nearest the drive first).
COMPONENTS = ("drive", "pcie_link", "queue_depth", "switch_uplink", "switch_processing", "host_cpu", "fabric")
#: Plain-language names for explanations.
COMPONENT_LABELS = {
    "drive": "the drives' own limit (spec sheet)",
    "pcie_link": "each drive's PCIe link",
    "queue_depth": "outstanding I/O (Little's law: queue depth / latency)",
    "switch_uplink": "the PCIe switch uplink shared by its drives",
    "switch_processing": "the PCIe switch's command-processing rate",
    "host_cpu": "host CPU cycles per I/O",
    "fabric": "the network (NVMe-oF)",
}


def evaluate_parameters(p: Mapping[str, np.ndarray], drives) -> dict[str, np.ndarray]:
    """Evaluate the kernel on a flat parameter mapping (see :meth:`Topology.parameters`).

    Returns a dict with ``iops`` (system IOPS ceiling), ``per_drive_iops`` (a drive's
    own ceiling before shared limits), ``ceilings`` (a tuple in :data:`COMPONENTS` order of
    arrays broadcastable to the result: each component alone, IOPS) and ``binding`` (int8
    index into :data:`COMPONENTS`).
    """
    n = np.asarray(drives, dtype=float)
    bs, rf = p["workload.block_size"], p["workload.read_fraction"]
    has_switch = p["attach.switch"] > 0
    inf = np.inf

    d_media = drive_iops(bs, rf, p["drive.rand_read_iops"], p["drive.rand_write_iops"],
                         p["drive.seq_read_bytes_per_s"], p["drive.seq_write_bytes_per_s"])
    port_gen = np.where(has_switch, p["switch.port_gen"], p["host.gen"])
    port_lanes = np.where(has_switch, p["switch.port_lanes"], p["host.port_lanes"])
    d_link = link_iops(np.fmin(p["drive.gen"], port_gen), np.fmin(p["drive.lanes"], port_lanes), bs, rf, p)
    outstanding = p["workload.iodepth"] * p["workload.numjobs"]
    qd = littles_law_iops(outstanding, qd1_latency_s(bs, rf, p))
    per_drive = p["workload.per_drive"] > 0
    d_qd = np.where(per_drive, qd, inf)
    d = np.fmin(np.fmin(d_media, d_link), d_qd)

    uplink = link_iops(np.fmin(p["switch.up_gen"], p["host.gen"]), p["switch.up_lanes"], bs, rf, p) \
        * p["switch.efficiency"]
    tlps = np.ceil(bs / p["pcie.mps"]) + 4.0  # data TLPs + SQE fetch, CQE, MSI-X, doorbell
    proc_s = p["switch.per_command_s"] + p["switch.per_tlp_s"] * tlps
    with np.errstate(divide="ignore"):
        proc = np.where(proc_s > 0, 1.0 / proc_s, inf)
    group = np.fmin(uplink, proc)
    m = p["switch.count"]
    if np.any(has_switch):
        q = np.floor(n / m)
        r = n - q * m
        switched = r * np.fmin(group, (q + 1) * d) + (m - r) * np.fmin(group, q * d)
    else:
        switched = None
    local = _where(has_switch, lambda: switched, lambda: n * d)

    cpu = cpu_iops(p)
    fab = fabric_iops(bs, rf, p)
    qd_sys = np.where(per_drive, inf, qd)
    total = np.fmin(np.fmin(local, cpu), np.fmin(fab, qd_sys))

    used = np.fmin(n, m)
    alone = (n * d_media, n * d_link, _where(per_drive, lambda: n * qd, lambda: qd_sys),
             _where(has_switch, lambda: used * uplink, lambda: inf),
             _where(has_switch, lambda: used * proc, lambda: inf), cpu, fab)
    return {
        "iops": total,
        "per_drive_iops": d,
        "ceilings": alone,
        "binding": _argmin(alone),
    }


def _where(cond, if_true, if_false):
    """``np.where`` that evaluates only the branch needed when ``cond`` is uniform (the common case)."""
    cond = np.asarray(cond)
    if cond.all():
        return if_true()
    if not cond.any():
        return np.asarray(if_false(), dtype=float)
    return np.where(cond, if_true(), if_false())


def _argmin(arrays) -> np.ndarray:
    """Index of the smallest array, elementwise; first wins ties. Faster than stacking + argmin."""
    shape = np.broadcast_shapes(*(np.shape(a) for a in arrays))
    best = np.broadcast_to(arrays[0], shape)
    index = np.zeros(shape, dtype=np.int8)
    for k, a in enumerate(arrays[1:], start=1):
        if np.ndim(a) == 0 and not np.isfinite(a):
            continue  # an absent component never binds
        lower = a < best
        if lower.any():
            index[lower] = k
            best = np.where(lower, a, best)
    return index
