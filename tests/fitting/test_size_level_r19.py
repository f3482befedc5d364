"""Round 19's class UF (``_blind_rounds/round19_hand_read_part1.md``), rules in ``nvmemodel/fitting/size_level.py``:
along block size,

- the sizes below a measured byte level (flat over ≥ 3 sizes up to the largest, no IOPS cap speaking for the small
  sizes) are said before it — the rise and the two sizes the level starts between — where the last of them lies more
  than ``FLAT`` below the level (r19 here-batch batch16 bs: 0.71 → 2.10 GB/s over 4–16 KiB unsaid before "flat at
  2.81–2.84 GB/s from 64 KiB");
- a stretch of the largest sizes (≥ 3) whose bandwidth changes by less than ``FLAT`` per doubling of the size while
  the job was busy on its CPU at every one of them is a byte level its CPU held, said as a level with the rise into it
  before the peak and fall inside it (r19 here-mmapw tmpfs randwrite bs: 5.16–6.23 GB/s over 64 KiB–1 MiB at 99 % of a
  CPU, said only as "peaks at 6.23 GB/s … falls 17 %").

Rounds 19 and 20 are spent; counters are spent cases.
"""

from __future__ import annotations

import pandas as pd
import pytest

from nvmemodel.fitting.facts import FLAT, curve_facts
from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

BATCH16 = "r19_here-batch_loop_libaio_batch16_randread_qd16_bs_repeats"
TMPFS = "r19_here-mmapw_tmpfs_mmap_randwrite_bs_repeats"


def _cf(fit):
    (key,) = fit.fits
    return curve_facts(fit, key)


def _medians(case_id):
    p = pd.read_csv(CORPUS / case_id / "points.csv")
    return p.groupby("block_size_bytes")["bw_bytes_per_s"].median()


def test_uf_r19_batch16_rise_into_the_byte_cap_and_its_onset():
    bw = _medians(BATCH16)  # 0.709, 2.10, 2.84, 2.81, 2.84 GB/s (3 runs a size, medians)
    cap = _cf(_fit(BATCH16)).cap.facts
    r = cap["bytes_rise"]
    assert cap["bytes_flat"] == (65536, 1048576) and cap["bytes_range"][0] == pytest.approx(bw[262144])
    assert (r["x_from"], r["x_last"], r["x_level"], r["sizes"], r["rose"]) == (4096, 16384, 65536, 2, True)
    assert r["bytes"] == pytest.approx((bw[4096], bw[16384])) and bw[16384] < (1 - FLAT) * bw[262144]
    (text,) = _texts(_fit(BATCH16), "cap")
    assert text.startswith("Measured bandwidth rises with the size from 0.709 GB/s (0.661 GiB/s), 173.15 K IOPS, at "
                           "4 KiB to 2.1 GB/s (1.95 GiB/s), 127.90 K IOPS, at 16 KiB and reaches its level between 16 "
                           "KiB and 64 KiB; it is flat at 2.81 GB/s"), text
    assert "a byte cap of 2.84 GB/s (2.64 GiB/s) or a little above, measured" in text


@pytest.mark.parametrize("case_id,why", [
    ("r9_bretmlw_pm991a-pcie-gen2_randread_bs", "flat from the first size: nothing below it"),
    ("r2_here_blkio_write_roofline_bs", "an IOPS cap holds the small sizes: the roofline's crossover says the onset"),
    ("r20_jherskovic_iscsi-truenas-lan_seqread-qd1_bs", "256 KiB at 85.3 MB/s lies 9.7 % below the level: its edge"),
    ("r20_xeome_zram-zstd-venditatio_read_bs", "4 KiB at 2.74 GB/s lies 7 % below the level: its edge"),
])
def test_uf_counter_no_rise_words(case_id, why):
    fit = _fit(case_id)
    cap = _cf(fit).cap.facts
    assert cap["bytes_cap"] is not None and cap["bytes_rise"] is None, why
    assert not any("reaches its level" in t for t in _texts(fit)), why


def test_uf_r19_tmpfs_byte_level_its_cpu_held():
    bw = _medians(TMPFS)  # 2.08, 4.36, 5.51, 6.23, 5.16 GB/s; every job 99 % of a CPU
    f = _cf(_fit(TMPFS)).size_fall.facts
    c = f["cpu_level"]
    assert f["held"] is not None and f["bytes_cap"] is None  # the peak shows no byte limit (round 10 JD) …
    assert (c["x_from"], c["x_to"], c["points"]) == (65536, 1048576, 3)  # … the stretch its CPU held is a level
    assert (c["lo"], c["hi"]) == pytest.approx((bw[1048576], bw[262144]))
    per = [(bw[b] / bw[a]) ** 0.5 - 1 for a, b in ((65536, 262144), (262144, 1048576))]  # +6.3 %, −9.0 % a doubling
    assert all(abs(g) < FLAT for g in per) and (bw[65536] / bw[16384]) ** 0.5 - 1 > FLAT  # (16 → 64 KiB: +12 %)
    assert c["per_max"] == pytest.approx(per[1]) and c["busy"][0] >= 0.99
    assert c["rise"]["x_last"] == 16384 and c["rise"]["bytes"] == pytest.approx((bw[4096], bw[16384]))
    (text,) = _texts(_fit(TMPFS), "falls")
    assert text.startswith("Measured bandwidth rises with the size from 2.08 GB/s (1.94 GiB/s)"), text
    assert ("reaches its level between 16 KiB and 64 KiB; it stays at 5.16 GB/s (4.81 GiB/s)–6.23 GB/s (5.8 GiB/s) "
            "from 64 KiB to 1 MiB, under 10% per doubling of the size at every step (-9% the largest)") in text
    assert "a byte level its CPU held" in text
    assert "Within it bandwidth peaks at 6.23 GB/s (5.8 GiB/s), 23.78 K IOPS, at 256 KiB and falls 17%" in text, text


def test_uf_counter_r20_nerdst_fall_not_cpu_held():
    # one NVMe drive at QD1: 1.43 GB/s at 128 KiB, 0.794 GB/s at 256 KiB, the job at 42 % of a CPU: no CPU-held level
    fit = _fit("r20_nerdst_nvme-p7_seqread_qd1_bs")
    sf = _cf(fit).size_fall  # (no fall at all since round 20's RB: the peak's two runs differ ×1.46)
    assert sf is None or (sf.facts["held"] is None and sf.facts["cpu_level"] is None)
    assert not any("its CPU held" in t for t in _texts(fit))


def test_uf_r9_gen3_randwrite_sizes_below_that_do_not_rise_are_not_said_to():
    # 0.621 GB/s at 4 KiB, 0.625 GB/s at 8 KiB (+0.6 %, within a run's scatter), then 0.753–0.766 GB/s from 64 KiB:
    # below the level, but no rise with the size between them
    fit = _fit("r9_bretmlw_pm991a-pcie-gen3_randwrite_bs")
    r = _cf(fit).cap.facts["bytes_rise"]
    assert (r["x_last"], r["x_level"], r["sizes"], r["rose"]) == (8192, 65536, 2, False)
    (text,) = _texts(fit, "cap")
    assert text.startswith("Measured bandwidth lies below its level at the 2 smaller sizes (0.621 GB/s (0.579 GiB/s) at "
                           "4 KiB, 0.625 GB/s (0.582 GiB/s) at 8 KiB) and reaches it between 8 KiB and 64 KiB"), text
    assert "rises" not in text


def test_uf_r13_sizes_below_one_kib_keep_their_unit():
    (text,) = _texts(_fit("r13_krien-nvmebench_nvme-a-spdk_write_qd32_bs"), "cap")
    assert "at 512 B to 0.336 GB/s" in text and "reaches its level between 2 KiB and 4 KiB" in text, text
