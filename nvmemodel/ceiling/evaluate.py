"""Public entry points of the ceiling model: curves, single points, sweeps, the overhead waterfall."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .. import _check
from ..errors import ParameterError
from ..standards import pcie as sp
from ..topology.config import NvmeConfig, PcieConfig
from ..topology.mixed import MixedTopology
from ..topology.topology import Topology
from ..topology.workload import Workload
from .components import COMPONENT_LABELS, labels_for
from .compose import _CHUNK_CONFIGS, binding_groups, compose, evaluate_prepared, sweep_groups  # noqa: F401 (_CHUNK_CONFIGS: benchmarks/bench_sweep.py)
from .derive import prepare
from .gpu import switch_ports as gpu_switch_ports
from .grid import sweep_parameters
from .group_parameters import GROUP_OWNED, each_group, shared_values, with_parameters
from .lazy import Lazy
from .mirror import mirror_curve, sweep_mirror
from .pcie import data_tlp_overhead, io_link_bytes, link_capacity_bytes_per_s, link_iops
from .placement import drives_per_group, starts, switch_sets
from .result import Ceiling, MixedCurve, ScalingCurve, SweepResult
from .system import levels_of
from .tree import _PLACEMENT  # placing the drives over sockets and complexes: one value per mixed sweep

__all__ = ["ceilings_at", "evaluate", "evaluate_mixed", "outstanding_knee", "pcie_waterfall", "sweep",
           "sweep_parameters"]



def evaluate(topology: Topology | MixedTopology, workload: Workload, *,
             drives: int | Sequence[int] | np.ndarray | None = None, overrides: Mapping[str, object] | None = None,
             costs: Any = None, profile: Any = None) -> ScalingCurve:
    """The scaling curve: system ceiling and binding component for each drive count.

    Parameters
    ----------
    topology : Topology or MixedTopology
        One drive and switch model (a :class:`ScalingCurve`), or several groups under one host
        (docs/topologies.md: a :class:`~nvmemodel.ceiling.result.MixedCurve`, binding component and
        group per point; the groups fill in ``topology.order``; with ``mirror=True`` one md RAID-1/10 array
        spanning the two groups, :mod:`~nvmemodel.ceiling.mirror`). Both are composed by
        :func:`~nvmemodel.ceiling.compose.compose`.
    workload : Workload
    drives : int or sequence of int, optional
        Drive counts to evaluate (default: ``topology.default_drives``, else ``1 … max_drives``); of a
        mixed topology total drive counts (default ``1 … max_drives``, pairs with a mirror).
    overrides : mapping of parameter name → value, optional
        Replace entries of the parameter vector (:meth:`Topology.parameters`; names, units and
        ranges in :data:`nvmemodel.parameters.PARAMETERS`), e.g. ``{"host.cycles_per_io": 4000,
        "workload.io_stack": "spdk", "drive.model": "samsung-pm1743"}``. The curve's topology,
        workload, descriptions and sources all reflect them. A mixed topology takes shared parameters
        here for every group; a group's own drive, switch and port lanes are set on its
        :class:`~nvmemodel.topology.mixed.DriveGroup`.
    costs, profile : optional
        CPU costs per I/O measured on the user's machine, charged to the host per I/O stack
        (:func:`nvmemodel.hostcal.with_costs`): ``costs`` from fio runs (``nvmemodel ingest --costs-out`` JSON or
        an ``nm.io_costs`` table), ``profile`` from ``nvmemodel calibrate`` (docs/hosts.md).

    Examples
    --------
    >>> import nvmemodel as nm
    >>> curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[12])
    >>> curve.binding_at(12)
    'pcie_link'
    """
    if costs is not None or profile is not None:
        from ..hostcal.apply import with_costs

        topology = with_costs(topology, costs=costs, profile=profile)
    if not isinstance(topology, Topology):
        if isinstance(topology, MixedTopology):  # several drive/switch models under one host
            return _evaluate_groups(topology, workload, drives, overrides)
        raise ParameterError("topology", type(topology).__name__, "a Topology (nm.preset(...)) or a MixedTopology")
    topo, wl = topology.with_parameters(dict(overrides), workload) if overrides else (topology, workload)
    counts: Any = drives if drives is not None else topo.default_drives or np.arange(1, topo.max_drives + 1)
    nf = np.asarray(topo.check_drives(np.atleast_1d(counts)), dtype=float)
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


def evaluate_mixed(topology: MixedTopology, workload: Workload, *,
                   drives: int | Sequence[int] | np.ndarray | None = None,
                   overrides: Mapping[str, object] | None = None) -> ScalingCurve:
    """:func:`evaluate` of a :class:`~nvmemodel.topology.mixed.MixedTopology` (refusing any other topology): its
    :class:`~nvmemodel.ceiling.result.MixedCurve`, system ceiling, binding component and group per drive count.

    Examples
    --------
    >>> import nvmemodel as nm
    >>> t = nm.MixedTopology("two groups", nm.preset("dell-r7525").host, (
    ...     nm.DriveGroup("samsung-pm1733-u2", 8), nm.DriveGroup("intel-p3700-800gb", 8)))
    >>> curve = nm.evaluate_mixed(t, nm.Workload("read", "128K"), drives=[8, 16])
    >>> [curve.describe_binding_at(n) for n in (8, 16)]
    ['group 0: drive', 'group 0, group 1: drive']
    """
    if not isinstance(topology, MixedTopology):
        raise ParameterError("topology", type(topology).__name__, "a MixedTopology (nvmemodel.evaluate takes a "
                             "Topology too; MixedTopology.from_topology converts one)")
    return evaluate(topology, workload, drives=drives, overrides=overrides)


def _evaluate_groups(topology: MixedTopology, workload: Workload, drives, overrides):
    """:func:`evaluate` of groups under one host: each group's levels on its own parameters (the topology's
    overrides taken group by group, :func:`~nvmemodel.ceiling.group_parameters.with_parameters`), composed at
    each group's share of the total drive counts (:func:`~nvmemodel.ceiling.compose.compose`, docs/physics.md §12.7:
    placement, shared levels, binding); a mirror spanning two groups by :func:`~nvmemodel.ceiling.mirror.
    mirror_curve` (§12.9). Each component alone is the system ceiling with only it limiting (``inf`` where it leaves
    a group holding drives unlimited: the curve then lists it on the groups it limits). With one group every number
    and name is the single-model curve's."""
    topology, wl, topos, wls = with_parameters(topology, overrides or {}, workload)
    if drives is None:
        drives = np.arange(2 if topology.mirror else 1, topology.max_drives + 1, 2 if topology.mirror else 1)
    n = np.atleast_1d(_check.number("drives", drives, lo=1, hi=topology.max_drives, integer=True)).astype(int)
    if n.ndim != 1 or n.size == 0:  # an empty curve broke its repr; a 2-D one the kernel (raw ValueError)
        raise ParameterError("drives", drives, "one or more total drive counts (an int or a 1-D sequence)")
    params = [t.parameters(w) for t, w in zip(topos, wls, strict=True)]
    levels = [levels_of(p) for p in params]  # kept per parameter vector, as a Topology's
    k = drives_per_group(topology, n).astype(float)
    if topology.mirror:  # one array over both groups: md's read balancing
        return _mixed_curve(topology, wl, n, k, topos, params, wls, **mirror_curve(topology, wl, params, n))
    out = compose(levels, k, [g.socket for g in topology.groups], starts(topology, levels[0].p), switch_sets(topology))
    names = levels[0].components
    sizes = [float(p["workload.block_size"]) for p in params]
    bytes_per_s = out["iops"] * sizes[0]
    if any(x != sizes[0] for x in sizes):  # groups with their own block sizes: each group's I/Os at its size
        bytes_per_s = sum(out["group_iops"][g] * sizes[g] for g in range(len(sizes)))
    return _mixed_curve(topology, wl, n, k, topos, params, wls, iops=out["iops"], bytes_per_s=bytes_per_s,
                        binding=np.asarray(names)[out["binding"]], ceilings=dict(zip(names, out["ceilings"], strict=True)),
                        per_drive_iops=out["per_drive"], labels={name: COMPONENT_LABELS[name] for name in names},
                        group_iops=out["group_iops"], group_binding=np.asarray(names)[out["group_binding"]],
                        group_ceilings=tuple(dict(zip(names, c, strict=True)) for c in out["group_ceilings"]),
                        binding_group=binding_groups([g.name for g in topology.groups], k, out))


def _mixed_curve(topology, wl, n, k, topos, params, wls, **fields) -> MixedCurve:
    """The curve of groups under one host: what every one holds (the shared parameters, the groups' own) and
    ``fields``."""
    shared = {key: v for key, v in params[0].items() if not key.startswith(GROUP_OWNED)}
    return MixedCurve(topology=topology, workload=wl, drives=n, parameters=shared, sources=topos[0].sources(wl),
                      groups=tuple(g.name for g in topology.groups), group_drives=k.astype(int),
                      group_parameters=tuple(params), group_workloads=tuple(wls),
                      group_sources=tuple(t.sources(w) for t, w in zip(topos, wls, strict=True)), **fields)


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


def sweep(topology: Topology | MixedTopology, workload: Workload, *, drives: int | Sequence[int] | np.ndarray,
          grid: Mapping[str, object] | None = None, check: bool = True, chunk_points: int = 1 << 18,
          costs: Any = None, profile: Any = None) -> SweepResult:
    """Evaluate many configurations × drive counts in one vectorized call.

    Parameters
    ----------
    topology, workload
        The base configuration. A :class:`~nvmemodel.topology.mixed.MixedTopology`'s grid varies shared
        parameters (host, CPU, I/O stack, tree, layers above the links, workload) for every group at once
        (a group's own drive, switch and lanes are set on its :class:`~nvmemodel.topology.mixed.DriveGroup`;
        with several groups, or one pinned to a socket, the placement parameters are one value for the
        sweep); each configuration is what :func:`evaluate` gives with its values as overrides.
    drives : sequence of int
        Drive counts (the second axis of the result); of a mixed topology total drive counts.
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
    costs, profile : optional
        CPU costs per I/O measured on the user's machine, as in :func:`evaluate`.

    Returns
    -------
    SweepResult
        Arrays of shape ``(C, len(drives))``; ``binding_index`` codes into ``components``.
    """
    if costs is not None or profile is not None:
        from ..hostcal.apply import with_costs

        topology = with_costs(topology, costs=costs, profile=profile)
    if isinstance(topology, MixedTopology):  # groups under one host (one unpinned group: the single-model case)
        n = _check.number("drives", drives, lo=1, hi=topology.max_drives, integer=True).astype(int).ravel()
        if topology.mirror:
            iops, binding, names, arrays, p = sweep_mirror(topology, workload, n, dict(grid or {}), check)
        else:
            iops, binding, names, arrays, p = _sweep_groups(topology, workload, n, dict(grid or {}), check,
                                                            chunk_points)
    else:
        n = _check.number("drives", drives, lo=1, integer=True).astype(float).ravel()
        p, arrays, configs = sweep_parameters(topology, workload, grid, check=check)
        _check_gpu_ports(p, n, configs)
        iops, binding, names = sweep_groups([p], configs, n[None], chunk_points=chunk_points)  # one group
    bs = p["workload.block_size"]
    return SweepResult(grid=arrays, drives=n.astype(int), iops=iops, binding_index=binding, components=names,
                       block_size=np.asarray(bs, dtype=float).reshape(-1) if np.ndim(bs) else float(bs))


def _check_gpu_ports(p, n: np.ndarray, configs: int) -> None:
    """Refuse a sweep's configuration whose GPUs behind the drives' switches (``gpu.attach=switch``) leave fewer
    downstream ports than the most drives swept, as :func:`evaluate` refuses drives beyond
    :attr:`~nvmemodel.topology.topology.Topology.max_drives` (a x16 GPU on x4 ports takes four; docs/physics.md
    §12.10). Configurations without GPUs behind switches are not checked here."""
    taken = np.broadcast_to(np.asarray(gpu_switch_ports(p), dtype=float), (configs,))
    if not np.any(taken):
        return
    switches = np.broadcast_to(np.asarray(p["switch.count"], dtype=float), (configs,))
    left = switches * np.fmax(np.broadcast_to(np.asarray(p["switch.ports"], dtype=float), (configs,)) - taken, 0.0)
    most = float(np.max(n))
    bad = np.flatnonzero((taken > 0) & (left < most))
    if bad.size:
        i = int(bad[0])

        def at(name: str) -> float:
            return float(np.broadcast_to(np.asarray(p[name], dtype=float), (configs,))[i])

        raise ParameterError("gpu.count", f"{at('gpu.count'):g} (configuration {i} of the grid)",
                             f"GPUs that leave a downstream port for each of the {most:g} drives swept: "
                             f"{at('gpu.count'):g} GPU(s) of x{at('gpu.lanes'):g} behind {switches[i]:g} switch(es) of "
                             f"{at('switch.ports'):g} x{at('switch.port_lanes'):g} ports take {taken[i]:g} of each "
                             f"(gpu.attach=switch), leaving {left[i]:g} drive slots ({bad.size} of {configs} "
                             "configurations); sweep fewer drives or fewer GPUs")


def _sweep_groups(topology: MixedTopology, workload: Workload, n: np.ndarray, grid: dict, check: bool,
                  chunk_points: int) -> tuple:
    """:func:`sweep` of groups under one host: ``(iops, binding, names, the grid's arrays, the first group's
    parameters)``, the groups' parameters composed by :func:`~nvmemodel.ceiling.compose.sweep_groups` (the
    configurations as a second axis; one unpinned group the single-model sweep's own numbers)."""
    switch_grid = shared_values(topology, grid, grid=True)
    if len(topology.groups) > 1 or topology.groups[0].socket is not None:
        for name in grid:
            if name in _PLACEMENT:
                raise ParameterError(name, "(grid)", "one value for a mixed sweep (set it on the host); the placement "
                                     "of several groups is computed per placement, not vectorized")
    prepared = []
    arrays: dict[str, Any] = {}
    configs = 1
    for _, t, gw, mine in each_group(topology, workload, grid, switch_grid):
        p, got, count = sweep_parameters(t, gw, mine, check=check)
        if len(got) >= len(arrays):  # the grid as given (a direct group's lacks the switch's settings)
            arrays, configs = got, count
        prepared.append(p)
    sizes = {float(np.max(p["workload.block_size"])) for p in prepared} | {
        float(np.min(p["workload.block_size"])) for p in prepared}
    if len(sizes) > 1 and len(topology.groups) > 1 and any(g.workload is not None for g in topology.groups):
        raise ParameterError("workload", "per group", "one block size over the groups in a sweep (its bytes/s are "
                             "IOPS x one size); evaluate a topology whose groups' workloads differ in size with "
                             "nm.evaluate")
    k = drives_per_group(topology, n).astype(float)
    iops, binding, names = sweep_groups(prepared, configs, k, [g.socket for g in topology.groups],
                                        starts(topology, prepared[0]), switch_sets(topology), chunk_points=chunk_points)
    return iops, binding, names, arrays, prepared[0]


def pcie_waterfall(gen: int, lanes: int, workload: Workload, *, pcie: PcieConfig = PcieConfig(),
                   nvme: NvmeConfig = NvmeConfig()) -> Any:
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
    S, f = float(workload.block_size), float(workload.read_fraction or 0.0)  # set by Workload.__post_init__
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
