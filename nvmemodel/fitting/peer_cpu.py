"""A CPU level that is one end of a transfer: no host core count is read from it.

fio's net engines (``net``, ``netsplice``) move each byte from a sending job to a receiving one — a listening job
group of the same fio run (a loopback test) or a process on another host. The receiver copies every byte out of the
socket on CPU time the senders' figures do not hold, and where it runs on this host it shares its CPUs. The jobs'
summed CPU of one group is then no measure of the host's: "if this host has about 1 CPU for fio, they were all busy"
invites a reader who knows the host has 2 to conclude "not CPU-bound" while the receivers used most of the second
(set after round 24 was read: r24_here-netnj_tcp-loopback_net_write64k_numjobs_repeats, senders 1.02 CPUs, receivers
of the same runs another 0.52–0.76 on a 2-CPU host, BC). The host's CPU use is the sum over every job group of the run.
"""

from __future__ import annotations

from .claim import runs_rows

__all__ = ["PEER_ENGINES", "peer_engine", "peer_level_words"]

#: fio engines whose I/O has a peer job (engines/net.c: a listener for every connection)
PEER_ENGINES = ("net", "netsplice")


def peer_engine(result, cf) -> str | None:
    """The net engine the series' runs used, or None."""
    rows = runs_rows(result, cf.points)
    if rows is None or "ioengine" not in rows:
        return None
    e = set(rows["ioengine"].dropna().astype(str))
    return e.pop() if len(e) == 1 and next(iter(e)) in PEER_ENGINES else None


def peer_level_words(result, s: dict, engine: str) -> str:
    """The CPU level sentence for one end of a net transfer: the figure, and why it decides nothing on its own."""
    from .claim import _xv
    from .wording import cpus_words

    lvl = cpus_words(s["level_cpus"], ".3g")
    return (f"fio's CPU accounting: from {result.x} = {_xv(result, s['level_from_x'])} on the jobs together used a "
            f"level {lvl} however many were added. These are one end of each transfer: fio's {engine} engine hands "
            f"every byte to a receiving socket, and the receiver — a listening job group of the same fio run on this "
            f"host, or a process on another — copies it out on CPU time these jobs' figures do not hold. The host's "
            f"CPU use is the sum over every job group of the run, so no core count is read from {lvl} alone: with the "
            f"receivers' rows (or the host's cores) it tells whether the CPUs were all busy.")
