"""Curves of a ``by=`` fit that are different clients (hosts, VMs, client processes) rather than alternative settings
of one device: equal levels of such curves do not show a limit they share.

Curves of engines, block sizes or queue settings measured one after another on one device that level at one rate show a
cap they share (issue 28 item 7). Curves of different hosts or clients that ran at the same time and level at one rate
fit a limit of that size per client just as well as one limit of the sum split evenly; only a sum that stays level while
the shares change shows a shared one (set after round 28 was read: r28_vspherediskspd 64k-by-vm, LB: two VMs on two
ESXi hosts told "a limit they share does" where the same VMs' 4 KiB reads show the datastore's shared limit split 1 : 2).
"""

from __future__ import annotations

from .wording import fmt_y

#: ``by=`` columns whose values name a client of the storage (a host, a VM, a client process or node) rather than a
#: setting of the workload or device
IDENTITY_KEYS = ("hostname", "host", "hosts", "client", "clients", "client_host", "vm", "vm_name", "node", "node_name",
                 "server", "initiator")


def identity_by(result) -> bool:
    """Whether every ``by=`` column of the fit names a client (:data:`IDENTITY_KEYS`)."""
    by = [str(b).lower() for b in (getattr(result, "by", None) or [])]
    return bool(by) and all(b in IDENTITY_KEYS for b in by)


def per_client_words(result, names: str, lo: float, hi: float, n: int) -> str:
    """"Every curve (…) levels at the same rate, 99.98 K IOPS to 99.99 K IOPS: that much each, 200 K IOPS together —
    a limit of that size per client, or one of the sum split evenly; these curves do not tell which …"."""
    unit = result.y_unit
    mid = (lo + hi) / 2.0
    who = ", ".join(result.by)
    return (f"Every curve ({names}) levels at about the same rate, {fmt_y(lo, unit)} to {fmt_y(hi, unit)}: that much "
            f"each, {fmt_y(n * mid, unit)} together. The curves differ by {who}, so they are different clients: a "
            f"limit of that size for each, or — where they ran at the same time — one limit of "
            f"{fmt_y(n * mid, unit)} split evenly between them; these curves do not tell which (one shared limit shows as a sum that stays level while the shares change).")
