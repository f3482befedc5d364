"""How the fit's texts write numbers: y values in the unit a planner reads, x values in full, parameters with
their units. Below every module that writes sentences (explain, claims, sentences, plots), so none imports another
for its number format."""

from __future__ import annotations

import numpy as np

from ..units import format_iops

__all__ = ["fmt_y", "span"]


def fmt_y(value: float, unit: str) -> str:
    """A measured or fitted y value in the unit a planner reads."""
    if not np.isfinite(value):
        return "∞" if value > 0 else "n/a"
    if unit == "B/s":
        if value >= 1e8:
            return f"{value / 1e9:.3g} GB/s ({value / 2**30:.3g} GiB/s)"
        # MiB/s beside MB/s here too: fio's --rate=20m is 20 MiB/s, which reads "21 MB/s" alone (QA s27 I4)
        return f"{value / 1e6:.3g} MB/s ({value / 2**20:.3g} MiB/s)" if value > 0 else "0 B/s"
    if unit == "1/s":
        return format_iops(value)
    if unit == "s":
        if value >= 1.0:  # a seconds-long tail read "1.84 s", not "1.84e+03 ms" (round 14 RA's maxima)
            return f"{value:.3g} s"
        return f"{value * 1e3:.3g} ms" if value >= 1e-3 else f"{value * 1e6:.3g} µs"
    return f"{value:.4g} {unit}".strip()


def span(lo: str, hi: str, sep: str = "–") -> str:
    """A range as written, or its one value where both ends read the same ("1.00–1.00" is no range)."""
    return lo if lo == hi else f"{lo}{sep}{hi}"


def cpus_words(value: float | str, spec: str = ".3g") -> str:
    """A count of CPUs with its noun: "1 CPU", "1.94 CPUs" (round 16 VG d: fio's 1.00 CPU printed "1 CPUs")."""
    text = value if isinstance(value, str) else format(value, spec)
    return f"{text} CPU" if text in ("1", "1.0", "1.00") else f"{text} CPUs"


def counted(n: int, noun: str) -> str:
    """A count with its noun, singular for one: "1 point", "3 points" (not "1 point(s)")."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _fx(value: float) -> str:
    """An x value as written: whole numbers in full (a 1 MiB block is 1048576, not 1.04858e+06)."""
    v = float(value)
    return f"{v:.0f}" if np.isfinite(v) and v.is_integer() else f"{v:g}"


def _fmt_param(value: float, unit: str) -> str:
    if unit in ("B/s", "1/s", "s"):
        return fmt_y(value, unit)
    return f"{value:.4g}" + (f" {unit}" if unit not in ("", "1") else "")


#: the smallest p-value written as a number: below it a test's p is floating-point underflow of a tail, not a
#: measured probability ("p = 0" is printed precision, never a value: round 18 QE, r18 zcutils efa 1 worker qd)
P_FLOOR = 1e-6


def fmt_p(p: float) -> str:
    """A test's p-value as written, "p = 0.012" or "p < 1e-6" below :data:`P_FLOOR` (never "p = 0")."""
    if not np.isfinite(p):
        return "p n/a"
    return "p < 1e-6" if p < P_FLOOR else f"p = {p:.2g}"


def _r2(r2: float) -> str:
    if not np.isfinite(r2):
        return "n/a (y does not vary)"
    text = f"{r2:.4f}"
    return "0.0000" if text == "-0.0000" else text  # (a fit no better than the mean printed "R² = -0.0000")


def _unit(ident: str) -> str:
    from .ceiling import bounds_of, from_lmfit_name

    return "1" if ident == "sharpness" else bounds_of(from_lmfit_name(ident))[2]


def _count(v: float) -> str:
    """A count of I/Os with a decimal prefix: 7.74 M, 81.1 K."""
    for f, name in ((1e9, " G"), (1e6, " M"), (1e3, " K")):
        if v >= f:
            return f"{v / f:.3g}{name}"
    return f"{v:.0f}"


def xv(result, v) -> str:
    """An x value as written; block sizes in KiB/MiB (``result`` needs only ``.x``)."""
    v = float(v)
    if result.x in ("block_size_bytes",) and v >= 1024 and v % 1024 == 0:
        return f"{v / 2**20:g} MiB" if v >= 2**20 and v % 2**20 == 0 else f"{v / 1024:g} KiB"
    if result.x in ("block_size_bytes",) and 0 < v < 1024 and v == int(v):  # 512 B, not a bare "512" (review of r21)
        return f"{v:g} B"
    return _fx(v)


def xv_bytes(v: float) -> str:
    """A block size as the claims write it (4 KiB, 1 MiB)."""
    import types

    return xv(types.SimpleNamespace(x="block_size_bytes"), v)

