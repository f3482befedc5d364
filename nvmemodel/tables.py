"""The tables the notebooks teach from, each built from the model (SI units, one row per case).

Nothing here adds physics: every number comes from :func:`~nvmemodel.pcie_waterfall`,
:func:`~nvmemodel.evaluate`, :func:`~nvmemodel.sweep` or the PCIe kernel they share
(docs/physics.md §1–7). The notebooks print and plot these frames; the frames are also the CSV
files written next to each figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .errors import ParameterError

if TYPE_CHECKING:
    from .topology.workload import Workload

__all__ = [
    "assumptions_allowing",
    "command_traffic",
    "efficiency_by_block_size",
    "explain_allowing",
    "fabric_ceilings",
    "generation_rates",
    "mtu_curve",
    "queue_depth_curve",
    "stack_cycles_table",
    "waterfall_losses",
]

#: What each step of :func:`~nvmemodel.pcie_waterfall` takes away (the loss *into* that stage).
WATERFALL_LOSSES = ("", "line encoding (8b/10b, 128b/130b) or the FLIT's non-TLP bytes",
                    "SKP ordered sets and DLLPs (Ack, UpdateFC)", "data TLP headers and framing (per MPS-sized TLP)",
                    "NVMe command traffic (SQE fetch, CQE, MSI-X, doorbells, PRP lists)")


def waterfall_losses(gen, lanes: int, workload, *, pcie=None):
    """:func:`~nvmemodel.pcie_waterfall` with the loss of each stage named and sized.

    Columns: ``stage``, ``bytes_per_s``, ``loss`` (what the step removes), ``loss_bytes_per_s``,
    ``loss_pct`` (of the stage before), ``pct_of_signalling``.
    """
    from .ceiling.evaluate import pcie_waterfall
    from .topology.config import PcieConfig

    wf = pcie_waterfall(gen, lanes, workload, pcie=pcie or PcieConfig())
    prev = wf["bytes_per_s"].shift(1)
    return wf.assign(loss=list(WATERFALL_LOSSES), loss_bytes_per_s=(prev - wf["bytes_per_s"]).fillna(0.0),
                     loss_pct=((prev - wf["bytes_per_s"]) / prev * 100).fillna(0.0),
                     pct_of_signalling=wf["fraction_of_signalling"] * 100)[
        ["stage", "bytes_per_s", "loss", "loss_bytes_per_s", "loss_pct", "pct_of_signalling"]]


def generation_rates(lanes: int, workload, *, gens: Iterable[int] = range(1, 7), pcie=None):
    """Per PCIe generation: GT/s, signalling rate, after encoding, and delivered NVMe payload (bytes/s)."""
    import pandas as pd

    from .standards import pcie as sp

    rows = []
    for g in gens:
        wf = waterfall_losses(g, lanes, workload, pcie=pcie)
        b = wf["bytes_per_s"].to_numpy()
        rows.append({"gen": f"Gen{g}", "gt_per_s": float(sp.GT_PER_S[g]), "signalling_bytes_per_s": b[0],
                     "encoded_bytes_per_s": b[1], "delivered_bytes_per_s": b[-1],
                     "delivered_pct_of_signalling": b[-1] / b[0] * 100})
    return pd.DataFrame(rows)


def efficiency_by_block_size(gen, lanes: int, block_sizes: Sequence[float] | np.ndarray, mps_values: Sequence[int],
                             *, read_fraction: float = 1.0):
    """Delivered payload of one link versus block size, for each Max Payload Size (bytes/s).

    ``pct_of_encoded`` is the delivered share of the rate after line encoding.
    """
    import pandas as pd

    from .ceiling.derive import prepare
    from .ceiling.pcie import link_capacity_bytes_per_s, link_iops
    from .standards.pcie import Gen
    from .topology.config import NvmeConfig, PcieConfig

    g = int(Gen.parse(gen))
    S = np.asarray(block_sizes, dtype=float)
    frames = []
    for mps in mps_values:
        p = prepare({**PcieConfig(mps=mps).parameters(), **NvmeConfig().parameters()})
        delivered = np.asarray(link_iops(g, lanes, S, read_fraction, p)) * S
        encoded = float(link_capacity_bytes_per_s(g, lanes, p))
        frames.append(pd.DataFrame({"mps_bytes": int(mps), "block_size_bytes": _whole(S), "delivered_bytes_per_s": delivered,
                                    "pct_of_encoded": delivered / encoded * 100}))
    return pd.concat(frames, ignore_index=True)


def _whole(sizes):
    """Block sizes (bytes) as integers where every one is whole — so tables print 4096, not 4096.0 — else as given."""
    a = np.asarray(sizes, dtype=float)
    return (a.astype(np.int64) if a.ndim else int(a)) if np.all(a == np.round(a)) else sizes


def command_traffic(gen, block_sizes: Sequence[float], *, pcie=None):
    """Link bytes per I/O in each direction for reads and writes: the data, and everything else
    (TLP headers, SQE, CQE, MSI-X, doorbells, PRP lists). ``overhead_pct`` is of the data bytes."""
    import pandas as pd

    from .ceiling.derive import prepare
    from .ceiling.pcie import io_link_bytes
    from .standards.pcie import Gen
    from .topology.config import NvmeConfig, PcieConfig

    p = prepare({**(pcie or PcieConfig()).parameters(), **NvmeConfig().parameters()})
    g = int(Gen.parse(gen))
    rows = []
    for S in block_sizes:
        for direction, f in (("read", 1.0), ("write", 0.0)):
            up, down = (float(x) for x in io_link_bytes(float(S), f, g, p))
            rows.append({"direction": direction, "block_size_bytes": _whole(float(S)), "device_to_host_bytes": up,
                         "host_to_device_bytes": down, "overhead_bytes": up + down - float(S),
                         "overhead_pct": (up + down - float(S)) / float(S) * 100})
    return pd.DataFrame(rows)


def queue_depth_curve(topology, workload, iodepths: Sequence[int]):
    """One drive's IOPS ceiling versus outstanding I/O (``workload.iodepth``; one job), with Little's law.

    Columns ``iodepth``, ``iops``, ``binding``, ``latency_s`` (= iodepth / IOPS: Little's law, the
    latency at that ceiling), ``knee_iodepth`` (N* = X_max · R₀, :func:`~nvmemodel.outstanding_knee`).
    """
    import pandas as pd

    from .ceiling.evaluate import outstanding_knee, sweep

    qd = np.asarray(iodepths, dtype=float)
    res = sweep(topology, workload.replace(numjobs=1), drives=[1], grid={"workload.iodepth": qd})
    iops = res.iops[:, 0]
    return pd.DataFrame({"iodepth": qd.astype(int), "iops": iops, "binding": res.binding[:, 0],
                         "latency_s": qd / iops, "knee_iodepth": outstanding_knee(topology, workload.replace(numjobs=1))})


def assumptions_allowing(topology, workload, *, drives: int, measured: float,
                         choices: Mapping[str, Sequence] | None = None):
    """Which alternative values of choice parameters lift the ceiling to a measurement (bytes/s).

    A measurement above a ceiling falsifies an assumption; this lists, for each parameter in
    ``choices`` (default: ``pcie.mps``, ``pcie.dllp``, ``pcie.skp``), every value tried, its ceiling
    and whether it allows the measurement.
    """
    import pandas as pd

    from .ceiling.evaluate import evaluate

    choices = dict(choices or {"pcie.mps": [128, 256, 512], "pcie.dllp": ["none", "width_scaled", "pcie_model"],
                               "pcie.skp": [1, 0]})
    base = evaluate(topology, workload, drives=[drives])
    rows = []
    for name, values in choices.items():
        if name not in base.parameters:
            raise ParameterError("choices", name, f"a parameter of {topology.name} ({', '.join(base.parameters)})")
        for v in values:
            c = evaluate(topology, workload, drives=[drives], overrides={name: v}).bandwidth_at(drives)
            current = str(base.parameters[name]) == str(v) or base.parameters[name] == v
            rows.append({"parameter": name, "value": str(v), "preset_value": bool(current), "ceiling_bytes_per_s": c,
                         "allows_measurement": bool(c >= measured)})
    return pd.DataFrame(rows)


def fabric_ceilings(topology, workloads: Mapping[str, Workload], transports: Sequence[str], *, drives: int):
    """System ceiling and binding component per (workload, transport); ``"none"`` is local access."""
    import pandas as pd

    from .ceiling.evaluate import evaluate

    rows = []
    for wname, wl in workloads.items():
        for t in transports:
            c = evaluate(topology, wl, drives=[drives], overrides={"fabric.transport": t})
            rows.append({"workload": wname, "transport": "local (no fabric)" if t == "none" else t,
                         "iops": c.iops_at(drives), "bytes_per_s": c.bandwidth_at(drives),
                         "binding": c.binding_at(drives), "fabric_iops": float(c.ceilings["fabric"][0])})
    return pd.DataFrame(rows)


def mtu_curve(topology, workload, transports: Sequence[str], eth_mtus: Sequence[int], *, drives: int):
    """The network's ceiling (IOPS) versus Ethernet MTU for each transport (RoCE MTU: the largest that fits)."""
    import pandas as pd

    from .ceiling.evaluate import sweep

    mtu = np.asarray(eth_mtus, dtype=float)
    frames = []
    for t in transports:
        res = sweep(topology, workload, drives=[drives], grid={
            "fabric.eth_mtu": mtu, "fabric.roce_mtu": np.zeros_like(mtu), "fabric.transport": [t] * mtu.size})
        frames.append(pd.DataFrame({"transport": t, "eth_mtu_bytes": mtu.astype(int), "iops": res.iops[:, 0],
                                    "bytes_per_s": res.bytes_per_s[:, 0], "binding": res.binding[:, 0]}))
    return pd.concat(frames, ignore_index=True)


def stack_cycles_table():
    """CPU cycles per I/O of each ``workload.io_stack`` with its source (an estimate or a derivation), and the
    range its published per-core points imply (``cycles_low``, ``cycles_high``: ``STACK_CYCLES_RANGE``,
    docs/physics.md §4.1)."""
    import pandas as pd

    from .topology.host import STACK_CYCLES, STACK_CYCLES_RANGE

    return pd.DataFrame([{"io_stack": s.value, "cycles_per_io": c, "cycles_low": STACK_CYCLES_RANGE[s][0],
                          "cycles_high": STACK_CYCLES_RANGE[s][1], "source": src} for s, (c, src) in STACK_CYCLES.items()])


def explain_allowing(frame, *, measured: float) -> str:
    """A planner-readable sentence from :func:`assumptions_allowing`: which single changes of the
    preset's assumptions would let the model's ceiling reach a measurement of ``measured`` bytes/s."""
    def rate(x):
        return f"{x / 1e9:.2f} GB/s = {x / 2**30:.2f} GiB/s"

    alternatives = frame[~frame.preset_value]
    ok, short = alternatives[alternatives.allows_measurement], alternatives[~alternatives.allows_measurement]
    base = frame[frame.preset_value].ceiling_bytes_per_s.iloc[0]
    head = (f"The measurement ({rate(measured)}) is above the model's ceiling ({rate(base)}, "
            f"{measured / base - 1:+.2%}) under the preset's assumptions, so one of them is wrong.")
    if ok.empty:
        return head + " No single change among " + ", ".join(dict.fromkeys(frame.parameter)) + " explains it."
    lines = [head, "Single changes that would allow it: " + "; ".join(
        f"{r.parameter} = {r.value} (ceiling {rate(r.ceiling_bytes_per_s)})" for r in ok.itertuples()) + "."]
    near = short[short.ceiling_bytes_per_s > base]
    if not near.empty:
        lines.append("Not enough alone: " + "; ".join(
            f"{r.parameter} = {r.value} (ceiling {rate(r.ceiling_bytes_per_s)})" for r in near.itertuples()) + ".")
    return "\n".join(lines)
