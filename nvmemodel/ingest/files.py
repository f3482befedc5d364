"""Finding and reading result files: folder walks that account for every file, and text
read within a size limit (regular files only; UTF-8, UTF-16 or cp1252)."""

from __future__ import annotations

import dataclasses
import os
import pathlib
import stat
from collections.abc import Iterable

from ..errors import IngestError
from ..userfiles import kernel_state

__all__ = ["MAX_FILE_BYTES", "Skipped", "expand", "read_text"]

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


def _decode(data: bytes, path) -> str:
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


def read_text(path: pathlib.Path, max_bytes: int | None = None) -> str:
    """The file's text: only regular files, at most ``max_bytes`` (default
    :data:`MAX_FILE_BYTES`), UTF-8/UTF-16/cp1252."""
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        st = os.stat(path)  # before opening: a FIFO or device is never opened (a FIFO would block)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError) and os.path.islink(path):
            raise IngestError(path, "broken symbolic link") from None
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise IngestError(path, f"{kind}, not a result file: not read")
    if st.st_size > max_bytes:
        raise IngestError(path, f"{st.st_size:,} bytes: larger than the {max_bytes:,}-byte limit for one result file")
    try:
        with open(path, "rb", buffering=0) as fh:  # unbuffered: one read of what stat said
            # (a read(n) buffer of the whole limit would cost more than the parse), and bounded
            # even if the file grows while being read
            data = fh.read(min(st.st_size, max_bytes) + 1)
            if len(data) > st.st_size:
                data += fh.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    if len(data) > max_bytes:
        raise IngestError(path, f"larger than the {max_bytes:,}-byte limit for one result file")
    if not data or data.isspace():
        raise IngestError(path, "empty file")
    return _decode(data, path)


def expand(paths: Iterable) -> tuple[list[pathlib.Path], list[Skipped]]:
    """Files to read, and what a folder walk passed over (with the reason): hidden files,
    version-control/cache folders, unreadable folders, symlink loops, broken links."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[pathlib.Path] = []
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
            seen = {os.path.realpath(p)}

            def unreadable(exc: OSError) -> None:
                passed.append(Skipped(str(exc.filename), f"cannot read folder: {exc.strerror}"))

            for root, dirs, names in os.walk(p, onerror=unreadable, followlinks=True):
                base = pathlib.Path(root)
                keep = []
                for d in sorted(dirs):
                    full = os.path.join(root, d)
                    real = os.path.realpath(full)
                    if d in _SKIP_DIRS:
                        passed.append(Skipped(full, "folder not searched (version control / cache)"))
                    elif pseudo := kernel_state(full, folders=True):  # a link into /proc or /sys
                        passed.append(Skipped(full, f"folder not searched: {pseudo}"))
                    elif real in seen:
                        passed.append(Skipped(full, f"symlink loop: folder already read as {real}"))
                    else:
                        seen.add(real)
                        keep.append(d)
                dirs[:] = keep
                for n in sorted(names):
                    full = base / n
                    if n.startswith("."):
                        passed.append(Skipped(str(full), "hidden file (name starts with '.'): not read"))
                    elif os.path.islink(full) and (pseudo := kernel_state(full)):
                        passed.append(Skipped(str(full), f"not read: {pseudo}"))
                    else:
                        files.append(full)  # broken links are reported when read
        elif p.exists():
            files.append(p)
        else:
            raise IngestError(p, "no such file or folder")
    return _once(files, passed), passed


def _once(files: list[pathlib.Path], passed: list[Skipped]) -> list[pathlib.Path]:
    """Each file once: a file named twice (a folder and a file in it, a symlink to a file of the
    same folder, hard links) would count its runs twice. The first name that is not a symlink
    is kept (else the first); the others are listed in ``passed`` with the name read."""
    keys: list[tuple[int, int] | None] = []
    kept: dict[tuple[int, int], pathlib.Path] = {}
    for f in files:
        try:
            st = os.stat(f)
        except OSError:  # broken link, vanished file: reported when read
            keys.append(None)
            continue
        key = (st.st_dev, st.st_ino)
        keys.append(key)
        if key not in kept or (os.path.islink(kept[key]) and not os.path.islink(f)):
            kept[key] = f
    out: list[pathlib.Path] = []
    for f, key in zip(files, keys):
        if key is None or kept[key] is f:
            out.append(f)
        else:
            same = "" if str(f) == str(kept[key]) else f" (the same file as {kept[key]})"
            passed.append(Skipped(str(f), f"given more than once{same}: read once"))
    return out
