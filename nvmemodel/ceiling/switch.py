"""PCIe switch ceilings: the shared uplink (after the switch's efficiency) and its processing rate."""

from __future__ import annotations

import numpy as np

from . import ops
from .components import Component, Limit, register
from .pcie import command_link_iops, link_iops

__all__ = ["SWITCH_PROCESSING", "SWITCH_UPLINK", "processing_iops", "uplink_iops"]


def uplink_iops(block_size, read_fraction, p):
    """IOPS the uplink carries: the link ceiling at ``min(uplink gen, host gen)`` × efficiency. Where GPUs behind the
    switch take the data (``gpu.attach=switch``, :func:`~nvmemodel.ceiling.gpu.data_path`) the uplink carries the
    commands alone (:func:`~nvmemodel.ceiling.pcie.command_link_iops`)."""
    from .gpu import data_path

    gen = ops.fmin(p["switch.up_gen"], p["host.gen"])
    full = link_iops(gen, p["switch.up_lanes"], block_size, read_fraction, p) * p["switch.efficiency"]
    path = data_path(p)
    if path is None or not np.any(path[1]):
        return full
    commands = command_link_iops(gen, p["switch.up_lanes"], block_size, read_fraction, p) * p["switch.efficiency"]
    return commands if np.all(path[1]) else np.where(path[1], commands, full)


def processing_iops(block_size, p):
    """``1 / (per-command + per-TLP × TLPs)``: data TLPs plus SQE fetch, CQE, MSI-X and doorbell; inf if 0.

    Without a per-TLP cost (one number, 0: most catalog switches) the time is the per-command cost itself —
    ``c + 0 × TLPs`` is ``c`` exactly — and stays one number where that is one (a sweep's classes then need no
    per-chunk computation for it, :class:`~nvmemodel.ceiling.components.GridClasses`)."""
    per_tlp = p["switch.per_tlp_s"]
    if type(per_tlp) in (float, np.float64) and per_tlp == 0.0:
        proc_s = p["switch.per_command_s"] + per_tlp
    else:
        proc_s = p["switch.per_command_s"] + per_tlp * (ops.ceil(block_size / p["pcie.mps"]) + 4.0)
    with np.errstate(divide="ignore"):
        return ops.where(proc_s > 0, 1.0 / ops.where(proc_s > 0, proc_s, 1.0), np.inf)


def _present(p, compute):
    """The group limit where a switch is attached, inf elsewhere; nothing computed without a switch."""
    attach = p["attach.switch"]
    if not ops.any_(attach):
        return Limit()
    value = compute()
    return Limit(group=value if ops.all_(attach) else np.where(attach > 0, value, np.inf))


SWITCH_UPLINK = register(Component(
    "switch_uplink", "the PCIe switch uplink shared by its drives", 40,
    lambda p: _present(p, lambda: uplink_iops(p["workload.block_size"], p["workload.read_fraction"], p)),
    parameters=("switch.up_gen", "switch.up_lanes", "switch.efficiency", "host.gen", "pcie.mps"),
    summary="the PCIe switch uplink shared by the drives behind it", color="#c44e52"))

SWITCH_PROCESSING = register(Component(
    "switch_processing", "the PCIe switch's command-processing rate", 50,
    lambda p: _present(p, lambda: processing_iops(p["workload.block_size"], p)),
    parameters=("switch.per_command_s", "switch.per_tlp_s"),
    summary="the switch's per-command processing rate", color="#8172b3"))
