"""Two bounds of memory-served I/O, shared by the buffered-I/O facts (:mod:`~nvmemodel.fitting.buffered`) and the
writes the page cache took without waiting (:mod:`~nvmemodel.fitting.memory_writes`): a leaf, so neither imports the
other."""

from __future__ import annotations

__all__ = ["CTX_NEVER", "MEMORY_LATENCY"]

#: a read's mean latency below this is no storage device's service time: the fastest NVMe reads (low-latency SLC /
#: 3D XPoint drives) take about 8–10 µs at the device, a TLC NVMe drive ~60–100 µs (r23 ericfan: 100 µs), so a read
#: done in less than half the fastest drive's time by a job on CPU throughout is a memory copy — set after round 23
#: was read (ZF: j2pcnotes 1.31 µs; the hand read's "below ~5 µs")
MEMORY_LATENCY = 5e-6

#: buffered reads with at most this many context switches per read (fio's ``ctx`` ÷ I/Os), the job ≥ 90 % busy: it
#: never slept, so memory served them; at least this many per read … ``CTX_WAITED``: each read slept (round 17, XE)
CTX_NEVER = 0.01
