"""Round 25 part 2's EE and EF (tests/data/explain_corpus/_blind_rounds/round25_hand_read_part2.md), fixed after round
25 was read: a byte limit approached with one I/O in flight at every size is given as one stream's time per write, a
fixed part plus the size ÷ a rate (EE, cap_claims._one_stream_words); every size outside a stated flat byte range is
named with its value and side (EF, cap_claims._outside_words). Spent cases assert the new words and numbers;
counter-cases (a spent case and a labelled synthetic curve) assert the rules do not fire."""

from __future__ import annotations

import types

import pandas as pd
import pytest

from nvmemodel.fitting.cap_claims import _one_stream_words

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

HELIOS4 = "r25_iscsiwifi_helios4-local-sg-hdd-vs-ssd_seqwrite_bs_by-disk"
LIOISCSI = "r25_iscsiwifi_lio-iscsi-80211ac_seqwrite-direct-psync_bs_by-disk"


def _curves(text: str) -> dict:
    return {("SSD" if "SSD" in head else "HDD"): body for head, body in
            (part.split(": ", 1) for part in text.split("\n\n"))}


def test_ef_helios4_ssd_names_the_size_below_its_level():
    c = _curves(fit_case_id(HELIOS4).explain())
    # 345.0 MB/s at 64 KiB against the 380.6 MB/s top: 9.4 % below (hand read)
    assert "9.4% below its top" in c["SSD"] and "below the level at 64 KiB: 0.345 GB/s" in c["SSD"]
    assert "9.4% below its top" in c["SSD"]
    assert "a byte cap of 0.381 GB/s" in c["SSD"]  # the cap verdict stays
    # counter: the HDD's flat range starts at the first size, 64 KiB (134.2 MB/s) inside it
    assert "below the level at" not in c["HDD"] and "from 64 KiB to 2 MiB" in c["HDD"]


def test_ee_lio_iscsi_one_stream():
    c = _curves(fit_case_id(LIOISCSI).explain())
    # time per write 33.22 → 64.52 ms (HDD) and 29.94 → 57.97 ms (SSD) from 1 to 2 MiB: 33.5 / 37.4 MB/s, ~1.9 ms fixed
    assert "each took a fixed 1.93 ms plus the size ÷ 33.5 MB/s" in c["HDD"]
    assert "each took a fixed 1.91 ms plus the size ÷ 37.4 MB/s" in c["SSD"]
    assert all("one stream's time per byte" in v for v in c.values())
    assert all("at or above" in v for v in c.values())  # the limit is still not measured beyond


def test_ee_counter_helios4_cap_keeps_its_verdict():
    # one job at QD1 too, but flat over ×32 with no fixed part: "a byte cap … measured" stays, no one-stream words
    text = fit_case_id(HELIOS4).explain()
    assert "one stream's time per byte" not in text
    assert text.count("or a little above, measured") == 2


def test_ee_counter_synthetic_deeper_queue():
    # SYNTHETIC: the same two sizes at 4 I/Os outstanding — more in flight already overlapped: no one-stream words
    pts = pd.DataFrame({"x": [1048576.0, 2097152.0], "bytes_per_s": [31.6e6, 32.5e6], "out": [4.0, 4.0]})
    cf = types.SimpleNamespace(points=pts)
    s = {"bytes_flat": (1048576.0, 2097152.0)}
    assert _one_stream_words(types.SimpleNamespace(x="block_size_bytes"), cf, s) == ""
    pts["out"] = 1.0
    assert "one stream's time per byte" in _one_stream_words(types.SimpleNamespace(x="block_size_bytes"), cf, s)


def test_ef_many_sizes_below_as_a_range_and_none_said_twice():
    # r11 myconfzns psync QD1: the IOPS sentence covers 1–16 KiB; 32–512 KiB lie below the 1–32 MiB level: one range
    text = fit_case_id("r11_myconfzns_femu-zns-mu11_seqread_psync-qd1_bs").explain()
    assert "below the level at the 5 sizes from 32 KiB to 512 KiB (0.272 GB/s" in text
    assert "below the level at 1 KiB" not in text
    # r10 icpe24sched: 8 KiB's 2.48 GB/s above the level is said once, by the CPU-held words
    text = fit_case_id("r10_icpe24sched_980pro_randread_iouring-1core_qd128_bs").explain()
    assert "above the level at" not in text and "8 KiB made 2.48 GB/s" in text
