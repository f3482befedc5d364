"""QA s25 findings H37, H38, H39 (/work/coord/s25/findings.md), each from its reproduction."""
import nvmemodel as nm
from nvmemodel import cli


def _out(argv, capsys) -> str:
    assert cli.main(argv) == 0
    return capsys.readouterr().out


# ------------------------------------------------------------------------------ H39: the QD1 latency MAY bind
def test_h39_the_default_ceilings_command_says_its_drive_number_is_an_upper_bound(capsys):
    # `nvmemodel ceilings --preset dell-r7525 --drives 1` (4K randread, QD32 x 1 job): the PM1733 has no QD1 latency in
    # the catalog; with the catalog's NAND latencies (75-115 us) 32 in flight allow 0.28-0.43 M IOPS, below the
    # 1.45 M printed. The number stays the rating; the words say it may be bound lower.
    out = _out(["ceilings", "--preset", "dell-r7525", "--drives", "1"], capsys)
    assert "1,450,000" in out
    assert ("(upper bound: the drive's QD1 latency (Little's law at this queue depth may bind) is not known "
            "(not applied))") in out


def test_h39_the_block_size_chart_says_it_where_a_nand_latency_may_bind():
    # `nvmemodel plot tests/data/qa6/bs --x block_size_bytes --y bw --preset dell-r7525` (iodepth 8, 1 job): 8 / 115 us
    # = 70 K IOPS, below the rating at 4 KiB (1.45 M), 16 KiB (488 K) and 64 KiB (122 K), not at 256 KiB (30.5 K)
    import pathlib

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from nvmemodel.plots.results import plot_results

    data = pathlib.Path(__file__).parent / "data" / "qa6" / "bs"
    ax = plot_results(nm.read_results(data), x="block_size_bytes", y="bw", topology=nm.preset("dell-r7525"))
    try:
        label = next(t.get_text() for t in ax.get_legend().get_texts() if t.get_text().startswith("model ceiling"))
        assert "may bind" in label and label.endswith("(at block_size_bytes = 4096, 16384, 65536)")
    finally:
        plt.close(ax.figure)


def test_h39_a_known_latency_or_large_blocks_say_nothing():
    wl = nm.Workload("randread", "4K")
    known = nm.evaluate(nm.preset("dell-r7525"), wl, drives=[1], overrides={"drive.read_latency_s": 80e-6})
    assert known.upper_bound_note is None
    big = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[1, 24])
    assert big.upper_bound_note is None  # 32 / 115 us = 278 K > 61 K (8 GB/s / 128 KiB): no catalog latency binds


# ------------------------------------------------------------------ H38: each host's own value in the evidence line
def test_h38_the_plan_evidence_gives_each_cpu_its_own_complex_rate(capsys):
    # `nvmemodel plan --iops 10M --read-bw 60GB/s --host amd-epyc-7742:2,amd-epyc-9654:2,intel-xeon-platinum-8380:2`:
    # the 9654 (Genoa) was listed with the 7742 under Rome's 46.9 GB/s (both estimates); the catalog gives it 64 GB/s
    out = _out(["plan", "--iops", "10M", "--read-bw", "60GB/s", "--host",
                "amd-epyc-7742:2,amd-epyc-9654:2,intel-xeon-platinum-8380:2", "--max-drives", "24"], capsys)
    line = next(x for x in out.splitlines() if "tree.complex_bytes_per_s:" in x)
    said = line.split("tree.complex_bytes_per_s:")[1].split("; memory.dma_fraction")[0]
    rome = nm.get_host("amd-epyc-7742", sockets=2).platform["tree.complex_bytes_per_s"]
    genoa = nm.get_host("amd-epyc-9654", sockets=2).platform["tree.complex_bytes_per_s"]
    assert (rome, genoa) == (46.9e9, 64e9)
    assert "46.9 GB/s on amd-epyc-7742:2 (estimate: " in said and "64 GB/s on amd-epyc-9654:2 (estimate: " in said
    assert "amd-epyc-7742:2, amd-epyc-9654:2" not in said
    assert said.count("AnandTech Rome") == 1  # the Rome source is said for the Rome CPU only
    # hosts of the same value, status and source are still said together
    out = _out(["plan", "--iops", "10M", "--read-bw", "60GB/s", "--host",
                "amd-epyc-7742:2,amd-epyc-7702:2,intel-xeon-platinum-8380:2", "--max-drives", "24"], capsys)
    assert "46.9 GB/s on amd-epyc-7742:2, amd-epyc-7702:2 (estimate: " in out


# ----------------------------------------------------- H37: the R7525 preset's 0.38 beside the catalog CPU's 0.68
def test_h37_the_preset_says_its_own_share_binds_and_what_the_catalog_cpu_gives(capsys):
    # `nvmemodel ceilings --preset dell-r7525 --pattern read --bs 128K --drives 24` vs the same with
    # `--host amd-epyc-7742:2`: the preset keeps 0.38 (the paper's sequential reads "stop scaling linearly" at 24
    # drives; the catalog's 0.68 would scale them linearly), and now says both readings
    argv = ["ceilings", "--preset", "dell-r7525", "--pattern", "read", "--bs", "128K", "--drives", "24"]
    out = _out(argv, capsys)
    assert "155.648" in out and "socket_dma" in out  # the number is unchanged: the paper's bend
    assert ("(socket_dma binds at 24 drives on this preset's own memory.dma_fraction = 0.38 (estimate: a stand-in for "
            "the paper's 128K-read bend, not a measured DMA limit); the catalog host amd-epyc-7742's is 0.68 "
            "(measured), with which the same workload reaches 172.23 GB/s (pcie_link) at 24 drives "
            "(--host amd-epyc-7742:2))") in out
    other = _out([*argv, "--host", "amd-epyc-7742:2"], capsys)
    assert "172.234" in other and "pcie_link" in other and "stand-in" not in other  # the sentence's number holds
    # not where the preset's share does not bind, nor where the user set it
    assert "stand-in" not in _out(["ceilings", "--preset", "dell-r7525", "--drives", "12,24"], capsys)
    assert "stand-in" not in _out([*argv, "--set", "memory.dma_fraction=0.3"], capsys)
    import json

    doc = json.loads(_out([*argv, "--json"], capsys))  # the JSON carries the same sentence
    assert doc["preset_difference"].startswith("socket_dma binds at 24 drives on this preset's own memory.dma_fraction")
    assert "preset_difference" not in json.loads(_out([*argv, "--json", "--host", "amd-epyc-7742:2"], capsys))


def test_h37_the_preset_and_the_catalog_texts_agree():
    # the catalog's amd-zen2-rome calls the 0.38 a misreading of the bend as memory; the preset's text says the same
    # (no longer "no AMD or Dell figure for the share ... was found") and the catalog names the preset's use of it
    topo = nm.preset("dell-r7525")
    mine = topo.extras_sources["memory.dma_fraction"]
    theirs = topo.host.platform_sources["memory.dma_fraction"]
    assert mine.startswith("estimate: a stand-in for the paper's 128K-read bend, not a measured DMA limit")
    assert "0.68" in mine and "CPU at 90 %" in mine and "no AMD or Dell figure" not in mine
    assert theirs.startswith("measured: 0.68") and "dell-r7525 preset keeps 0.38 only as its stand-in" in theirs
    assert topo.extras["memory.dma_fraction"] == 0.38 and topo.host.platform["memory.dma_fraction"] == 0.68
