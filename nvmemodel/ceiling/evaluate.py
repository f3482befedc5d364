"""Public entry points of the ceiling model: curves, single points, sweeps, the overhead waterfall."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .. import _check
from ..errors import UnknownNameError
from ..standards import pcie as sp
from ..topology.config import NvmeConfig, PcieConfig
from ..topology.topology import Topology
from ..topology.workload import Workload
from .pcie import data_tlp_overhead, io_link_bytes, link_capacity_bytes_per_s, link_iops
from .result import Ceiling, ScalingCurve, SweepResult
from .system import COMPONENTS, evaluate_parameters

__all__ = ["evaluate", "ceilings_at", "sweep", "pcie_waterfall", "outstanding_knee"]


def _known(base: Mapping[str, object], names) -> None:
    unknown = [k for k in names if k not in base]
    if unknown:
        raise UnknownNameError("parameter", unknown[0], list(base))


def evaluate(topology: Topology, workload: Workload, *, drives=None,
             overrides: Mapping[str, float] | None = None) -> ScalingCurve:
    """The scaling curve: system ceiling and binding component for each drive count.

    Parameters
    ----------
    topology : Topology
    workload : Workload
    drives : int or sequence of int, optional
        Drive counts to evaluate (default: ``topology.default_drives``, else ``1 … max_drives``).
    overrides : mapping of parameter name → value, optional
        Replace entries of the flat parameter vector (:meth:`Topology.parameters`), e.g.
        ``{"host.cycles_per_io": 4000, "switch.efficiency": 0.9}`` — the hook fits and what-if
        questions use; values are checked like :func:`sweep` grids.

    Examples
    --------
    >>> import nvmemodel as nm
    >>> curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[12])
    >>> curve.binding_at(12)
    'pcie_link'
    """
    if drives is None:
        drives = topology.default_drives or np.arange(1, topology.max_drives + 1)
    n = np.atleast_1d(drives)
    n = topology.check_drives(n).astype(int)
    base = topology.parameters(workload)
    overrides = dict(overrides or {})
    _known(base, overrides)
    _check_grid({k: np.asarray(v, dtype=float) for k, v in overrides.items()})
    params = {**base, **{k: float(v) for k, v in overrides.items()}}
    p = {k: np.asarray(v) for k, v in params.items()}
    out = evaluate_parameters(p, n)
    iops = np.broadcast_to(out["iops"], n.shape).astype(float)
    return ScalingCurve(
        topology=topology, workload=workload, drives=n, iops=iops,
        bytes_per_s=iops * params["workload.block_size"], parameters=params,
        binding=np.asarray(COMPONENTS)[out["binding"]],
        ceilings={name: np.broadcast_to(out["ceilings"][i], n.shape).astype(float)
                  for i, name in enumerate(COMPONENTS)},
        per_drive_iops=np.broadcast_to(out["per_drive_iops"], n.shape),
    )


def outstanding_knee(topology: Topology, workload: Workload) -> float:
    """N* = X_max · R₀ for one drive: outstanding I/Os per drive at which the queue-depth curve
    saturates (docs/physics.md §6). X_max is the drive's ceiling without the Little's-law term; R₀
    its QD1 latency plus the fabric's. NaN when the drive's latency is unknown.
    """
    from .host import knee_outstanding, qd1_latency_s

    p = {k: np.asarray(v) for k, v in topology.parameters(workload).items()}
    p["workload.iodepth"] = np.asarray(np.inf)  # lift the Little's-law bound to get X_max
    x_max = float(evaluate_parameters(p, 1)["per_drive_iops"])
    return float(knee_outstanding(x_max, qd1_latency_s(workload.block_size, workload.read_fraction, p)))


def ceilings_at(topology: Topology, workload: Workload, *, drives: int) -> list[Ceiling]:
    """Every component's ceiling at one drive count, the binding one first."""
    return evaluate(topology, workload, drives=[drives]).ceilings_at(drives)


def sweep(topology: Topology, workload: Workload, *, drives, grid: Mapping[str, object] | None = None,
          check: bool = True) -> SweepResult:
    """Evaluate many configurations × drive counts in one vectorized call.

    Parameters
    ----------
    topology, workload
        The base configuration.
    drives : sequence of int
        Drive counts (the second axis of the result).
    grid : mapping of parameter name → 1-D array
        Parameters to vary, by their names in :meth:`Topology.parameters`
        (e.g. ``{"host.gen": gens, "workload.block_size": sizes}``); all arrays have
        one length C, the number of configurations (build them with ``np.meshgrid``).
    check : bool
        Validate the grid values (ranges, PCIe choices). Disable only for speed when
        the grid is known to be valid.

    Returns
    -------
    SweepResult
        Arrays of shape ``(C, len(drives))``.
    """
    base = topology.parameters(workload)
    grid = dict(grid or {})
    _known(base, grid)
    n = _check.number("drives", drives, lo=1, integer=True).astype(float).ravel()
    arrays = {k: np.asarray(v, dtype=float).ravel() for k, v in grid.items()}
    lengths = {a.size for a in arrays.values()} or {1}
    if len(lengths) > 1:
        raise _check.ParameterError("grid", {k: a.size for k, a in arrays.items()}, "arrays of one common length")
    if check:
        _check_grid(arrays)
    p = {k: (arrays[k][:, None] if k in arrays else np.asarray(v)) for k, v in base.items()}
    out = evaluate_parameters(p, n[None, :])
    shape = (lengths.pop(), n.size)
    iops = np.broadcast_to(out["iops"], shape)
    bs = np.broadcast_to(p["workload.block_size"], shape)
    return SweepResult(grid=arrays, drives=n.astype(int), iops=iops, bytes_per_s=iops * bs,
                       binding_index=np.broadcast_to(out["binding"], shape))


_GRID_RULES = {
    "gen": dict(lo=1, hi=7, integer=True), "lanes": dict(lo=1, hi=16, integer=True),
    "block_size": dict(lo=512, hi=2**30), "read_fraction": dict(lo=0, hi=1),
    "iodepth": dict(lo=1, integer=True), "numjobs": dict(lo=1, integer=True),
    "count": dict(lo=1, integer=True), "efficiency": dict(lo=0, lo_open=True, hi=1),
}


def _check_grid(arrays: Mapping[str, np.ndarray]) -> None:
    for name, arr in arrays.items():
        leaf = name.split(".")[-1]
        if leaf.endswith("gen"):
            _check.number(name, arr, **_GRID_RULES["gen"])
        elif leaf.endswith("lanes"):
            _check.choice(name, arr, sp.LINK_WIDTHS)
        elif leaf in ("mps", "mrrs"):
            _check.choice(name, arr, sp.MPS_CHOICES)
        elif leaf in _GRID_RULES:
            _check.number(name, arr, **_GRID_RULES[leaf])
        else:
            _check.number(name, arr, lo=0)


def pcie_waterfall(gen, lanes: int, workload: Workload, *, pcie: PcieConfig = PcieConfig(),
                   nvme: NvmeConfig = NvmeConfig()):
    """The overhead waterfall of one link for a workload, in the data direction.

    Stages: signalling rate → after line encoding (and FLIT share) → after SKP and
    DLLPs → after the data TLPs' headers and framing → after all NVMe command traffic.

    Returns
    -------
    pandas.DataFrame
        Columns ``stage``, ``bytes_per_s`` (payload-equivalent), ``fraction_of_signalling``,
        ``fraction_of_raw``.
    """
    import pandas as pd

    g = sp.Gen.parse(gen)
    _check.choice("lanes", lanes, sp.LINK_WIDTHS)
    p = {**pcie.parameters(), **nvme.parameters()}
    S, f = workload.block_size, workload.read_fraction
    signalling = sp.GT_PER_S[g] * 1e9 * lanes / 8.0
    raw = float(link_capacity_bytes_per_s(g, lanes, p))
    up, down = (float(x) for x in io_link_bytes(S, f, g, p))
    data_bytes = up if f >= 0.5 else down
    final = float(link_iops(g, lanes, S, f, p)) * S
    # DLLP/SKP stage: the final ceiling with all TLP bytes counted as payload.
    dllp_skp = final * data_bytes / S
    data_only = dllp_skp * S / (S + float(data_tlp_overhead(S, f, g, p)))
    stages = [("signalling (GT/s x lanes / 8)", signalling), ("after line encoding (and FLIT TLP share)", raw),
              ("after SKP and DLLPs", dllp_skp), ("after data TLP headers and framing", data_only),
              ("after NVMe command traffic", final)]
    df = pd.DataFrame(stages, columns=["stage", "bytes_per_s"])
    df["fraction_of_signalling"] = df["bytes_per_s"] / signalling
    df["fraction_of_raw"] = df["bytes_per_s"] / raw
    return df
