"""fio job options → table fields, shared by the JSON, terse and normal-output readers.

fio echoes the options it was given (``job options``/``global options`` in JSON, the first
line per job in normal output) but never its defaults; those are filled from
:data:`~nvmemodel.ingest.schema.FIO_DEFAULTS` and named in the ``defaulted`` column.
"""

from __future__ import annotations

import math
import re
import warnings

from ..errors import IngestError, IngestWarning
from .schema import FIO_DEFAULTS

_READS = {"read": 1.0, "randread": 1.0, "write": 0.0, "randwrite": 0.0, "trim": 0.0, "randtrim": 0.0,
          "trimwrite": 0.0, "randtrimwrite": 0.0}
_MIXED = {"rw", "readwrite", "randrw"}
_RANDOM = {"randread", "randwrite", "randrw", "randtrim", "randtrimwrite"}
_FIO_PATTERN_ALIASES = {"readwrite": "rw", "randomread": "randread", "randomwrite": "randwrite"}


def split_filenames(value: str | None) -> list[str]:
    """fio ``filename=a:b:c`` → ['a', 'b', 'c'] (a ``\\:`` is a literal colon, as on Windows).

    As fio's ``options.c`` ``get_next_str`` splits, on every platform: an unescaped ``:`` separates names,
    a Windows drive letter's too (``E:\\dir\\file`` is the two files ``E`` and ``\\dir\\file``; fio issue
    #1912, fio 3.40 on Windows; no WIN32 case up to fio 3.42) — see :func:`drive_letter_split`."""
    if not value:
        return []
    parts = re.split(r"(?<!\\):", value)
    return [p.replace("\\:", ":") for p in parts if p]


_DRIVE_SPLIT = re.compile(r"(?:^|(?<=[^\\]:))([A-Za-z]):(?=\\)")


def drive_letter_split(value: str | None) -> str | None:
    """A sentence if ``filename=`` holds a Windows drive letter with an unescaped colon (``E:\\dir\\f``), which
    fio splits into a file named after the letter in its working directory and ``\\dir\\f`` on that directory's
    drive (fio ``get_next_str``; fio issue #1912), else None."""
    m = _DRIVE_SPLIT.search(value) if value and ":" in value else None
    if m is None:
        return None
    return (f"filename={value!r} has the unescaped drive letter {m[1]!r}: fio splits names at every unescaped ':', "
            f"so the job used a file named {m[1]!r} in fio's working directory and the path after the colon on that "
            f"directory's drive, not {m[1]}: (fio issue #1912; fio reads a drive letter written {m[1]}\\:); "
            "targets and target_names count fio's files")


#: A job's files beyond which their names are not listed (``targets`` is then NA): a ``numjobs`` × ``nrfiles``
#: of this size is not a device-count sweep, and the names would be a row's longest text.
MAX_NAMED_FILES = 4096


def directory_files(opts: dict, jobname, numjobs: int, clone: int | None = None) -> list[str] | str:
    """The files fio creates for a job without ``filename=``: ``<directory>/<jobname>.<clone>.<file>`` for each of
    its ``numjobs`` clones (``clone``: only that clone's) and ``nrfiles`` files (fio ``init.c`` ``make_filename``
    with no ``filename_format``; ``filesetup.c`` ``add_file``/``set_name_idx``: with ``directory=a:b`` clone k's
    files go to the (k mod 2)-th directory). Returns a sentence saying why fio's output cannot say where it
    cannot (``filename_format``, ``opendir``, a job name that is a path, more than :data:`MAX_NAMED_FILES`
    files); call it only where ``filename`` is not set."""
    if "filename_format" in opts:
        return f"the job names its files by filename_format={opts['filename_format']!r}"
    if "opendir" in opts:
        return f"the job adds every file under opendir={opts['opendir']!r}, which fio's output does not list"
    name = "" if jobname is None else str(jobname)
    if not name or "/" in name or "\\" in name:  # (fio uses an existing device or file of the job's name as is)
        return f"the job's name {name!r} may itself be a file or device fio opens"
    raw = str(opts.get("nrfiles", opts.get("nr_files", "1"))).strip()
    if not raw.isdigit() or int(raw) < 1:
        return f"nrfiles={raw!r} is not a count of files"
    nrfiles = int(raw)
    clones = range(numjobs) if clone is None else (clone,)
    if len(clones) * nrfiles > MAX_NAMED_FILES:
        return f"the job has {len(clones) * nrfiles} files (numjobs x nrfiles), more than are listed"
    dirs = split_filenames(str(opts.get("directory", ""))) or [""]
    # (fio joins directory and name with its path separator, as written: set_name_idx "%s%c")
    return [f"{dirs[k % len(dirs)]}/{name}.{k}.{f}" if dirs[k % len(dirs)] else f"{name}.{k}.{f}"
            for k in clones for f in range(nrfiles)]


_SIZE = re.compile(r"0[xX](?P<hex>[0-9a-fA-F]+)|(?P<num>\d+)(?P<sfx>[a-zA-Z]*)")
_POWERS = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5}


def parse_fio_size(text: str, *, kb_base: int = 1024) -> float:
    """A size as fio parses it (``parse.c`` ``str_to_decimal``/``__get_mult_bytes``, unchanged since fio 2.17).

    The suffix is case-insensitive and matched by its start, as fio's ``strncmp`` does: one starting
    ``kib``/``mib``/``gib``/``tib``/``pib`` (``4KiB``, ``4kibibytes``) is the IEC unit **opposite** to
    ``kb_base`` (1000ⁿ under fio's default ``kb_base=1024``, 1024ⁿ under ``kb_base=1000``); any other starting
    ``k``/``m``/``g``/``t``/``p`` (``4k``, ``4kb``, ``4Ki``, ``1mi``) is ``kb_base``ⁿ — so ``4Ki`` is 4096 by
    default and ``4KiB`` is 4000 (measured with fio 3.33: io_bytes / total_ios; fio's HOWTO lists ``4Ki`` as
    4 KiB under ``kb_base=1000``, its code reads 4000). A bare number or one ending ``b``/``bytes`` is bytes,
    ``0x1000`` is hexadecimal (no suffix). Raises ValueError for what fio reads otherwise than it is written:
    a fraction (fio reads ``1.5k`` as 1), a blank before the suffix or number (``4 k`` is 4), a letter fio
    does not know (``4e`` is 4, no exabytes), a percentage. fio before 2.17 read ``kib`` as 1000 whatever
    ``kb_base``, and before 2.1 matched whole suffixes only (``4ki`` was 4): the callers prefer the measured
    mean size wherever it disagrees.
    """
    m = _SIZE.fullmatch(text.rstrip())  # (fio strips blanks after a value, not before: " 4k" is 4)
    if m is None:
        raise ValueError(text)
    if m["hex"] is not None:
        return float(int(m["hex"], 16))
    sfx = m["sfx"].lower()
    if sfx in ("", "b", "byte", "bytes"):
        return float(m["num"])
    if sfx[0] not in _POWERS:
        raise ValueError(text)
    iec = sfx[1:3] == "ib"
    base = (1024 if kb_base == 1000 else 1000) if iec else kb_base
    return float(int(m["num"]) * base ** _POWERS[sfx[0]])


def kb_base(opts: dict, path) -> int:
    """fio's ``kb_base`` option (1024 unless the job says 1000)."""
    value = str(opts.get("kb_base", "1024")).strip()
    if value not in ("1000", "1024"):
        raise IngestError(path, f"option kb_base={value!r}: expected 1000 or 1024")
    return int(value)


def _parse_bs_field(text: str, path, field: str, base: int) -> float | None:
    """One bs entry: '4k' → 4096; a range '4k-64k' → None (use the measured mean)."""
    text = text.strip()
    if not text:
        return None
    if "-" in text[1:] or ":" in text:
        return None
    try:
        value = parse_fio_size(text, kb_base=base)
    except ValueError:
        raise IngestError(path, f"option {field}={text!r}: expected a block size such as 4k, 4Ki, 128k or 1m (whole "
                                "numbers with a suffix fio knows; fio reads '1.5k' as 1, '4 k' and '4e' as 4)") from None
    if not value > 0 or value > 2**40:
        raise IngestError(path, f"option {field}={text!r}: expected a block size > 0 and at most 1 TiB")
    return value


def block_sizes(opts: dict, path) -> dict[str, float | None]:
    """Per-direction block size from ``bs``/``blocksize`` (``bs=4k,8k`` = read,write[,trim]).

    None means "not fixed or not given" (ranges, ``bssplit``, an fio that echoes no options):
    the caller then uses the measured mean, io_bytes / ios. Callers also prefer the measured
    mean wherever it disagrees with the option (fio's option order decides whether ``kb_base``
    applies to ``bs``; only the measurement says what fio really did).
    """
    raw = opts.get("bs", opts.get("blocksize"))
    if raw is None or "bssplit" in opts or "bsrange" in opts or "blocksize_range" in opts:
        return {d: None for d in ("read", "write", "trim", "mixed")}  # (mixed: unified_rw_reporting)
    key = (str(raw), str(opts.get("kb_base", "1024")))
    cached = _SIZES.get(key)
    if cached is None:
        base = kb_base(opts, path)
        parts = key[0].split(",")
        sizes = [_parse_bs_field(p, path, "bs", base) for p in parts]
        read = sizes[0]
        write = sizes[1] if len(sizes) > 1 and parts[1].strip() else read
        trim = sizes[2] if len(sizes) > 2 and parts[2].strip() else write
        cached = {"read": read, "write": write, "trim": trim, "mixed": read if read == write else None}
        if len(_SIZES) < 4096:  # a folder repeats a handful of bs= values: parse each once
            _SIZES[key] = cached
    return cached


_SIZES: dict[tuple[str, str], dict] = {}


def choose_block_size(option: float | None, io_bytes: float, ios: float, *, in_flight: float = 1.0) -> float:
    """The option's block size if the measurement agrees with it, else the measured mean size.

    They agree when ``io_bytes`` and ``ios × option`` differ by no more than the I/Os that can
    be in flight (``in_flight``: an interim ``--status-interval`` report counts issued I/Os
    whose bytes are not yet done).
    """
    measured = io_bytes / ios if ios > 0 and math.isfinite(io_bytes) else math.nan
    if option is None or not math.isfinite(option):
        return measured
    if math.isnan(measured) or abs(option * ios - io_bytes) <= option * (in_flight + 1e-6 * ios):
        return option
    return measured


#: Limits on integer options beyond which a value cannot be a real run (and would not fit Int64).
INT_LIMITS = {"iodepth": (1, 2**31), "numjobs": (1, 2**31), "rwmixread": (0, 100), "rwmixwrite": (0, 100),
              "percentage_random": (0, 100), "percentage_sequential": (0, 100), "iodepth_low": (0, 2**31),
              "iodepth_batch": (0, 2**31), "iodepth_batch_submit": (0, 2**31), "iodepth_batch_complete_min": (0, 2**31),
              "iodepth_batch_complete": (0, 2**31)}


def _as_int(value, path, field: str) -> int:
    lo, hi = INT_LIMITS.get(field, (0, 2**63 - 1))
    try:
        number = int(str(value).strip())
    except ValueError:
        raise IngestError(path, f"option {field}={value!r}: expected an integer") from None
    if not lo <= number <= hi:
        raise IngestError(path, f"option {field}={value!r}: expected an integer from {lo} to {hi}")
    return number


def _random_fraction(rw: str, opts: dict, path) -> float:
    """1 or 0 from the pattern; a random pattern's share from ``percentage_random`` (or
    ``percentage_sequential`` = 100 − it; fio HOWTO), one value or one per direction."""
    if rw not in _RANDOM:
        return 0.0
    key = next((k for k in ("percentage_random", "percentage_sequential") if k in opts), None)
    if key is None:
        return 1.0
    values = {_as_int(v, path, key) for v in str(opts[key]).split(",") if v.strip()}
    if len(values) != 1:  # different shares per direction: not one number for the workload
        return math.nan
    share = values.pop() / 100
    return share if key == "percentage_random" else 1.0 - share


def workload_fields(opts: dict, path, *, echoed: bool = True, warn: bool = True) -> tuple[dict, list[str]]:
    """Pattern, read/random fraction, iodepth, numjobs, ioengine, direct, targets from options.

    Returns (fields, names of fields filled from fio defaults). With ``echoed=False`` (an old
    fio that printed no options at all) nothing is defaulted: the options are unknown, not unset.
    ``warn=False``: the caller says :func:`drive_letter_split`'s sentence itself.
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
    fields = {"pattern": rw, "read_fraction": read_fraction, "random_fraction": _random_fraction(rw, opts, path)}
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
    drive = drive_letter_split(opts.get("filename")) if warn else None
    if drive is not None:
        warnings.warn(f"{path}: {drive}", IngestWarning, stacklevel=3)
    if targets and opts.get("directory"):  # fio opens <directory>/<filename>, an absolute filename too (filesetup.c
        # add_file: set_name_idx of the job, clone 0, whose files the clones share; measured with fio 3.33)
        first = split_filenames(str(opts["directory"]))[:1]
        targets = [f"{first[0]}/{t}" for t in targets] if first else targets
    if targets:
        fields["target_names"] = ";".join(targets)
        fields["targets"] = len(targets)
    return fields, defaulted


#: fio engines that have a ``hipri`` option (polled completions; fio 3.42 ``engines/io_uring.c`` for io_uring and
#: io_uring_cmd, ``engines/sync.c`` for pvsync2 only, ``engines/sg.c``, ``engines/libblkio.c``, ``engines/xnvme.c``)
HIPRI_ENGINES = frozenset({"io_uring", "io_uring_cmd", "pvsync2", "sg", "libblkio", "xnvme"})
#: fio engines that have a ``sqthread_poll`` option (a kernel thread polls the submission queue; the same files)
SQPOLL_ENGINES = frozenset({"io_uring", "io_uring_cmd", "xnvme"})
#: fio's own engines (the ``ioengine`` option's ``posval`` list in fio 3.42 ``options.c`` and the names engines
#: register in ``engines/*.c``): one of them without the option cannot have set it (fio refuses an option its
#: engine does not have: "Bad option"), so it is 0; an engine not listed (an external one) leaves it unknown
FIO_ENGINES = frozenset({
    "sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring", "io_uring_cmd", "posixaio",
    "solarisaio", "windowsaio", "rbd", "mmap", "splice", "netsplice", "sg", "null", "net", "cpuio", "rdma",
    "e4defrag", "falloc", "ftruncate", "gfapi", "gfapi_async", "libhdfs", "ime_psync", "ime_psyncv", "ime_aio",
    "dev-dax", "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete", "libpmem", "http",
    "nbd", "dfs", "nfs", "xnvme", "libblkio", "libcufile", "libiscsi", "libzbc", "mtd", "rados", "exec",
})
#: the job-option columns of :func:`engine_fields`, in the table's order
ENGINE_COLUMNS = ("hipri", "sqthread_poll", "iodepth_low", "iodepth_batch", "iodepth_batch_complete", "cpus_allowed")
#: the options each of those columns is read from (fio echoes an alias under the option's own name:
#: ``iodepth_batch_submit`` as ``iodepth_batch``, ``iodepth_batch_complete`` as ``iodepth_batch_complete_min``;
#: measured with fio 3.33); the depth marks are also fixed up from ``iodepth``
ENGINE_OPTIONS = {"hipri": ("hipri",), "sqthread_poll": ("sqthread_poll",),
                  "iodepth_low": ("iodepth_low", "iodepth"),
                  "iodepth_batch": ("iodepth_batch", "iodepth_batch_submit", "iodepth"),
                  "iodepth_batch_complete": ("iodepth_batch_complete_min", "iodepth_batch_complete"),
                  "cpus_allowed": ("cpus_allowed",)}



def allowed_cpu_count(spec) -> int | None:
    """How many CPUs fio's ``cpus_allowed`` names: a comma-separated list of CPU numbers and ``a-b`` ranges ("0",
    "0-3", "0,2,4-5"), parsed as fio's ``options.c`` ``set_cpus_allowed`` does (``strsep`` on ',' then on '-',
    each range inclusive); the union is counted once. None for anything else (a hex ``cpumask``, a NUMA string):
    no count is guessed."""
    if spec is None or not isinstance(spec, (str, int)) or isinstance(spec, bool):
        return None
    cpus: set[int] = set()
    for part in str(spec).strip().split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if m is None:
            return None
        lo, hi = int(m[1]), int(m[2] if m[2] is not None else m[1])
        if hi < lo:
            return None
        cpus.update(range(lo, hi + 1))
    return len(cpus) or None

def _flag(opts: dict, key: str, engines: frozenset, engine: str, path, *, bare_echoed: bool) -> int | None:
    """A flag option (fio ``FIO_OPT_STR_SET``) as 1/0: its value where given (fio ``parse.c``: a bare flag is 1,
    else the integer given, nonzero = set); where not given, 0 for a fio engine without the option, fio's 0 for
    one with it only if ``bare_echoed`` (the echo would show a bare flag), else unknown: fio's JSON leaves a bare
    ``--hipri`` / ``hipri`` line out of its job options (measured with fio 3.33), so its absence proves nothing."""
    if key in opts:
        text = str(opts[key]).strip()
        if text == "":
            return 1
        try:
            return int(int(text, 0) != 0)
        except ValueError:
            raise IngestError(path, f"option {key}={opts[key]!r}: expected 0 or 1 (a flag)") from None
    if engine in engines:
        return 0 if bare_echoed else None  # (fio's default 0: no .def in the engine's option table)
    return 0 if engine in FIO_ENGINES else None


def engine_fields(opts: dict, path, *, iodepth: int | None, bare_echoed: bool) -> dict:
    """The job options that say how a job submits and completes its I/O (:data:`ENGINE_COLUMNS`), from a
    job's complete echoed options (global and the job's own): ``hipri`` and ``sqthread_poll`` as 1/0 (see
    :func:`_flag`); ``iodepth_low``, ``iodepth_batch`` (``iodepth_batch_submit``) and ``iodepth_batch_complete``
    (``iodepth_batch_complete_min``) as fio runs them; ``cpus_allowed`` as given (None: not set). Defaults
    are fio's: ``iodepth_batch`` 1 and ``iodepth_batch_complete_min`` 1 (``options.c`` ``.def = "1"``),
    ``iodepth_low`` 0; then ``init.c`` ``fixup_options`` sets an ``iodepth_low`` or ``iodepth_batch`` of 0 or
    above ``iodepth`` to ``iodepth``. ``iodepth``: the job's (None: unknown, and so are the two it fixes up).
    Raises IngestError for a value fio would refuse."""
    engine = str(opts.get("ioengine", FIO_DEFAULTS["ioengine"])).strip()
    out: dict = {"hipri": _flag(opts, "hipri", HIPRI_ENGINES, engine, path, bare_echoed=bare_echoed),
                 "sqthread_poll": _flag(opts, "sqthread_poll", SQPOLL_ENGINES, engine, path, bare_echoed=bare_echoed)}
    for col, keys, default in (("iodepth_low", ("iodepth_low",), 0),
                               ("iodepth_batch", ("iodepth_batch", "iodepth_batch_submit"), 1),
                               ("iodepth_batch_complete", ("iodepth_batch_complete_min", "iodepth_batch_complete"), 1)):
        key = next((k for k in keys if k in opts), None)
        value = default if key is None else _as_int(opts[key], path, key)
        if col == "iodepth_batch_complete":
            out[col] = value
        else:
            out[col] = None if iodepth is None else (iodepth if value == 0 or value > iodepth else value)
    cpus = opts.get("cpus_allowed")
    out["cpus_allowed"] = None if cpus is None else str(cpus).strip()
    out[CPU_WORK_COLUMN] = cpu_work_options(opts)
    out[SERIAL_COLUMN] = serial_options(opts)
    return out


#: the column of :func:`cpu_work_options` (after :data:`ENGINE_COLUMNS` in the table)
CPU_WORK_COLUMN = "cpu_options"
#: fio options that add CPU work per I/O or per byte in the job's own thread (fio HOWTO, "Verification" and "Buffers
#: and memory"): ``verify`` checksums every block read (a write job's read-back too), ``refill_buffers`` refills the
#: buffer on every submit, ``buffer_compress_percentage`` and ``dedupe_percentage`` build buffers of that content
CPU_WORK_OPTIONS = ("verify", "refill_buffers", "buffer_compress_percentage", "dedupe_percentage")


def cpu_work_options(opts: dict) -> str | None:
    """The options of :data:`CPU_WORK_OPTIONS` a job set, as given ("verify=md5", ";"-joined), None where none is set:
    ``verify`` 0/null/none does no checksum (fio ``verify=null`` only pretends), a percentage of 0 builds nothing, a
    bare ``refill_buffers`` is set (fio ``parse.c``: a bare flag is 1)."""
    parts = []
    for key in CPU_WORK_OPTIONS:
        if key not in opts:
            continue
        value = str(opts[key]).strip()
        if key == "verify" and value.lower() in ("", "0", "null", "none"):
            continue
        if key != "verify" and value not in ("",) and value.rstrip("%").strip() in ("0", "0.0"):
            continue
        parts.append(key if value == "" else f"{key}={value}")
    return ";".join(parts) or None


#: the column of :func:`serial_options` (after :data:`CPU_WORK_COLUMN` in the table)
SERIAL_COLUMN = "serial_options"


def serial_options(opts: dict) -> str | None:
    """fio's options that serialise I/O, as given (";"-joined), None where none is set: ``lockfile`` other than
    ``none`` (fio HOWTO "lockfile": ``exclusive`` lets one job at a time do I/O to the file, ``readwrite`` many
    readers or one writer) and a nonzero ``serialize_overlap`` (in-flight I/Os that overlap wait for each other).
    Set after round 27 was read (r27_here-lockfile, ``lockfile=exclusive`` in every file, its jobs' share blamed on
    the host, IC)."""
    parts = []
    lock = str(opts.get("lockfile", "none")).strip().lower()
    if lock not in ("", "none"):
        parts.append(f"lockfile={lock}")
    overlap = str(opts.get("serialize_overlap", "0")).strip()
    if overlap not in ("0", "false"):
        parts.append("serialize_overlap" if overlap == "" else f"serialize_overlap={overlap}")
    return ";".join(parts) or None


#: fio options that pace a run (a rate cap, a think time, syncs) and the columns they fill
#: (end_fsync / fsync_on_close: a flush of every file when the job's writes end or as it closes, which fio counts in
#: the job's time; read after round 28 was read: r28_here-btrfszstd's end_fsync unread, ME)
PACING_OPTIONS = frozenset({"rate", "rate_iops", "thinktime", "fsync", "fdatasync", "end_fsync", "fsync_on_close"})
PACING_COLUMNS = ("rate_iops", "rate_bytes_per_s", "thinktime_s", "fsync_every", "fdatasync_every", "end_fsync")
#: fio's time suffixes (parse.c ``str_to_decimal`` for a time option), in seconds
_TIME_UNITS = {"ns": 1e-9, "nsec": 1e-9, "us": 1e-6, "usec": 1e-6, "ms": 1e-3, "msec": 1e-3, "s": 1.0, "sec": 1.0,
               "m": 60.0, "min": 60.0, "h": 3600.0, "hour": 3600.0, "d": 86400.0, "day": 86400.0}
_TIME = re.compile(r"\s*(?P<num>\d+(?:\.\d*)?|\.\d+)\s*(?P<sfx>[a-zA-Z]*)\s*")


def parse_fio_time(text: str, *, default_unit_s: float = 1e-6) -> float:
    """A time option as fio reads it, in seconds: a bare number is in ``default_unit_s`` (µs for
    ``thinktime``, fio HOWTO), else a suffix ``ns``, ``us``, ``ms``, ``s``, ``m``, ``h``, ``d``. Raises ValueError."""
    m = _TIME.fullmatch(text)
    if m is None:
        raise ValueError(text)
    sfx = m["sfx"].lower()
    if sfx and sfx not in _TIME_UNITS:
        raise ValueError(text)
    scale = _TIME_UNITS[sfx] if sfx else default_unit_s
    # (divided by 10**k below a second: 100 µs is 1e-4 exactly, as 100 × 1e-6 is not)
    return float(m["num"]) * scale if scale >= 1 else float(m["num"]) / round(1 / scale)


def _per_direction(value) -> dict[str, str | None]:
    """fio's ``read,write,trim`` values (as for ``bs``): one value is every direction's, a missing
    one repeats the last given, an empty one is unset (``rate=500k,`` caps only reads; fio HOWTO "rate")."""
    parts = [p.strip() for p in str(value).split(",")]
    return {d: (parts[i] if i < len(parts) else parts[-1]) or None for i, d in enumerate(("read", "write", "trim"))}


def pacing_fields(opts: dict, path) -> dict[str, dict]:
    """The pacing columns (:data:`PACING_COLUMNS`) a job's options set, per direction (read, write,
    trim, and mixed where read and write agree): ``rate_iops`` (1/s) and ``rate_bytes_per_s`` per job
    and direction as given (0: no cap), ``thinktime_s`` (s, a bare number is µs), ``fsync_every`` /
    ``fdatasync_every`` (writes per sync), ``end_fsync`` (1 where ``end_fsync`` or ``fsync_on_close`` is set,
    0 where either is given unset). Only what the options set; raises IngestError for a value
    fio would refuse."""
    out: dict[str, dict] = {"read": {}, "write": {}, "trim": {}}
    for key, col in (("rate_iops", "rate_iops"), ("rate", "rate_bytes_per_s")):
        if key in opts:
            for d, text in _per_direction(opts[key]).items():
                if text is None:
                    continue
                try:  # (an integer option: fio reads its size suffixes, check_str_bytes)
                    out[d][col] = parse_fio_size(text, kb_base=kb_base(opts, path))
                except ValueError:
                    raise IngestError(path, f"option {key}={opts[key]!r}: expected a number per direction such as "
                                            f"{'20000' if key == 'rate_iops' else '20m'} (read,write,trim)") from None
    shared: dict = {}
    if "thinktime" in opts:
        try:
            shared["thinktime_s"] = parse_fio_time(str(opts["thinktime"]))
        except ValueError:
            raise IngestError(path, f"option thinktime={opts['thinktime']!r}: expected a time such as 500 (µs) "
                                    "or 2ms") from None
    for key in ("fsync", "fdatasync"):
        if key in opts:
            shared[f"{key}_every"] = _as_int(opts[key], path, key)
    closing = [k for k in ("end_fsync", "fsync_on_close") if k in opts]
    if closing:  # (a bool option: fio reads 0 / false as unset)
        shared["end_fsync"] = int(any(str(opts[k]).strip().lower() not in ("0", "false", "") for k in closing))
    for fields in out.values():
        fields.update(shared)
    out["mixed"] = {c: v for c, v in out["read"].items() if out["write"].get(c) == v}
    return out
