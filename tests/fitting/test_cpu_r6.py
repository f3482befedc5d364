"""Round 6's CPU classes (``_blind_rounds/round6_hand_read_part2.md`` BC, BG, BH; part 1's note that round 5's AA
was not fixed on the P3600 series), each by a general rule of fio's CPU accounting in
:mod:`nvmemodel.fitting.cpu_claims`:

- "CPU spent per second, not per I/O" compares each job's CPU share with each job's rate (the total ÷ jobs), along
  block size also with its bytes (a cost per byte keeps a share level while IOPS fall), and is never said of an
  engine that cannot poll (psync sleeps for each I/O) (BG).
- With no device under the files, a sync call's time "in flight" is its own work (a copy, a lock), not a wait: it
  is no evidence that the job's CPU did not hold it (BG, tmpfs).
- A job making ≥ 85 % of the rate one CPU sustains at its own measured cost is "at or near its CPU limit", whatever
  the time in flight reads (BC).
- A zero CPU figure of whole-second accounting is "below fio's resolution (1 s ÷ the I/Os)", never a cost of 0 nor
  a ratio ×0 (BH).

The spent round-6 cases are fitted here (round 6 is spent)."""

from __future__ import annotations

import re

import pytest

from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore:'str' is not supported as a fill value")


def _cpu_texts(fit) -> list[str]:
    return [c["text"] for c in fit.claims() if c["kind"] == "cpu"]


def test_psync_jobs_sleeping_per_read_are_not_spinning():
    """r6 ZNS psync numjobs 1-14: 4.7-5.2 % of a CPU per job while the TOTAL rate changed ×11.7 (each job's ×0.84,
    ctx = I/Os). Round 6 read 'CPU spent per second … spins or polls' as contradicted."""
    text = " ".join(_cpu_texts(cs.fit_case_id("r6_znsstudy_zns-ssd_4k-randread_psync_numjobs", "blind6")))
    assert "spins or polls" not in text and "per second, not per I/O" not in text
    assert "5.2 % of one CPU per job" in text


def test_psync_on_tmpfs_along_block_size_is_not_polling_nor_waiting():
    """r6 tmpfs psync zipf along block size: 32-37 % of a CPU while IOPS changed ×158 (bytes ×1.6: a cost per
    byte); no device under the files, so the call's time is its copy, not a wait (round 6: misleading)."""
    text = " ".join(_cpu_texts(cs.fit_case_id("r6_here_tmpfs_psync_zipf_bs_repeats", "blind6")))
    assert "spins or polls" not in text
    assert "did not hold it" not in text and "in flight for" not in text


def test_job_near_the_rate_one_cpu_sustains_is_near_its_cpu_limit():
    """r6 P3600, 1 job × QD 32: 237.36 K IOPS against the 269.5 K one CPU sustains at its 3.71 µs (88 %); 2 jobs ×
    QD16 made 266 K. Round 6 read 'its own CPU did not hold it' as misleading (round 5's AA)."""
    texts = _cpu_texts(cs.fit_case_id("r6_kangeek_p3600_4k-randread_iodepth_by-numjobs", "blind6"))
    one = next(t for t in texts if "0.881 CPUs" in t)
    assert "did not hold it" not in one
    assert "at or near its CPU limit" in one
    m = re.search(r"made ([\d.]+) K IOPS, (\d+)% of the ([\d.]+) K IOPS one CPU sustains", one)
    assert m and float(m[1]) == pytest.approx(237.36, rel=0.01) and float(m[3]) == pytest.approx(269.5, rel=0.01)
    assert 85 <= int(m[2]) < 95
    # the cross-curve evidence: 2 jobs × QD16 (the same 32 outstanding) made 266.19 K, +12 %
    m = re.search(r"at the same 32 I/Os outstanding 2 jobs \(iodepth = 16 each\) made ([\d.]+) K IOPS, \+(\d+)%", one)
    assert m and float(m[1]) == pytest.approx(266.19, rel=0.01) and int(m[2]) == 12
    # the 4-job curve (41 % of a CPU per job, 98 K per job of 265 K) keeps its verdict
    # (since round 10, JA: no "no job's own CPU held it" argued from the I/O in flight all the cycle)
    assert any("1.63 CPUs" in t and "what held the rate its CPU figures do not show" in t for t in texts)


def test_whole_second_zero_is_below_resolution_not_a_cost_of_zero():
    """r6 USB SSD along block size on Windows (CPU in whole seconds over 30 s): every 1 MiB run reads 0.000 CPU, so
    the cost is < 1/30 CPU ÷ 304 IOPS ≈ 110 µs. Round 6 read '1 MiB 0 µs — ×0 … lowest at 1 MiB' as misleading."""
    text = " ".join(_cpu_texts(cs.fit_case_id("r6_ysj_sandisk-usb_randread_qd32_bs_repeats", "blind6")))
    assert "0 µs" not in text.replace("110 µs", "") and "×0 " not in text and "lowest at 1 MiB" not in text
    assert "used 0 CPUs" not in text
    m = re.search(r"1 MiB below fio's resolution \(< ([\d.]+) µs", text)
    assert m and float(m[1]) == pytest.approx(110, rel=0.05)
    assert "4 KiB 14.6 µs" in text and "64 KiB 27.4 µs" in text  # medians of the runs' (round 9, GC): 14.5 by sums
