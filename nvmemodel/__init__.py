"""nvmemodel — how fast an NVMe storage subsystem can go, and why.

The package reads top-down in one direction::

    units → standards (cited facts) → topology (hardware + workload) → ceiling (the model) → plan
                                           ingest → fitting (measured curves; the ceiling model among its models)
                  discover (a PCIe tree → a topology); plots, cli, reproduce and the notebooks on top

Public API
----------
Describe the hardware and the workload
    :class:`Topology`, :class:`Host`, :class:`Drive`, :class:`Switch`, :class:`Fabric`,
    :class:`Workload`, :class:`PcieConfig`, :class:`NvmeConfig`, :class:`IoStack`,
    :class:`Gen`, :class:`DllpPolicy`, :class:`FlitConvention`, :class:`Transport`
Catalogs and presets (each value with its source)
    :func:`preset`, :data:`PRESETS`, :func:`get_drive`, :func:`drive_catalog`,
    :func:`get_switch`, :func:`switch_catalog`, :func:`get_host`, :func:`host_catalog` (CPU platforms with
    their root complexes, memory and inter-socket links), :func:`with_host`
The parameter table and the component registry (the spine of sweeps, fits and new layers)
    :data:`PARAMETERS` (every parameter: unit, kind, range, meaning, default source; see
    :mod:`nvmemodel.parameters`), :func:`parameter_table` (a topology's values with their sources),
    :class:`Source`; :class:`Component`, :class:`Limit`, :func:`register_component`,
    :func:`registered_component` (add what can bind; :mod:`nvmemodel.ceiling.components`)
Evaluate the ceilings
    :func:`evaluate` (a scaling curve over drive counts), :func:`ceilings_at` (one point),
    :func:`sweep` (configurations × drive counts, vectorized), :func:`pcie_waterfall`,
    :func:`outstanding_knee` (Little's-law knee N* = X_max·R₀),
    :func:`evaluate_parameters` (the kernel on a flat parameter mapping — for fits);
    results :class:`ScalingCurve`, :class:`Ceiling`, :class:`SweepResult`
Mixed drive and switch models under one host
    :class:`MixedTopology` of :class:`DriveGroup` (drive model, direct lanes, a switch model or another
    group's switches, count, socket, own workload; a mirror across two groups), :func:`evaluate` (or
    :func:`evaluate_mixed`) → :class:`MixedCurve` (binding component *and* group per point; a
    :class:`ScalingCurve` of one drive model answers the same as its one group: ``held_by_at``,
    ``describe_binding_at``); :func:`sweep`, :func:`plan` and the fit's ceiling model take one too
    (docs/topologies.md)
Plan a configuration (the inverse question: targets → what to build, and what will limit it)
    :func:`plan`, :class:`DesignSpace`, :class:`Target`, :class:`Plan`
Ingest benchmark results (fio JSON/json+/terse/normal, IOmeter CSV, DiskSpd XML, fio logs)
    :func:`read_results` (files and folders → one tidy table; columns in
    :data:`nvmemodel.ingest.COLUMNS`), :func:`read_fio_logs`, :func:`merge_fio_logs`;
    :func:`plot_results` charts what was measured (matplotlib imported only when called)
Fit and explain measured curves (lmfit, imported on first use)
    :func:`fit` (results table → fitted, compared, explained curves: ceiling model with free
    parameters, Little's law / MVA, linear / Amdahl / USL), :class:`FitResult`; :mod:`nvmemodel.fitting`
Did it change? Two result sets compared (scipy, imported on first use)
    :func:`compare` (base and new results → per point the change in IOPS, bandwidth, mean and p99 latency with a
    Welch interval from the repeats, a verdict, unmatched points), :class:`Comparison`; :mod:`nvmemodel.comparison`
Calibrations behind the presets
    :mod:`nvmemodel.calibrate` (each calibrated catalog value, recomputed from its sentence)
The host's own cost per I/O, measured where the user is
    :func:`io_costs` (CPU seconds and cycles per I/O of the user's fio runs), :func:`with_costs` (a host charged
    them, or a ``nvmemodel calibrate`` profile's); ``costs=``/``profile=`` in :func:`evaluate`, :func:`sweep`,
    :func:`plan`, :func:`fit`; :mod:`nvmemodel.hostcal` (``nvmemodel calibrate``: fio runs on this machine)
Units at the edges
    :mod:`nvmemodel.units` (``parse_bandwidth("6200 MB/s")`` …)
Generate and run fio sweeps; read what a user names
    :mod:`nvmemodel.jobs` (plans, job files whose every value fio accepts, a resumable runner that never
    overwrites); :mod:`nvmemodel.userfiles` (regular files only, size-bounded: no FIFO hangs)
Errors
    :class:`NvmeModelError`, :class:`ParameterError`, :class:`UnknownNameError`, :class:`UnitError`,
    :class:`IngestError`, :class:`IngestWarning`

Everything inside is SI: bytes, seconds, bytes/s, I/O per second.

>>> import nvmemodel as nm
>>> curve = nm.evaluate(nm.preset("lenovo-sr850-810-4p"), nm.Workload("read", "256K"))
>>> [round(x / 1e6) for x in curve.bytes_per_s]   # MB/s for 1..4 drives
[3100, 6200, 6200, 6200]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import units
from .ceiling import (
    COMPONENTS, Ceiling, Component, Limit, ScalingCurve, SweepResult, ceilings_at, evaluate, evaluate_parameters,
    outstanding_knee, pcie_waterfall, sweep,
)
from .ceiling import register as register_component
from .ceiling import registered as registered_component
from .ceiling.evaluate import evaluate_mixed
from .ceiling.result import MixedCurve
from .parameters import PARAMETERS, Source
from .plan import DesignSpace, Plan, Target, plan
from .errors import IngestError, IngestWarning, NvmeModelError, ParameterError, UnitError, UnknownNameError
from .ingest import merge_fio_logs, read_fio_logs, read_results
from .standards.ethernet import Transport
from .standards.pcie import DllpPolicy, FlitConvention, Gen
from .topology import (
    PRESETS, Drive, Fabric, Host, IoStack, NvmeConfig, PcieConfig, Switch, Topology, Workload,
    drive_catalog, get_drive, get_host, get_switch, host_catalog, keep_drive_lanes, preset, switch_catalog, with_host,
    with_sockets,
)
from .topology.mixed import DriveGroup, MixedTopology

if TYPE_CHECKING:  # for annotations only: pandas, matplotlib and the fit load on first use
    import pandas as pd
    from matplotlib.axes import Axes

    from .comparison.core import Comparison
    from .fitting.result import FitResult

__version__ = "0.2.0"  # the one place; pyproject.toml reads it (CHANGELOG.md: version policy)


def plot_results(table: pd.DataFrame, **options: Any) -> Axes:
    """Chart measured results (IOPS, bandwidth, latency) against the swept variable; see
    :func:`nvmemodel.plots.results.plot_results`. matplotlib is imported only when called."""
    from .plots.results import plot_results as _plot_results

    return _plot_results(table, **options)


def parameter_table(topology: Topology, workload: Workload | None = None) -> pd.DataFrame:
    """Every parameter of ``topology`` under ``workload`` (default ``Workload()``): value, unit, kind, range,
    meaning, status and source, as a pandas DataFrame (see :meth:`Topology.parameter_table`)."""
    if not isinstance(topology, Topology):  # e.g. a MixedTopology: was an AttributeError
        from .errors import ParameterError

        raise ParameterError("topology", type(topology).__name__, "a Topology (nm.preset(...)); for a MixedTopology "
                             "one group's: nm.parameter_table(mixed.group_topology(i))")
    return topology.parameter_table(workload if workload is not None else Workload())


def fit(table: Any, *, costs: Any = None, profile: Any = None, **kwargs: Any) -> FitResult:
    """Fit measured scaling curves (see :func:`nvmemodel.fitting.api.fit`); lmfit and scipy load on first use.
    ``costs``/``profile``: the CPU costs per I/O measured on the user's machine, charged to ``topology``'s host
    (:func:`with_costs`)."""
    from .fitting.api import fit as _fit

    if costs is not None or profile is not None:
        topo = kwargs.get("topology")
        if topo is None:
            from .errors import ParameterError

            raise ParameterError("costs" if costs is not None else "profile", costs if costs is not None else profile,
                                 "a topology= too (the costs are the model's host's)")
        kwargs["topology"] = ({k: with_costs(t, costs=costs, profile=profile) for k, t in topo.items()}
                              if isinstance(topo, dict) else with_costs(topo, costs=costs, profile=profile))

    return _fit(table, **kwargs)


def io_costs(table: Any, *, host: Any = None, clock_hz: float | None = None) -> pd.DataFrame:
    """CPU seconds and cycles per I/O of the user's own fio runs, by engine, direction, block size and queue depth
    (see :func:`nvmemodel.hostcal.costs.io_costs`); pandas loads on first use."""
    from .hostcal.costs import io_costs as _io_costs

    return _io_costs(table, host=host, clock_hz=clock_hz)


def with_costs(topology: Topology | MixedTopology, *, costs: Any = None, profile: Any = None) -> Any:
    """``topology`` with its host charged the CPU costs per I/O measured on the user's machine: ``costs`` from fio
    runs (``nvmemodel ingest --costs-out`` or :func:`io_costs`), ``profile`` from ``nvmemodel calibrate``
    (see :func:`nvmemodel.hostcal.apply.with_costs`)."""
    from .hostcal.apply import with_costs as _with_costs

    return _with_costs(topology, costs=costs, profile=profile)


def compare(base: Any, new: Any, **options: Any) -> Comparison:
    """Compare two result sets point by point (see :func:`nvmemodel.comparison.core.compare`): did a change make them
    faster or slower, beyond the noise of the repeats? scipy and pandas load on first use."""
    from .comparison.core import compare as _compare

    return _compare(base, new, **options)


def __getattr__(name: str):
    if name == "FitResult":  # lazily, so that `import nvmemodel` stays light
        from .fitting.result import FitResult

        return FitResult
    if name == "Comparison":
        from .comparison.core import Comparison

        return Comparison
    raise AttributeError(f"module 'nvmemodel' has no attribute {name!r}")


__all__ = [
    "fit", "FitResult", "io_costs", "with_costs", "compare", "Comparison",
    "DriveGroup", "MixedCurve", "MixedTopology", "evaluate_mixed",
    "COMPONENTS", "Ceiling", "Component", "DesignSpace", "Limit", "PARAMETERS", "Plan", "Source", "Target",
    "parameter_table", "plan", "register_component",
    "registered_component", "IngestError", "IngestWarning", "merge_fio_logs", "plot_results", "read_fio_logs", "read_results", "DllpPolicy", "Drive", "Fabric", "FlitConvention", "Gen", "Host", "IoStack",
    "NvmeConfig", "NvmeModelError", "PRESETS", "ParameterError", "PcieConfig", "ScalingCurve", "Switch",
    "SweepResult", "Topology", "Transport", "UnitError", "UnknownNameError", "Workload", "ceilings_at",
    "drive_catalog", "evaluate", "evaluate_parameters", "get_drive", "get_switch", "outstanding_knee", "pcie_waterfall",
    "preset", "sweep", "switch_catalog", "units", "get_host", "host_catalog", "with_host", "keep_drive_lanes",
    "with_sockets",
]
