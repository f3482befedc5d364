"""PCIe link ceilings: bytes per NVMe I/O in each direction, and the IOPS a link sustains.

All functions are vectorized: every argument may be a numpy array and they broadcast.
``p`` is the flat parameter mapping of :meth:`Topology.parameters` (``"pcie.mps"`` …).

References: docs/physics.md §1–3 (derivations and worked checks); pcie-bench/pcie-model
``mem_bw.py`` for the posted-write / non-posted-read accounting.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..standards import nvme
from ..standards import pcie as sp
from . import ops
from .components import Component, Limit, register

__all__ = ["PCIE_LINK", "command_link_iops", "data_tlp_overhead", "io_link_bytes", "link_capacity_bytes_per_s",
           "link_iops", "peer_link_iops"]


def _flit(gen):
    """FLIT mode (Gen6 and later, :func:`~nvmemodel.standards.pcie.is_flit`) for integer generation codes:
    ``(everywhere, somewhere)`` as bools — from the codes' range, one reduction each — and the mask."""
    if type(gen) is int:
        return gen >= 6, gen >= 6, gen >= 6
    lo, hi = gen.min(), gen.max()
    return bool(lo >= 6), bool(hi >= 6), gen >= 6


def _tlp_costs(gen, p, flit_mode=None):
    """Per-TLP non-payload bytes: (memory request TLP, completion TLP, MMIO-to-BAR TLP)."""
    every, some, flit = flit_mode or _flit(gen)  # flit mode: no STP/LCRC per TLP
    # a scalar where every configuration agrees, so the per-I/O byte counts stay scalars (sweeps, planner)
    framing = 0.0 if every else (float(sp.FRAMING_BYTES) if not some else np.where(flit, 0.0, sp.FRAMING_BYTES))
    ecrc = p["pcie.ecrc"] * sp.ECRC_BYTES
    mem_hdr = ops.where(p["pcie.addr64"] > 0, sp.MEM_HDR_64_BYTES, sp.MEM_HDR_32_BYTES)
    bar_hdr = ops.where(p["nvme.bar_above_4g"] > 0, sp.MEM_HDR_64_BYTES, sp.MEM_HDR_32_BYTES)
    return mem_hdr + framing + ecrc, sp.CPL_HDR_BYTES + framing + ecrc, bar_hdr + framing + ecrc, framing + ecrc


def io_link_bytes(block_size, read_fraction, gen, p: Mapping[str, np.ndarray]):
    """Link bytes per I/O, ``(upstream, downstream)``, averaged over the read/write mix.

    Upstream is device → host. A read moves its data upstream as posted MWr TLPs of
    at most MPS bytes; a write pulls its data with MRd requests (≤ MRRS each) answered
    by CplD downstream in MPS- or RCB-sized pieces. Both pay for the SQE fetch (MRd +
    CplD), the CQE (MWr), an MSI-X (MWr, 3 DW header), SQ/CQ doorbells (MMIO MWr) and,
    for more than two pages without SGLs, a PRP-list fetch. Batching enters through
    ``nvme.*_per_io`` / ``*_per_fetch`` averages (docs/physics.md §3).

    >>> from nvmemodel.topology.config import PcieConfig, NvmeConfig
    >>> from nvmemodel.ceiling.derive import prepare
    >>> p = prepare({**PcieConfig().parameters(), **NvmeConfig().parameters()})
    >>> [float(x) for x in io_link_bytes(4096, 1.0, 4, p)]   # docs/physics.md §3 table
    [4568.0, 140.0]
    """
    gen = _codes(gen)
    return _io_link_bytes(block_size, read_fraction, gen, p, _flit(gen))


def _io_link_bytes(block_size, read_fraction, gen, p, flit_mode, data=True):
    """:func:`io_link_bytes`; ``data=False``: the command traffic alone (SQE, CQE, MSI-X, doorbells, PRP lists),
    without the data TLPs of each direction."""
    S = ops.to_float(block_size)
    mem_tlp, cpl_tlp, bar_tlp, fr_ecrc = _tlp_costs(gen, p, flit_mode)
    mps, mrrs = p["pcie.mps"], p["pcie.mrrs"]
    chunk = ops.where(p["pcie.rcb_chunks"] > 0, p["pcie.rcb"], mps)
    k_sq, k_cq = p["nvme.sqes_per_fetch"], p["nvme.cqes_per_write"]

    pages = ops.ceil(S / nvme.HOST_PAGE_BYTES)
    # One data-block SGL descriptor fits in the SQE; PRP lists are needed beyond 2 pages.
    sgl = p["nvme.sgl"] > 0
    prp_list = ((pages > 2) & ops.not_(sgl & (S >= p["nvme.sgl_threshold_bytes"]))) if ops.any_(sgl) else pages > 2
    # (no PRP list anywhere: a scalar 0, so the list terms below cost nothing; the same sums, + 0.0)
    list_bytes = ops.where(prp_list, (pages - 1) * nvme.PRP_ENTRY_BYTES, 0.0) if ops.any_(prp_list) else _ZERO

    sqe_fetch = k_sq * nvme.SQE_BYTES
    ctl_up = (mem_tlp / k_sq                                    # SQE MRd
              + (k_cq * nvme.CQE_BYTES + mem_tlp) / k_cq        # CQE MWr
              + p["nvme.msix_per_io"] * (nvme.MSIX_DATA_BYTES + nvme.MSIX_HDR_BYTES + fr_ecrc)
              + ops.ceil(list_bytes / mrrs) * mem_tlp)          # PRP-list MRd
    ctl_down = ((p["nvme.sq_doorbells_per_io"] + p["nvme.cq_doorbells_per_io"]) * (nvme.DOORBELL_BYTES + bar_tlp)
                + (sqe_fetch + ops.ceil(sqe_fetch / chunk) * cpl_tlp) / k_sq
                + list_bytes + ops.ceil(list_bytes / chunk) * cpl_tlp)
    f = ops.to_float(read_fraction)
    if not data:
        return ctl_up, f * ctl_down + (1 - f) * ctl_down
    mps_tlps = ops.ceil(S / mps)
    read_up = S + mps_tlps * mem_tlp + ctl_up
    write_up = ops.ceil(S / mrrs) * mem_tlp + ctl_up
    write_down = S + (mps_tlps if chunk is mps else ops.ceil(S / chunk)) * cpl_tlp + ctl_down
    w = 1 - f
    return f * read_up + w * write_up, f * ctl_down + w * write_down


_ZERO = np.float64(0.0)

#: ``GT/s × 1e9 × encoding`` per generation: one table lookup instead of two (the same products).
_ENCODED_BITS_PER_LANE = sp.GT_PER_S * 1e9 * sp.ENCODING


def link_capacity_bytes_per_s(gen, lanes, p, flit_mode=None):
    """Per-direction TLP-byte capacity after encoding (and the FLIT's TLP share at Gen6+)."""
    gen = _codes(gen)
    rate = _ENCODED_BITS_PER_LANE[gen] * lanes / 8.0
    _, some, flit = flit_mode or _flit(gen)
    return ops.where(flit, rate * p["pcie.flit_tlp_fraction"], rate) if some else rate


def _dllp_fraction(gen, lanes, p, flit_mode):
    """Ack + UpdateFC bytes per symbol-time of traffic, ``8/limit + 8/guide`` (pcie-model)."""
    dllp = 2.0 * sp.DLLP_BYTES / sp.dllp_interval_symbols(gen, lanes, p["pcie.mps"])
    _, some, flit = flit_mode  # flit: DLP bytes inside the flit
    return ops.where(flit, 0.0, dllp) if some else dllp


def _codes(x):
    """Integer generation / width codes: a Python int for one configuration, an int array otherwise."""
    if ops.scalar(x):
        return int(x)
    x = np.asarray(x)
    return x if x.dtype == np.int_ else x.astype(int)


#: Parameters the link ceiling reads (besides generation, width, block size and read fraction).
_LINK_KEYS = ("pcie.mps", "pcie.mrrs", "pcie.rcb", "pcie.rcb_chunks", "pcie.addr64", "pcie.ecrc", "pcie.dllp",
              "pcie.skp", "pcie.flit_tlp_fraction", "nvme.sq_doorbells_per_io", "nvme.cq_doorbells_per_io",
              "nvme.sqes_per_fetch", "nvme.cqes_per_write", "nvme.msix_per_io", "nvme.sgl", "nvme.sgl_threshold_bytes",
              "nvme.bar_above_4g")
_LINK_MEMO: dict[tuple, np.float64] = {}


def link_iops(gen, lanes, block_size, read_fraction, p):
    """IOPS ceiling of one PCIe link carrying NVMe I/O (the tighter direction binds).

    DLLP policy ``pcie.dllp``: 0 none; 1 width-scaled, ``8/(W·limit)`` per byte of the
    *opposite* direction's traffic; 2 pcie-model's ``8/limit`` off both directions.
    SKP ordered sets (``pcie.skp``) take :data:`~nvmemodel.standards.pcie.SKP_FRACTION`.
    One configuration (all scalars) is memoized: fits that free a drive or host parameter evaluate
    the same link thousands of times.
    """
    key = (gen, lanes, block_size, read_fraction, *(p[k] for k in _LINK_KEYS))
    if ops.scalar(*key):
        x = _LINK_MEMO.get(key)
        if x is None:
            if len(_LINK_MEMO) >= 4096:
                _LINK_MEMO.clear()
            x = _LINK_MEMO[key] = _link_iops(gen, lanes, block_size, read_fraction, p)
        return x
    return _link_iops(gen, lanes, block_size, read_fraction, p)


def command_link_iops(gen, lanes, block_size, read_fraction, p):
    """IOPS ceiling of a link that carries each I/O's NVMe commands but not its data: a switch's uplink where the data
    turn inside the switch to a peer below it (a GPU, docs/physics.md §12.10). The terms of :func:`link_iops` without
    the data TLPs (SQE fetch, CQE, MSI-X, doorbells and PRP-list fetches stay: the queues live in host memory)."""
    return _link_iops(gen, lanes, block_size, read_fraction, p, data=False)


def _link_iops(gen, lanes, block_size, read_fraction, p, data=True):
    gen, lanes = _codes(gen), _codes(lanes)
    flit_mode = _flit(gen)
    up, down = _io_link_bytes(block_size, read_fraction, gen, p, flit_mode, data)
    cap = link_capacity_bytes_per_s(gen, lanes, p, flit_mode) * (1.0 - p["pcie.skp"] * sp.SKP_FRACTION[gen])
    dllp = _dllp_fraction(gen, lanes, p, flit_mode)
    code = p["pcie.dllp"]
    ws = ops.where(code == 1, dllp / lanes, 0.0)
    up_eff, down_eff = up + ws * down, down + ws * up
    if ops.any_(code == 2):  # (elsewhere the factor is exactly 1)
        cap = cap * ops.where(code == 2, 1.0 - dllp, 1.0)
    return cap / ops.fmax(up_eff, down_eff)


def peer_link_iops(gen, lanes, block_size, read_fraction, p):
    """IOPS ceiling of the link of a peer that only sinks or sources the data of each I/O (a GPU under GPUDirect
    Storage / peer-to-peer DMA, docs/physics.md §12.10): no NVMe command traffic crosses it. A read's data arrives as
    posted MWr TLPs of at most MPS bytes; a write's data leaves as CplD in MPS- or RCB-sized pieces, answering MRd
    requests of at most MRRS that arrive. Encoding, SKP and the DLLP policy as :func:`link_iops`."""
    gen, lanes = _codes(gen), _codes(lanes)
    flit_mode = _flit(gen)
    S = ops.to_float(block_size)
    mem_tlp, cpl_tlp, _, _ = _tlp_costs(gen, p, flit_mode)
    mps, mrrs = p["pcie.mps"], p["pcie.mrrs"]
    chunk = ops.where(p["pcie.rcb_chunks"] > 0, p["pcie.rcb"], mps)
    f = ops.to_float(read_fraction)
    into = f * (S + ops.ceil(S / mps) * mem_tlp) + (1 - f) * ops.ceil(S / mrrs) * mem_tlp
    out = (1 - f) * (S + ops.ceil(S / chunk) * cpl_tlp)
    cap = link_capacity_bytes_per_s(gen, lanes, p, flit_mode) * (1.0 - p["pcie.skp"] * sp.SKP_FRACTION[gen])
    dllp = _dllp_fraction(gen, lanes, p, flit_mode)
    code = p["pcie.dllp"]
    ws = ops.where(code == 1, dllp / lanes, 0.0)
    into_eff, out_eff = into + ws * out, out + ws * into
    if ops.any_(code == 2):
        cap = cap * ops.where(code == 2, 1.0 - dllp, 1.0)
    return cap / ops.fmax(into_eff, out_eff)


def data_tlp_overhead(block_size, read_fraction, gen, p):
    """Header+framing bytes of the *data* TLPs alone per I/O (for the overhead waterfall)."""
    S = np.asarray(block_size, dtype=float)
    mem_tlp, cpl_tlp, _, _ = _tlp_costs(np.asarray(gen).astype(int), p)
    chunk = np.where(p["pcie.rcb_chunks"] > 0, p["pcie.rcb"], p["pcie.mps"])
    f = np.asarray(read_fraction, dtype=float)
    return f * np.ceil(S / p["pcie.mps"]) * mem_tlp + (1 - f) * np.ceil(S / chunk) * cpl_tlp


def drive_link_iops(p):
    """Each drive's own link: ``min`` of the drive's and its port's generation and width (the port is a
    switch downstream port when a switch is present, else a root port)."""
    has_switch = p["attach.switch"] > 0
    if ops.all_(has_switch):
        port_gen, port_lanes = p["switch.port_gen"], p["switch.port_lanes"]
    elif not ops.any_(has_switch):
        port_gen, port_lanes = p["host.gen"], p["host.port_lanes"]
    else:
        port_gen = np.where(has_switch, p["switch.port_gen"], p["host.gen"])
        port_lanes = np.where(has_switch, p["switch.port_lanes"], p["host.port_lanes"])
    return link_iops(ops.fmin(p["drive.gen"], port_gen), ops.fmin(p["drive.lanes"], port_lanes),
                     p["workload.block_size"], p["workload.read_fraction"], p)


PCIE_LINK = register(Component(
    "pcie_link", "each drive's PCIe link", 20, lambda p: Limit(drive=drive_link_iops(p)),
    parameters=("drive.gen", "drive.lanes", "host.gen", "host.port_lanes", "pcie.mps", "pcie.dllp"),
    summary="each drive's own PCIe link after encoding, TLP and NVMe command overheads", color="#dd8452"))
