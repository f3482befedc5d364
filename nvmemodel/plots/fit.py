"""Figures of a :class:`~nvmemodel.fitting.FitResult`: measured points, fitted curves with bands, ceilings,
residuals and a "what binds" strip."""

from __future__ import annotations

import pathlib

import numpy as np

from .style import axis_label

__all__ = ["measurement_title", "plot_fit", "y_scale"]

_CURVE_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
_DASHES = ["--", (0, (6, 2, 1, 2)), ":", (0, (3, 1))]  # ceiling lines of curve 1, 2 … (colour = component)
_LOG_X = ("iodepth", "outstanding", "numjobs", "block_size_bytes")


def y_scale(values, unit: str) -> tuple[float, str]:
    """Divisor and axis label for y values in SI ``unit`` (``1/s``, ``B/s``, ``s``)."""
    top = float(np.nanmax(np.abs(values))) if np.size(values) else 1.0
    if unit == "1/s":
        for f, name in ((1e6, "M IOPS"), (1e3, "K IOPS")):
            if top >= f:
                return f, name
        return 1.0, "IOPS"
    if unit == "B/s":
        return (1e9, "GB/s") if top >= 1e9 else (1e6, "MB/s")
    if unit == "s":
        return (1e-3, "ms") if top >= 1e-2 else (1e-6, "µs")
    return 1.0, unit


def _x_label(x: str) -> str:
    return {"block_size_bytes": "block size (bytes; K = 1024)", "outstanding": "outstanding I/O (iodepth × numjobs)",
            "iodepth": "queue depth (iodepth)", "numjobs": "jobs (numjobs)", "drives": "drives",
            "targets": "targets (distinct files or devices per run)"}.get(x, x)


_PATTERNS = {"randread": "random read", "randwrite": "random write", "read": "sequential read",
             "write": "sequential write", "randrw": "random read/write", "rw": "sequential read/write",
             "readwrite": "sequential read/write"}


def measurement_title(result) -> tuple[str, str]:
    """A title from what was measured (never a file path) and a provenance line: ``("4K random read IOPS vs
    queue depth", "fio-3.33 · libaio · numjobs 1 · 3 runs per point")``."""
    from .style import block_size_label

    t = result.table
    pts = result.points

    def mode(col):
        if t is None or col not in t or t[col].dropna().empty:
            return None
        return t[col].dropna().mode().iloc[0]

    def every(col, fmt="{}"):
        """Every value the runs have (several curves: each named, never the most common one for all; issue 28)."""
        if t is None or col not in t or t[col].dropna().empty:
            return None
        vals = list(t[col].dropna().unique())
        vals = sorted(vals) if all(isinstance(v, (int, float, np.number)) for v in vals) else sorted(vals, key=str)
        head, spec = fmt.split("{", 1)
        one = "{" + spec
        if len(vals) > 4:
            return head + one.format(vals[0]) + "–" + one.format(vals[-1])
        return head + "/".join(one.format(v) for v in vals)

    from ..fitting.curves import Y_COLUMNS
    from .results import sizes_by_direction

    what = {"1/s": "IOPS", "B/s": "throughput", "s": "latency"}.get(result.y_unit, result.y)
    bs, pattern = mode("block_size_bytes"), mode("pattern")
    split = sizes_by_direction(t) if t is not None and result.x != "block_size_bytes" else None
    direction = Y_COLUMNS.get(result.y, (None, None))[1]
    sizes = ""
    if split and direction in split and len(split[direction]) == 1:  # one direction of a mix: its own size
        bs = split[direction][0]
    elif split:  # reads and writes of different sizes (--bs=4k,64k): each named, never one of them for both
        bs = None
        sizes = " (" + " + ".join(f"{'/'.join(map(block_size_label, v))} {d}s" for d, v in split.items()) + ")"
    size = block_size_label(float(bs)) if bs is not None and result.x != "block_size_bytes" else None
    sizes_seen = (t["block_size_bytes"].dropna().unique() if t is not None and "block_size_bytes" in t else [])
    if size and not split and len(sizes_seen) > 1:
        # runs of different sizes have no one block size: bssplit/bsrange runs' means (20,698 B …) are no size a
        # user set, and one of several set sizes is not the others' (QA s27 I17: "20698.4 random read IOPS")
        size = "mixed-size" if any(float(b) % 512 for b in sizes_seen) else None
    patterns = sorted(t["pattern"].dropna().astype(str).unique()) if t is not None and "pattern" in t else []
    words = (" / ".join(_PATTERNS.get(p, p) for p in patterns) if len(patterns) > 1 else
             _PATTERNS.get(str(pattern), str(pattern)) if pattern else None)
    if direction in ("read", "write") and str(pattern) in ("randrw", "rw", "readwrite"):
        # one direction of a mixed job: "random read/write: 64K write IOPS", the size being that direction's
        head = f"{words}: " + " ".join(v for v in (size, direction, what) if v)
    else:
        head = " ".join(v for v in (size, words, what) if v) + sizes
    title = head.strip() + f" vs {_x_label(result.x).split(' (')[0]}"
    prov = []
    for col, fmt in (("tool_version", "{}"), ("ioengine", "{}"), ("iodepth", "iodepth {:g}"), ("numjobs", "numjobs {:g}")):
        v = every(col, fmt)
        if v is not None and col != result.x and col not in result.by \
                and not (col in ("iodepth", "numjobs") and result.x == "outstanding"):
            prov.append(v)
    if "n_runs" in pts:
        lo, hi = int(pts["n_runs"].min()), int(pts["n_runs"].max())
        prov.append(f"{lo}{'–' + str(hi) if hi != lo else ''} run{'s' if hi > 1 else ''} per point")
    return title, " · ".join(prov)


def _grid(x: str, lo: float, hi: float, log: bool) -> np.ndarray:
    if x in ("drives", "numjobs", "iodepth", "outstanding") and hi - lo <= 512:
        return np.arange(max(int(np.floor(lo)), 1), int(np.ceil(hi)) + 1, dtype=float)  # every integer x
    return np.geomspace(lo, hi, 200) if log else np.linspace(lo, hi, 200)


def _cells(grid: np.ndarray, log: bool) -> tuple[np.ndarray, np.ndarray]:
    """Left and right edges of the strip cell around each grid x: halfway to its neighbours (geometrically on a
    log axis), so the cells tile the axis without gaps (one width for every cell left gaps at the wide end of a
    log axis)."""
    g = np.asarray(grid, dtype=float)
    if g.size < 2:
        return g - 0.5, g + 0.5
    if log:
        mid = np.sqrt(g[:-1] * g[1:])
        first, last = g[0] ** 2 / mid[0], g[-1] ** 2 / mid[-1]
    else:
        mid = (g[:-1] + g[1:]) / 2
        first, last = 2 * g[0] - mid[0], 2 * g[-1] - mid[-1]
    return np.concatenate([[first], mid]), np.concatenate([mid, [last]])


def plot_fit(result, *, path=None, models: str = "chosen", log_x: bool | None = None, ceilings: bool = True,
             title: str | None = None, figsize=(7.5, 6.2)):
    """Draw a fit: points with error bars (± sample std of repeats), each curve's fitted model with its
    95 % band, the model's ceilings as labelled dashed lines, residuals (fitted ÷ measured − 1), and (ceiling model) a
    strip coloured by the binding component along x.

    Parameters
    ----------
    result : FitResult
    path : str or Path, optional
        Save the figure there; a ``.png`` path also writes the ``.svg`` beside it.
    models : {"chosen", "all"}
        Draw each curve's chosen model, or every fitted model (thin lines).
    log_x : bool, optional
        Log2 x axis (default: for queue depth, jobs, outstanding I/O and block size spanning ≥ 8×).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ..ceiling.components import color as component_color
    from ..fitting.ceiling import ceiling_profile, fitted_overrides
    from ..fitting.wording import _r2

    pts = result.points
    x = result.x
    xs_all = pts[x].to_numpy(float)
    if log_x is None:  # block sizes spread ≥ ×8, counts only when swept by doubling (1 2 4 … 128): jobs or threads
        from .results import _is_doubling  # 1, 2, 3 … 20 stay linear (a log2 axis ticked them 1 2 3 4 5 7 9 12 15 19)

        log_x = x in _LOG_X and xs_all.min() > 0 and xs_all.max() / xs_all.min() >= 8 \
            and (x == "block_size_bytes" or _is_doubling(xs_all))
    has_ceiling = any(m.startswith("ceiling") for m in result.chosen.values())
    n_ceil = sum(m.startswith("ceiling") for m in result.chosen.values())
    rows = [4, 1.3] + ([0.35 * max(n_ceil, 1)] if has_ceiling else [])
    fig, axes = plt.subplots(len(rows), 1, figsize=figsize, sharex=True, height_ratios=rows, layout="constrained")
    ax, rax = axes[0], axes[1]
    div, ylab = y_scale(pts["y"].to_numpy(float), result.y_unit)
    lo, hi = xs_all.min(), xs_all.max()
    span_lo = lo if log_x else max(lo - 0.0 * (hi - lo), 0.0)
    grid = _grid(x, span_lo, hi, log_x)
    ymax = float(pts["y"].max())
    ceiling_keys = [k for k, m in result.chosen.items() if m.startswith("ceiling")]
    strip_rows: dict = {}
    strip_seen: set = set()
    bands: list = []     # (grid, upper edge, colour) of each drawn band: the y axis is extended to show them
    pending: list = []   # component ceilings, drawn once the y axis is known (those above it are named instead)
    bounds: list = []    # where those ceilings are only upper bounds (the drive's QD1 latency unknown …)
    for i, (key, chosen) in enumerate(result.chosen.items()):
        color = _CURVE_COLORS[i % len(_CURVE_COLORS)]
        sel = pts
        for b, v in zip(result.by, key):
            sel = sel[sel[b] == v]
        name = ", ".join(f"{b}={v}" for b, v in zip(result.by, key))
        err = sel["y_std"].fillna(0).to_numpy() / div if "y_std" in sel else None
        n_runs = int(sel["n_runs"].min()) if "n_runs" in sel else 1
        ax.errorbar(sel[x], sel["y"] / div, yerr=err, fmt="o", color=color, ms=5, capsize=3, zorder=4,
                    label=f"measured{' ' + name if name else ''}" + (f" (mean ± sd of {n_runs}+ runs)"
                                                                     if n_runs > 1 else ""))
        # a chosen model the explanation does not read (R² < 0.9 or a point missed by > 25 %: facts.model_trust) is
        # not the curve of these points: drawn faint and dotted, without a band, and labelled so — a solid line with
        # its band across a step between two measured levels said the opposite of the words (round 21,
        # r21_tieredvol … qd32_bs: R² ≈ 0 drawn as a level at 1.18 GB/s between 1.25–1.29 and 1.02–1.03 GB/s).
        # A model the caller named (model="linear") is drawn as asked.
        unread = not result.requested and not _model_read(result, key)
        for m in (result.fits[key] if models == "all" else [chosen]):
            f = result.fits[key][m]
            yfit = f.eval(grid)
            main = m == chosen
            # a curve measured at one x only is solved, not tested: drawn thin and dashed, and said so
            single = np.unique(f.x).size < 2
            quality = ("solved from 1 x value, not tested" if single else
                       f"R² {_r2(f.stats['r2'])}" if np.isfinite(f.stats["r2"]) else "R² n/a")
            if main and unread and not single and m != "constant":
                quality += ": does not describe the points, not read"
            what = (f"{m} fit{' ' + name if name else ''} ({quality})" if m != "constant" else
                    f"level{' ' + name if name else ''} (fitted constant: {result.x} is not a load here)")
            solid = main and not single and not (unread and m != "constant")
            ax.plot(grid, yfit / div, color=color, lw=2 if solid else 0.9,
                    ls="-" if solid else (0, (4, 3)) if single else ":", label=what)
            ymax = max(ymax, float(np.nanmax(yfit)))
            if main and not (unread and m != "constant"):
                blo, bhi = f.band(grid)
                if np.all(np.isfinite(blo)):
                    ax.fill_between(grid, blo / div, bhi / div, color=color, alpha=0.18, lw=0,
                                    label=f"95 % band of the {m} fit{' ' + name if name else ''}")
                    bands.append((grid, np.asarray(bhi, float), color))
        if "y_std" in sel:  # keep the error bars in view
            ymax = max(ymax, float(np.nanmax((sel["y"] + sel["y_std"].fillna(0)).to_numpy(float))))
        if chosen == "per_io_byte" and ceilings:
            flat = _per_io_byte_marks(ax, result, result.fits[key][chosen], grid, div, color,
                                      name if len(result.chosen) > 1 else "", key=key)
            if flat <= 2 * ymax:  # the flat ceiling in view, as a Little's-law cap is (QA s27 O6: it was in the
                ymax = max(ymax, flat)  # legend and above the axes)
        # beside a level the data state, explain() reads no cap, knee or latency floor from a Little's-law or MVA fit
        # (round 8's rule, fact_claims.states_level): the figure draws the measured level the text states instead
        # (notebook 06's null-engine jobs sweep drew "cap x_max = 4.94 M IOPS (fitted; below the largest
        # measurement)" and n / r0 beside a text stating only the measured level)
        stated = chosen in ("littles", "littles_soft", "mva") and ceilings and _load_states_level(result, key)
        _evidence_marks(ax, result, key, color, div, stated=stated)
        if ceilings and not chosen.startswith("ceiling") and result.setup(key)[0] is not None:
            pending += _component_ceilings(result, key, grid, f" ({name})" if len(result.chosen) > 1 else "", row=i)
            bounds.append(_upper_bound(result, key, sel[x].to_numpy(float)))
        f = result.fits[key][chosen]
        # the explanation's convention ("misses … by −77 % (fitted ÷ measured − 1)"), named on the axis (QA s25 H13)
        resid = f.eval(f.x) / np.where(f.y != 0, f.y, np.nan) - 1
        rax.plot(f.x, 100 * resid, "o", color=color, ms=4)
        if chosen in ("littles", "littles_soft", "mva") and ceilings and not stated:
            cap = f.values["x_max"]
            if cap <= 2 * ymax:  # keep a fitted cap in view unless it is far above every measurement
                ymax = max(ymax, cap)
            from ..fitting.claims import EXTRAPOLATION, curve_evidence

            ev_cap = curve_evidence(result, key)[0]
            # the explanation calls a cap the data do not reach an extrapolation: so does the legend (QA s27 I8 —
            # a linear rate-limited series drew "cap x_max = 393 K IOPS (fitted)" at its last point); a cap below the
            # largest measurement is no ceiling of the data either, and is not "not reached" (I17)
            top_measured = float(np.max(ev_cap.y))
            below = cap < 0.98 * top_measured
            # still rising, and the largest measurement is at the cap: not an extrapolation (DOCSQA s27)
            at_top = not below and cap <= top_measured and ev_cap.rising is not None
            unreached = not below and not at_top and (ev_cap.rising is not None or cap > EXTRAPOLATION * top_measured)
            ax.axhline(cap / div, color=color, ls="--", lw=0.9,
                       label=f"cap x_max = {cap / div:.3g} {ylab} (fitted"
                             + ("; not reached: an extrapolation" if unreached else
                                "; below the largest measurement" if below else
                                "; the data rise to it: not a measured ceiling" if at_top else "") + ")"
                             + ("" if cap <= 2 * ymax else ", above the plot"))
            ax.plot(grid, np.minimum(grid / f.values["r0"], 3 * ymax) / div, color=color, ls="-.", lw=0.8,
                    label="Little's law n / r0 (fitted latency floor)")
        if chosen.startswith("ceiling") and ceilings and result.setup(key)[0] is not None:
            overrides = fitted_overrides(f)
            prof = ceiling_profile(*result.setup(key), x=x, values=grid, overrides=overrides,
                                   drives=result.drives, y_unit=result.y_unit)
            row = strip_rows.setdefault(key, len(strip_rows))
            tag = f" ({name})" if len(ceiling_keys) > 1 else ""
            bounds.append(_upper_bound(result, key, sel[x].to_numpy(float), overrides))
            for comp in [c for c in prof.columns if c not in ("x", "ceiling", "binding")]:
                if np.all(np.isfinite(prof[comp])):  # (inf: no such component in this topology)
                    pending.append((comp, grid, prof[comp].to_numpy(float), _DASHES[row % len(_DASHES)],
                                    f"ceiling: {comp}{tag}", tag))
            sax = axes[2]
            left, right = _cells(grid, log_x)
            for comp in dict.fromkeys(prof["binding"]):
                m_ = prof["binding"].to_numpy() == comp
                sax.bar(left[m_], 0.8, bottom=row, width=(right - left)[m_], color=component_color(comp),
                        align="edge", label=None if comp in strip_seen else f"binds: {comp}")
                strip_seen.add(comp)
            above = list(result.findings.get(key, []))
            if above:  # say it on the figure too: these points falsify an assumption, they are not reproduced
                ax.scatter([v for a in above for v in a["x_above"]],
                           [v / div for a in above for v in a["measured_above"]], marker="x", s=90,
                           color="#d62728", zorder=5, label="above the model's ceiling (an assumption is wrong)")
            if len(ceiling_keys) > 1:  # one row per curve, named
                sax.set_yticks([r + 0.4 for r in strip_rows.values()],
                               [", ".join(map(str, k)) for k in strip_rows], fontsize="x-small")
            else:
                sax.set_yticks([])
            sax.set_ylabel("binds", rotation=0, ha="right", va="center")
            sax.legend(fontsize="x-small", ncol=4, loc="upper left", bbox_to_anchor=(0, -0.9), frameon=False)
    top = _y_top(ax, ymax, float(np.nanmax((pts["y"] + pts["y_std"].fillna(0)) if "y_std" in pts else pts["y"])),
                 bands, div, result.y_unit, log_x)
    _draw_ceilings(ax, pending, top, div, result.y_unit, bounds)
    quantity = {"iops": "IOPS", "bytes_per_s": "throughput"}.get(
        result.y, result.y.replace("_bytes_per_s", " throughput").replace("_iops", " IOPS").replace("_", " "))
    ax.set_ylabel(axis_label(quantity, ylab) if quantity != "IOPS" else ylab)
    handles, _ = ax.get_legend_handles_labels()
    if len(handles) > 4:  # many lines: beside the axes, where it hides no measurement
        ncol = 1 + (len(handles) - 1) // 18  # no column taller than the figure (29 entries: two columns)
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, ncol=ncol)
        w, h = fig.get_size_inches()
        fig.set_size_inches(w + 2.8 * ncol, h)  # room for it, the axes keep their width
    else:
        ax.legend(fontsize="x-small", loc="best")
    ax.grid(alpha=0.3)
    rax.axhline(0, color="k", lw=0.6)
    rax.set_ylabel("fitted ÷ measured − 1 (%)", fontsize="small")
    rax.grid(alpha=0.3)
    axes[-1].set_xlabel(_x_label(x))
    if not log_x:  # counted axes (drives, jobs, threads, a label of whole numbers): no tick at 1.5 jobs
        from .style import integer_ticks

        integer_ticks(axes[-1], xs_all)
    if log_x:
        from .style import log2_axis

        for a in axes:
            log2_axis(a, np.unique(xs_all), axis="x", kind="size" if x == "block_size_bytes" else "count")
    if title is None:
        names = list(dict.fromkeys(getattr(t, "name", "") for t, _ in
                                   (result.setups.values() or [(result.topology, None)]) if t is not None))
        head, prov = measurement_title(result)
        title = head + (f" — {' / '.join(names)}" if names else "") + (f"\n{prov}" if prov else "")
    ax.set_title(title, fontsize="medium")
    if path is not None:
        path = pathlib.Path(path)
        fig.savefig(path, dpi=120)
        if path.suffix.lower() == ".png":
            fig.savefig(path.with_suffix(".svg"))
        plt.close(fig)
    return fig


def _saturation_plateau(result, key) -> dict | None:
    """The plateau the explanation states (the saturation fact: from its onset to its last level point, the mean and
    sd of every run there), so that the figure and the text show one plateau; None where the fact states none."""
    from ..fitting.facts import _run_values, curve_facts

    cf = curve_facts(result, key)
    sat = cf.saturation
    f = sat.facts if sat is not None else {}
    if f.get("state") not in ("onset", "from_first") or f.get("plateau") is None or f.get("plateau_x_to") is None:
        return None
    x = cf.points["x"].to_numpy(float)
    idx = [i for i in range(x.size) if f["onset_x"] <= x[i] <= f["plateau_x_to"]]
    runs = np.concatenate([np.asarray(_run_values(result, cf.points, i), float) for i in idx]) if idx else np.array([])
    runs = runs[np.isfinite(runs)]
    sd = float(np.std(runs, ddof=1)) if runs.size >= 2 else float("nan")
    # the value the words state: where they lead with the mean of every run (the noise test's plateau) the figure
    # shows that number, not the points' level (notebook 06 drew 50.86 K beside a text saying "flattens at 50.24 K")
    from ..fitting.claims import curve_evidence, read_evidence
    from ..fitting.fact_claims import lead_claims

    ev = read_evidence(result, key, cf, curve_evidence(result, key)[0])
    said = [c.facts.get("stated_level") for c in lead_claims(result, cf, ev)]
    value = next((float(v) for v in said if v is not None and np.isfinite(v)), float(f["plateau"]))
    return {"x_from": f["onset_x"], "x_to": f["plateau_x_to"], "value": value, "spread": sd}


def _size_cap_level(result, key) -> dict | None:
    """Along block size, the cap the explanation states (the cap fact: a byte level flat over the sizes it names, or
    an IOPS level), as a level to draw in y's unit: {x_from, x_to, value (the cap), low (the stretch's lowest), label};
    {} where the cap is in the other unit (nothing drawn: a line at an IOPS cap is no level in bytes/s); None without
    a cap fact (notebook 06's block-size figure drew a plateau from 64 KiB beside a text stating a byte limit from
    256 KiB)."""
    from ..fitting.facts import curve_facts
    from ..fitting.wording import fmt_y

    if result.x != "block_size_bytes":
        return None
    cf = curve_facts(result, key)
    f = cf.cap.facts if cf.cap is not None else None
    a = cf.size_fall.facts.get("level_after") if cf.size_fall is not None else None
    if not f and a and result.y_unit == "B/s":  # the level after a peak the words state (round 18 ZB)
        return {"x_from": a["x_from"], "x_to": a["x_to"], "value": a["value"], "low": a["lo"],
                "label": f"measured byte level {fmt_y(a['lo'], 'B/s')}–{fmt_y(a['hi'], 'B/s')} (as stated)"}
    bd = cf.size_fall.facts.get("band") if cf.size_fall is not None else None
    if not f and bd and result.y_unit == "B/s":  # the flat top band the words state, up to its byte cap (round 21 WB)
        out = {"x_from": bd["x"][0], "x_to": bd["x"][1], "value": bd["hi"], "low": bd["lo"],
               "label": f"measured byte level {fmt_y(bd['lo'], 'B/s')}–{fmt_y(bd['hi'], 'B/s')} (as stated)"}
        if bd.get("after_x"):  # … and the level it steps down to, which the words state too ("holds … up to …")
            out["after"] = {"x_from": bd["after_x"][0], "x_to": bd["after_x"][1], "value": bd["after_hi"],
                            "low": bd["after_lo"], "label": f"measured byte level after the step "
                            f"{fmt_y(bd['after_lo'], 'B/s')}–{fmt_y(bd['after_hi'], 'B/s')} (as stated)"}
        return out
    if not f:  # one serial stream states no level: none is drawn (round 17 YA/YB)
        return None if cf.one_stream is None else {}
    for flat, rng, value, unit, what in (("bytes_flat", "bytes_range", "bytes_cap", "B/s", "byte"),
                                         ("iops_flat", "iops_range", "iops_cap", "1/s", "IOPS")):
        if result.y_unit == unit and f.get(flat) and f.get(rng) and f.get(value):
            lo, hi = f[flat]
            return {"x_from": float(lo), "x_to": float(hi), "value": float(f[value]), "low": float(f[rng][0]),
                    "label": f"measured {what} level {fmt_y(f[rng][0], unit)}–{fmt_y(f[value], unit)} (as stated)"}
    return {}


def _load_states_level(result, key) -> bool:
    """Along a load axis, whether the data facts state a level (fact_claims.states_level, as explain() reads it)."""
    from ..fitting.claims import curve_evidence
    from ..fitting.fact_claims import states_level
    from ..fitting.facts import curve_facts

    if result.x == "block_size_bytes":  # (its own rule: _per_io_byte_marks)
        return False
    return states_level(curve_facts(result, key), curve_evidence(result, key)[0], result.x)


def _load_level(result, key) -> dict | None:
    """Along a load axis, the level the saturation fact states, as measured: {x_from, x_to, value (the level
    stated), low, high (the lowest and highest point over the x it covers), label}; {} where the fact states none
    (runs that cannot tell a rise from a level, round 9 GA); None where the saturation fact states no level."""
    from ..fitting.facts import curve_facts
    from ..fitting.wording import fmt_y, span

    cf = curve_facts(result, key)
    s = cf.saturation.facts if cf.saturation is not None else None
    if not s:
        return None
    u, x = result.y_unit, result.x
    if s.get("state") in ("onset", "from_first", "falls") and s.get("plateau") is not None \
            and s.get("plateau_x_to") is not None:
        a, b, lo, hi = s["onset_x"], s["plateau_x_to"], s["plateau_lo"], s["plateau_hi"]
        pts = (f"points {span(fmt_y(lo, u), fmt_y(hi, u))} at {x} = {a:g}–{b:g}" if a != b else
               f"the one point on it, {x} = {a:g}")  # (round 6 BD: a level resting on one point is said so)
        return {"x_from": float(a), "x_to": float(b), "value": float(s["plateau"]), "low": float(lo),
                "high": float(hi), "label": f"measured level {fmt_y(s['plateau'], u)} ({pts})"}
    if s.get("state") == "rising" and s.get("collapsed_from") is not None:  # near: at or above the last point
        xs, ys = cf.points["x"].to_numpy(float), cf.points["y"].to_numpy(float)
        return {"x_from": float(xs[-2]), "x_to": float(xs[-1]), "value": float(ys[-1]), "low": float(ys[-1]),
                "high": float(ys[-1]), "label": f"measured: level at or above {fmt_y(ys[-1], u)} (the last point)"}
    # runs that cannot tell a rise from a level: the text states none, nor does the figure; other states keep the
    # evidence's plateau
    return {} if s.get("state") == "overlap" else None


def _evidence_marks(ax, result, key, color, div, stated: bool = False) -> None:
    """The measured plateau with its band (mean ± sd of its runs) over the x it spans, or a step's two levels
    with theirs, and a second regime (:mod:`~nvmemodel.fitting.evidence`) shaded from the step on. ``stated``: the
    facts state a level along a load axis and no fitted cap is drawn; the level drawn is the fact's, its band the
    lowest to the highest point over the x it covers."""
    from ..fitting.claims import curve_evidence
    from ..fitting.wording import fmt_y

    ev, struct = curve_evidence(result, key)
    plateau = _saturation_plateau(result, key) if not ev.step else None
    cap = _size_cap_level(result, key)
    level = _load_level(result, key) if stated and not ev.step else None
    if cap is not None:  # along block size the cap the explanation states is the level drawn (or none, in the
        plateau = cap or None  # other unit); never a second plateau over other sizes
    elif level is not None:  # the level the text states (none where it states none)
        plateau = level or None
    elif plateau is None and ev.plateau and not ev.step:  # (a step's upper level is its plateau: drawn once, below)
        plateau = ev.plateau
    if plateau is not None and plateau.get("label"):
        for lv in (plateau, plateau.get("after")):
            if lv:
                lo, hi = lv["x_from"], lv["x_to"]
                ax.fill_between([lo, hi], lv["low"] / div, lv.get("high", lv["value"]) / div, color=color,
                                alpha=0.12, lw=0, zorder=1)
                ax.plot([lo, hi], [lv["value"] / div] * 2, color=color, lw=1.2, ls=(0, (1, 1)), zorder=2,
                        label=lv["label"])
    elif plateau is not None:
        p = plateau
        lo, hi = p["x_from"], p["x_to"]
        sd = p["spread"] if np.isfinite(p["spread"]) else 0.0
        ax.fill_between([lo, hi], (p["value"] - sd) / div, (p["value"] + sd) / div, color=color, alpha=0.12, lw=0,
                        zorder=1)
        ax.plot([lo, hi], [p["value"] / div] * 2, color=color, lw=1.2, ls=(0, (1, 1)), zorder=2,
                label=f"measured plateau {fmt_y(p['value'], result.y_unit)} ± sd {fmt_y(sd, result.y_unit)}")
    if ev.step:  # two measured levels: each drawn with its band, the upper regime shaded
        for name, p in ev.step.items():
            sd = p["spread"] if np.isfinite(p["spread"]) else 0.0
            ax.fill_between([p["x_from"], p["x_to"]], (p["value"] - sd) / div, (p["value"] + sd) / div, color=color,
                            alpha=0.12, lw=0, zorder=1)
            ax.plot([p["x_from"], p["x_to"]], [p["value"] / div] * 2, color=color, lw=1.2, ls=(0, (1, 1)), zorder=2,
                    label=f"measured {'lower' if name == 'low' else 'upper'} level {fmt_y(p['value'], result.y_unit)}")
        ax.axvspan(ev.step["high"]["x_from"], float(np.max(ev.x)), color="0.85", alpha=0.5, lw=0, zorder=0,
                   label=f"second regime (a step between {ev.step['low']['x_to']:g} and "
                         f"{ev.step['high']['x_from']:g})")
    elif struct and struct.get("regimes") is not None:
        ax.axvspan(struct["regimes"], float(np.max(ev.x)), color="0.85", alpha=0.5, lw=0, zorder=0,
                   label=f"second regime? (the fit misses a step near {struct['regimes']:g})")


def _y_top(ax, ymax: float, data_top: float, bands: list, div: float, unit: str, log_x: bool) -> float:
    """Set the y axis: 1.15 × the largest drawn value (points with their error bars, curves, a cap in view),
    raised to show every 95 % band up to 2 × the largest measurement (mean + sd); a band cut there is said to
    continue above, where it is cut, with the height it reaches. Returns the top of the axis (SI units)."""
    from ..fitting.wording import fmt_y

    top = 1.15 * ymax
    band_top = max((float(np.nanmax(b)) for _, b, _ in bands if np.any(np.isfinite(b))), default=0.0)
    if band_top > top:
        top = max(top, min(1.04 * band_top, 2.0 * data_top))
    ax.set_ylim(0, top / div)
    for grid, upper, color in bands:
        cut = np.isfinite(upper) & (upper > top)
        if not cut.any():
            continue
        at = float(grid[cut][np.argmax(upper[cut])])
        right = at >= float(np.sqrt(grid[0] * grid[-1]) if log_x else (grid[0] + grid[-1]) / 2)
        ax.annotate(f"band continues above ↑ (to {fmt_y(float(np.nanmax(upper[cut])), unit)})", xy=(at, 1.0),
                    xycoords=("data", "axes fraction"), xytext=(-4 if right else 4, -4), textcoords="offset points",
                    ha="right" if right else "left", va="top", fontsize="x-small", color=color)
    return top


def _upper_bound(result, key, xs, overrides=None) -> str:
    """Where the model's ceilings of one curve are only upper bounds at its measured x (a limit the model does not
    know, e.g. the drive's QD1 latency): the note `nvmemodel plot` draws (QA s25 H11 addendum); "" where none."""
    from ..errors import NvmeModelError
    from .results import _upper_bounds

    topology, workload = result.setup(key)
    if topology is None or workload is None or result.x not in ("drives", "iodepth", "numjobs", "outstanding",
                                                                "block_size_bytes"):
        return ""
    try:
        return _upper_bounds(topology, workload, int(result.drives or 1), result.x, np.unique(xs), overrides)
    except NvmeModelError:
        return ""


def _draw_ceilings(ax, pending: list, top: float, div: float, unit: str, bounds: list | None = None) -> None:
    """Draw the component ceilings that enter the y axis (up to ``top``, SI) and name the others with their
    lowest value in the plotted x range in one note: a ceiling not drawn is not a ceiling missing from the model.
    ``bounds``: where those ceilings are only upper bounds (:func:`_upper_bound`), said under the note."""
    import textwrap

    from ..ceiling.components import color as component_color

    said = [b for b in dict.fromkeys(bounds or []) if b]

    def upper_bound() -> None:  # the upper-bound word with the ceilings it qualifies, drawn or named
        if said and pending:
            ax.plot([], [], ls="none", label="\n".join(textwrap.wrap("model ceilings: " + "; ".join(said), 56)))

    above: dict = {}
    drawn: set = set()
    for comp, grid, v, dash, label, tag in pending:
        if v.min() < top / 1.15 * 1.12:  # enters the plot, not just touching its upper edge
            drawn.add(comp)
            ax.plot(grid, np.minimum(v, 1.5 * top) / div, ls=dash, lw=1.0, color=component_color(comp), label=label)
        else:
            above.setdefault(comp, {})[tag] = ("" if np.ptp(v) <= 1e-9 * v.min() else "≥ ", float(v.min()))
    if not above:
        upper_bound()
        return
    # one entry per component when every curve gives it the same value, else one per curve (named)
    entries: dict = {}
    for comp, per in above.items():
        same = len(set(per.values())) == 1 and comp not in drawn
        for tag, (ge, v) in (list(per.items())[:1] if same else per.items()):
            entries[(comp if same else comp + tag, ge)] = v
    above = entries
    ranked = sorted(above.items(), key=lambda kv: kv[1])
    scales = [y_scale([v], unit) for _, v in ranked]
    one = len({n for _, n in scales}) == 1  # one unit: written once, at the end
    items = [f"{c} {ge}{v / f:.3g}" + ("" if one else f" {n}") for ((c, ge), v), (f, n) in zip(ranked, scales)]
    lines, line = [], "ceilings above the chart:"
    for i, it in enumerate(items):
        it += (f" {scales[0][1]}" if one else "") if i == len(items) - 1 else ","
        if len(line) + len(it) > 52:
            lines.append(line)
            line = "  " + it
        else:
            line += " " + it
    lines.append(line)
    # a legend entry without a mark: the legend is placed where it hides no measurement, the note with it
    ax.plot([], [], ls="none", label="\n".join(lines))
    upper_bound()


def _component_ceilings(result, key, grid, tag: str = "", row: int = 0) -> list:
    """Every modelled component's ceiling along x (a topology given, no ceiling model fitted), for
    :func:`_draw_ceilings`; ``tag`` names the curve in the legend and in the note of those above the chart (several
    curves). As for a fitted ceiling model, the colour is the component's and the dash the curve's (``row``): two
    curves' ceilings of one component are told apart (they were one style)."""
    from ..fitting.ceiling import X_AXES, ceiling_profile

    if result.x not in X_AXES:
        return []
    try:
        prof = ceiling_profile(*result.setup(key), x=result.x, values=grid, drives=result.drives,
                               y_unit=result.y_unit)
    except Exception:  # noqa: BLE001 — a topology this axis cannot evaluate: the figure without ceilings
        return []
    out = []
    for comp in (c for c in prof.columns if c not in ("x", "ceiling", "binding")):
        v = prof[comp].to_numpy(float)
        if np.all(np.isfinite(v)):  # (inf: no such component in this topology)
            out.append((comp, grid, v, _DASHES[row % len(_DASHES)], f"ceiling: {comp}{tag} (model, no free parameter)",
                        tag))
    return out


def _model_read(result, key) -> bool:
    """Whether the explanation reads the chosen model of curve ``key`` (:func:`~nvmemodel.fitting.facts.model_trust`:
    R² ≥ 0.9 and no point missed by more than 25 %)."""
    from ..fitting.facts import curve_facts

    trust = curve_facts(result, key).trust
    return trust is None or bool(trust.facts["interpreted"])


def _per_io_byte_marks(ax, result, f, grid, div, color, name: str = "", key=()) -> float:
    """The two ceilings of the per-I/O + per-byte model (IOPS ceiling, bandwidth ceiling) and their crossover — or,
    where the data show two measured caps the roofline holds better (issue 28: the explanation then reads no fitted
    ceiling), those caps; nothing where the fit is not read at all. Returns the ceiling that is flat in y's unit (the
    bandwidth ceiling along B/s, the IOPS ceiling along IOPS), NaN when none is drawn."""
    from ..fitting.facts import curve_facts
    from ..fitting.shapes import per_io_byte_crossover
    from ..fitting.wording import fmt_y

    facts = curve_facts(result, key)
    cap = facts.cap.facts if facts.cap is not None else {}
    roofline = bool(cap.get("crossover_bytes")) and cap.get("rms_log_smooth") is not None \
        and cap["rms_log_roofline"] <= cap["rms_log_smooth"]
    from ..fitting.fact_claims import states_level

    read = facts.trust is None or facts.trust.facts["interpreted"]
    if not roofline and (not read or facts.outstanding is not None or states_level(facts)):
        # the explanation reads no ceiling from this fit (beside a level or cap the data state, round 8's rule: the
        # model is not the story): the figure draws none either
        return float("nan")
    if roofline:
        im, bm, of = cap["iops_cap"], cap["bytes_cap"], f"measured, {name}" if name else "measured"
    else:
        im, bm = f.values["iops_max"], f.values["bw_max"]
        of = f"fitted, {name}" if name else "fitted"  # the curve's colour and name: several curves' lines told apart
    g = np.asarray(grid, float)
    iops_line, bw_line = (np.full_like(g, im), bm / g) if result.y_unit == "1/s" else (im * g, np.full_like(g, bm))
    what = ("IOPS cap", "byte cap") if roofline else ("IOPS ceiling", "bandwidth ceiling")
    ax.plot(g, iops_line / div, ls="--", lw=0.9, color=color, label=f"{what[0]} {fmt_y(im, '1/s')} ({of})")
    ax.plot(g, bw_line / div, ls=":", lw=1.1, color=color, label=f"{what[1]} {fmt_y(bm, 'B/s')} ({of})")
    b = per_io_byte_crossover(im, bm)
    if g.min() <= b <= g.max():
        from .style import block_size_label

        ax.axvline(b, color=color, lw=0.8, ls=(0, (4, 2)),
                   label=f"crossover block size {block_size_label(round(b))} B" if b < 1024 else
                   f"crossover block size {b / 1024:.3g} KiB")
    return float(bm if result.y_unit == "B/s" else im)
