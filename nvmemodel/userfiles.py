"""Reading a file a user named: only regular files, never more than a size limit, never a hang.

One helper for every place the command line (and the APIs behind it) reads a file the user typed:
a FIFO, a device, a socket or a folder where a file is expected is refused *before* it is opened
(opening a FIFO for reading waits for a writer forever; reading ``/dev/zero`` never ends), and a
regular file is read at most ``max_bytes`` (plus one byte, to tell "exactly the limit" from "more").
The file is opened with ``O_NONBLOCK`` and checked again on the open descriptor, so a path swapped
for a FIFO between the check and the open cannot hang either.

Errors are :class:`~nvmemodel.errors.ParameterError` naming the option (``what``), the path and what
was expected, so the CLI prints them as its one ``nvmemodel: error:`` line.
"""

from __future__ import annotations

import os
import pathlib
import stat
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeAlias

from .errors import ParameterError

if TYPE_CHECKING:  # pandas loads with the first table read
    import pandas as pd

#: A path as the user gives it.
UserPath: TypeAlias = "str | os.PathLike[str]"

__all__ = ["MAX_INPUT_BYTES", "check_input", "check_inputs", "check_output_folder", "kernel_state", "own_folder",
           "check_table", "parse_json", "read_input", "read_input_text", "read_table"]

#: Largest file read whole (64 MiB): result tables, plans, lspci dumps and label files are kilobytes
#: to a few MB; the limit is a bound on memory and time, not a format rule (``max_bytes=`` raises it).
MAX_INPUT_BYTES = 64 * 2**20


#: kernel pseudo-filesystems: their "files" are not files (sizes of 0 with endless content, reads that fail
#: or block) and walking them follows loops (/proc/self/root is "/")
_PSEUDO = ("/proc", "/sys")


def kernel_state(path: UserPath, folders: bool = False) -> str | None:
    """Why ``path`` is no user file, or None: it lies in /proc or /sys (after following links), or it is
    the root folder, which holds them (``folders``: it is to be walked). A folder walk calls this for
    each folder it enters, so a link into /proc inside a results folder is not followed."""
    real = os.path.realpath(path)
    for root in _PSEUDO:
        if real == root or real.startswith(root + "/"):
            return f"{root} holds kernel state, not files"
    if folders and real == "/":
        return "the root folder holds /proc and /sys: walking it would read kernel state"
    return None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def _stat(path: pathlib.Path, what: str, expected: str) -> os.stat_result:
    try:
        return path.stat()
    except FileNotFoundError:
        why = "a broken symbolic link" if path.is_symlink() else "no such file"
        raise ParameterError(what, str(path), f"{expected} ({why})") from None
    except OSError as exc:
        raise ParameterError(what, str(path), f"{expected} (cannot read it: {exc.strerror})") from None


def check_input(path: UserPath, *, what: str, folders: bool = False,
                max_bytes: int = MAX_INPUT_BYTES) -> pathlib.Path:
    """``path`` as a :class:`pathlib.Path` if it is a readable regular file of at most ``max_bytes``
    (or, with ``folders``, a readable folder); :class:`ParameterError` naming ``what`` otherwise.

    Nothing is opened: use it where an API reads the file itself (a folder walk, pandas)."""
    if not isinstance(path, (str, os.PathLike)) or not str(path) or "\x00" in str(path):
        raise ParameterError(what, path, "a file path")
    p = pathlib.Path(path)
    expected = "a regular file or a folder" if folders else "a regular file"
    st = _stat(p, what, expected)
    why = kernel_state(p, folders and stat.S_ISDIR(st.st_mode))
    if why:
        raise ParameterError(what, str(p), f"{expected} of your own ({why})")
    if stat.S_ISDIR(st.st_mode) and folders:
        if not os.access(p, os.R_OK | os.X_OK):
            raise ParameterError(what, str(p), f"{expected} you can read (this folder is not readable)")
        return p
    if not stat.S_ISREG(st.st_mode):
        raise ParameterError(what, str(p), f"{expected}, not {_kind(st.st_mode)}")
    if st.st_size > max_bytes:
        raise ParameterError(what, str(p), f"a file of at most {max_bytes:,} bytes (it has {st.st_size:,})")
    if not os.access(p, os.R_OK):
        raise ParameterError(what, str(p), f"{expected} you can read (permission denied)")
    return p


def check_inputs(paths: Iterable[UserPath], *, what: str, folders: bool = False,
                 max_bytes: int = MAX_INPUT_BYTES) -> list[pathlib.Path]:
    """:func:`check_input` for each of ``paths``."""
    return [check_input(p, what=what, folders=folders, max_bytes=max_bytes) for p in paths]


def read_input(path: UserPath, *, what: str, max_bytes: int = MAX_INPUT_BYTES,
               stdin: bool = False) -> bytes:
    """The bytes of the regular file ``path`` (at most ``max_bytes``); ``-`` reads standard input
    (bounded the same way) where ``stdin`` is allowed.

    Raises :class:`ParameterError` naming ``what`` for anything else: a missing file, a folder, a FIFO,
    a device, a socket, a file over the limit, an unreadable file.
    """
    if stdin and str(path) == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ParameterError(what, "-", f"at most {max_bytes:,} bytes on standard input")
        return data
    p = check_input(path, what=what, max_bytes=max_bytes)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise ParameterError(what, str(p), f"a regular file you can read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced between the check and the open
            raise ParameterError(what, str(p), f"a regular file, not {_kind(st.st_mode)}")
        try:
            data = fh.read(max_bytes + 1)
        except OSError as exc:
            raise ParameterError(what, str(p), f"a regular file you can read ({exc.strerror})") from None
    if len(data) > max_bytes:
        raise ParameterError(what, str(p), f"a file of at most {max_bytes:,} bytes (it grew past that while read)")
    return data


def read_input_text(path: UserPath, *, what: str, max_bytes: int = MAX_INPUT_BYTES,
                    stdin: bool = False) -> str:
    """:func:`read_input` decoded as UTF-8 (a byte-order mark is dropped); a file that is not UTF-8
    text (a binary file) is refused naming the first bad byte."""
    data = read_input(path, what=what, max_bytes=max_bytes, stdin=stdin)
    if b"\x00" in data[:8192]:
        raise ParameterError(what, str(path), "a text file (this one holds NUL bytes: binary)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParameterError(what, str(path), f"UTF-8 text (byte {exc.start} is not)") from None


def read_table(path: UserPath, *, what: str, max_bytes: int = MAX_INPUT_BYTES) -> pd.DataFrame:
    """A ``.csv`` or ``.parquet`` table (``nvmemodel ingest -o``) as a DataFrame, read through
    :func:`read_input`; a file pandas cannot parse is one :class:`ParameterError` naming the file."""
    import io

    import pandas as pd

    name = str(path)
    if not name.lower().endswith((".csv", ".parquet")):
        raise ParameterError(what, name, "a .csv or .parquet table")
    data = read_input(path, what=what, max_bytes=max_bytes)
    try:
        if name.lower().endswith(".parquet"):
            return check_table(pd.read_parquet(io.BytesIO(data)), name, what)
        if b"\x00" in data[:8192]:
            raise ValueError("NUL bytes: a binary file")
        return check_table(read_csv_table(data), name, what)
    except ParameterError:
        raise
    except ImportError:
        raise ParameterError(what, name, "a .csv table (Parquet needs pyarrow: pip install pyarrow)") from None
    except (ValueError, OSError) as exc:  # ParserError, EmptyDataError, UnicodeDecodeError, ArrowInvalid
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ParameterError(what, name, f"a table written by 'nvmemodel ingest -o' ({first})") from None


#: what pandas reads as missing in a cell by default ("", "NA", "null", "None", "nan", …)
_DEFAULT_NA = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A",
               "NA", "NULL", "NaN", "None", "n/a", "nan", "null")


def read_csv_table(data: bytes) -> pd.DataFrame:
    """A results table's ``.csv`` bytes as a DataFrame whose text columns keep their values: in a column the schema
    types as text (``ioengine``, ``job_name``, ``pattern`` …) only an empty cell is missing, so fio's ``null``
    engine stays the string "null" (pandas' default reads "null", "NA", "None", "nan" … as NaN there, and the
    explanation then lost that no I/O was done: round 6, a page-cache layer named for the null engine); every other
    column (numbers, flags, user labels) reads missing cells as pandas does by default."""
    import io

    import pandas as pd

    from .ingest.schema import COLUMNS

    header = pd.read_csv(io.BytesIO(data), encoding="utf-8", nrows=0).columns
    na = {c: ([""] if COLUMNS.get(str(c), ("",))[0] == "string" else list(_DEFAULT_NA)) for c in header}
    return pd.read_csv(io.BytesIO(data), encoding="utf-8", keep_default_na=False, na_values=na)


def check_output_folder(path: UserPath, *, what: str, expected: str) -> list[str] | None:
    """Before writing into the folder ``path``: ``None`` if it does not exist yet (and can be created:
    its nearest existing ancestor is a writable folder), else the names it holds, for the caller to
    judge whether they are its own. A path that exists and is no folder is a :class:`ParameterError`
    naming ``what`` and ``expected`` (what the caller accepts)."""
    if not str(path).strip():
        raise ParameterError(what, str(path), f"{expected} (a folder name: an empty one would mean the current folder)")
    if not str(path).isprintable():  # a line break in a folder name breaks every command printed with it
        raise ParameterError(what, str(path), f"{expected} (a name of printable characters)")
    p = pathlib.Path(path)
    if not p.exists():
        if p.is_symlink():
            raise ParameterError(what, str(p), f"{expected} (this is a broken symbolic link)")
        ancestor = p.parent
        while not ancestor.exists():
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise ParameterError(what, str(p), f"{expected} ({ancestor} is a file, not a folder)")
        if not os.access(ancestor, os.W_OK | os.X_OK):
            raise ParameterError(what, str(p), f"{expected} ({ancestor} is not writable)")
        return None
    if not p.is_dir():
        raise ParameterError(what, str(p), f"{expected} (it exists and is not a folder)")
    try:
        return sorted(e.name for e in p.iterdir())
    except OSError as exc:
        raise ParameterError(what, str(p), f"{expected} (cannot read it: {exc.strerror})") from None


def parse_json(text: str, *, what: str, path: UserPath, expected: str) -> Any:
    """``text`` decoded as JSON; a document that is not JSON, or nested deeper than the decoder follows (a
    ``[[[…]]]`` 100,000 deep raises RecursionError inside ``json``), is one :class:`ParameterError` naming ``what``,
    the file and ``expected``."""
    import json

    try:
        return json.loads(text)
    except RecursionError:
        raise ParameterError(what, str(path), f"{expected} (it is nested deeper than any such file: not one)") \
            from None
    except ValueError as exc:
        raise ParameterError(what, str(path), f"{expected} (not JSON: {exc})") from None


def own_folder(root: UserPath, relative: UserPath, *, what: str) -> pathlib.Path:
    """``root/relative`` as a folder of ``root``'s own, made where missing: every part below ``root`` must be a real
    folder (not a symbolic link, which could lead into a folder that is not ours: a ``logs`` link planted in a
    sweep's folder would have its logs written elsewhere), and it must stay inside ``root``. A
    :class:`ParameterError` naming ``what`` otherwise. ``root`` itself is the caller's to check."""
    root = pathlib.Path(root)
    here = root
    for part in pathlib.PurePath(relative).parts:
        if part in ("", ".", "..") or os.sep in part:
            raise ParameterError(what, str(root / relative), f"a folder inside {root}")
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            try:
                os.mkdir(here)
            except FileExistsError:  # made meanwhile: looked at below
                pass
            st = os.lstat(here)
        if stat.S_ISLNK(st.st_mode):
            raise ParameterError(what, str(here), f"a folder of {root}'s own (this is a symbolic link to "
                                 f"{os.readlink(here)}: nothing is written through it)")
        if not stat.S_ISDIR(st.st_mode):
            raise ParameterError(what, str(here), f"a folder of {root}'s own (this is {_kind(st.st_mode)})")
    return here


def check_table(df: pd.DataFrame, name: str, what: str = "table") -> pd.DataFrame:
    """``df`` (a table read from ``name``) if every column of the results schema in it holds what ingest writes
    there: numbers where the schema has numbers, finite and ≥ 0 for the measured ones (times, bytes, rates,
    shares), whole counts from 0 to 2**31 — else a :class:`ParameterError` naming the file, the column, the
    row and what was expected. A table edited by hand (``abc`` or ``inf`` as IOPS, an iodepth of 1e308) is
    refused here, once for every command that reads tables, instead of failing inside a chart."""
    import numpy as np
    import pandas as pd

    from .ingest.schema import COLUMNS

    for col, (dtype, unit, _) in COLUMNS.items():
        if col not in df or dtype not in ("float64", "Int64"):
            continue
        raw = df[col]
        values = pd.to_numeric(raw, errors="coerce").astype(float)
        bad = values.isna() & raw.notna()
        why = "a number"
        if not bad.any() and (dtype == "Int64" or unit in ("s", "B", "B/s", "1/s", "1") or col == "ios"):
            with np.errstate(invalid="ignore"):
                bad = values.notna() & ~((values >= 0) & np.isfinite(values))
            why = "a finite number ≥ 0"
        if not bad.any() and dtype == "Int64":
            with np.errstate(invalid="ignore"):
                bad = values.notna() & ((values >= 2**31) | (values != np.floor(values)))
            why = "a whole number from 0 to 2**31"
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            value = raw.iloc[row]
            value = value.item() if hasattr(value, "item") else value  # (1e+308, not np.float64(1e+308))
            raise ParameterError(what, name, f"a table written by 'nvmemodel ingest -o' (column {col}, row {row + 1}: "
                                             f"{value!r} where {why} is expected)")
    return df
