"""What may go into a fio job file: each value checked against what fio accepts for its option.

A job file is ``key=value`` lines read by fio's ini parser (fio 3.42 ``init.c``
``__parse_jobs_ini``, ``parse.c`` ``strip_blank_end``), which gives these characters a meaning in a
value, so a user-typed value holding one could change the job rather than name a thing:

* a line break (``\\n``, ``\\r``) starts a new line, i.e. a new option (``exec=…``, ``include …``, ``[job]``);
* ``;`` and ``#`` start a comment anywhere on a line: the rest of the value is silently dropped;
* ``${NAME}`` is replaced by an environment variable, and ``$pagesize``, ``$mb_memory``, ``$ncpus`` by
  numbers, with arithmetic handed to ``bc`` (``options.c`` ``fio_option_dup_subs``, ``bc_calc``);
* ``:`` separates several files in ``filename=`` (HOWTO, "filename"; an escaped ``\\:`` is a colon).

Only this module renders job-file lines (:func:`fio_line`): the option name comes from a fixed set,
and each value is checked by its option's rule — engine names from fio's own list, whole numbers in
fio's ranges, file names with colons escaped and nothing fio would read as syntax — whoever calls,
CLI or Python API. ``=`` is refused in file names too: it is fio's option separator, and a path
holding one is far more often a smuggling attempt than a real file.
"""

from __future__ import annotations

import math
import os
import re
import stat

from ..errors import ParameterError

#: fio engines that complete each I/O before submitting the next, so one I/O is in flight per job whatever
#: ``iodepth`` says (fio(1), iodepth: "increasing iodepth beyond 1 will not affect synchronous ioengines"). The list
#: is every engine whose ``ioengine_ops.flags`` carry ``FIO_SYNCIO`` in fio's ``engines/*.c`` (read at fio commit
#: f5344384, Aug 2026: sync.c, mmap.c, splice.c, net.c, cpu.c, exec.c, falloc.c, ftruncate.c, fileoperations.c,
#: e4defrag.c, dev-dax.c, libpmem.c, page_fault.c, mtd.c, libzbc.c, glusterfs_sync.c, ime.c, libhdfs.c, libiscsi.c,
#: http.c, libcufile.c, libhipfile.c), less two: ``sg`` (FIO_SYNCIO, but it queues asynchronously on a /dev/sg node
#: with direct=0, engines/sg.c's header) and ``null`` (synchronous only at iodepth=1, engines/null.c ``null_init``).
#: Set after round 10 was read: the net and splice engines were read at their iodepth (r10_dgfiobench_native-…, HA;
#: r10_here-splice_tmpfs_seqread_bs_repeats, HE).
SYNC_ENGINES = frozenset({
    "sync", "psync", "vsync", "pvsync", "pvsync2", "mmap", "splice", "net", "netsplice", "cpuio", "exec", "falloc",
    "ftruncate", "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete", "e4defrag", "dev-dax",
    "libpmem", "page_fault", "mtd", "libzbc", "gfapi", "ime_psync", "ime_psyncv", "libhdfs", "libiscsi", "http",
    "libcufile", "libhipfile"})
#: fio engines whose I/O touches no storage at all: of the engines fio flags ``FIO_DISKLESSIO`` (engines/*.c, same
#: commit) those that move data only through memory, a network socket or the CPU — ``null`` (completes each I/O at
#: once), ``cpuio`` and ``exec`` (burn CPU, run a program; also ``FIO_NOIO``), ``net``/``netsplice`` (TCP/UDP messages,
#: engines/net.c), ``rdma`` (RDMA transfers between two hosts' memory, engines/rdma.c) and ``page_fault`` (anonymous
#: memory, engines/page_fault.c). The other FIO_DISKLESSIO engines (nbd, nfs, rados, libiscsi, gfapi, http, xnvme,
#: libblkio …) reach storage fio cannot see as a local disk, so they are not here.
NO_STORAGE_ENGINES = frozenset({"null", "cpuio", "exec", "net", "netsplice", "rdma", "page_fault"})
#: fio engines that reach the device around the kernel's page cache and block layer, so ``direct`` means nothing for
#: them and fio's disk statistics (kept per block device) stay empty: ``io_uring_cmd`` (NVMe pass-through commands,
#: "only works with NVMe character device (/dev/ngXnY)", fio's HOWTO.rst at commit f5344384, engines/io_uring.c) and
#: ``spdk``/``spdk_bdev`` (SPDK's user-space NVMe driver and bdev layer, loaded by fio as an external engine from SPDK's
#: own fio_plugin; fio's HOWTO names SPDK among xnvme's user-space back ends). Not here: ``xnvme`` and ``libblkio``,
#: whose back end (io_uring or libaio on a block device, or a user-space driver) decides; ``sg``, which takes a block
#: device too (HOWTO: "either block or character devices"). Those bypass only on a character target
#: (:data:`PASSTHROUGH_TARGET`). Set after round 13 was read: r13_krien-* (spdk) and r13_confznspp_* (io_uring_cmd),
#: told "files on an unknown layer" and "buffered I/O … page cache" (classes QB, PA).
BYPASS_ENGINES = frozenset({"io_uring_cmd", "spdk", "spdk_bdev"})
#: fio engines that move no data: each "I/O" is one file-system metadata call (open(O_CREAT)+close, stat, unlink,
#: mkdir, rmdir …), fio's ``queue`` completing it untouched — the engines fio flags ``FIO_FAKEIO`` in
#: engines/fileoperations.c (filecreate.c, filestat.c, filedelete.c in older fio). ``direct`` means nothing for them and
#: no page cache holds their data (set after round 13 was read: r13_here-meta_tmpfs_filecreate_numjobs_repeats, PE).
METADATA_ENGINES = frozenset({"filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete"})
#: targets that are such a path whatever the engine: an NVMe generic character node (/dev/ngXnY) or a SCSI generic one
#: (/dev/sgN), neither a block device with a page cache, or an SPDK transport ID (``trtype=PCIe traddr=…``)
PASSTHROUGH_TARGET = r"^/dev/ng\d+n\d+$|^/dev/sg\d+$|^trtype="

__all__ = ["BYPASS_ENGINES", "FIO_ENGINES", "MAX_FIO_JOBS", "METADATA_ENGINES", "NO_STORAGE_ENGINES", "PASSTHROUGH_TARGET", "REFUSED_ENGINES", "RW_PATTERNS", "check_ioengine", "check_steady_state",
           "check_target", "fio_line", "is_raw_device"]

#: fio ``rw=`` values (HOWTO, "readwrite"; ``rw`` and ``readwrite`` are the same mix)
RW_PATTERNS = ("read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim",
               "trimwrite")
#: ``ioengine=`` names fio knows: the ``posval`` list of the ``ioengine`` option in fio 3.42 ``options.c``
#: plus the names engines register in ``engines/*.c`` (``io_uring_cmd``, ``libblkio`` …) and the
#: filesystem-operation engines of ``engines/fileoperations.c``.
FIO_ENGINES = frozenset({
    "sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring", "io_uring_cmd", "posixaio",
    "solarisaio", "windowsaio", "rbd", "mmap", "splice", "netsplice", "sg", "null", "net", "cpuio", "rdma",
    "e4defrag", "falloc", "ftruncate", "gfapi", "gfapi_async", "libhdfs", "ime_psync", "ime_psyncv", "ime_aio",
    "dev-dax", "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete", "external",
    "libpmem", "http", "nbd", "dfs", "nfs", "xnvme", "libblkio", "libcufile", "libhipfile", "libiscsi", "libzbc",
    "mtd", "rados", "exec", "page_fault",
})
#: fio engines a sweep of drives never uses, and why (refused even though fio knows them).
REFUSED_ENGINES = {
    "external": "it loads a shared library named in the value (external:/path/lib.so): code, not a setting",
    "exec": "it runs a program instead of doing I/O",
    "cpuio": "it burns CPU and does no I/O on the targets",
}
#: fio refuses more jobs than this in one run (``REAL_MAX_JOBS`` in fio.h): drives × numjobs of a point.
MAX_FIO_JOBS = 4096
_UINT_MAX = 2**32 - 1  # fio's FIO_OPT_INT options (iodepth, numjobs) are C unsigned int
_ULL_MAX = 2**64 - 1  # size, bs (unsigned long long); runtime and ramp_time are microseconds in one
_PATH_MAX = 4096  # Linux PATH_MAX; fio's whole option must stay below OPT_LEN_MAX (8192, parse.h)
#: characters fio's job-file parser reads as syntax inside a value (see the module docstring)
_SYNTAX = {"\n": "a line break", "\r": "a line break", ";": "';' (fio: comment)", "#": "'#' (fio: comment)",
           "$": "'$' (fio: ${ENV} and $ncpus substitution)", "=": "'=' (fio: option separator)",
           "\\": "'\\' (fio: escape)"}


def check_ioengine(name: object) -> str:
    """``name`` if it is an fio engine a sweep can use; :class:`ParameterError` otherwise."""
    if not isinstance(name, str) or name not in FIO_ENGINES or name in REFUSED_ENGINES:
        why = f" ({REFUSED_ENGINES[name]})" if isinstance(name, str) and name in REFUSED_ENGINES else ""
        usable = sorted(FIO_ENGINES - set(REFUSED_ENGINES))
        raise ParameterError("ioengine", name, f"one of fio's engine names{why}: {', '.join(usable)}")
    return name


def check_target(target: object) -> str:
    """``target`` if it can be written as fio's ``filename=`` of one file; :class:`ParameterError` naming
    the character otherwise (line breaks and controls, ``; # $ = \\``, surrounding blanks, ``-``)."""
    if not isinstance(target, str) or not target:
        raise ParameterError("targets", target, "a file or device path")
    if len(target.encode("utf-8", "surrogateescape")) > _PATH_MAX:
        raise ParameterError("targets", target[:60] + "…", f"a path of at most {_PATH_MAX} bytes")
    for ch, what in _SYNTAX.items():
        if ch in target:
            raise ParameterError("targets", target, f"a path without {what}: fio would read it as job-file syntax")
    if not target.isprintable():
        raise ParameterError("targets", target, "a path of printable characters (no control characters)")
    if target != target.strip():
        raise ParameterError("targets", target, "a path without leading or trailing blanks (fio strips them)")
    if target == "-":
        raise ParameterError("targets", target, "a file or device ('-' is fio's stdin/stdout)")
    return target


#: fio's steady-state criteria (HOWTO, "steadystate"): the largest deviation from the window's mean of IOPS or
#: bandwidth, or the slope of their least-squares line (per second); the limit a number or a percentage of the mean
_STEADY_STATE = re.compile(r"(iops|bw)(_slope)?:([0-9]{1,6}(?:\.[0-9]{1,6})?)(%?)")


def check_steady_state(text) -> str:
    """``text`` if it is one of fio's steady-state criteria (``iops:20%``, ``iops_slope:0.5%``, ``bw:10000000``,
    ``bw_slope:1%``) with a limit > 0 (at most 100 for a percentage); :class:`ParameterError` otherwise."""
    m = _STEADY_STATE.fullmatch(text) if isinstance(text, str) else None
    if m is None or float(m.group(3)) <= 0 or (m.group(4) and float(m.group(3)) > 100):
        raise ParameterError("steady_state", text, "fio's criterion iops, iops_slope, bw or bw_slope, a colon and a "
                                                   "limit > 0 (a percentage of the window's mean up to 100%, or a "
                                                   "number): e.g. 'iops_slope:0.5%' or 'iops:20%'")
    return text


def is_raw_device(target: str) -> bool:
    """True for a block or character device; a path under ``/dev`` that does not exist here counts as one
    (the plan may run elsewhere), except files in ``/dev/shm`` (a tmpfs)."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        path = os.path.abspath(target)
        return path.startswith("/dev/") and not path.startswith("/dev/shm/")
    return stat.S_ISBLK(mode) or stat.S_ISCHR(mode)


def _whole(option: str, value, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ParameterError(option, value, f"a whole number from {lo:,} to {hi:,} (fio's range for {option})")
    return value


def _milliseconds(option: str, seconds, lo_ms: int) -> str:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
        raise ParameterError(option, seconds, "a finite time in seconds")
    ms = seconds * 1000  # (1e308 s is finite, its milliseconds are not: compared before rounding)
    if not lo_ms - 0.5 <= ms < _ULL_MAX // 1000 + 0.5:
        raise ParameterError(option, seconds, f"a time from {lo_ms} ms (whole milliseconds) up to fio's limit")
    ms = round(ms)
    if not lo_ms <= ms <= _ULL_MAX // 1000:
        raise ParameterError(option, seconds, f"a time from {lo_ms} ms (whole milliseconds) up to fio's limit")
    return f"{ms}ms"


def fio_line(option: str, value) -> str:
    """One ``option=value`` line of a job file, the value checked by the option's rule.

    Only the options nvmemodel writes are known; anything else is a :class:`ParameterError` (no
    user text can add an option)."""
    if option == "ioengine":
        text = check_ioengine(value)
    elif option == "filename":
        text = check_target(value).replace(":", "\\:")  # fio: each colon of a path escaped with '\'
    elif option in ("direct", "time_based", "group_reporting", "norandommap", "randrepeat"):
        text = str(_whole(option, int(value) if isinstance(value, bool) else value, 0, 1))
    elif option == "runtime":
        text = _milliseconds(option, value, 1)
    elif option == "ramp_time":
        text = _milliseconds(option, value, 0)
    elif option == "steadystate":
        text = check_steady_state(value)
    elif option in ("steadystate_duration", "steadystate_ramp_time"):
        # fio samples once a second for its steady-state check (steadystate.c ss_check_interval): whole seconds
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value % 1 \
                or not (1 if option == "steadystate_duration" else 0) <= value <= 10**7:
            raise ParameterError(option, value, "whole seconds (fio samples once a second), at most 10,000,000; the "
                                                "window at least 1 s")
        text = f"{int(value)}s"
    elif option == "loops":
        text = str(_whole(option, value, 1, _UINT_MAX))
    elif option in ("size", "bs"):
        text = str(_whole(option, value, 1, _ULL_MAX))
    elif option == "iodepth":
        text = str(_whole(option, value, 1, _UINT_MAX))
    elif option == "numjobs":
        text = str(_whole(option, value, 1, MAX_FIO_JOBS))
    elif option == "rwmixread":
        text = str(_whole(option, value, 0, 100))
    elif option == "rw":
        if value not in RW_PATTERNS:
            raise ParameterError("rw", value, f"one of fio's rw= values {', '.join(RW_PATTERNS)}")
        text = value
    elif option == "numa_cpu_nodes":
        text = str(_whole(option, value, 0, _UINT_MAX))
    elif option == "numa_mem_policy":
        text = f"bind:{_whole(option, value, 0, _UINT_MAX)}"
    else:
        raise ParameterError("option", option, "an fio option nvmemodel writes (ioengine, filename, rw, bs, …)")
    return f"{option}={text}"
