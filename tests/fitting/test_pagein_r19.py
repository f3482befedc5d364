"""Round 19's UC (``_blind_rounds/round19_hand_read_part1.md``): a write-only mmap job whose device, in fio's own
disk statistics, read every page of the jobs' files (0.05 → 1.04 loop0 reads per fio write from 1 to 16 jobs) was
told "a fixed CPU share held the rate … a CPU quota or a busy host gives this". That device work is in the files
(nvmemodel.fitting.merges.other_direction); the CPU figures stay as measurements, the quota reading goes.

Counters: round 17's cpuquota series (the fixed-CPU-total cases the reading was made for; their device did no
writes under the read-only jobs) and a spent buffered write series whose device did no reads.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.claim import runs_rows
from nvmemodel.fitting.cpu_claims import IDLE_SHARE, run_flags
from nvmemodel.fitting.cpu_total import fixed_total
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.merges import OTHER, other_direction
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")

MMAPW = "r19_here-mmapw_ext4-on-loop_mmap_randwrite_numjobs_repeats"
QUOTA = ["r17_here-cpuquota_loop_cfs25pct_libaio_randread_iodepth_repeats",
         "r17_here-cpuquota_loop_cfs50pct_psync_randread_numjobs_repeats"]
NO_READS = "r17_here-endfsync_loop_psync_buffered_seqwrite64k_endfsync_numjobs_repeats"


def _fixed(fit):
    key = next(iter(fit.chosen))
    cf = curve_facts(fit, key)
    return fixed_total(fit, key, cf, run_flags(fit, key, cf.points), idle_share=IDLE_SHARE)


def _cpu(fit) -> str:
    return " ".join(c["text"] for c in fit.claims() if c["kind"] == "cpu")


def test_uc_r19_mmap_write_page_ins_said_not_a_quota():
    p = pd.read_csv(cs.CORPUS / MMAPW / "points.csv")
    assert set(p["direction"]) == {"write"} and set(p["ioengine"]) == {"mmap"}  # the premise: a write-only job
    per = (p["disk_read_ios"] / p["ios"]).groupby(p["numjobs"]).median()
    fit = cs.fit_case_id(MMAPW, "blind19")
    h = _fixed(fit)
    assert h is not None and h["device"] is not None  # the CPU total is still fixed: the measurement stays
    assert np.allclose(h["device"]["ratio"], per.sort_index().to_numpy())
    text = _cpu(fit)
    assert "a CPU quota or a busy host gives this" not in text and "a fixed CPU share held the rate" not in text
    m = re.search(r"([\d.]+) device reads per fio write at numjobs = 1 → ([\d.]+) at 16", text)
    assert m, text
    assert float(m[1]) == pytest.approx(per.loc[1], rel=0.01) and float(m[2]) == pytest.approx(per.loc[16], rel=0.01)
    assert "page cache" in text and "mapped files" in text  # mmap proves the page cache, nothing more is named
    assert re.search(r"the jobs together used [\d.]+–[\d.]+ CPUs", text)


@pytest.mark.parametrize("case", QUOTA)
def test_uc_counter_r17_fixed_cpu_total_keeps_its_reading(case):
    fit = cs.fit_case_id(case, "blind17")
    h = _fixed(fit)
    assert h is not None and h["device"] is None
    assert "a CPU quota or a busy host gives this" in _cpu(fit)


def test_uc_counter_a_write_series_whose_device_did_no_reads():
    p = pd.read_csv(cs.CORPUS / NO_READS / "points.csv")
    assert set(p["direction"]) == {"write"} and (p["disk_read_ios"] == 0).all()
    fit = cs.fit_case_id(NO_READS, "blind17")
    key = next(iter(fit.chosen))
    cf = curve_facts(fit, key)
    assert other_direction(runs_rows(fit, cf.points), cf.points) is None
    assert "device reads per fio write" not in fit.explain()


def test_uc_counter_seeded_reads_that_do_not_grow_or_stay_small():
    """One device, write-only runs: reads under OTHER per write, or not growing with the load, say nothing."""
    pts = pd.DataFrame({"x": [1.0, 2.0, 4.0], "sources": ["a", "b", "c"]})

    def rows(reads):
        return pd.DataFrame({"source_path": list("abc"), "direction": "write", "ios": 1000.0, "devices": "sda",
                             "disk_read_ios": reads, "disk_write_ios": 900})

    assert other_direction(rows([0, 10, 90]), pts) is None  # 0.09 < OTHER at the end
    assert other_direction(rows([500, 300, 200]), pts) is None  # shrank with the load
    got = other_direction(rows([10, 100, 1000 * OTHER * 3]), pts)
    assert got is not None and got["ratio"] == pytest.approx([0.01, 0.1, 3 * OTHER])
