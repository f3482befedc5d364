"""Units at the edges: parse and format quantities; inside, everything is SI.

Inside nvmemodel every quantity is a float (or numpy array) in SI base units:
bytes, seconds, bytes per second, I/O per second. Strings such as ``"6200 MB/s"``,
``"80.41GiB/s"``, ``"100Gb/s"``, ``"15.07 µs"`` or ``"2811K"`` are converted
here and only here.

Decimal and binary prefixes are never confused:

========  =================  ========================================
prefix    factor             used for
========  =================  ========================================
k, K      1e3                ``kB``, ``KB/s``, ``Kb/s`` (decimal)
Ki        2**10              ``KiB``, ``KiB/s``
M / Mi    1e6 / 2**20        ``MB/s`` vs ``MiB/s``
G / Gi    1e9 / 2**30        ``GB/s`` vs ``GiB/s``; ``Gb/s`` is *bits*
========  =================  ========================================

Block sizes are the one exception storage tools agree on: ``4K``, ``4k``,
``4KB`` and ``4KiB`` all mean 4096 bytes as a *block size* (fio, IOmeter and
every whitepaper use them so). :func:`parse_block_size` applies that
convention; :func:`parse_bytes` does not.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, overload

from .errors import UnitError

if TYPE_CHECKING:  # numpy is not imported here (import nvmemodel stays light)
    import numpy as np

__all__ = [
    "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB",
    "parse_bytes", "parse_block_size", "parse_bandwidth", "parse_time",
    "parse_count", "parse_frequency", "parse_quantity", "convert", "format_bandwidth", "format_iops",
]

KB, MB, GB, TB = 1e3, 1e6, 1e9, 1e12
KiB, MiB, GiB, TiB = 2.0**10, 2.0**20, 2.0**30, 2.0**40

_DECIMAL = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_BINARY = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}
_TIME = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "usec": 1e-6,
         "msec": 1e-3, "ns": 1e-9, "nsec": 1e-9, "sec": 1.0, "min": 60.0, "h": 3600.0}

_NUM = r"(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
_QTY = re.compile(
    _NUM + r"\s*(?P<prefix>Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?\s*"
    r"(?P<unit>B|b|bit|bits|byte|bytes|bps|Bps|T/s|GT/s|IOPS|IO/s|)?"
    r"(?P<per>/s|ps|/sec)?\s*$"
)

# Canonical unit names accepted by :func:`convert`, with their size in SI base units.
_UNITS: dict[str, tuple[float, str]] = {}
for _p, _f in {**_DECIMAL, **_BINARY}.items():
    _UNITS[f"{_p}B"] = (_f, "bytes")
    _UNITS[f"{_p}B/s"] = (_f, "bytes/s")
    if _p in _DECIMAL:
        _UNITS[f"{_p}b/s"] = (_f / 8.0, "bytes/s")
        _UNITS[f"{_p}IOPS"] = (_f, "1/s")
for _t, _f in _TIME.items():
    _UNITS[_t] = (_f, "s")


def _match(text: str, what: str):
    if not isinstance(text, str):
        raise UnitError(f"{what}: expected a string such as '6200 MB/s', got {text!r}")
    m = _QTY.match(text.strip().replace(",", ""))
    if m is None:
        raise UnitError(f"{what}: cannot parse {text!r}")
    return m


def _prefix_factor(prefix: str | None) -> float:
    prefix = prefix or ""
    return _BINARY[prefix] if prefix in _BINARY else _DECIMAL[prefix]


def parse_bytes(text: str | float) -> float:
    """Parse a size in bytes: ``"4KiB"`` → 4096.0, ``"960GB"`` → 9.6e11.

    Decimal prefixes are decimal here (``"4KB"`` → 4000.0); use
    :func:`parse_block_size` for I/O sizes written the storage way.
    A bare number is taken as bytes.
    """
    if isinstance(text, (int, float)):
        return float(text)
    m = _match(text, "size")
    unit = m["unit"] or "B"
    if m["per"] or unit not in ("B", "byte", "bytes"):
        raise UnitError(f"size: {text!r} is not a number of bytes (use B, KB, KiB, ...)")
    return float(m["num"]) * _prefix_factor(m["prefix"])


def parse_block_size(text: str | float) -> float:
    """Parse an I/O block size in bytes; K/M/G are binary here (``"4K"`` → 4096.0).

    fio, IOmeter and vendor papers all write ``4K``/``4KB``/``128KB`` for
    4096 and 131072 bytes; this function follows them. A bare number is bytes.
    """
    if isinstance(text, (int, float)):
        return float(text)
    m = _match(text, "block size")
    unit = m["unit"] or "B"
    if unit in ("b", "bit", "bits") and not m["per"]:  # '4kb': a lower-case b is bits, never a block size
        prefix = (m["prefix"] or "")[:1].upper()
        binary = (m["prefix"] or "").endswith("i")
        bits = ({"K": "kibi", "M": "mebi", "G": "gibi", "T": "tebi"} if binary else
                {"K": "kilo", "M": "mega", "G": "giga", "T": "tera"}).get(prefix, "") + "bits"
        size = f"{m['num']}{prefix}"
        raise UnitError(f"block size: {text!r} is not a size: a lower-case 'b' means bits ({text} = {m['num']} "
                        f"{bits}); did you mean {size}{'i' * binary}B or {size} (bytes)?")
    if m["per"] or unit not in ("B", "byte", "bytes"):
        raise UnitError(f"block size: {text!r} is not a size (e.g. '4K', '128KiB')")
    prefix = m["prefix"] or ""
    factor = _BINARY.get(prefix) or _BINARY.get(prefix.upper() + "i", 1.0)
    if prefix == "":
        factor = 1.0
    return float(m["num"]) * factor


def parse_bandwidth(text: str | float) -> float:
    """Parse a data rate to bytes/s.

    ``"6200 MB/s"`` → 6.2e9, ``"80.41GiB/s"`` → 80.41·2**30, ``"100Gb/s"`` and
    ``"100 Gbps"`` → 1.25e10 (lower-case ``b`` is bits). A bare number is bytes/s.
    """
    if isinstance(text, (int, float)):
        return float(text)
    m = _match(text, "bandwidth")
    unit, per = m["unit"], m["per"]
    factor = _prefix_factor(m["prefix"])
    if unit in ("bps",) or (unit in ("b", "bit", "bits") and per):
        return float(m["num"]) * factor / 8.0
    if unit in ("Bps",) or (unit in ("B", "byte", "bytes") and per):
        return float(m["num"]) * factor
    raise UnitError(f"bandwidth: {text!r} is not a data rate (e.g. '6200 MB/s', '100 Gb/s')")


def parse_time(text: str | float) -> float:
    """Parse a duration to seconds: ``"15.07 µs"`` → 1.507e-05. A bare number is seconds."""
    if isinstance(text, (int, float)):
        return float(text)
    s = text.strip()
    m = re.match(_NUM + r"\s*(?P<unit>[a-zµμ]+)?\s*$", s)
    if m is None or (m["unit"] or "s") not in _TIME:
        raise UnitError(f"time: cannot parse {text!r} (e.g. '200us', '1.5 ms')")
    return float(m["num"]) * _TIME[m["unit"] or "s"]


def parse_count(text: str | float) -> float:
    """Parse a count or rate with decimal prefixes: ``"2811K"`` → 2.811e6, ``"1.3 M IOPS"``."""
    if isinstance(text, (int, float)):
        return float(text)
    m = _match(text, "count")
    if m["prefix"] in _BINARY or (m["unit"] or "IOPS") not in ("IOPS", "IO/s", ""):
        raise UnitError(f"count: {text!r} is not a decimal count (e.g. '2811K', '1.3M')")
    return float(m["num"]) * _prefix_factor(m["prefix"])


def parse_frequency(text: str | float) -> float:
    """Parse a frequency to Hz: ``"3GHz"`` → 3e9, ``"2.25 GHz"``, ``"800 MHz"``. A bare number is Hz."""
    if isinstance(text, (int, float)):
        return float(text)
    m = re.match(_NUM + r"\s*(?P<prefix>[kKMGT])?(?P<unit>Hz)?\s*$", text.strip())
    if m is None or (m["prefix"] and not m["unit"]):
        raise UnitError(f"frequency: cannot parse {text!r} (e.g. '3GHz', '2.25 GHz')")
    return float(m["num"]) * _DECIMAL[m["prefix"] or ""]


def parse_quantity(text: str, kind: str) -> float:
    """Dispatch to the parser for ``kind`` in {bytes, block_size, bandwidth, time, count, frequency}."""
    parsers = {"bytes": parse_bytes, "block_size": parse_block_size, "frequency": parse_frequency,
               "bandwidth": parse_bandwidth, "time": parse_time, "count": parse_count}
    try:
        return parsers[kind](text)
    except KeyError:
        raise UnitError(f"unknown quantity kind {kind!r}; expected one of {sorted(parsers)}") from None


@overload
def convert(value: float, unit: str, *, to_si: bool = False) -> float: ...
@overload
def convert(value: np.ndarray, unit: str, *, to_si: bool = False) -> np.ndarray: ...


def convert(value: float | np.ndarray, unit: str, *, to_si: bool = False) -> float | np.ndarray:
    """Express an SI value in ``unit`` (or, with ``to_si=True``, the reverse).

    >>> convert(86.34e9, "GiB/s")  # doctest: +ELLIPSIS
    80.41...
    >>> convert(100, "Gb/s", to_si=True)
    12500000000.0
    """
    try:
        factor, _ = _UNITS[unit]
    except KeyError:
        raise UnitError(f"unknown unit {unit!r}; known: {', '.join(sorted(_UNITS))}") from None
    return value * factor if to_si else value / factor


def format_bandwidth(bytes_per_s: float, unit: str = "GB/s", digits: int = 2) -> str:
    """Format a rate given in bytes/s, e.g. ``format_bandwidth(6.2e9, "MB/s")`` → ``'6200.00 MB/s'``."""
    return f"{convert(bytes_per_s, unit):.{digits}f} {unit}"


def format_iops(iops: float) -> str:
    """Format an I/O rate with a decimal prefix: ``2.811e6`` → ``'2.81 M IOPS'``; beyond the prefixes, with an
    exponent: ``1e30`` → ``'1e+30 IOPS'``."""
    if abs(iops) >= 1e12:
        return f"{iops:.3g} IOPS"
    for factor, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
        if abs(iops) >= factor:
            return f"{iops / factor:.2f} {prefix} IOPS"
    return f"{iops:.0f} IOPS"
