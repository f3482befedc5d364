"""QA s25 H13: reads and writes of different block sizes (fio ``--bs=4k,64k``) are named per direction in the
fit figure's title and the chart's "what was run" line, never as one size ("4K … throughput") or as a bsrange
("bs 4K–64K"); the fit figure's residual panel has the explanation's sign (fitted ÷ measured − 1), named on
its axis.

Data: tests/data/qa6/rwbs — libaio randrw 50/50, ``--bs=4k,64k`` (4 KiB reads, 64 KiB writes), iodepth 1/4/16,
fio 3.33 json+ (tests/data/qa6/README.md). At iodepth 1: 31.8 MB/s of reads, 542 MB/s of writes."""

import re

import matplotlib
import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.plots.fit import measurement_title, plot_fit
from nvmemodel.plots.results import provenance

matplotlib.use("Agg")
RWBS = "tests/data/qa6/rwbs"


@pytest.fixture(scope="module")
def table():
    return nm.read_results(RWBS)


def test_titles_name_each_directions_size(table):
    r = nm.fit(table, x="iodepth", y="bytes_per_s")
    assert measurement_title(r)[0] == "random read/write throughput (4K reads + 64K writes) vs queue depth"
    # one direction of the mix: that direction's own size
    assert measurement_title(nm.fit(table, x="iodepth", y="write_iops"))[0] == \
        "random read/write: 64K write IOPS vs queue depth"
    assert measurement_title(nm.fit(table, x="iodepth", y="read_bytes_per_s"))[0] == \
        "random read/write: 4K read throughput vs queue depth"


def test_the_what_was_run_line_is_not_a_bsrange(table):
    line = provenance(table, x="iodepth")
    assert "bs 4K (read), 64K (write)" in line and "4K–64K" not in line
    # one size for every direction (qa6/grid, 4 KiB randread): as before
    assert "· bs 4K ·" in provenance(nm.read_results("tests/data/qa6/grid"), x="iodepth")


def test_the_residual_panel_has_the_explanations_sign(table, tmp_path):
    r = nm.fit(table, x="iodepth", y="bytes_per_s")
    said = re.search(r"misses 2 points by more than 50 %: ([+-]\d+)% at iodepth = 1, ([+-]\d+)% at iodepth = 4 "
                     r"\(fitted ÷ measured − 1\)", r.explain())
    assert said, r.explain()
    fig = plot_fit(r, path=tmp_path / "r.png")
    resid = fig.axes[1]
    assert resid.get_ylabel() == "fitted ÷ measured − 1 (%)"
    x, y = next(ln for ln in resid.get_lines() if ln.get_marker() == "o").get_data()
    shown = dict(zip(np.asarray(x, float), np.asarray(y, float)))
    assert round(shown[1.0]) == int(said.group(1)) and round(shown[4.0]) == int(said.group(2))
    assert shown[1.0] < 0  # the line lies below the measured 0.574 GB/s at iodepth 1
