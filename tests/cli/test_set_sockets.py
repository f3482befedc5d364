"""`--set host.sockets=N` on a catalog CPU is `--host NAME:N` (QA round 4, F11): before, one socket kept the
2P lane split (12 drives instead of 24), 3 sockets of a 2-socket EPYC were evaluated, and the header kept "2 x"."""
import json

from nvmemodel.cli import main


def _json(capsys, *argv):
    assert main(["ceilings", "--preset", "dell-r7525", "--drives", "24", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_socket_by_set_equals_one_socket_by_host(capsys):
    by_set = _json(capsys, "--set", "host.sockets=1")
    by_host = _json(capsys, "--host", "amd-epyc-7742:1")
    # the same sockets, lanes, drives and CPU; only the socket-DMA share differs: --set keeps the preset's own estimate
    # (0.38, the R7525 bend), --host takes the catalog platform's (0.68, measured on a Zen 2 I/O die)
    def strip(points):
        return [{**p, "ceilings": {k: v for k, v in p["ceilings"].items() if k != "socket_dma"}} for p in points]

    assert strip(by_set["points"]) == strip(by_host["points"])
    dma = [p["ceilings"]["socket_dma"]["bytes_per_s"] for p in (by_set["points"][0], by_host["points"][0])]
    assert dma == [0.38 * 204.8e9, 0.68 * 204.8e9]
    point = by_set["points"][0]
    assert point["drives"] == 24  # 128 lanes on one socket: every bay still attaches (the 2P split gave 12)
    assert point["iops"] == 64 * 2.25e9 / 10_000 and point["binding"] == "host_cpu"  # one socket's CPU


def test_header_names_the_socket_count_given(capsys):
    assert main(["ceilings", "--preset", "dell-r7525", "--drives", "24", "--set", "host.sockets=1"]) == 0
    assert "(1 x AMD EPYC 7742 assumed)" in capsys.readouterr().out


def test_more_sockets_than_the_part_allows_is_one_error(capsys):
    assert main(["ceilings", "--preset", "dell-r7525", "--drives", "24", "--set", "host.sockets=3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "host.sockets=3" in err[0] and "1 to 2" in err[0]


def test_a_generation_above_the_cpus_own_is_called_hypothetical(capsys):
    # QA round 4, F28: an EPYC 7742 is a PCIe 4.0 part
    assert main(["ceilings", "--host", "amd-epyc-7742", "--set", "host.gen=5", "--drives", "4"]) == 0
    assert "above the CPU's own PCIe generation, Gen4 for amd-epyc-7742: a hypothetical host" in capsys.readouterr().out


def test_a_socket_count_beside_host_is_refused(capsys):
    # QA2 G15: --host amd-epyc-7742:1 --set host.sockets=2 was accepted and answered with a link "not known"
    assert main(["ceilings", "--host", "amd-epyc-7742:1", "--set", "host.sockets=2", "--drives", "4"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--host NAME:SOCKETS" in err[0]
