"""Where a network engine's servers ran, and what they do for reads and for writes (fio's rbd, nbd … engines).

fio's rbd (or nbd) engine sends every I/O to the cluster's servers (Ceph's OSDs, an NBD server); its own output does
not say where they run. The rows may: a host name or target description that puts them on the client's own node
("client and 8 OSDs on one node", ``localhost``, ``127.0.0.1``). Only then is the path said to be loopback, and only
where it is not is anything said about "a network between" (set after round 28 was read: r28_cbtjake_ceph-rbd-3way-8osd-
1node-16vols_randread/randwrite, KB: "the network between … — not a drive of this host" where client and OSDs ran on
one node, and "the replication" named as a cost of reads, which Ceph serves from the primary OSD alone). What sets
the rates is said instead of "its rates are that layer's" (round 6, part 1 BG: on RBD that pointed at the client or
network while 3 HDD OSDs, every write on each, held 250 IOPS).
"""

from __future__ import annotations

import re

#: words in a host name or a target description that put the servers on the client's own node (set after round 28
#: was read: "server1 (client and 8 OSDs on one node)"); a bare host name says nothing of where the servers run
SAME_NODE = (r"\b(one|same|single)[ -]node\b|\ball[ -]in[ -]one\b|\blocalhost\b|\b127\.0\.0\.1\b|\bloopback\b"
             r"|\bon (the )?client('s)? (own )?(node|host)\b")
#: words that put them elsewhere (a description saying so outright wins over SAME_NODE's silence)
OTHER_NODES = r"\b(remote|separate|other|different) (nodes?|hosts?|servers?|machines?)\b"


def site(rows) -> str | None:
    """``"same_node"`` where every run's host name or target description puts the servers on the client's node,
    ``"elsewhere"`` where one says they ran on other nodes, else None (the files do not say)."""
    if rows is None or not len(rows):
        return None
    texts = []
    for col in ("hostname", "target_names"):
        if col in rows:
            texts += [str(t) for t in rows[col].dropna().astype(str) if t]
    if not texts:
        return None
    if any(re.search(OTHER_NODES, t, re.I) for t in texts):
        return "elsewhere"
    if any(re.search(SAME_NODE, t, re.I) for t in texts):
        return "same_node"
    return None


def directions(rows) -> list[str]:
    """The I/O directions of the runs (read, write, …), sorted."""
    if rows is None or "direction" not in rows:
        return []
    return sorted(set(rows["direction"].dropna().astype(str)))


def rates_words(layer: str, where: str | None, dirs: list[str]) -> str | None:
    """What sets the rates of a layer whose servers serve the I/O elsewhere, said for the directions measured and where
    the files put the servers; None for a layer this module does not describe."""
    writes = any(d != "read" for d in dirs) or not dirs  # mixed, write or not recorded: the write path may apply
    reads_only = dirs == ["read"]
    if layer == "rbd":
        how = (" (a replicated write completes once every replica's OSD has it)" if writes and not reads_only else
               " (a read is served by its placement group's primary OSD alone; replication costs only writes)")
        who = "their drives, the replication" if writes and not reads_only else "their drives"
        if where == "same_node":
            return (f"the rates are the Ceph cluster's: its OSDs serve every I/O{how}, and client and OSDs share this "
                    f"node's CPUs, memory and drives, so the OSDs' work per I/O on those CPUs{', ' + who.replace(', the', ' and the') if ', ' in who else ' and ' + who} set them — "
                    f"not one drive under fio")
        if where == "elsewhere":
            return (f"the rates are the Ceph cluster's: its OSDs serve every I/O{how}, so {who} and the network "
                    f"between set them — not a drive of this host")
        return (f"the rates are the Ceph cluster's: its OSDs serve every I/O{how}, so {who} and the path to them set "
                f"them, not one drive under fio; where the OSDs ran (this host or others) the files do not say")
    if layer == "nbd":
        if where == "same_node":
            return ("the rates are those of the NBD server and its storage, on this same node as the files say "
                    "(reached over loopback, not a network)")
        if where == "elsewhere":
            return "the rates are those of the server behind it and its storage, over the network — not a drive of this host"
        return ("the rates are those of the server behind it and its storage; where that server ran (this host or "
                "another) the files do not say")
    return None
