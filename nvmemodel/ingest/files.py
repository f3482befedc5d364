"""Finding and reading result files: folder walks that account for every file, and text
read within a size limit (regular files only; UTF-8, UTF-16 or cp1252)."""

from __future__ import annotations

import dataclasses
import os
import pathlib
import stat
from collections.abc import Iterable
from typing import NamedTuple

from ..errors import IngestError
from ..userfiles import kernel_state

__all__ = ["MAX_FILE_BYTES", "Skipped", "decode", "expand", "read_bytes", "read_text"]

_SKIP_DIRS = {".git", "__pycache__", ".ipynb_checkpoints"}


@dataclasses.dataclass(frozen=True)
class Skipped:
    """A file a folder ingest did not turn into rows, and why."""

    path: str
    reason: str


#: Files larger than this are not read (``max_file_bytes=`` raises it): result files are kilobytes
#: to a few MB (an hour of 1 s json+ status reports is about 70 MB), and every reader is linear,
#: so this bounds the time any content can take (a few seconds at 64 MiB).
MAX_FILE_BYTES = 64 * 2**20


def decode(data: bytes, path) -> str:
    """A result file's bytes as text: UTF-16 (with or without a BOM), UTF-8 (BOM dropped), else cp1252."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a BOM (e.g. a PowerShell '>' redirect)
        encoding = "utf-16"
    elif len(data) >= 4 and data[1:64:2].count(0) == len(data[1:64:2]) and 0 not in data[0:64:2]:
        encoding = "utf-16-le"  # ASCII text as UTF-16 without a BOM
    elif len(data) >= 4 and data[0:64:2].count(0) == len(data[0:64:2]) and 0 not in data[1:64:2]:
        encoding = "utf-16-be"
    else:
        encoding = None
    if encoding:
        try:
            return data.decode(encoding).lstrip("\ufeff")
        except UnicodeDecodeError as exc:
            raise IngestError(path, f"not valid {encoding.upper()} text (byte {exc.start})") from None
    if b"\x00" in data[:8192]:
        raise IngestError(path, "binary file (NUL bytes): not a text benchmark result")
    try:  # (utf-8-sig is a Python-level codec: strip the BOM and use the C decoder)
        return (data[3:] if data[:3] == b"\xef\xbb\xbf" else data).decode("utf-8")
    except UnicodeDecodeError as exc:
        try:
            return data.decode("cp1252")  # IOmeter on Windows writes the ANSI code page
        except UnicodeDecodeError:
            raise IngestError(path, f"not UTF-8 text (byte {exc.start}): not a text benchmark result") from None


def read_text(path, max_bytes: int | None = None, st: os.stat_result | None = None) -> str:
    """The file's text: only regular files, at most ``max_bytes`` (default
    :data:`MAX_FILE_BYTES`), UTF-8/UTF-16/cp1252. ``st``: the file's status as a folder walk
    found it (:func:`expand`), saving a second look."""
    return decode(read_bytes(path, max_bytes, st), path)


class Listed(NamedTuple):
    """A regular file as its folder's listing shows it: the file type from the listing, the inode
    number with the folder's device (what :func:`expand` keeps instead of a status it need not take)."""

    st_dev: int
    st_ino: int


#: A listed file is read with one read of this many bytes (a short read is the whole file: most
#: result files are smaller); a larger one is read from its status, as any other file.
_FIRST_READ = 65536


def read_bytes(path, max_bytes: int | None = None, st: os.stat_result | Listed | None = None) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``, not empty (see :func:`read_text`)."""
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    if isinstance(st, Listed):
        return _read_listed(path, max_bytes)
    if st is None:
        try:
            st = os.stat(path)  # before opening: a FIFO or device is never opened (a FIFO would block)
        except OSError as exc:
            if isinstance(exc, FileNotFoundError) and os.path.islink(path):
                raise IngestError(path, "broken symbolic link") from None
            raise IngestError(path, f"cannot read: {exc.strerror}") from None
    _check_status(path, st, max_bytes)
    try:  # non-blocking: should the file have become a FIFO since it was looked at, opening it does not wait
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    try:
        data = _read_sized(fd, st, max_bytes, b"")
    except OSError as exc:
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    return _checked(path, data, max_bytes)


def _check_status(path, st: os.stat_result, max_bytes: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise IngestError(path, f"{kind}, not a result file: not read")
    if st.st_size > max_bytes:
        raise IngestError(path, f"{st.st_size:,} bytes: larger than the {max_bytes:,}-byte limit for one result file")


def _read_sized(fd: int, st: os.stat_result, max_bytes: int, data: bytes) -> bytes:
    """The rest of the file after ``data``: one read of what its status says (plus one byte), bounded
    even if the file grows while being read."""
    data += os.read(fd, max(min(st.st_size, max_bytes) + 1 - len(data), 0))
    if len(data) > st.st_size:
        data += os.read(fd, max(max_bytes + 1 - len(data), 0))
    return data


def _read_listed(path, max_bytes: int) -> bytes:
    """:func:`read_bytes` of a file its folder's listing shows as a regular file: no status taken
    for one that fits in one read; a larger one (or one over ``max_bytes``) from its status."""
    try:  # non-blocking: should the file have become a FIFO since it was listed, opening it does not wait
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    try:
        first = min(_FIRST_READ, max_bytes + 1)
        data = os.read(fd, first)
        if len(data) == first:  # more to read, or over the limit: as any other file, from its status
            st = os.fstat(fd)
            _check_status(path, st, max_bytes)
            data = _read_sized(fd, st, max_bytes, data)
    except OSError as exc:
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    return _checked(path, data, max_bytes)


def _checked(path, data: bytes, max_bytes: int) -> bytes:
    if len(data) > max_bytes:
        raise IngestError(path, f"larger than the {max_bytes:,}-byte limit for one result file")
    if not data or data.isspace():
        raise IngestError(path, "empty file")
    return data


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def expand(paths: str | os.PathLike | Iterable) -> tuple[list[str], list[Skipped], list[os.stat_result | None]]:
    """Files to read (their names as :class:`pathlib.Path` spells them), what a folder walk passed
    over (with the reason: hidden files, version-control/cache folders, unreadable folders, symlink
    loops, links into kernel state), and each file's status (None where it could not be had: the
    read says why)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[str] = []
    stats: list[os.stat_result | None] = []
    links: list[bool] = []
    passed: list[Skipped] = []
    try:
        paths = list(paths)
    except TypeError:
        raise IngestError("(arguments)", f"paths={paths!r}: expected a path or a list of paths") from None
    for p in paths:
        if not isinstance(p, (str, os.PathLike)):
            raise IngestError("(arguments)", f"paths: {p!r} is not a path")
        p = pathlib.Path(p)
        pseudo = kernel_state(p, folders=p.is_dir())
        if pseudo:
            raise IngestError(p, f"not read: {pseudo}")
        if p.is_dir():
            _walk(os.fspath(p), {os.path.realpath(p)}, files, stats, links, passed)
        elif p.exists():
            files.append(str(p))
            try:
                stats.append(os.stat(p))
            except OSError:  # vanished: reported when read
                stats.append(None)
            links.append(os.path.islink(p))
        else:
            raise IngestError(p, "no such file or folder")
    return _once(files, stats, links, passed)


def _walk(top: str, seen: set, files: list, stats: list, links: list, passed: list) -> None:
    """``os.walk(top, followlinks=True)`` in sorted order, each folder's files before its subfolders',
    with the files' status from the listing (a regular file's as :class:`Listed`: no status taken):
    what is kept goes to ``files``, ``stats``, ``links``."""
    try:
        listing = os.scandir(top)
    except OSError as exc:
        passed.append(Skipped(str(exc.filename), f"cannot read folder: {exc.strerror}"))
        return
    dirs: list[str] = []
    entries = []
    with listing:
        while True:
            try:
                entry = next(listing, None)
            except OSError as exc:
                passed.append(Skipped(str(exc.filename), f"cannot read folder: {exc.strerror}"))
                return
            if entry is None:
                break
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                dirs.append(entry.name)
            else:
                entries.append(entry)
    keep = []  # (as os.walk: the folders passed over are listed before the files)
    for d in sorted(dirs):
        full = os.path.join(top, d)
        real = os.path.realpath(full)
        if d in _SKIP_DIRS:
            passed.append(Skipped(full, "folder not searched (version control / cache)"))
        elif pseudo := kernel_state(full, folders=True):  # a link into /proc or /sys
            passed.append(Skipped(full, f"folder not searched: {pseudo}"))
        elif real in seen:
            passed.append(Skipped(full, f"symlink loop: folder already read as {real}"))
        else:
            seen.add(real)
            keep.append(full)
    # the names pathlib gives: os.walk's joined names, without a leading "./"
    base = "" if top == "." else top[2:] + "/" if top.startswith("./") else top if top.endswith("/") else top + "/"
    entries.sort(key=_name)
    dev = None  # the folder's device, taken for its first regular file
    for entry in entries:
        n = entry.name
        if n[0] == ".":
            passed.append(Skipped(base + n, "hidden file (name starts with '.'): not read"))
            continue
        try:
            link = entry.is_symlink()
        except OSError:
            link = False
        if link and (pseudo := kernel_state(base + n)):
            passed.append(Skipped(base + n, f"not read: {pseudo}"))
            continue
        files.append(base + n)  # broken links are reported when read
        links.append(link)
        try:
            if not link and entry.is_file(follow_symlinks=False):  # (the listing's file type, where it gives one)
                if dev is None:
                    dev = os.stat(top).st_dev
                stats.append(Listed(dev, entry.inode()))
            else:
                stats.append(entry.stat())
        except OSError:
            stats.append(None)
    for full in keep:
        _walk(full, seen, files, stats, links, passed)


def _name(entry: os.DirEntry) -> str:
    return entry.name


def _status(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:  # vanished: reported when read
        return None


def _once(files: list[str], stats: list, links: list[bool], passed: list[Skipped]):
    """Each file once: a file named twice (a folder and a file in it, a symlink to a file of the
    same folder, hard links) would count its runs twice. The first name that is not a symlink
    is kept (else the first); the others are listed in ``passed`` with the name read."""
    if any(type(st) is Listed for st in stats) and any(st is not None and type(st) is not Listed for st in stats):
        # inode numbers from a listing are compared with those of a status only after taking the listed
        # files' status too (on some file systems, e.g. overlayfs across layers, the two can differ)
        stats = [_status(f) if type(st) is Listed else st for f, st in zip(files, stats)]
    kept: dict[tuple[int, int], int] = {}
    for i, st in enumerate(stats):
        if st is None:  # broken link, vanished file: reported when read
            continue
        key = (st.st_dev, st.st_ino)
        first = kept.get(key)
        if first is None or (links[first] and not links[i]):
            kept[key] = i
    if len(kept) == sum(st is not None for st in stats):
        return files, passed, stats
    out: list[str] = []
    out_stats: list = []
    for i, (f, st) in enumerate(zip(files, stats)):
        if st is None or kept[(st.st_dev, st.st_ino)] == i:
            out.append(f)
            out_stats.append(st)
        else:
            k = kept[(st.st_dev, st.st_ino)]
            same = "" if f == files[k] else f" (the same file as {files[k]})"
            passed.append(Skipped(f, f"given more than once{same}: read once"))
    return out, passed, out_stats
