"""From the public parameter mapping to the arrays the kernel reads: codes and derived quantities.

Derived quantities are computed here, vectorized, from the primary parameters — so that a sweep
over the I/O stack, the Ethernet MTU, the transport, the drive or the switch model needs no
per-configuration Python: ``fabric.payload_per_packet_bytes`` from transport × MTU × IP version,
``fabric.line_bytes_per_s`` from ports × line rate, ``pcie.flit_tlp_fraction`` from the FLIT
convention, ``attach.switch`` and ``fabric.present`` from ``switch.model`` / ``fabric.transport``.
"""

from __future__ import annotations

import functools
import operator
from typing import Any
from collections.abc import Mapping

import numpy as np

from ..parameters import PARAMETERS, encode
from ..standards import ethernet as eth
from ..standards import pcie as sp

__all__ = ["catalog_members", "prepare", "stack_cycles"]

_RAID_NONE = 0  # code of "none" in raid.level

_FLIT = np.array([sp.FLIT_TLP_FRACTION[sp.FlitConvention(v)] for v in PARAMETERS["pcie.flit"].choices])
_TRANSPORTS = PARAMETERS["fabric.transport"].choices
_TCP, _IB, _NONE = (_TRANSPORTS.index(t) for t in ("tcp", "infiniband", "none"))
_PSYNC = PARAMETERS["workload.io_stack"].choices.index("psync")


def stack_cycles(codes) -> np.ndarray:
    """Default CPU cycles per I/O for ``workload.io_stack`` codes (``STACK_CYCLES``), vectorized."""
    from ..topology.host import STACK_CYCLES, IoStack

    table = np.array([STACK_CYCLES[IoStack(s)][0] for s in PARAMETERS["workload.io_stack"].choices])
    return table[np.asarray(codes, dtype=int)]


@functools.cache
def _member_table(prefix: str) -> tuple[tuple[str, ...], np.ndarray, int]:
    """(field names, values [entry, field] with NaN rows for 'custom', index of 'custom') for a catalog."""
    from ..topology.drive import FIELDS as DRIVE_FIELDS
    from ..topology.drive import drive_catalog
    from ..topology.switch import FIELDS as SWITCH_FIELDS
    from ..topology.switch import Switch, switch_catalog

    if prefix == "drive":
        entries: list[Any]  # None: no entry (a drive not in the catalog)
        fields, entries = DRIVE_FIELDS, [None, *drive_catalog().values()]
    else:
        fields, entries = SWITCH_FIELDS, [Switch(name="(none)"), None, *switch_catalog().values()]
    names = tuple(f"{prefix}.{f}" for f in fields)
    table = np.array([[np.nan] * len(names) if e is None else [e.parameters()[n] for n in names] for e in entries],
                     dtype=float)
    return names, table, entries.index(None)


def catalog_members(prefix: str, codes, base: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``drive.*`` / ``switch.*`` arrays for ``drive.model`` / ``switch.model`` codes, by table lookup.

    Code of ``custom`` → the topology's own values (``base``); ``none`` (switch) → valid stand-ins.
    """
    names, columns, custom = _member_columns(prefix)
    codes = np.asarray(codes, dtype=np.intp)
    own = codes == custom
    own = own if own.any() else None
    out = {}
    for name, column in zip(names, columns):  # each field its own contiguous array (a sweep slices and gathers them)
        col = column.take(codes) if codes.ndim else np.asarray(column[codes])  # one code: a 0-d array, as before
        out[name] = col if own is None else np.where(own, base[name], col)
    return out


@functools.cache
def _member_columns(prefix: str) -> tuple:
    """:func:`_member_table` with the table's columns as contiguous arrays: ``(names, columns, custom code)``."""
    names, table, custom = _member_table(prefix)
    return names, tuple(np.ascontiguousarray(table[:, j]) for j in range(len(names))), custom


def prepare(params: Mapping[str, object], *, rows=None) -> dict[str, Any]:
    """Encode categorical names as codes and add the derived entries the kernel reads.

    Only what can be derived from the entries present is added, so a partial mapping (e.g. the
    PCIe and NVMe settings alone, for one link) works too. One configuration's numbers come out as
    ``numpy.float64`` scalars (not 0-d arrays: arithmetic on them is several times cheaper — fits call this
    thousands of times); arrays stay arrays.

    One configuration's result is kept (a few dozen, a new dict each call) for the very same values — the same
    objects, as :meth:`Topology.parameters` gives them for one topology and workload: evaluating a topology again
    derives nothing again.

    ``rows``: ``(class of each configuration, a configuration of each class)`` of a sweep whose grid has few
    distinct rows (:func:`~nvmemodel.ceiling.grid.sweep_parameters`): the fabric's packet geometry is then
    computed once per class and gathered (the same numbers: it is elementwise).
    """
    if rows is not None:
        return _prepare(params, rows)
    key = None
    if type(params) is dict:
        names, values = tuple(params), tuple(params.values())
        try:
            key = hash((names, values))
        except TypeError:  # an array among the values (a sweep's mapping): nothing kept
            key = None
        hit = _PREPARED.get(key) if key is not None else None
        # the same names and the very same value objects (equal is not enough: -0.0 == 0.0), which were numbers
        # and names (immutable) when kept
        if hit is not None and hit[0] == names and all(map(operator.is_, values, hit[1])):
            return dict(hit[2])
    p = _prepare(params)
    if key is not None and _IMMUTABLE.issuperset(map(type, values)) and _IMMUTABLE.issuperset(map(type, p.values())):
        if len(_PREPARED) >= 64:
            _PREPARED.clear()
        _PREPARED[key] = (names, values, dict(p))
    return p


#: One configuration's prepared mappings by the hash of (names, values given) → (names, values, mapping).
_PREPARED: dict[int, tuple] = {}
_IMMUTABLE = frozenset({float, int, bool, str, np.float64, np.int64, np.bool_})


def _prepare(params: Mapping[str, object], rows=None) -> dict:
    """:func:`prepare`, computed."""
    p = _encoded(params)
    if "workload.io_stack" in p and "workload.iodepth" in p and np.any(p["workload.io_stack"] == _PSYNC):
        from .drive import in_flight_depth  # one I/O in flight per job on a synchronous stack

        p["workload.iodepth"] = in_flight_depth(p["workload.iodepth"], p["workload.io_stack"])
    if "switch.model" in p:
        p["attach.switch"] = (p["switch.model"] != 0).astype(float)  # code 0 = none
    if "pcie.flit" in p:
        p["pcie.flit_tlp_fraction"] = _FLIT[p["pcie.flit"].astype(int)]
    if "fabric.transport" in p:
        t = p["fabric.transport"]
        p["fabric.present"] = (t != _NONE).astype(float)
        p["fabric.line_bytes_per_s"] = p["fabric.ports"] * p["fabric.line_rate_bits_per_s"] / 8.0
        p["fabric.initiator_bytes_per_s"] = p["fabric.initiator_bits_per_s"] / 8.0
        if np.any(t != _NONE):
            p["fabric.payload_per_packet_bytes"], p["fabric.packet_overhead_bytes"] = _per_row(
                eth.packet_geometry, (t == _TCP, t == _IB, p["fabric.eth_mtu"], p["fabric.roce_mtu"], p["fabric.ipv6"],
                                      p["fabric.vlan"]), rows)
        else:
            p["fabric.payload_per_packet_bytes"] = p["fabric.packet_overhead_bytes"] = np.float64(np.nan)
    _beyond_links(p)
    for k in _DERIVED:  # what was derived from scalars by array functions: 0-d arrays → numpy scalars
        v = p.get(k)
        if type(v) is np.ndarray and v.ndim == 0:
            p[k] = v[()]
    return p


def _per_row(f, args: tuple, rows) -> tuple:
    """``f(*args)`` for an elementwise ``f`` returning arrays: where ``args`` are one number or one entry per
    configuration and ``rows`` (classes of identical configurations, as :func:`prepare` takes them) is given,
    computed once per class and gathered; else directly."""
    if rows is not None:
        cls, rep = rows
        size = (cls.shape[0],)
        if all(np.ndim(a) == 0 or (type(a) is np.ndarray and a.shape == size) for a in args) \
                and any(np.ndim(a) for a in args):
            return tuple(out.take(cls) for out in f(*(a[rep] if np.ndim(a) else a for a in args)))
    return f(*args)


#: Entries :func:`prepare` may derive.
_DERIVED = ("attach.switch", "pcie.flit_tlp_fraction", "fabric.present", "fabric.line_bytes_per_s",
            "fabric.initiator_bytes_per_s", "fabric.payload_per_packet_bytes", "fabric.packet_overhead_bytes",
            "share.cycles_per_io", "share.cycles_per_byte", "cpu.cycles_per_host_io")
_NUMBERS = frozenset({float, int, bool, np.float64, np.int64, np.bool_})


def _encoded(params: Mapping[str, Any]) -> dict:
    """:func:`~nvmemodel.parameters.encode` for one configuration's scalars without 0-d arrays: a number as
    ``numpy.float64`` (encode's ``np.asarray(value, dtype=float)``, unwrapped), a categorical name as the
    ``numpy.float64`` of its code (what its ``check`` returns for one name, unwrapped; an unknown name raises
    there); everything else — arrays, other objects — through encode itself, 0-d results unwrapped."""
    p: dict[str, Any] = {}  # numbers as numpy.float64, arrays as encode gives them
    rest: dict[str, Any] = {}
    for name, value in params.items():
        if type(value) in _NUMBERS:
            p[name] = np.float64(value)
        elif type(value) is str and (param := PARAMETERS.get(name)) is not None and param.kind == "categorical":
            p[name] = np.float64(param.code(value))
        else:
            p[name] = rest[name] = value
    if rest:
        for name, v in encode(rest).items():
            p[name] = v[()] if v.ndim == 0 else v
    return p


def _beyond_links(p: dict) -> None:
    """Derived entries of the layers above the PCIe links (docs/physics.md §12), in place.

    ``share.cycles_per_io`` / ``share.cycles_per_byte`` NaN → the protocol's defaults; and
    ``cpu.cycles_per_host_io``: the host CPU's cycles per host I/O — the stack's, plus the RAID layer's
    where a RAID level is set, plus ``cpu.cycles_per_byte × S`` — added only where one of those is in use,
    so that topologies without them compute exactly what they did.
    """
    from .components import everywhere

    if "share.protocol" in p and "share.cycles_per_io" in p and not everywhere(p["share.protocol"], 0.0):
        from .sharing import protocol_defaults

        cyc, cpb, _, _ = protocol_defaults(p["share.protocol"], p.get("workload.read_fraction", 1.0))
        p["share.cycles_per_io"] = np.where(np.isnan(p["share.cycles_per_io"]), cyc, p["share.cycles_per_io"])
        p["share.cycles_per_byte"] = np.where(np.isnan(p["share.cycles_per_byte"]), cpb, p["share.cycles_per_byte"])
    if "host.cycles_per_io" not in p:
        return
    extra = None
    if "raid.level" in p and "raid.cycles_per_io" in p and not everywhere(p["raid.level"], 0.0) \
            and not everywhere(p["raid.cycles_per_io"], 0.0):
        extra = np.where(p["raid.level"] != _RAID_NONE, p["raid.cycles_per_io"], 0.0)
    if "cpu.cycles_per_byte" in p and not everywhere(p["cpu.cycles_per_byte"], 0.0):
        per_byte = p["cpu.cycles_per_byte"] * p["workload.block_size"]
        extra = per_byte if extra is None else extra + per_byte
    if extra is not None:
        p["cpu.cycles_per_host_io"] = p["host.cycles_per_io"] + extra
