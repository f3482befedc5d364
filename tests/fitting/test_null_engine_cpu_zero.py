"""fio's null engine with a CPU figure of 0 at the point read (a run of a few ms: below fio's resolution) —
explain() once raised a TypeError there (found on fio 3.33, where ``--runtime=0.3`` is not 0.3 s and each run took
3–4 ms); now the sentence says no cost is read from it."""
import pandas as pd

import nvmemodel as nm


def _table(cpu_usr):
    qd = [1, 2, 4, 8, 16]
    return pd.DataFrame({"iodepth": qd, "numjobs": 1, "iops": [5.46e6, 4.10e6, 4.10e6, 4.10e6, 4.10e6],
                         "block_size_bytes": 4096, "direction": "read", "pattern": "randread",
                         "ioengine": "null", "cpu_usr": cpu_usr, "cpu_sys": 0.0, "runtime_s": 0.004,
                         "lat_mean_s": [1.8e-7, 2.4e-7, 2.4e-7, 2.4e-7, 2.4e-7],
                         "source_path": [f"qd{q}.json" for q in qd], "run": 0})


def test_a_zero_cpu_figure_is_no_cost():
    text = nm.fit(_table([0.0, 1.0, 1.0, 1.0, 1.0]), x="iodepth", y="iops").explain()
    assert "null engine does no I/O" in text
    assert "below its resolution: no cost per I/O is read from it" in text
    assert "per CPU;" not in text.split("null engine does no I/O")[1].split(".")[0]


def test_a_measured_cpu_figure_gives_the_cost():
    text = nm.fit(_table([0.9, 1.0, 1.0, 1.0, 1.0]), x="iodepth", y="iops").explain()
    assert "below its resolution" not in text.split("null engine does no I/O")[1].split(".")[0]
    assert "of CPU per I/O at iodepth = 1" in text
