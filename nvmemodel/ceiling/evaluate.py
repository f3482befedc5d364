"""Public entry points of the ceiling model: curves, single points, sweeps, the overhead waterfall."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .. import _check
from ..errors import ParameterError
from ..standards import pcie as sp
from ..topology.config import NvmeConfig, PcieConfig
from ..topology.topology import Topology
from ..topology.workload import Workload
from .components import COMPONENT_LABELS, labels_for
from .compose import _CHUNK_CONFIGS, compose, evaluate_prepared, sweep_groups  # noqa: F401 (_CHUNK_CONFIGS: benchmarks/bench_sweep.py)
from .derive import prepare
from .grid import sweep_parameters
from .pcie import data_tlp_overhead, io_link_bytes, link_capacity_bytes_per_s, link_iops
from .result import Ceiling, Lazy, ScalingCurve, SweepResult
from .system import levels_of

__all__ = ["ceilings_at", "evaluate", "outstanding_knee", "pcie_waterfall", "sweep", "sweep_parameters"]



def evaluate(topology: Topology, workload: Workload, *, drives=None,
             overrides: Mapping[str, object] | None = None) -> ScalingCurve:
    """The scaling curve: system ceiling and binding component for each drive count.

    Parameters
    ----------
    topology : Topology or MixedTopology
        A mixed topology (several drive and switch models under one host) goes to
        :func:`~nvmemodel.ceiling.mixed.evaluate_mixed` and gives its :class:`MixedCurve`.
    workload : Workload
    drives : int or sequence of int, optional
        Drive counts to evaluate (default: ``topology.default_drives``, else ``1 … max_drives``).
    overrides : mapping of parameter name → value, optional
        Replace entries of the parameter vector (:meth:`Topology.parameters`; names, units and
        ranges in :data:`nvmemodel.parameters.PARAMETERS`), e.g. ``{"host.cycles_per_io": 4000,
        "workload.io_stack": "spdk", "drive.model": "samsung-pm1743"}``. The curve's topology,
        workload, descriptions and sources all reflect them.

    Examples
    --------
    >>> import nvmemodel as nm
    >>> curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[12])
    >>> curve.binding_at(12)
    'pcie_link'
    """
    if not isinstance(topology, Topology):
        from ..topology.mixed import MixedTopology

        if isinstance(topology, MixedTopology):  # several drive/switch models under one host
            from .mixed import evaluate_mixed

            return evaluate_mixed(topology, workload, drives=drives, overrides=overrides)
        raise ParameterError("topology", type(topology).__name__, "a Topology (nm.preset(...)) or a MixedTopology")
    topo, wl = topology.with_parameters(dict(overrides), workload) if overrides else (topology, workload)
    if drives is None:
        drives = topo.default_drives or np.arange(1, topo.max_drives + 1)
    nf = np.asarray(topo.check_drives(np.atleast_1d(drives)), dtype=float)
    n = nf.astype(int)
    params = topo.parameters(wl)
    lv = levels_of(params)  # independent of the drive count: kept for this topology and workload
    out = compose((lv,), nf, groups=False)  # one group (its drive counts): the composition of every topology
    iops = _row(out["iops"], n.shape)
    names = lv.components
    return ScalingCurve(
        topology=topo, workload=wl, drives=n, iops=iops,
        bytes_per_s=iops * float(params["workload.block_size"]), parameters=params,
        binding=_names_array(names)[out["binding"]], per_drive_iops=_row(out["per_drive"], n.shape),
        # each component alone and the parameters' sources: worked out when first read
        ceilings=Lazy(_alone, out["alone"], names, n.shape), sources=(sources := Lazy(topo.sources, wl)),
        # labels honest about the status of the values behind them (QA s25 H34): worked out when first read
        labels=Lazy(_labels, names, params, sources),
    )


def _alone(alone, names: tuple, shape: tuple) -> dict[str, np.ndarray]:
    """Each component alone (``alone()``: :func:`~nvmemodel.ceiling.compose.compose`'s), as rows of one
    (components x drive counts) array."""
    return _rows(names, alone(), shape)


def _row(x, shape) -> np.ndarray:
    """A kernel output as a new float array of the curve's shape (a scalar repeated; an array copied)."""
    if type(x) is np.ndarray and x.shape == shape:
        return x.astype(float)
    if np.ndim(x) == 0:
        return np.full(shape, float(x))
    return np.broadcast_to(x, shape).astype(float)


def _rows(names, values, shape) -> dict[str, np.ndarray]:
    """Each component's ceiling as a row of one new (components x drive counts) array."""
    table = np.empty((len(names), *shape))
    for i, x in enumerate(values):
        table[i] = x
    return dict(zip(names, table, strict=True))


_NAMES: dict[tuple, np.ndarray] = {}
_LABELS: list = [None, {}]  # the registry's names (the very tuple) and their labels


def _labels(names: tuple, params=None, sources=None) -> dict[str, str]:
    """Plain-language labels of the components (registered ones kept while the registry's names are the very same
    tuple); with the curve's parameters and sources, a '(spec sheet)' label names the values' status where they are
    not from a spec sheet (:func:`~nvmemodel.ceiling.components.labels_for`)."""
    if _LABELS[0] is not names:
        _LABELS[:] = names, {name: COMPONENT_LABELS[name] for name in names}
    if params is None:
        return dict(_LABELS[1])
    return labels_for(names, params, sources)


def _names_array(names: tuple) -> np.ndarray:
    """The component names as a string array (for indexing by binding codes), kept per registry state."""
    arr = _NAMES.get(names)
    if arr is None:
        _NAMES.clear()
        arr = _NAMES[names] = np.asarray(names)
    return arr


def outstanding_knee(topology: Topology, workload: Workload) -> float:
    """N* = X_max · R₀ for one drive: outstanding I/Os per drive at which the queue-depth curve
    saturates (docs/physics.md §6). X_max is the drive's ceiling without the Little's-law term; R₀
    its QD1 latency plus the fabric's. NaN when the drive's latency is unknown.
    """
    from .host import knee_outstanding, qd1_latency_s

    p = prepare(topology.parameters(workload))
    p["workload.iodepth"] = np.asarray(np.inf)  # lift the Little's-law bound to get X_max
    x_max = float(evaluate_prepared(p, 1)["per_drive_iops"])
    return float(knee_outstanding(x_max, qd1_latency_s(workload.block_size, workload.read_fraction, p)))


def ceilings_at(topology: Topology, workload: Workload, *, drives: int) -> list[Ceiling]:
    """Every component's ceiling at one drive count, the binding one first."""
    return evaluate(topology, workload, drives=[drives]).ceilings_at(drives)


def sweep(topology: Topology, workload: Workload, *, drives, grid: Mapping[str, object] | None = None,
          check: bool = True, chunk_points: int = 1 << 18) -> SweepResult:
    """Evaluate many configurations × drive counts in one vectorized call.

    Parameters
    ----------
    topology, workload
        The base configuration; a :class:`~nvmemodel.topology.mixed.MixedTopology` is swept by
        :func:`~nvmemodel.ceiling.mixed.sweep_mixed` (shared parameters only; drives = total drive counts).
    drives : sequence of int
        Drive counts (the second axis of the result).
    grid : mapping of parameter name → 1-D array
        Parameters to vary, by their names in :data:`nvmemodel.parameters.PARAMETERS`; categorical
        ones by name (``{"workload.io_stack": ["libaio", "spdk"], "drive.model": [...]}``). All arrays
        have one length C, the number of configurations (build them with ``np.meshgrid`` or
        ``itertools.product``). ``drive.model`` / ``switch.model`` bring every field of the catalog
        entry unless that field is in the grid too; ``workload.io_stack`` brings its default cycles
        per I/O unless the host or the grid sets ``host.cycles_per_io``.
    check : bool
        Validate numeric grid values against the parameter table (names are always checked).
        Disable only for speed when the grid is known to be valid.
    chunk_points : int
        At most this many points per chunk (and at most 16,000 configurations): temporaries stay bounded
        (about 100 bytes per configuration and 2 bytes per point of a chunk) whatever the number of
        configurations; the result holds 9 bytes per point (float64 IOPS and an int8 binding code,
        column-major).

    Returns
    -------
    SweepResult
        Arrays of shape ``(C, len(drives))``; ``binding_index`` codes into ``components``.
    """
    from ..topology.mixed import MixedTopology

    if isinstance(topology, MixedTopology):  # groups under one host (one unpinned group: the single-model case)
        from .mixed import sweep_mixed

        return sweep_mixed(topology, workload, drives=drives, grid=grid, check=check, chunk_points=chunk_points)
    n = _check.number("drives", drives, lo=1, integer=True).astype(float).ravel()
    p, arrays, configs = sweep_parameters(topology, workload, grid, check=check)
    iops, binding, names = sweep_groups([p], configs, n[None], chunk_points=chunk_points)  # one group
    bs = p["workload.block_size"]
    return SweepResult(grid=arrays, drives=n.astype(int), iops=iops, binding_index=binding, components=names,
                       block_size=np.asarray(bs).reshape(-1) if np.ndim(bs) else float(bs))


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
    p = prepare({**pcie.parameters(), **nvme.parameters()})
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
