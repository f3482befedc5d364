"""File sharing and block targets in front of the storage: NFS, SMB3, iSCSI, NVMe/TCP (docs/physics.md §12.4).

Three ceilings, all for the whole system:

* **share_server_cpu** — the server's CPU paying for the local path *and* the protocol:
  ``sockets · cores · f · u / (c_local + c_share + b_share · S)`` with ``c_local`` the host's cycles per
  I/O (stack, RAID layer, per-byte copies; :func:`nvmemodel.ceiling.derive.prepare`) and ``c_share``,
  ``b_share`` the protocol's cycles per I/O and per byte. It is always at or below ``host_cpu``, the
  same CPU without the protocol, which stays listed for comparison.
* **share_network** — the server's file-sharing ports: request/response headers per I/O plus the data,
  in TCP/IP packets of ``share.eth_mtu`` (the fabric's packet geometry, :func:`~nvmemodel.standards.
  ethernet.packet_geometry`), each direction separately.
* **share_client** — the clients: ``share.connections × share.connection_iops`` (NFS ``nconnect``, SMB
  multichannel channels).

Per-protocol defaults (:data:`PROTOCOLS`) say where each number comes from; only NFS's are calibrated
(on ION's observations, with ION's assumed CPU); the others are labelled estimates or placeholders, and
each says what was looked for and why it was not usable (docs/physics.md §12.4). NVMe/TCP adds no cycles here: the
host is then an NVMe/TCP target, whose CPU is :mod:`nvmemodel.ceiling.target`'s ``target_cpu`` (not modelled where
no figure is published or set).
"""

from __future__ import annotations

import numpy as np

from ..parameters import PARAMETERS
from ..standards import ethernet as eth
from .components import Component, Limit, everywhere, register

__all__ = ["PROTOCOLS", "PROTOCOL_RANGES", "SHARE_CLIENT", "SHARE_NETWORK", "SHARE_SERVER_CPU", "WRITE_CYCLES",
           "protocol_defaults"]

# ION SR-71mach5+ (seed ion-nvme-ssds-in-server-applications.txt) on the preset's ASSUMED CPU
# (2 x 14 cores at 2.4 GHz): locally 3 M 4K random reads (22,400 cycles per I/O); over NFS "small random
# reads barely exceeded 10% of the 3M IOPS" and "64kB random reads were still shared at almost 10GBps".
_ION_CYCLES_PER_S = 2 * 14 * 2.4e9
_ION_LOCAL_CYCLES = _ION_CYCLES_PER_S / 3.0e6
# Two points, two unknowns (cycles per I/O c, per byte b): c + 4096 b = C/300 K − local, c + 65536 b = C/152.6 K − local.
_NFS_4K_IOPS, _NFS_64K_IOPS = 0.10 * 3.0e6, 10e9 / 65536
_NFS_PER_BYTE = (_ION_CYCLES_PER_S / _NFS_64K_IOPS - _ION_CYCLES_PER_S / _NFS_4K_IOPS) / (65536 - 4096)  # ≈ 3.52
_NFS_CYCLES = _ION_CYCLES_PER_S / _NFS_4K_IOPS - _ION_LOCAL_CYCLES - 4096 * _NFS_PER_BYTE              # ≈ 187,200
_NFS_SOURCE = ("calibrated: ION over NFS, 4K random reads ~10 % of 3 M IOPS and 64K random reads ~10 GB/s, on the "
               "ION preset's ASSUMED 2 x 14 cores at 2.4 GHz, after its 22,400 local cycles per I/O")

# A Ceph OSD (classic, BlueStore) serving RBD [NELSON22]: M. Nelson, "Ceph OSD CPU Scaling - Part 1" (ceph.io blog,
# 2022-11-08; text: github.com/ceph/ceph.io src/en/news/blog/2022/ceph-osd-cpu-scaling/index.md): 10 x Dell R6515,
# 1 x EPYC 7742 each, 6 x PM983 per node, Ceph Pacific 16.2.9, fio librbd 4K random I/O at iodepth 128, 60 OSDs, 3x
# replication: "On the read side Ceph is delivering around 7500 IOPS per core used ... On the write side, Ceph is
# delivering around 3500 IOPS per core used" (writes counted per OSD, "with replication factored in"). At the EPYC
# 7742's 2.25 GHz base: 300,000 cycles per read, 642,857 per OSD write; a client write is 3 OSD writes (3 replicas)
# spread over the nodes, so a node pays 3 x 642,857 per client write on average. At the 3.4 GHz boost (the clock that
# ran is not stated): 453,333 and 971,429 (x 3). The OSD's cost includes its own block I/O to the drive (BlueStore),
# so the protocol's share is the total minus libaio's 8,200 (topology.host.STACK_CYCLES), which the server's CPU
# ceiling charges as its local path.
_CEPH_CLOCKS = (2.25e9, 3.4e9)  # EPYC 7742 base and max boost (AMD product specifications; nm.get_host)
_CEPH_READ_IOPS_PER_CORE, _CEPH_WRITE_IOPS_PER_CORE, _CEPH_REPLICAS = 7500.0, 3500.0, 3
_LOCAL = 8200.0  # libaio's default (STACK_CYCLES): the server's local path, charged by the CPU ceiling itself
_CEPH_READ = _CEPH_CLOCKS[0] / _CEPH_READ_IOPS_PER_CORE - _LOCAL
_CEPH_WRITE = _CEPH_REPLICAS * _CEPH_CLOCKS[0] / _CEPH_WRITE_IOPS_PER_CORE - _LOCAL
_CEPH_SOURCE = ("measured: a Ceph OSD (Pacific 16.2.9, BlueStore, 60 OSDs on 10 x EPYC 7742, 3x replication) "
                "'delivering around 7500 IOPS per core used' for 4K random reads and 'around 3500 IOPS per core "
                "used' for writes per OSD (M. Nelson, 'Ceph OSD CPU Scaling - Part 1', ceph.io 2022-11-08): at the "
                "2.25 GHz base 300,000 cycles per read and 3 x 642,857 per client write, minus the local path's "
                "8,200 (libaio) = 291,800 and 1,920,371; per byte and headers not charged (not sourced: the 4K cost "
                "is charged at every size); docs/physics.md §12.4.1")

#: protocol → (server cycles per I/O, cycles per byte, request header B, response header B, source).
#: Header bytes ride on the data direction with the payload; the other direction carries the other header.
PROTOCOLS: dict[str, tuple[float, float, float, float, str]] = {
    "none": (0.0, 0.0, 0.0, 0.0, "no protocol"),
    "nfs3": (_NFS_CYCLES, _NFS_PER_BYTE, 128.0, 110.0,
             _NFS_SOURCE + "; headers: a READ reply carries 106 B of RPC + NFS besides the data (measured, "
                           "linas.org/sanlight) + 4 B TCP record mark; a call ~128 B (estimate)"),
    "nfs4": (_NFS_CYCLES, _NFS_PER_BYTE, 160.0, 160.0,
             "estimate: NFSv3's calibration reused for v4 (" + _NFS_SOURCE + "); headers: estimate, COMPOUND adds "
             "~32 B"),
    "smb3": (_NFS_CYCLES, _NFS_PER_BYTE, 128.0, 128.0,
             ("estimate: NFS's calibrated cycles reused (no absolute per-I/O or per-byte figure for a Windows SMB3 "
              "server found: ION says only that SMB3 4K ran slower than its all-SATA server with the CPU near "
              "100 %; Chelsio's and Microsoft's SMB Direct papers give throughput and CPU % without the cycles); "
              "headers: 64 B SMB2 header + ~64 B command (estimate)")),
    "smb3_rdma": (_NFS_CYCLES, 0.0, 128.0, 128.0,
                  ("estimate: SMB3's per-I/O cost reused; 0 cycles per byte because SMB Direct places data by RDMA "
                   "(no copy, [MS] 'uses fewer CPU cycles'), an upper bound on the saving")),
    "iscsi": (_NFS_CYCLES, _NFS_PER_BYTE, 48.0, 48.0,
              ("estimate (placeholder): NFS's calibration reused; no per-I/O cycle figure for a Linux (LIO) or "
               "Windows iSCSI target found (LIO reports give IOPS and CPU % on unstated cores); headers: the 48 B "
               "Basic Header Segment (RFC 7143 §11.2)")),
    # NVMe/TCP: the host is an NVMe/TCP target; its CPU is the target_cpu component's (ceiling/target.py, transport
    # tcp), charged from target.TARGET_CYCLES where target.stack is set (nvmet-tcp, SPDK's TCP target: SPDK's
    # NVMe-oF TCP report 24.05): nothing is charged here (never NFS's RPC/VFS calibration, which an NVMe/TCP target
    # does not run).
    "nvme_tcp": (0.0, 0.0, float(eth.NVME_TCP_CMD_PDU_BYTES), float(eth.NVME_TCP_RESP_PDU_BYTES),
                 ("default: not charged here: the NVMe/TCP target's CPU is the target_cpu ceiling's (target.stack, "
                  "target.cycles_per_io, docs/physics.md §5.2: the Linux nvmet-tcp and SPDK TCP targets' costs from "
                  "SPDK's NVMe-oF TCP report 24.05), not modelled until target.stack is set; headers: NVMe/TCP command "
                  "capsule and response PDUs (NVMe/TCP transport spec)")),
    "ceph_rbd": (_CEPH_READ, 0.0, 0.0, 0.0, _CEPH_SOURCE),
}
assert tuple(PROTOCOLS) == PARAMETERS["share.protocol"].choices


#: protocol → server cycles per host WRITE where a source gives writes their own cost (else a write costs what
#: PROTOCOLS gives, a read's): a Ceph client write is 3 OSD writes (3x replication) [NELSON22].
WRITE_CYCLES: dict[str, float] = {"ceph_rbd": _CEPH_WRITE}

#: protocol → ((read low, read high), (write low, write high), source): the range of its sourced per-I/O cost over
#: what the source leaves open (the clock that ran), charged by ``ceiling.ranges`` (docs/physics.md §4.1, §12.4.1).
PROTOCOL_RANGES: dict[str, tuple[tuple[float, ...], tuple[float, ...], str]] = {  # (low, high) each
    "ceph_rbd": (tuple(c / _CEPH_READ_IOPS_PER_CORE - _LOCAL for c in _CEPH_CLOCKS),
                 tuple(_CEPH_REPLICAS * c / _CEPH_WRITE_IOPS_PER_CORE - _LOCAL for c in _CEPH_CLOCKS),
                 "the Ceph OSD's 7,500 read / 3,500 write IOPS per core used (M. Nelson, ceph.io 2022-11-08) read at "
                 "the EPYC 7742's 2.25 GHz base and at its 3.4 GHz boost (which ran is not stated)"),
}


def protocol_defaults(codes, read_fraction=1.0):
    """``(cycles per I/O, cycles per byte, request header B, response header B)`` for ``share.protocol`` codes; the
    cycles per host I/O mix each protocol's read and write costs (:data:`WRITE_CYCLES`) by ``read_fraction``."""
    table = np.array([v[:4] for v in PROTOCOLS.values()])
    writes = np.array([WRITE_CYCLES.get(k, v[0]) for k, v in PROTOCOLS.items()])
    idx = np.asarray(codes, dtype=int)
    rows = table[idx]
    f = np.asarray(read_fraction, dtype=float)
    cycles = rows[..., 0] if not WRITE_CYCLES else f * rows[..., 0] + (1.0 - f) * writes[idx]
    return cycles, rows[..., 1], rows[..., 2], rows[..., 3]


_NVME_TCP = float(PARAMETERS["share.protocol"].code("nvme_tcp"))


def _present(p):
    if "share.protocol" not in p or everywhere(p["share.protocol"], 0.0):
        return None
    on = np.asarray(p["share.protocol"]) != 0
    return on if on.any() else None


def _server_cpu(p) -> Limit:
    on = _present(p)
    if on is None:
        return Limit()
    local = p.get("cpu.cycles_per_host_io", p["host.cycles_per_io"])
    added = p["share.cycles_per_io"] + p["share.cycles_per_byte"] * p["workload.block_size"]
    x = (p["host.sockets"] * p["host.cores_per_socket"] * p["host.clock_hz"] * p["host.cpu_utilization_max"]) / (
        local + added)
    # NVMe/TCP with no protocol cost set: nothing is added to the local path (the target's CPU is target_cpu's), so
    # this would only repeat host_cpu: not applied
    bare = (np.asarray(p["share.protocol"]) == _NVME_TCP) & (np.asarray(added) == 0)
    return Limit(system=np.where(on & ~bare, x, np.inf))


def _network(p) -> Limit:
    on = _present(p)
    if on is None or everywhere(p["share.link_bits_per_s"], np.inf):
        return Limit()
    _, _, req, resp = protocol_defaults(p["share.protocol"])
    payload, overhead = eth.packet_geometry(True, False, p["share.eth_mtu"], 0, 0, 0)
    S = np.asarray(p["workload.block_size"], dtype=float)
    f = np.asarray(p["workload.read_fraction"], dtype=float)
    seg = 1.0 + overhead / payload  # full segments, as the NVMe/TCP fabric model assumes
    to_client = (f * (S + resp) + (1 - f) * resp) * seg
    to_server = (f * req + (1 - f) * (S + req)) * seg
    x = p["share.link_bits_per_s"] / 8.0 / np.fmax(to_client, to_server)
    return Limit(system=np.where(on, x, np.inf))


def _client(p) -> Limit:
    on = _present(p)
    if on is None or everywhere(p["share.connection_iops"], np.inf):
        return Limit()
    return Limit(system=np.where(on, p["share.connections"] * p["share.connection_iops"], np.inf))


SHARE_SERVER_CPU = register(Component(
    "share_server_cpu", "the file server's CPU (local path + sharing protocol per I/O and per byte)", 62, _server_cpu,
    parameters=("share.protocol", "share.cycles_per_io", "share.cycles_per_byte", "host.cycles_per_io",
                "raid.cycles_per_io", "host.sockets", "host.cores_per_socket", "host.clock_hz"),
    summary="the file server's CPU: protocol cycles per I/O and per byte on top of the local path",
    color="#8c8c8c"))

SHARE_NETWORK = register(Component(
    "share_network", "the file-sharing network (protocol headers, TCP/IP packets)", 63, _network,
    parameters=("share.protocol", "share.link_bits_per_s", "share.eth_mtu"),
    summary="the file-sharing network: data + protocol headers in TCP/IP packets", color="#b15928"))

SHARE_CLIENT = register(Component(
    "share_client", "the clients' connections (NFS nconnect, SMB multichannel)", 64, _client,
    parameters=("share.connections", "share.connection_iops"),
    summary="the clients: connections x I/O rate per connection", color="#6a3d9a"))
