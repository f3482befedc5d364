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
