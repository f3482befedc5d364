"""Real ``lspci -vvv`` / ``-tv`` text of two real machines: lspci run on their saved sysfs.

The archives in ``tests/data/sysfs/`` are snapshots of real machines' ``/sys`` from hwloc's test
suite (BSD-3-Clause). ``lspci -O sysfs.path=<snapshot>/sys/bus/pci`` reads such a snapshot as if it
were the live machine, so the text below is what lspci prints for those machines — limited to what
the snapshot kept: 64 bytes of configuration space per device (so ``Capabilities: <access
denied>``: no LnkSta or DevCtl), plus names (pci.ids), bridge bus numbers and NUMA nodes.

Run from the repository root (needs ``lspci``, Debian package ``pciutils``; the fixtures were made
with pciutils 1:3.9.0-4 and pci.ids 0.0~2023.04.11-1)::

    python tests/data/lspci/from_hwloc_sysfs.py
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import tarfile
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
SYSFS = HERE.parent / "sysfs"
MACHINES = {"hwloc_32em64t-2n8c+dax+nvme+mic+dimms": "hwloc-dell-xeon-e5-2s-p3600",
            "hwloc_32intel64-2p8co2t+8ve": "hwloc-xeon-2s-pcie-switches-ve"}


def main() -> None:
    env = {**os.environ, "LC_ALL": "C"}
    for archive, name in MACHINES.items():
        with tempfile.TemporaryDirectory() as tmp:
            with tarfile.open(SYSFS / f"{archive}.tar.bz2") as tar:
                tar.extractall(tmp, filter="data")
            (root,) = [p for p in pathlib.Path(tmp).iterdir() if p.is_dir()]
            for flag, suffix in (("-vvv", "vvv"), ("-tv", "tv")):
                text = subprocess.run(["lspci", "-O", f"sysfs.path={root}/sys/bus/pci", flag], check=True,
                                      capture_output=True, text=True, env=env).stdout
                (HERE / f"{name}_{suffix}.txt").write_text(text)
        print(f"wrote {name}_vvv.txt and {name}_tv.txt from {archive}")


if __name__ == "__main__":
    main()
