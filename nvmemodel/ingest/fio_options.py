"""fio job options → table fields, shared by the JSON, terse and normal-output readers.

fio echoes the options it was given (``job options``/``global options`` in JSON, the first
line per job in normal output) but never its defaults; those are filled from
:data:`~nvmemodel.ingest.schema.FIO_DEFAULTS` and named in the ``defaulted`` column.
"""

from __future__ import annotations

import re

from ..errors import IngestError, UnitError
from ..units import parse_block_size
from .schema import FIO_DEFAULTS

_READS = {"read": 1.0, "randread": 1.0, "write": 0.0, "randwrite": 0.0, "trim": 0.0, "randtrim": 0.0,
          "trimwrite": 0.0, "randtrimwrite": 0.0}
_MIXED = {"rw", "readwrite", "randrw"}
_RANDOM = {"randread", "randwrite", "randrw", "randtrim", "randtrimwrite"}
_FIO_PATTERN_ALIASES = {"readwrite": "rw", "randomread": "randread", "randomwrite": "randwrite"}


def split_filenames(value: str | None) -> list[str]:
    """fio ``filename=a:b:c`` → ['a', 'b', 'c'] (a ``\\:`` is a literal colon, as on Windows)."""
    if not value:
        return []
    parts = re.split(r"(?<!\\):", value)
    return [p.replace("\\:", ":") for p in parts if p]


def _parse_bs_field(text: str, path, field: str) -> float | None:
    """One bs entry: '4k' → 4096; a range '4k-64k' → None (use the measured mean)."""
    text = text.strip()
    if not text:
        return None
    if "-" in text[1:]:
        return None
    try:
        return parse_block_size(text)
    except UnitError:
        raise IngestError(path, f"option {field}={text!r}: expected a block size such as 4k or 128k") from None


def block_sizes(opts: dict, path) -> dict[str, float | None]:
    """Per-direction block size from ``bs``/``blocksize`` (``bs=4k,8k`` = read,write[,trim]).

    None means "not fixed or not given" (ranges, ``bssplit``, an fio that echoes no options):
    the caller then uses the measured mean, io_bytes / ios.
    """
    raw = opts.get("bs", opts.get("blocksize"))
    if raw is None:
        return {d: None for d in ("read", "write", "trim")}
    parts = str(raw).split(",")
    sizes = [_parse_bs_field(p, path, "bs") for p in parts]
    read = sizes[0]
    write = sizes[1] if len(sizes) > 1 and parts[1].strip() else read
    trim = sizes[2] if len(sizes) > 2 and parts[2].strip() else write
    return {"read": read, "write": write, "trim": trim}


def _as_int(value, path, field: str) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise IngestError(path, f"option {field}={value!r}: expected an integer") from None


def workload_fields(opts: dict, path, *, echoed: bool = True) -> tuple[dict, list[str]]:
    """Pattern, read/random fraction, iodepth, numjobs, ioengine, direct, targets from options.

    Returns (fields, names of fields filled from fio defaults). With ``echoed=False`` (an old
    fio that printed no options at all) nothing is defaulted: the options are unknown, not unset.
    """
    if not echoed:
        return {}, []
    defaulted: list[str] = []
    rw = opts.get("rw", opts.get("readwrite"))
    if rw is None:
        rw = FIO_DEFAULTS["pattern"]
        defaulted.append("pattern")
    rw = str(rw).split(":")[0].strip().lower()  # rw=randread:8 (offset modifier)
    rw = _FIO_PATTERN_ALIASES.get(rw, rw)
    if rw in _MIXED:
        if "rwmixread" in opts:
            read_fraction = _as_int(opts["rwmixread"], path, "rwmixread") / 100
        elif "rwmixwrite" in opts:
            read_fraction = 1 - _as_int(opts["rwmixwrite"], path, "rwmixwrite") / 100
        else:
            read_fraction = 0.5  # fio default rwmixread=50
            defaulted.append("read_fraction")
    elif rw in _READS:
        read_fraction = _READS[rw]
    else:
        raise IngestError(path, f"option rw={rw!r}: expected one of fio's patterns "
                                f"({', '.join(sorted(set(_READS) | _MIXED))})")
    fields = {"pattern": rw, "read_fraction": read_fraction, "random_fraction": 1.0 if rw in _RANDOM else 0.0}
    for name, key in (("iodepth", "iodepth"), ("numjobs", "numjobs")):
        if key in opts:
            fields[name] = _as_int(opts[key], path, key)
        else:
            fields[name] = FIO_DEFAULTS[name]
            defaulted.append(name)
    if "ioengine" in opts:
        fields["ioengine"] = str(opts["ioengine"])
    else:
        fields["ioengine"] = FIO_DEFAULTS["ioengine"]
        defaulted.append("ioengine")
    if "direct" in opts:
        fields["direct"] = str(opts["direct"]).strip() not in ("0", "false", "")
    elif "buffered" in opts:
        fields["direct"] = str(opts["buffered"]).strip() in ("0", "false")
    else:
        fields["direct"] = FIO_DEFAULTS["direct"]
        defaulted.append("direct")
    targets = split_filenames(opts.get("filename"))
    if targets:
        fields["targets"] = ";".join(targets)
        fields["target_count"] = len(targets)
    return fields, defaulted
