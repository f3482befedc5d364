"""Frozen dataclasses describing hardware and workloads, the catalogs, and the seed presets."""

from .config import NvmeConfig, PcieConfig
from .drive import Drive, drive_catalog, get_drive
from .fabric import Fabric
from .host import STACK_CYCLES, Host, IoStack, get_host, host_catalog, keep_drive_lanes, with_host, with_sockets
from .presets import PRESETS, preset
from .switch import Switch, get_switch, switch_catalog
from .topology import Topology
from .workload import Workload

__all__ = [
           "PRESETS",
           "STACK_CYCLES",
           "Drive",
           "Fabric",
           "Host",
           "IoStack",
           "NvmeConfig",
           "PcieConfig",
           "Switch",
           "Topology",
           "Workload",
           "drive_catalog",
           "get_drive",
           "get_host",
           "get_switch",
           "preset",
           "host_catalog",
           "switch_catalog",
           "with_host",
           "keep_drive_lanes",
           "with_sockets",
]
