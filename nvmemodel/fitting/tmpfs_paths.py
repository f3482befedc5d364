"""Files that lie on a RAM file system by where they are: Linux mounts ``/dev/shm`` (POSIX shared memory, shm_open(3))
and ``/run`` (FHS 3.0 §3.15; systemd) as tmpfs. A buffered job on such a path with no block device under it in fio's
disk statistics read and wrote memory: tmpfs keeps its files in the page cache and has no device beneath (the kernel's
Documentation/filesystems/tmpfs.rst), so "what lay beneath the page cache is unknown" says less than the files do.

Set after round 24 was read (CF: r24_here-splicenj_tmpfs_splice_randread64k_numjobs_repeats and
r24_here-splicerw_tmpfs_splice_randrw64k_qd1_readshare_repeats, files under /dev/shm read at 4.9–5.2 GB/s from one
never-sleeping thread, told "what lay beneath the page cache is unknown from these files"). Only with no block device
named: a file system mounted *under* /dev/shm (r15_here-ext4 … ext4-on-loop, /dev/shm/g14c_mnt.*/f128m over loop0)
has its device in fio's disk statistics, and the device facts speak there. /tmp is not read as tmpfs: many hosts keep
it on disk.
"""

from __future__ import annotations

__all__ = ["TMPFS_DIRS", "tmpfs_dir"]

#: directories Linux mounts as tmpfs by convention (/dev/shm: glibc's shm_open; /run: FHS 3.0 §3.15, systemd)
TMPFS_DIRS = ("/dev/shm", "/run")


def tmpfs_dir(rows) -> str | None:
    """The tmpfs directory every file of every run lies under (``target_names``, ';'-joined paths), else None."""
    if "target_names" not in rows or not len(rows):
        return None
    paths = [t for v in rows["target_names"].astype(object) if isinstance(v, str) for t in v.split(";") if t]
    if not paths or len(paths) < rows["target_names"].notna().sum() or rows["target_names"].isna().any():
        return None
    for d in TMPFS_DIRS:
        if all(p.startswith(d + "/") for p in paths):
            return d
    return None
