"""``nvmemodel sweep``: every combination of some parameters' values × drive counts, as one tidy table.

The grid is :func:`nvmemodel.sweep`'s (one vectorized call, uniform or ``--group`` mixed topologies); each row is
what :func:`nvmemodel.evaluate` gives for that configuration and drive count. The values of ``--grid`` are read by
the parameter table (names, units and allowed values as ``nvmemodel parameters`` lists them, as for ``--set``).
"""

from __future__ import annotations

import argparse
import math
import sys

from ..errors import ParameterError
from ._common import whole_number

JSON_SCHEMA_ID = "nvmemodel.sweep/1"

#: Points (configurations × drive counts) evaluated unless ``--max-points`` says more: a typo such as a fourth
#: ``--grid`` of 100 values must not start a run of minutes and a table of gigabytes.
DEFAULT_MAX_POINTS = 100_000
#: Most points ``--max-points`` may allow: the table is held in memory (2 M points: about 100 MB of CSV, 20 s and
#: 500 MB of memory here)
MAX_POINTS = 2_000_000

#: Columns after the grid's, with their units (the JSON's ``units`` names every column's).
UNITS = {"drives": "drives", "iops": "I/O per second", "bytes_per_s": "bytes per second (SI: 1 GB/s = 1e9)",
         "binding": "the component whose ceiling is lowest (nvmemodel ceilings --help lists them)",
         "upper_bound": "text: where a host layer above the links or a drive rating the workload needs is unknown, "
                        "or a RAID level's CPU cost is not charged (not applied), the sentence saying the row is an "
                        "upper bound; a host.gen above the catalog CPU's own is said too (a hypothetical host); "
                        "empty where none is"}

_EXAMPLES = """\
examples:
  nvmemodel sweep --preset dell-r7525 --grid host.cycles_per_io=8000,10000,20000 --drives 4,8,16,24
      From what CPU cost per I/O does the host bind, at each drive count (CSV on stdout)?
  nvmemodel sweep --grid host.clock_hz=2GHz,2.5GHz,3GHz --grid workload.block_size=4K,16K,128K \\
      --pattern randread --drives 1-24 --out clock-by-size.csv
  nvmemodel sweep --grid drive.model=samsung-pm1733-u2,samsung-pm1743 --set pcie.mps=512 --json
  nvmemodel sweep --pattern read --bs 128K --grid host.cycles_per_io=4000,8000 --drives 8,16,24 \\
      --group drive=samsung-pm1733-u2,count=8 \\
      --group drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2
      A mixed topology (--group, as in 'nvmemodel ceilings'): shared parameters only in the grid.

columns: the --grid parameters (SI units, as 'nvmemodel parameters' lists them; categorical ones by name),
drives (total; with --group also drives.<group> per group), iops (I/O per second), bytes_per_s (bytes per
second, SI), binding (the component whose ceiling is lowest), upper_bound (empty, or the sentence saying the row
is an upper bound: a host layer above the links or a drive rating the workload needs is unknown, or a RAID
level's CPU cost is not charged, as 'nvmemodel ceilings' says under its table; and a host.gen above the catalog
CPU's own: a hypothetical host). Rows: configurations in the order of the --grid values (the first --grid varies
slowest), then drive counts. A catalog CPU's host.sockets values are its own socket counts only.
--grid workload.read_fraction needs --pattern randrw or rw (and no --read-fraction).
"""


def register(sub) -> None:
    from .ceilings import add_system_options

    c = sub.add_parser(
        "sweep", help="a grid of configurations x drive counts as one table (CSV or JSON)",
        description="Evaluate every combination of the --grid values at every drive count (nvmemodel.sweep: one "
                    "vectorized call) on a preset, with the options of 'nvmemodel ceilings' (--drive, --host, --set, "
                    "--group, workload), and print one row per configuration and drive count.",
        epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_system_options(c)
    c.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="a parameter to vary and its values, with units as in --set, e.g. host.clock_hz=2GHz,3GHz "
                        "or workload.io_stack=libaio,spdk (repeatable: every combination is evaluated; "
                        "'nvmemodel parameters' lists names, units and allowed values)")
    c.add_argument("--max-points", type=whole_number(1), default=DEFAULT_MAX_POINTS,
                   help=f"most configurations x drive counts to evaluate (default: %(default)s; at most {MAX_POINTS:,})")
    c.add_argument("--json", action="store_true", help=f"JSON instead of CSV (schema {JSON_SCHEMA_ID})")
    c.add_argument("--out", metavar="PATH", help="write the table to this new file (.csv, or .json with --json) "
                   "instead of standard output; an existing path is refused")
    c.set_defaults(run=_sweep)


def parse_grid(items) -> dict[str, list[str]]:
    """``["host.clock_hz=2GHz,3GHz", …]`` → ``{"host.clock_hz": ["2GHz", "3GHz"], …}``: names checked against the
    parameter table, no empty value, each name and each value once (values are parsed by :func:`grid_values`)."""
    from ..parameters import get

    texts: dict[str, list[str]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip()
        parts = [v.strip() for v in values.split(",")]
        if not sep or not name or not all(parts):
            raise ParameterError("--grid", item, "NAME=V1,V2,... without empty parts, e.g. host.clock_hz=2GHz,3GHz")
        get(name)  # an unknown name: the error lists close ones
        if name in texts:
            raise ParameterError("--grid", item, f"each parameter once ({name} is given twice: put its values in one "
                                                 "--grid)")
        texts[name] = parts
    return texts


def grid_values(texts: dict[str, list[str]]) -> dict[str, list]:
    """The values of :func:`parse_grid`'s texts, read by the parameter table (units; categorical names checked);
    a value given twice (``2GHz,2000MHz``) is refused: it would repeat rows."""
    from ..parameters import get

    out: dict[str, list] = {}
    for name, parts in texts.items():
        param = get(name)
        values = [param.parse(v) for v in parts]
        if len(set(values)) != len(values):
            raise ParameterError(f"--grid {name}", ",".join(parts), "each value once")
        out[name] = values
    return out


def check_size(texts: dict[str, list[str]], drive_counts: int, max_points: int) -> int:
    """The number of points (configurations × drive counts); :class:`ParameterError` above ``max_points``."""
    if max_points > MAX_POINTS:
        raise ParameterError("--max-points", max_points, f"at most {MAX_POINTS:,} (the table is held in memory)")
    configs = math.prod(len(v) for v in texts.values())
    points = configs * drive_counts
    if points > max_points:
        shape = " x ".join(f"{len(v)} {k}" for k, v in texts.items()) or "1 configuration"
        raise ParameterError("--grid", f"{shape} x {drive_counts} drive counts",
                             f"at most --max-points {max_points:,} points (configurations x drive counts); this grid "
                             f"has {points:,}: raise --max-points (up to {MAX_POINTS:,}) if that is meant")
    return points


#: Parameters that set how many drives a single-model topology attaches (``Topology.max_drives``: the root ports' lane
#: budget, or the switches' downstream ports), besides every ``switch.*``.
_BAYS = ("host.sockets", "host.lanes_per_socket", "host.reserved_lanes_per_socket", "host.port_lanes")


def check_bays(base, workload, values: dict[str, list], drives, sockets: dict | None = None) -> None:
    """Every configuration of the grid attaches the largest drive count, as ``ceilings`` checks its counts
    (``nvmemodel.sweep`` would evaluate drives the system cannot hold): a grid value that leaves fewer bays (x8
    root ports, one switch) is refused naming it; one that leaves more (more lanes) allows more. ``sockets``:
    :func:`socket_fields`, what a host.sockets value changes besides."""
    import itertools

    import numpy as np

    names = [n for n in values if n in _BAYS or n.startswith("switch.")]
    if not names:
        base.check_drives(np.asarray(drives))
        return
    most = max(drives)
    for combo in itertools.product(*(values[n] for n in names)):
        changes = dict(zip(names, combo, strict=True))
        changes = {**(sockets or {}).get(changes.get("host.sockets"), {}), **changes}
        topo = base.with_parameters(changes, workload)[0]
        if topo.max_drives < most:
            given = ", ".join(f"{n}={_shown(v)}" for n, v in zip(names, combo, strict=True))
            raise ParameterError("--drives", most, f"at most {topo.max_drives} for the grid's {given}: "
                                 f"{topo.max_drives_text()} (give fewer --drives, or leave that value out of the grid)")


def check_mixed_bays(mixed, workload, values: dict[str, list], overrides: dict, drives) -> None:
    """:func:`check_bays` for a mixed topology: where the grid changes the host's lanes, each such configuration is
    checked as ``nvmemodel.evaluate`` checks it (the groups' root ports must fit the lanes left)."""
    import itertools

    from ..ceiling.evaluate import evaluate

    names = [n for n in values if n in _BAYS]
    for combo in itertools.product(*(values[n] for n in names)) if names else ():
        try:
            evaluate(mixed, workload, drives=[max(drives)], overrides={**overrides, **dict(zip(names, combo))})
        except ParameterError as exc:
            given = ", ".join(f"{n}={_shown(v)}" for n, v in zip(names, combo, strict=True))
            raise ParameterError("--grid", given, f"a configuration these groups fit ({exc})") from None


def grid_read_fraction(args, texts: dict[str, list[str]]) -> float | None:
    """With ``--grid workload.read_fraction``: its first value, the workload's stand-in (every row sets its own);
    refused for a pure pattern (its read share is fixed: a 'randread' sweep of 0 % reads would be mislabelled) and
    beside ``--read-fraction`` (one value or the grid's). None without it."""
    from ..parameters import get
    from .ceilings import MIXED_PATTERNS

    if "workload.read_fraction" not in texts:
        return None
    given = "workload.read_fraction=" + ",".join(texts["workload.read_fraction"])
    if args.pattern.strip().lower() not in MIXED_PATTERNS:
        raise ParameterError("--grid", given, f"--pattern randrw or rw with a read-fraction grid ({args.pattern!r} "
                                              "has a fixed read share: a row of another share would be another "
                                              "pattern)")
    if args.read_fraction is not None:
        raise ParameterError("--grid", given, "no --read-fraction beside it (one value or the grid's, not both)")
    return float(get("workload.read_fraction").parse(texts["workload.read_fraction"][0]))  # (a number parameter)


def _workload_text(topo, wl, overrides, texts) -> str:
    """The workload as evaluated: ``--set`` applied (a read share makes a mix), a gridded read share said so."""
    changes = {k: v for k, v in overrides.items() if k.startswith("workload.")}
    if changes and not hasattr(topo, "groups"):  # (a mixed topology's groups may carry their own workloads)
        wl = topo.with_parameters(changes, wl)[1]
    if "workload.read_fraction" in texts:  # the stand-in's share is no row's: name the grid instead
        return wl.replace(read_fraction=1.0).describe() + " (read share per row: workload.read_fraction)"
    return wl.describe()


#: What the upper-bound sentence (:func:`~nvmemodel.ceiling.tree.upper_bound_text`) depends on.
_BOUND_KEYS = ("tree.complex_bytes_per_s", "memory.peak_bytes_per_s", "tree.inter_socket_bytes_per_s",
               "host.sockets", "drive.rand_read_iops", "drive.rand_write_iops", "drive.seq_read_bytes_per_s",
               "drive.seq_write_bytes_per_s", "workload.read_fraction", "workload.block_size", "raid.level",
               "raid.cycles_per_io", "host.gen", "drive.read_latency_s", "drive.write_latency_s", "workload.iodepth",
               "workload.numjobs", "workload.per_drive")


def _value(v):
    """A parameter's value as :func:`~nvmemodel.ceiling.tree.upper_bound_text` reads it: a name (raid.level) as it
    is, a number as a float."""
    return v if isinstance(v, str) else float(v)


def bound_bases(topo, wl, overrides) -> list[tuple[str | None, dict, dict]]:
    """Per group (one, unnamed, for a single-model topology): its name, the values of :data:`_BOUND_KEYS` with the
    one-value settings applied (``--drive``'s catalog entry too), and those settings' own values of them, which a
    grid's ``drive.model`` does not replace (``nm.sweep`` is given them as one-value grid columns)."""
    groups = [(None, topo, wl)] if not hasattr(topo, "groups") else [
        (g.name, topo.group_topology(i), wl if g.workload is None else g.workload) for i, g in enumerate(topo.groups)]
    fixed = {k: _value(v) for k, v in overrides.items() if k in _BOUND_KEYS}
    out = []
    for name, t, w in groups:
        p = {k: v for k, v in t.parameters(w).items() if k in _BOUND_KEYS}
        out.append((name, _with_values(p, overrides), fixed))
    return out


def _with_values(p: dict, values: dict) -> dict:
    from ..topology.drive import get_drive

    q = dict(p)
    model = values.get("drive.model")
    if model is not None and model != "custom":  # a catalog drive brings every rating (as nm.sweep's grid does)
        q.update({k: v for k, v in get_drive(str(model)).parameters().items() if k in _BOUND_KEYS})
    q.update({k: _value(v) for k, v in values.items() if k in _BOUND_KEYS})
    return q


def check_sockets(host, values: dict[str, list]) -> None:
    """A catalog CPU (``host.key``) allows only its own socket counts (as ``ceilings --set host.sockets`` checks):
    a ``--grid host.sockets`` value outside them is refused."""
    from .ceilings import catalog_sockets

    for n in values.get("host.sockets", ()) if host.key else ():
        catalog_sockets(host, n, option="--grid host.sockets", hint="leave that value out of the grid")


def socket_fields(topo, wl, values: dict[str, list], given) -> dict[float, dict]:
    """Per ``--grid host.sockets`` value on a catalog CPU, the parameters its socket count changes (the lanes per
    socket, as ``ceilings --set host.sockets=N`` and ``--host NAME:N`` take them: :func:`~nvmemodel.topology.host.\
with_sockets`; a 1-socket EPYC 7742 has 128 lanes, not the 2-socket split's 80), other than those in ``given``
    (set or gridded by the user); empty without such a grid."""
    from ..topology.host import with_sockets

    if not topo.host.key or "host.sockets" not in values or hasattr(topo, "groups"):
        return {}
    base = topo.parameters(wl)
    out = {}
    for n in values["host.sockets"]:
        p = topo.replace(host=with_sockets(topo.host, int(n))).parameters(wl)
        out[n] = {k: v for k, v in p.items() if k != "host.sockets" and k not in given and str(v) != str(base[k])}
    return out


def upper_bound_column(bases, values: dict[str, list], combos, present: list[tuple], host=None):
    """Per row, the sentence saying it is an upper bound, "" where nothing is unknown, as a categorical column (one
    text per point of a 2 M-point table would be held once per row): ``combos`` are the configurations (tuples in
    the order of ``values``' names), each on ``len(present)`` rows (drive counts;
    ``present[j]``: which groups hold drives at the j-th); worked out once per distinct
    combination of the values it depends on (:data:`_BOUND_KEYS`, ``drive.model``). A mixed topology's groups
    share the host's sentence, and each group with drives whose drive lacks a rating the workload needs is named.
    ``host``: the topology's :class:`~nvmemodel.topology.host.Host`; a host.gen above its catalog CPU's own is said
    (:func:`hypothetical_text`) after the sentence."""
    import numpy as np
    import pandas as pd

    from ..ceiling.drive import unknown_drive_fields
    from ..ceiling.tree import upper_bound_text
    from .ceilings import hypothetical_text

    names = list(values)
    used = [i for i, n in enumerate(names) if n in _BOUND_KEYS or n == "drive.model"]
    said: dict[tuple, int] = {}
    texts: dict[str, int] = {}
    kinds = list(dict.fromkeys(present))  # which groups hold drives: one kind for a single-model topology
    codes = np.empty((len(combos), len(kinds)), dtype=np.int32)
    for c, combo in enumerate(combos):
        key = tuple(combo[i] for i in used)
        for j, groups in enumerate(kinds):
            if (key, groups) not in said:
                changes = {names[i]: combo[i] for i in used}
                ps = [(name, {**_with_values(p, changes), **fixed}) for name, p, fixed in bases]
                if len(ps) == 1:
                    text = upper_bound_text(ps[0][1]) or ""
                else:  # the shared parameters' sentence (host layers, RAID cost), then each group's drive's
                    shared = upper_bound_text({k: v for k, v in ps[0][1].items() if not k.startswith("drive.")})
                    drives = [f"the {name} drives' {' and '.join(f)} {'is' if len(f) == 1 else 'are'} not known "
                              "(not applied)" for (name, p), has in zip(ps, groups, strict=True)
                              if has and (f := unknown_drive_fields(p))]
                    text = "; ".join([shared, *drives]) if shared else \
                        ("upper bound: " + "; ".join(drives) if drives else "")
                if host is not None and "host.gen" in ps[0][1]:
                    text = "; ".join(t for t in (text, hypothetical_text(host, ps[0][1]["host.gen"])) if t)
                said[key, groups] = texts.setdefault(text, len(texts))
            codes[c, j] = said[key, groups]
    columns = np.asarray([kinds.index(g) for g in present], dtype=np.intp)
    return pd.Categorical.from_codes(codes[:, columns].ravel(), categories=list(texts) or [""])


def group_columns(mixed) -> list[str]:
    """Each group's drives column: ``drives.<name>``; an unnamed group (named ``group i`` by ``MixedTopology``) is
    ``drives.group<i>``, without the space (a CSV header's names are one word each)."""
    return [f"drives.{g.name.replace(' ', '') if g.name == f'group {i}' else g.name}"
            for i, g in enumerate(mixed.groups)]


def _shown(v) -> str:
    return v if isinstance(v, str) else f"{v:g}"


def check_output(path: str, suffix: str) -> None:
    """Before any work: ``path`` names a new file ending in ``suffix``, in an existing folder one can write, outside
    /proc and /sys; an existing path (a file, a folder, a link, a FIFO, a device) is refused, nothing overwritten."""
    import os
    import pathlib

    from ..userfiles import kernel_state

    expected = f"a new file ending in {suffix}"
    if not path.strip() or not path.isprintable():
        raise ParameterError("--out", path, f"{expected} (a name of printable characters)")
    p = pathlib.Path(path)
    if p.suffix.lower() != suffix:
        raise ParameterError("--out", path, expected + (" (--json writes JSON)" if suffix == ".json" else
                                                        " (.json with --json)"))
    why = kernel_state(p.parent)
    if why:
        raise ParameterError("--out", path, f"{expected} of your own ({why})")
    if p.exists() or p.is_symlink():
        kind = "a folder" if p.is_dir() else "a file" if p.is_file() and not p.is_symlink() else "a link or special file"
        raise ParameterError("--out", path, f"{expected} (it exists: {kind}; nothing is overwritten)")
    if not p.parent.is_dir():
        raise ParameterError("--out", path, f"{expected} in an existing folder ({p.parent} is not one)")
    if not os.access(p.parent, os.W_OK | os.X_OK):
        raise ParameterError("--out", path, f"{expected} in a folder you can write ({p.parent} is not)")


def write_new(path: str, write) -> None:
    """``write(fh)`` into the new file ``path`` (created exclusively, never through a link: a file that appeared since
    :func:`check_output` is refused, not overwritten); a write that fails leaves no partial file."""
    import os

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except FileExistsError:
        raise ParameterError("--out", path, "a new file (it appeared while the sweep ran; nothing is overwritten)") \
            from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            write(fh)
    except BaseException:
        os.unlink(path)
        raise


def _sweep(args) -> int:
    import numpy as np

    from ..ceiling.evaluate import sweep
    from ..ceiling.placement import drives_per_group
    from .ceilings import preset_defaults_note, system_and_workload, whole_arrays

    suffix = ".json" if args.json else ".csv"
    if args.out is not None:
        check_output(args.out, suffix)
    texts = parse_grid(args.grid)
    topo, wl, overrides, drives = system_and_workload(args, read_fraction=grid_read_fraction(args, texts))
    for name in texts:
        if name in overrides:
            raise ParameterError("--grid", name, "a parameter not also set by --set, --drive or --mps (one value or "
                                                 "the grid's, not both)")
    if args.group:
        from .mixed import mixed_from

        if args.drive is not None:
            raise ParameterError("--drive", args.drive, "no --drive with --group (each group names its drive)")
        topo = mixed_from(topo, args.group, order=args.order, overrides=overrides)
        columns = group_columns(topo)
        for group, column in zip(topo.groups, columns, strict=True):  # a name becomes a column's (CSV header)
            if not group.name.isprintable() or any(c.isspace() for c in column):
                raise ParameterError("--group name", group.name, "a name of printable characters without spaces (the "
                                                                 "column drives.<name> holds the group's drives)")
            if columns.count(column) > 1:
                raise ParameterError("--group name", group.name, f"a name other than {column[len('drives.'):]} "
                                     f"(an unnamed group's column is {column})")
        if drives is None:
            step = 2 if topo.mirror else 1
            drives = list(range(step, topo.max_drives + 1, step))
    else:
        base = topo.with_parameters(overrides, wl)[0] if overrides else topo
        if drives is None:
            drives = list(base.default_drives or range(1, base.max_drives + 1))
    check_size(texts, len(drives), args.max_points)
    values = grid_values(texts)
    check_sockets(topo.host, values)
    by_sockets = socket_fields(topo, wl, values, {*values, *overrides})
    left = None  # default drive counts left out (not whole RAID arrays)
    if args.group:
        check_mixed_bays(topo, wl, values, overrides, drives)
    else:
        check_bays(base, wl, values, drives, by_sockets)
        drives, left = whole_arrays(base, wl, drives, args.drives,
                                    {k: values[k] for k in ("raid.level", "raid.width") if k in values})
        if left:  # default counts that are not whole RAID arrays
            print(f"note: {left}", file=sys.stderr)
    notes = {"workload_defaults": preset_defaults_note(args, texts), "drives_left_out": left}

    import itertools

    combos = list(itertools.product(*values.values())) or [()]
    grid = {name: np.asarray([c[i] for c in combos]) for i, name in enumerate(values)}
    grid.update({name: np.asarray([v] * len(combos)) for name, v in overrides.items()})  # one value each
    if by_sockets:  # a catalog CPU's lanes per socket follow each row's socket count
        i = list(values).index("host.sockets")
        for name in {k for f in by_sockets.values() for k in f}:
            default = topo.parameters(wl)[name]
            grid[name] = np.asarray([by_sockets[c[i]].get(name, default) for c in combos])
    try:
        result = sweep(topo, wl, drives=drives, grid=grid)
    except ParameterError as err:
        # the library's words for a mixed grid (DriveGroup, '(grid)', arrays): said in the command line's (QA2 G13)
        name = str(getattr(err, "parameter", ""))  # (a MirrorLimitError is one sentence: said as it is)
        if name not in texts or not (str(err.value) == "(grid)" or "DriveGroup" in err.allowed):
            raise
        part, typed = name.split(".", 1)[0], ",".join(texts[name])
        if part == "switch" and "no switch" in err.allowed:
            allowed = "a --group with switch= (this sweep's groups have no switch)"
        elif part == "switch":
            allowed = "one switch model among the --group switch= values (the setting applies to all of them)"
        elif part == "drive":
            allowed = "no drive.* grid with --group (each --group names its own drive=; run one sweep per value)"
        else:
            allowed = err.allowed.replace("its DriveGroup", "its --group").replace("DriveGroup", "--group")
        raise ParameterError(f"--grid {name}", typed, allowed) from None
    table = _table(result, list(values), topo if args.group else None)
    present = [(True,)] * len(result.drives) if not args.group else [
        tuple(bool(k) for k in col) for col in drives_per_group(topo, result.drives).T]
    table["upper_bound"] = upper_bound_column(bound_bases(topo, wl, overrides), values, combos, present, topo.host)
    note = notes["workload_defaults"]
    workload_text = _workload_text(topo, wl, overrides, texts)

    def write(fh):  # streamed: the table is not held a second time as text
        if args.json:
            _write_json(fh, table, topo, workload_text, notes, overrides, values, result)
        else:
            table.to_csv(fh, index=False, lineterminator="\n")

    if note and not args.json:  # the CSV has no header for it
        print(f"note: workload {workload_text} ({note})", file=sys.stderr)
    host = topo.host
    if ("workload.io_stack" in values and host.cycles_per_io is not None and not host.cycles_stack
            and "host.cycles_per_io" not in overrides and "host.cycles_per_io" not in values):
        # one CPU cost for every stack on this host (ION Windows: StorPort): rows by stack differ by name only
        print(f"note: the host CPU is charged this host's {host.cycles_per_io:,.0f} cycles per I/O whatever the "
              "workload.io_stack of the row (its OS has one stack)", file=sys.stderr)
    if host.stack_costs:  # --costs / --profile: where each stack's charged cost was measured
        from ..hostcal.apply import describe_costs

        for line in describe_costs(host):
            print(f"note: host CPU cost per I/O measured on your machine: {line}", file=sys.stderr)

    if args.out is not None:
        write_new(args.out, write)
        print(f"wrote {len(table):,} rows to {args.out}", file=sys.stderr)
    else:
        write(sys.stdout)
    return 0


def _table(result, names: list[str], mixed):
    """The result as a DataFrame: the grid's columns (not the one-value ones of --set), drives (and per group of the
    mixed topology ``mixed``, if given), iops, bytes_per_s, binding."""
    import numpy as np

    from ..ceiling.placement import drives_per_group

    df = result.to_frame()
    for name in names:  # whole numbers as written (4000, not 4000.0); the value is the same
        v = df[name]
        if v.dtype.kind == "f" and bool(np.all(np.isfinite(v))) and bool(np.all(v == np.round(v))) \
                and float(np.abs(v).max()) < 2**53:
            df[name] = v.astype(np.int64)
    cols = [*names, "drives"]
    if mixed is not None:  # each group's drives at each total count, in the --order given
        per = drives_per_group(mixed, result.drives)
        for g, col in enumerate(group_columns(mixed)):
            df[col] = np.tile(per[g], result.iops.shape[0])
            cols.append(col)
    return df[[*cols, "iops", "bytes_per_s", "binding"]]


def _write_json(fh, table, topo, workload_text, notes, overrides, values, result) -> None:
    """The document (schema :data:`JSON_SCHEMA_ID`): what was evaluated (``notes``: ``workload_defaults``, the
    preset's paper's depth/stack in use; ``drives_left_out``, default counts that are not whole RAID arrays; each
    null where none), every column's unit, then ``rows``, one object per row on its own line (written as they are
    made)."""
    import json

    from ..parameters import get
    from ._common import json_number

    units = {name: get(name).unit or "name" for name in values}
    units.update({c: "drives" for c in table.columns if c.startswith("drives.")})
    units.update(UNITS)
    doc = {"schema": JSON_SCHEMA_ID, "topology": topo.describe(), "workload": workload_text, **notes,
           "settings": {k: (v if isinstance(v, str) else json_number(float(v))) for k, v in overrides.items()},
           "grid": {k: [v if isinstance(v, str) else json_number(float(v)) for v in vs] for k, vs in values.items()},
           "drives": [int(n) for n in result.drives], "units": units, "rows": []}
    head = json.dumps(doc, indent=2, allow_nan=False)
    fh.write(head[:-len("[]\n}")] + "[")
    names = list(table.columns)
    encode = json.JSONEncoder(allow_nan=False).encode
    columns = []
    for c in table.columns:  # Python values (numpy's int64 is no JSON number); NaN and inf are null
        col = table[c].tolist()
        if table[c].dtype.kind == "f":
            col = [json_number(v) for v in col]
        columns.append(col)
    sep = "\n    "
    for row in zip(*columns, strict=True):
        fh.write(sep + encode(dict(zip(names, row))))
        sep = ",\n    "
    fh.write("\n  ]\n}\n")
