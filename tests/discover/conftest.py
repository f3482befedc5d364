"""Real sysfs snapshots (tests/data/sysfs, BSD-3-Clause from hwloc), unpacked once per test module."""

import os
import pathlib
import shutil
import subprocess
import tarfile

import pytest

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "sysfs"


#: the files the readers open (the archives hold ~10,000 entries; Python's tarfile is slow on all of them)
_READ = {"class", "vendor", "device", "subsystem_vendor", "subsystem_device", "numa_node", "config", "driver", "max_link_speed", "max_link_width",
         "current_link_speed", "current_link_width", "address", "model", "physical_package_id", "core_id",
         "cpuinfo_max_freq", "cpuinfo"}


def _extract(dest: pathlib.Path, name: str) -> pathlib.Path:
    """Unpack read-only once per module: GNU tar if present (fast), else the files the readers use."""
    archive = DATA / f"{name}.tar.bz2"
    if shutil.which("tar"):
        subprocess.run(["tar", "xjf", str(archive), "-C", str(dest)], check=True)
    else:
        with tarfile.open(archive) as tar:
            keep = [m for m in tar.getmembers()
                    if os.path.basename(m.name) in _READ or (m.issym() and "/bus/pci/devices/" in m.name)]
            tar.extractall(dest, members=keep, filter="data")  # relative symlinks inside the archive only
    (root,) = [p for p in dest.iterdir() if p.is_dir()]
    return root


@pytest.fixture(scope="module")
def nvme_box(tmp_path_factory):
    return _extract(tmp_path_factory.mktemp("nvme_box"), "hwloc_32em64t-2n8c+dax+nvme+mic+dimms")


@pytest.fixture(scope="module")
def switch_box(tmp_path_factory):
    return _extract(tmp_path_factory.mktemp("switch_box"), "hwloc_32intel64-2p8co2t+8ve")
