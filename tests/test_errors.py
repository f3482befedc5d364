"""Bad input gets a clear error naming the parameter and the allowed range."""

import pytest

import nvmemodel as nm
from nvmemodel import NvmeModelError, ParameterError, UnknownNameError


@pytest.mark.parametrize("make, match", [
    (lambda: nm.Host(name="h", lanes_per_socket=-4), r"host\.lanes_per_socket=-4 .*>= 1"),
    (lambda: nm.Drive(name="d", gen=9), r"gen=9 .*1\.\.7"),
    (lambda: nm.Drive(name="d", lanes=3), r"drive\.lanes=3 .*one of 1, 2, 4, 8, 16"),
    (lambda: nm.get_drive("Samsung PM9999"), r"unknown drive 'Samsung PM9999'"),
    (lambda: nm.Workload("randread", 0), r"block_size=0 .*>= 512"),
    (lambda: nm.Workload("randread", "0K"), r"block_size=0\.0 .*>= 512"),
    (lambda: nm.Workload("randrw", "4K", read_fraction=1.5), r"read_fraction=1\.5 .*<= 1"),
    (lambda: nm.Workload("randrw", "4K"), r"read_fraction=None .*fraction 0\.\.1"),
    (lambda: nm.Workload("randread", "4K", read_fraction=0.5), r"read_fraction=0\.5 .*randrw"),
    (lambda: nm.Workload("sideways"), r"pattern='sideways'"),
    (lambda: nm.Workload(iodepth=0), r"iodepth=0 .*>= 1"),
    (lambda: nm.PcieConfig(mps=300), r"mps=300 .*one of 128, 256"),
    (lambda: nm.Switch(name="s", efficiency=1.5), r"switch\.efficiency=1\.5"),
    (lambda: nm.Fabric(name="f", eth_mtu=1500, roce_mtu=4096), r"fabric\.roce_mtu=4096 .*at most 1024"),
    (lambda: nm.preset("hp-dl380"), r"unknown preset 'hp-dl380'"),
    (lambda: nm.evaluate(nm.preset("lenovo-sr850-810-4p"), nm.Workload(), drives=[5]), r"drives=5 .*<= 4"),
    (lambda: nm.evaluate(nm.preset("dell-r7525"), nm.Workload(), drives=[0]), r"drives=0 .*>= 1"),
    (lambda: nm.sweep(nm.preset("dell-r7525"), nm.Workload(), drives=[1], grid={"host.gen": [4, 9]}),
     r"host\.gen=9"),
    (lambda: nm.sweep(nm.preset("dell-r7525"), nm.Workload(), drives=[1], grid={"drive.speed": [1]}),
     r"unknown parameter 'drive\.speed'"),
])
def test_bad_input_messages(make, match):
    with pytest.raises(NvmeModelError, match=match):
        make()


def test_errors_are_builtin_subclasses():
    with pytest.raises(ValueError):
        nm.Workload("randread", 0)
    with pytest.raises(LookupError):
        nm.get_drive("nope")
    assert issubclass(ParameterError, ValueError) and issubclass(UnknownNameError, LookupError)


def test_unknown_name_suggests():
    with pytest.raises(UnknownNameError, match="did you mean 'samsung-pm1733-u2'"):
        nm.get_drive("samsung-pm1733")
