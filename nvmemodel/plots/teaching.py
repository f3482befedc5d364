"""The primer's lessons as functions: each draws its figure for one setting and says what binds.

One function per concept of notebook 01, each evaluating the ceiling model (never a formula of
its own) and returning a :class:`Lesson` — the binding component, one sentence that explains it,
and the Axes drawn on:

============================  ==========================================  =========================
lesson                        what the reader turns                       figure
============================  ==========================================  =========================
:func:`link`                  PCIe generation and link width              each component's ceiling
:func:`mps_block_size`        Max Payload Size and block size             link efficiency vs size
:func:`littles_law`           queue depth and the drive's latency         IOPS and latency vs QD
:func:`oversubscription`      drives behind one switch, uplink width      bandwidth vs drives
:func:`cpu`                   CPU cycles per I/O and cores                IOPS vs drives
============================  ==========================================  =========================

:func:`controls` wraps a lesson in ipywidgets sliders (JupyterLab redraws the figure and prints the
sentence at every change; headless — papermill, tests — it runs once with the given values).

>>> lesson = littles_law(iodepth=16, latency_us=90, draw=False)
>>> lesson.binding
'queue_depth'
>>> print(lesson.text)
QD 16 / 90 µs = 178 K IOPS: below the drive's 800 K IOPS, so the queue depth binds (knee at QD 72).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["LESSONS", "Lesson", "controls", "cpu", "link", "littles_law", "mps_block_size", "oversubscription"]

_PRIMER_DRIVE = "samsung-mzwll800hehp"  # the primer's drive: catalog spec latency 90 µs, 800 K IOPS


@dataclasses.dataclass(frozen=True)
class Lesson:
    """What one setting of a lesson shows: ``binding`` (a component name), ``text`` (one sentence), ``ax``,
    and ``data`` (the numbers drawn, SI units, a DataFrame) with a ``caption`` for saving the figure."""

    binding: str
    text: str
    ax: object = None
    data: object = dataclasses.field(default=None, compare=False)
    caption: str = ""

    def __repr__(self) -> str:
        return f"Lesson(binding={self.binding!r}, text={self.text!r})"


def _axes(ax, size=(7, 4.2)):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _gbps(v) -> str:
    return f"{float(v) / 1e9:.2f} GB/s"


def _kiops(v) -> str:
    return f"{float(v) / 1e3:,.0f} K IOPS"


def link(gen: int = 4, lanes: int = 4, *, block_size: str = "128K", mps: int = 256, ax=None, draw: bool = True) -> Lesson:
    """One Dell R7525 drive (PM1733, catalog: a x4 drive) in a Gen``gen`` slot ``lanes`` wide (the drive's and the
    slot's generation both set to ``gen``; the drive's media limits unchanged), sequential reads of ``block_size``:
    each component's ceiling as a dot on a log axis, the lowest — the binding one — highlighted. The link trains
    at the narrower of slot and drive, so an x8 or x16 slot still gives this x4 drive an x4 link, and the
    sentence says so."""
    import nvmemodel as nm

    topo = nm.preset("dell-r7525")
    overrides = {"drive.gen": gen, "host.gen": gen, "host.port_lanes": lanes, "pcie.mps": mps}
    curve = nm.evaluate(topo, nm.Workload("read", block_size), drives=[1], overrides=overrides)
    binding = str(curve.binding[0])
    ceilings = {k: float(np.asarray(v)[0]) * curve.block_size for k, v in curve.ceilings.items()
                if np.isfinite(np.asarray(v)[0])}
    other = min((v for k, v in ceilings.items() if k != binding), default=np.inf)
    drive_lanes = int(curve.parameters["drive.lanes"])
    trained = min(drive_lanes, int(lanes))
    where = (f"Gen{gen} x{lanes} link" if lanes == drive_lanes else
             f"Gen{gen}: the x{drive_lanes} drive trains at x{trained} in an x{lanes} slot")
    text = (f"{where}; {block_size} reads, MPS {mps} B: {binding} binds at {_gbps(ceilings[binding])}"
            + (f"; the next limit, {min((k for k in ceilings if k != binding), key=ceilings.__getitem__)}, is at {_gbps(other)}."
               if np.isfinite(other) else "."))
    if draw:
        from .style import binding_color

        ax = _axes(ax, (7, 3.2))
        names = sorted(ceilings, key=ceilings.__getitem__, reverse=True)
        values = [ceilings[n] / 1e9 for n in names]
        # dots, not bars: on a log axis a bar's length means nothing (a 10x larger ceiling is not a 10x longer bar)
        ax.scatter(values, names, s=70, zorder=3,
                   color=[binding_color(n) if n != binding else "#0072B2" for n in names], edgecolor="black")
        for n, v in zip(names, values):
            ax.annotate(f"{v:.2f}" + ("  ← binds" if n == binding else ""), (v, n), xytext=(8, 0),
                        textcoords="offset points", va="center", fontsize="small")
        ax.grid(axis="x", which="both", alpha=0.3)
        ax.set_xscale("log")
        from matplotlib.ticker import FuncFormatter

        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))  # 10, 100, 1,000
        ax.set_xlabel("ceiling of each component alone, one drive (GB/s, log scale)")
        ax.set_title(f"One x{drive_lanes} drive in a Gen{gen} x{lanes} slot (link x{trained}): the lowest ceiling binds",
                     fontsize="medium")
        ax.set_xlim(min(values) / 2, max(values) * 6)
    import pandas as pd

    data = pd.DataFrame({"component": list(ceilings), "ceiling_bytes_per_s": list(ceilings.values())}).assign(
        binds=lambda d: d.component == binding)
    caption = (f"One Dell R7525 drive (PM1733, x{drive_lanes}, the preset's 8 GB/s read limit) in a Gen{gen} "
               f"x{lanes} slot (the link trains at x{trained}), "
               f"{block_size} sequential reads, MPS {mps} B: each component's ceiling alone (model; docs/physics.md "
               f"§1-3); the lowest, {binding}, binds.")
    return Lesson(binding, text, ax, data, caption)


def mps_block_size(mps: int = 256, block_size: str = "4K", *, gen: int = 4, lanes: int = 4, ax=None,
                   draw: bool = True) -> Lesson:
    """A Gen``gen`` x``lanes`` link's delivered share of its encoded rate against block size (512 B … 1 MiB)
    at ``mps``, the chosen block size marked; the binding component of one Dell R7525 drive reading
    sequentially at that size and MPS."""
    import nvmemodel as nm
    from nvmemodel import tables
    from nvmemodel.units import parse_block_size

    bs = int(parse_block_size(block_size))
    sizes = np.unique(np.r_[np.round(np.geomspace(512, 2**20, 64) / 512) * 512, bs]).astype(int)
    eff = tables.efficiency_by_block_size(gen, lanes, sizes, [mps])
    at = float(eff.loc[eff.block_size_bytes == bs, "pct_of_encoded"].iloc[0])
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", block_size), drives=[1],
                        overrides={"pcie.mps": mps, "drive.gen": gen, "host.gen": gen, "drive.lanes": lanes,
                                   "host.port_lanes": lanes})
    binding = str(curve.binding[0])
    text = (f"{block_size} reads at MPS {mps} B: the Gen{gen} x{lanes} link delivers {at:.1f} % of its encoded rate; "
            f"one drive reads {_gbps(curve.bytes_per_s[0])} and {binding} binds.")
    if draw:
        from .style import log2_axis

        ax = _axes(ax)
        ax.plot(eff.block_size_bytes, eff.pct_of_encoded, color="#0072B2", lw=1.6, label=f"MPS {mps} B")
        ax.scatter([bs], [at], s=80, facecolor="none", edgecolor="#D55E00", lw=2, zorder=3,
                   label=f"{block_size}: {at:.1f} %")
        log2_axis(ax, kind="size")
        ax.set_ylim(0, 100)
        ax.set_xlabel("block size (K = 1024 B)")
        ax.set_ylabel("delivered share of the encoded rate (%)")
        ax.set_title(f"Gen{gen} x{lanes} reads: efficiency by block size", fontsize="medium")
        ax.legend(fontsize="small", loc="lower right")
        ax.grid(alpha=0.3)
    caption = (f"Delivered share of a Gen{gen} x{lanes} link's encoded rate for reads at MPS {mps} B, block sizes 512 B "
               f"to 1 MiB (model; docs/physics.md §2-3), {block_size} marked; one Dell R7525 drive reading {block_size} "
               f"sequentially: {binding} binds.")
    return Lesson(binding, text, ax, eff, caption)


#: the measured QD sweep drawn beside the Little's-law lesson (a source checkout's tests/data; tests/data/SOURCES.md)
MEASURED_QD_SWEEP = "tests/data/fit/local/qd"
MEASURED_QD_ABOUT = ("measured here: fio 3.33, libaio, direct=1, 4 KiB random reads of a 256 MiB file on a VM's "
                     "virtual disk (/dev/vda), QD 1-128, 3 runs each (tests/data/fit/local/qd)")


def measured_qd_sweep():
    """The bundled real QD sweep (:data:`MEASURED_QD_ABOUT`) as one row per queue depth — ``iodepth``, ``iops``,
    ``iops_min``, ``iops_max``, ``latency_s`` (mean of the runs' mean total latency) — or None where the files are
    not there (an installed package without the source checkout's tests/data)."""
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[2] / MEASURED_QD_SWEEP
    if not path.is_dir():
        return None
    return _read_qd_sweep(str(path))


def _read_qd_sweep(path: str):
    if path not in _QD_CACHE:
        import nvmemodel as nm
        from nvmemodel.ingest.summary import summarize

        table = nm.read_results(path)
        iops = summarize(table, x="iodepth", y="iops")
        lat = summarize(table, x="iodepth", y="lat_mean_s")
        _QD_CACHE[path] = iops[["iodepth"]].assign(iops=iops["mean"], iops_min=iops["min"], iops_max=iops["max"],
                                                  latency_s=lat["mean"].to_numpy())
    return _QD_CACHE[path]


_QD_CACHE: dict = {}  # path → the sweep's rows: read once per session, not at every slider change


def littles_law(iodepth: int = 16, latency_us: float = 90.0, *, ax=None, draw: bool = True,
                measured: bool = True) -> Lesson:
    """The primer's drive (800 K IOPS, catalog) with its QD1 latency set to ``latency_us``, 4K random reads:
    IOPS = QD / latency up to the drive's limit (Little's law), and the latency that implies, against
    queue depth 1 … 256; the chosen queue depth marked. With ``measured`` (and no ``ax`` given) a second panel
    beside it shows a real QD sweep (:func:`measured_qd_sweep`): IOPS and mean latency against queue depth,
    with the Little's-law line from its own QD1 latency — where the model's latency stays flat up to the knee,
    a real device's grows long before it."""
    import nvmemodel as nm
    from nvmemodel import tables

    drive = nm.get_drive(_PRIMER_DRIVE).replace(read_latency_s=latency_us * 1e-6)
    topo = nm.preset("dell-r7525").replace(drive=drive)
    qds = sorted({*(2**k for k in range(9)), int(iodepth)})
    qd = tables.queue_depth_curve(topo, nm.Workload("randread", "4K"), qds)
    row = qd[qd.iodepth == int(iodepth)].iloc[0]
    binding, knee = str(row.binding), float(row.knee_iodepth)
    rule = (f"below the drive's {_kiops(drive.rand_read_iops)}, so the queue depth binds" if binding == "queue_depth"
            else f"the drive's own limit; latency grows to {row.latency_s * 1e6:,.0f} µs")
    text = f"QD {int(iodepth)} / {latency_us:g} µs = {_kiops(row.iops)}: {rule} (knee at QD {knee:.0f})."
    real = measured_qd_sweep() if measured and ax is None else None
    if draw:
        import matplotlib.pyplot as plt

        from .style import log2_axis

        if real is not None:
            _, (ax, right) = plt.subplots(1, 2, figsize=(12, 4.2), layout="constrained")
        ax = _axes(ax)
        ax.plot(qd.iodepth, qd.iops / 1e3, color="#0072B2", marker="o", ms=4, label="IOPS (left)")
        ax.axvline(knee, color="0.5", ls=":", label=f"knee N* = X_max · R0 = {knee:.0f}")
        ax.scatter([row.iodepth], [row.iops / 1e3], s=90, facecolor="none", edgecolor="k", lw=2, zorder=4,
                   label=f"QD {int(iodepth)}: {binding} binds")
        ax.set_ylim(0, None)
        ax.set_ylabel("4K random read (K IOPS)")
        ax.set_xlabel("queue depth (outstanding I/Os)")
        lat = ax.twinx()
        lat.plot(qd.iodepth, qd.latency_s * 1e6, color="#D55E00", ls="--", marker="s", ms=3, label="latency (right)")
        lat.set_ylim(0, None)
        lat.set_ylabel("latency = QD / IOPS (µs)", color="#D55E00")
        log2_axis(ax, kind="count")
        handles = ax.get_legend_handles_labels()
        more = lat.get_legend_handles_labels()
        ax.legend(handles[0] + more[0], handles[1] + more[1], fontsize="x-small", loc="upper left")
        ax.set_title(f"Model: {drive.name}, R0 = {latency_us:g} µs", fontsize="medium")
        ax.grid(alpha=0.3)
        if real is not None:
            _measured_panel(right, real)
    caption = (f"Little's law for one {drive.name} (catalog: 800 K IOPS) with a QD1 read latency of {latency_us:g} µs, "
               f"4K random reads at queue depth 1-256 (model; docs/physics.md §6): IOPS and the latency they imply; "
               f"QD {int(iodepth)} marked ({binding} binds).")
    data = qd.assign(source="model")
    if real is not None:
        import pandas as pd

        caption += (f" Beside it a real device, {MEASURED_QD_ABOUT}: mean IOPS (bars: the runs' range) and mean "
                    "latency, and QD / R0 from its own QD1 latency.")
        data = pd.concat([data, real.assign(source="measured")], ignore_index=True)
    return Lesson(binding, text, ax, data, caption)


def _measured_panel(ax, real) -> None:
    """The bundled QD sweep: IOPS (mean, the runs' range as bars) and mean latency against queue depth, with the
    Little's-law line QD / R0 (R0: its QD1 latency) up to its highest mean IOPS and the knee that implies."""
    from .style import log2_axis

    r0 = float(real.latency_s.iloc[0])
    peak = float(real.iops.max())
    ax.errorbar(real.iodepth, real.iops / 1e3, yerr=[(real.iops - real.iops_min) / 1e3, (real.iops_max - real.iops) / 1e3],
                color="#0072B2", marker="o", ms=4, capsize=3, label="measured IOPS (left)")
    line = np.array([q for q in real.iodepth if q / r0 <= peak * 1.05] or [1])
    ax.plot(line, line / r0 / 1e3, color="0.4", ls=":", label=f"QD / R0, R0 = {r0 * 1e6:.0f} µs at QD1")
    ax.axvline(peak * r0, color="0.5", ls="-.", lw=1, label=f"N* = highest mean IOPS · R0 = {peak * r0:.1f}")
    ax.set_ylim(0, None)
    ax.set_ylabel("4K random read (K IOPS)")
    ax.set_xlabel("queue depth (outstanding I/Os)")
    lat = ax.twinx()
    lat.plot(real.iodepth, real.latency_s * 1e6, color="#D55E00", ls="--", marker="s", ms=3,
             label="measured mean latency (right)")
    lat.set_ylim(0, None)
    lat.set_ylabel("mean latency (µs)", color="#D55E00")
    log2_axis(ax, kind="count")
    handles, labels = ax.get_legend_handles_labels()
    more = lat.get_legend_handles_labels()
    ax.legend(handles + more[0], labels + more[1], fontsize="x-small", loc="upper left")
    ax.set_title("Measured: a VM's virtual disk, fio 3.33 (tests/data/fit/local/qd)", fontsize="medium")
    ax.grid(alpha=0.3)


def oversubscription(drives: int = 4, uplink_lanes: int = 8, *, ax=None, draw: bool = True) -> Lesson:
    """Lenovo SR850's 810-4P switch adapter (Gen3, calibrated on LP0865) with an x``uplink_lanes`` uplink
    and up to 8 drive ports, 256K sequential reads: bandwidth against drives, the drive count chosen marked,
    the binding strip under it. The adapter's calibrated efficiency and per-command cost are kept at every
    uplink width (a width other than the catalog part's x8 would otherwise be an uncalibrated switch, and x4 or x16
    would gain the 14 % the x8 loses)."""
    import nvmemodel as nm

    ports = max(4, int(drives))
    adapter = nm.get_switch("lenovo-810-4p")
    curve = nm.evaluate(nm.preset("lenovo-sr850-810-4p"), nm.Workload("read", "256K"), drives=range(1, ports + 1),
                        overrides={"switch.up_lanes": uplink_lanes, "switch.ports": ports,
                                   "switch.efficiency": adapter.efficiency, "switch.per_command_s": adapter.per_command_s})
    binding = curve.binding_at(drives)
    ratio = drives * 4 / uplink_lanes
    shared = f"{ratio:g}:1 oversubscribed" if ratio > 1 else "not oversubscribed"
    text = (f"{drives} Gen3 x4 drive{'s' * (drives != 1)} behind an x{uplink_lanes} uplink ({drives * 4} drive lanes, "
            f"{shared}): {_gbps(curve.bandwidth_at(drives))}, {binding} binds.")
    if draw:
        ax = _scaling(curve, ax, unit="GB/s", label=f"x{uplink_lanes} uplink", ceilings=True)
        mark_point(ax, drives, curve.bandwidth_at(drives) / 1e9, f"{drives} drives: {binding} binds")
        set_title(ax, f"Drives per switch uplink: {ratio:g}:1 at {drives} drives")
    import pandas as pd

    data = pd.DataFrame({"drives": curve.drives, "bytes_per_s": curve.bytes_per_s, "binding": curve.binding})
    caption = (f"Lenovo SR850 with the 810-4P switch adapter (LP0865; uplink efficiency calibrated on its 6,200 MB/s "
               f"at x8, kept at every width), the uplink set to x{uplink_lanes} and {ports} ports, 256K sequential reads "
               f"(model): bandwidth against drives; {drives} drives ({shared}) marked, {binding} binds.")
    return Lesson(binding, text, ax, data, caption)


def cpu(cycles_per_io: float = 10_000, cores: int = 64, *, drives: int = 24, ax=None, draw: bool = True) -> Lesson:
    """Dell R7525 (2 sockets at the preset's clock) with ``cores`` per socket spending ``cycles_per_io`` per
    I/O, 4K random reads on 1 … 24 PM1733 drives: where the CPU starts to bind."""
    import nvmemodel as nm

    topo = nm.preset("dell-r7525")
    curve = nm.evaluate(topo, nm.Workload("randread", "4K"), drives=range(1, topo.max_drives + 1),
                        overrides={"host.cycles_per_io": cycles_per_io, "host.cores_per_socket": cores})
    binding = curve.binding_at(drives)
    cpu_bound = [int(n) for n, b in zip(curve.drives, curve.binding) if b == "host_cpu"]
    first = f"the CPU binds from {cpu_bound[0]} drives" if cpu_bound else "the CPU never binds up to 24 drives"
    text = (f"{cycles_per_io:,.0f} cycles per I/O on 2 x {cores} cores: {first}; at {drives} drives "
            f"{curve.iops_at(drives) / 1e6:.2f} M IOPS, {binding} binds.")
    if draw:
        ax = _scaling(curve, ax, unit="MIOPS", label=f"{cycles_per_io:,.0f} cycles/I/O, 2 x {cores} cores",
                      ceilings=True)
        mark_point(ax, drives, curve.iops_at(drives) / 1e6, f"{drives} drives: {binding} binds")
        set_title(ax, "CPU cycles per I/O × cores: the host's IOPS ceiling")
    import pandas as pd

    data = pd.DataFrame({"drives": curve.drives, "iops": curve.iops, "binding": curve.binding})
    caption = (f"Dell R7525 (2 sockets at the preset's assumed 2.25 GHz) with {cores} cores per socket spending "
               f"{cycles_per_io:,.0f} cycles per I/O, 4K random reads on 1-24 PM1733 drives (model; docs/physics.md §4): "
               f"{first}.")
    return Lesson(binding, text, ax, data, caption)


def mark_point(ax, x, y, label: str) -> None:
    """Ring the chosen setting on a lesson's curve (legend entry ``label``)."""
    ax.scatter([x], [y], s=160, facecolor="none", edgecolor="k", lw=2, zorder=6, label=label)
    from .style import legend_outside

    legend_outside(ax, where="top")


def set_title(ax, text: str) -> None:
    from .style import set_title as lifted

    lifted(ax, text)


def _scaling(curve, ax, **kwargs):
    from .curves import plot_scaling

    ax = _axes(ax, (7, 4.6))
    return plot_scaling(curve, ax=ax, **kwargs)


#: lesson name → (function, {parameter: widget options}); the options are (min, max, step) for sliders
#: or a list for drop-downs.
LESSONS: dict[str, tuple[Callable[..., Lesson], dict[str, Any]]] = {
    "link": (link, {"gen": (1, 7, 1), "lanes": [1, 2, 4, 8, 16]}),
    "mps_block_size": (mps_block_size, {"mps": [128, 256, 512, 1024],
                                        "block_size": ["512", "4K", "16K", "64K", "128K", "1M"]}),
    "littles_law": (littles_law, {"iodepth": [1, 2, 4, 8, 16, 32, 64, 128, 256], "latency_us": (10, 500, 10)}),
    "oversubscription": (oversubscription, {"drives": (1, 8, 1), "uplink_lanes": [4, 8, 16]}),
    "cpu": (cpu, {"cycles_per_io": (2_000, 40_000, 1_000), "cores": [8, 16, 32, 64]}),
}


def show(name: str, **values) -> Lesson:
    """Draw lesson ``name`` for ``values`` on a new figure, print its sentence, and show the figure."""
    import matplotlib.pyplot as plt

    if name not in LESSONS:
        from ..errors import UnknownNameError

        raise UnknownNameError("lesson", name, list(LESSONS))
    lesson = LESSONS[name][0](**values)
    print(lesson.text)
    if "agg" not in plt.get_backend().lower():  # files-only backends (tests, CLI) have nothing to show
        plt.show()
    return lesson


def controls(name: str, **values):
    """ipywidgets controls for lesson ``name`` starting at ``values`` (default: the function's defaults);
    each change redraws the figure and the binding sentence (:func:`live_controls`). None without ipywidgets."""
    if name not in LESSONS:  # a wrong name is an error with or without ipywidgets
        from ..errors import UnknownNameError

        raise UnknownNameError("lesson", name, list(LESSONS))
    try:
        import ipywidgets as w
    except ImportError:
        return None
    import inspect

    function, options = LESSONS[name]
    defaults = {k: p.default for k, p in inspect.signature(function).parameters.items() if k in options}
    widgets = {}
    for key, opt in options.items():
        start = values.get(key, defaults[key])
        if isinstance(opt, tuple):
            lo, hi, step = opt
            widgets[key] = w.IntSlider(value=int(start), min=lo, max=hi, step=step, description=key,
                                       continuous_update=False)
        else:
            choices = list(dict.fromkeys([*opt, start]))
            widgets[key] = w.Dropdown(options=choices, value=start, description=key)

    def draw(**kw):
        lesson = function(**kw)
        return lesson.text, lesson.ax.figure

    return live_controls(draw, widgets)


def live_controls(draw, widgets: dict):
    """``widgets`` (name → ipywidgets control) above an Output widget that shows what ``draw(**values)`` returns
    — a Figure or Axes, or ``(sentence, Figure or Axes)`` — for the controls' values, now and after every change.

    The figure is rendered to PNG here and *set* as the Output widget's ``outputs``; nothing is captured with
    ``with output:``. Captured output is what hung headless runs: nbclient (papermill's engine) mimics an Output
    widget by sending each captured output back to the kernel as a ``comm_msg`` on the shell socket, with a
    synchronous send on the socket its asyncio loop is polling for the cell's ``execute_reply``; when the reply
    arrived during that send, the socket's edge-triggered wake-up was consumed and the client waited for ever
    for a reply already in its queue (docs/notebooks.md, "Headless runs"). Set outputs are never sent back.
    Returns a VBox whose ``update()`` redraws."""
    import ipywidgets as w

    output = w.Output()

    def update(_change=None):
        shown = draw(**{key: control.value for key, control in widgets.items()})
        text, figure = shown if isinstance(shown, tuple) else (None, shown)
        output.outputs = _as_outputs(text, getattr(figure, "figure", figure))

    for control in widgets.values():
        control.observe(update, names="value")
    box = w.VBox([*widgets.values(), output])
    box.add_class("widget-interact")
    box.update = update  # what a change of any control does; tests call it
    update()
    return box


def _as_outputs(text, figure) -> tuple:
    """Notebook outputs (nbformat dicts) showing ``text`` (one stdout line, if any) and ``figure`` as a PNG, as the
    inline backend would; the figure is closed, so the cell does not show it a second time."""
    import base64
    import io

    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    plt.close(figure)
    image = {"output_type": "display_data", "metadata": {},
             "data": {"image/png": base64.b64encode(buffer.getvalue()).decode("ascii"), "text/plain": repr(figure)}}
    return ((({"output_type": "stream", "name": "stdout", "text": f"{text}\n"},) if text else ()) + (image,))
