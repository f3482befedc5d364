"""Round 30's saturation classes (``_blind_rounds/round30_hand_read_part2.md`` QB, QC, QD and ``…part3.md`` RB, RH), on
the spent r30 cases and seeded, labelled synthetic counter-cases:

- RB: no onset, but the trailing doublings gained ≤ 20 % at ≥ ×1.6 the latency after a step that gained twice as much:
  near saturation, never "no ceiling … the gains do not shrink" (``near_saturation.trailing_stretch``).
- RH: "most"/"part of the added load queued" by the share that waited (``near_saturation.queued_words``).
- QB, QC: a step whose latency fell beyond the runs, or whose every run fell before a recovery, is a change of path,
  not queueing (``load_path.py``).
- QD: along block size, a byte level from the first size before "still rises" (``first_size.py``).
"""

import numpy as np
import pandas as pd

import nvmemodel as nm
from tests.fitting import corpus_score as cs

SQPOLL = "r30_here-uringsqpoll_vda-ext4-512mfile_iouring-sqpoll-direct_randread4k_iodepth_repeats"
EXOSW = "r30_croit_ceph-rbd-rep3-6x-exos2x14-mach2_4k-randwrite-librbd_iodepth"
TOSHW = "r30_croit_ceph-rbd-rep3-6x-toshiba-mg06-hdd_4k-randwrite-librbd_iodepth"
OTQD = "r30_orangetangy_crucial-p3plus-500g-win-windowsaio_4k-randread_qd_repeats"
LDQD = "r30_lucasding_pm981-256g-nvme1n1p1_4k-randread-iouring_qd"
OTWBS = "r30_orangetangy_crucial-p3plus-500g-win-windowsaio_randwrite-qd8_bs_repeats"
OTRBS = "r30_orangetangy_crucial-p3plus-500g-win-windowsaio_randread-qd8_bs_repeats"
LDSEQ = "r30_lucasding_pm981-256g-nvme1n1p1_seqread-iouring-qd32_bs"


def _sat(res) -> str:
    sat, = [c["text"] for c in res.claims() if c["kind"] == "saturation"]
    return sat


def _depth_table(rates, lats=None, names=None, spread=0.01, seed=30):
    """SYNTHETIC (seeded): libaio direct 4 KiB random reads at iodepth 1–64, one job, 3 runs a point at ±``spread``,
    each run's mean latency iodepth ÷ its rate (Little's law 1) unless ``lats`` gives the point's latency."""
    rng = np.random.default_rng(seed)
    rows = []
    for n, (qd, rate) in enumerate(zip((1, 2, 4, 8, 16, 32, 64), rates)):
        for r in range(3):
            iops = rate * (1 + spread * rng.standard_normal())
            lat = qd / iops if lats is None else lats[n] * (1 + 0.01 * rng.standard_normal())
            name = (names or {}).get(qd, f"{n:03d}-randread-qd{qd}-t{r}").format(r=r)
            rows.append({"source_path": f"synthetic/{name}.json", "job_name": name, "numjobs": 1, "iodepth": qd,
                         "direction": "read", "ioengine": "libaio", "direct": 1, "block_size_bytes": 4096,
                         "iops": iops, "runtime_s": 5.0, "ios": iops * 5.0, "lat_mean_s": lat})
    return pd.DataFrame(rows)


# --- RB, RH ---------------------------------------------------------------------------------------------------------

def test_rb_uringsqpoll_near_saturation_without_an_onset():
    """uringsqpoll: +48 % → +10 % → +10 % per doubling (means) at ×1.82, ×1.81 the latency, Little 0.99–1.00; round
    30 read "still rises … the gains do not shrink step over step … no ceiling is reached" (contradicted, RB)."""
    res = cs.fit_case_id(SQPOLL, "blind30")
    sat = _sat(res)
    assert "no ceiling" not in sat and "do not shrink" not in sat and "still rises" not in sat, sat
    assert sat.startswith("Measured IOPS is near saturation from iodepth = 16: after +48% per doubling (1 → 4), the "
                          "steps gained +10% (4 → 16, +20% for ×4 the iodepth), +10% (16 → 64, +21% for ×4 the "
                          "iodepth) per doubling of iodepth by the means"), sat
    assert "grew ×1.82, ×1.81 per doubling" in sat and "90% of the added load waited" in sat, sat
    assert "at or above 81.44 K IOPS, the last point, not reached within the data" in sat, sat
    f, = [c["facts"] for c in res.claims() if c["kind"] == "saturation"]
    assert f["state"] == "near" and f["onset_x"] == 16.0


def test_rb_synthetic_fires_and_its_counter_case_does_not():
    """SYNTHETIC: +50 % a doubling to 16, then +12 %, +12 % (×1.79 the latency): near saturation from 32; the
    counter-case gains +14 % at every doubling (no earlier step twice the last): "still rises" stands, and the
    "do not shrink" verdict with it."""
    near = _sat(nm.fit(_depth_table((10e3, 15e3, 22.5e3, 33.75e3, 50.6e3, 56.7e3, 63.5e3)), x="iodepth", y="iops"))
    assert "is near saturation from iodepth = 32: after +50% per doubling" in near, near
    assert "no ceiling" not in near, near
    even = _sat(nm.fit(_depth_table(tuple(10e3 * 1.14 ** k for k in range(7))), x="iodepth", y="iops"))
    assert "near saturation" not in even and "still rises at the largest iodepth" in even, even


def test_rb_counter_cases_spent():
    """exos randwrite (+24 % then +14 %: no step twice the last) keeps "still rises"; its "do not shrink" is not
    said either way (only the last gain fell). toshiba randwrite keeps its slowing words, not reached."""
    exos = _sat(cs.fit_case_id(EXOSW, "blind30"))
    assert exos.startswith("Measured IOPS still rises at the largest iodepth: the last step added +14% per doubling"), exos
    tosh = _sat(cs.fit_case_id(TOSHW, "blind30"))
    assert "approaching a ceiling it has not reached within the data" in tosh, tosh


def test_rh_queued_words_by_the_share():
    """exos randwrite: +14 % per doubling, 86 % of the added load waited — "most", as toshiba's 82 % (RH)."""
    exos = _sat(cs.fit_case_id(EXOSW, "blind30"))
    assert "(most of the added load queued: 86% of it waited, by Little's law)" in exos, exos
    tosh = _sat(cs.fit_case_id(TOSHW, "blind30"))
    assert "most of the added load queued: 82% of it waited, by Little's law" in tosh, tosh


def test_rb_gains_compared_all_not_the_last_pair():
    """The "do not shrink" verdict compares every listed gain: one that fell from +40 % to +20 % and held is not
    "the gains do not shrink" (RB (i))."""
    from nvmemodel.fitting.saturation_claims import _bend_words

    said = _bend_words({}, False, True, [0.40, 0.20, 0.21, 0.20])
    assert "do not shrink" not in said and "the last gain is below the earlier +40%" in said, said
    assert "do not shrink" in _bend_words({}, False, True, [0.20, 0.22, 0.19, 0.21])
    # a last gain as large as any before (r5 samyaple: +85 % … +29 % … +96 %): no fall to tell
    assert "do not shrink" in _bend_words({}, False, True, [0.85, 0.43, 0.29, 0.64, 0.61, 0.96])


# --- QB, QC ---------------------------------------------------------------------------------------------------------

def test_qb_qc_otqd():
    """otqd: QD 8 → 16 every run lower (median 23.66 K → 10.41 K IOPS), and 64 → 128 each read faster (1.86 → 1.05
    ms, every run apart) across a change of run set: round 30 read "Up to it the load still paid: +137%" and "The rise
    began at 4.78 K IOPS … (×16.6 to the onset …)" (misleading, QB, QC)."""
    sat = _sat(cs.fit_case_id(OTQD, "blind30"))
    assert "Up to it the load still paid" not in sat and "The rise began" not in sat, sat
    assert "at iodepth = 8 → 16 every run was lower (23.66 K IOPS → 10.41 K IOPS, the medians; fio's mean latency " \
           "325 µs → 1.52 ms" in sat and "the later rise is a recovery" in sat, sat
    assert "the step iodepth = 64 → 128 (33.75 K IOPS → 79.85 K IOPS, the medians) is no queueing: each I/O took less " \
           "time at the higher load (fio's mean latency 1.86 ms → 1.05 ms" in sat, sat
    assert "another run set than at 64 (extension-qd#-t# against" in sat, sat
    assert "saturated from iodepth = 128" in sat, sat


def test_qc_synthetic_fires_and_its_counter_cases_do_not():
    """SYNTHETIC: 32 → 64 gains ×1.75 (not faster than the load) while the latency falls 1.2 → 0.9 ms with every
    run apart and the 64 runs named another way: said, with the run set; the same with the latency growing: not."""
    rates = (10e3, 19e3, 34e3, 50e3, 55e3, 56e3, 98e3)
    lats = (1e-4, 1.05e-4, 1.18e-4, 1.6e-4, 2.9e-4, 1.2e-3, 0.9e-3)
    fell = _sat(nm.fit(_depth_table(rates, lats, names={64: "ext-qd64-t{r}"}), x="iodepth", y="iops"))
    assert "the step iodepth = 32 → 64" in fell and "is no queueing" in fell, fell
    assert "another run set than at 32 (ext-qd#-t# against" in fell and "coincides with that change" in fell, fell
    grew = _sat(nm.fit(_depth_table(rates, lats[:-1] + (1.5e-3,)), x="iodepth", y="iops"))
    assert "no queueing" not in grew and "another run set" not in grew, grew


def test_qb_counter_cases():
    """A drop inside the runs' overlap (±30 % runs) and a monotone series (ldqd; r29 uringvda): no path words; the
    r29 vdadsync step keeps round 29 OC's words."""
    noisy = _sat(nm.fit(_depth_table((10e3, 19e3, 34e3, 30e3, 40e3, 42e3, 43e3), spread=0.3), x="iodepth",
                        y="iops"))
    assert "every run was lower" not in noisy, noisy
    for case, split in ((LDQD, "blind30"), ("r29_here-uringvda_vda-ext4-512mfile_iouring-direct_randread4k_iodepth_"
                                            "repeats", "blind29")):
        sat = _sat(cs.fit_case_id(case, split))
        assert "no queueing" not in sat and "every run was lower" not in sat, sat
    vd = _sat(cs.fit_case_id("r29_here-vdadsync_vda-ext4-64mfile-per-job_psync-direct-odsync_randwrite4k_numjobs_"
                             "repeats", "blind29"))
    assert "Faster than its load: the step 2 → 4 rose" in vd and "no queueing" not in vd, vd


def test_qb_synthetic_fires():
    """SYNTHETIC: QD 4 → 8 every run lower (34 K → 15 K IOPS at ±1 %), then 40 K at 16: the dip is said."""
    sat = _sat(nm.fit(_depth_table((10e3, 19e3, 34e3, 15e3, 40e3, 42e3, 43e3)), x="iodepth", y="iops"))
    assert "at iodepth = 4 → 8 every run was lower (34.04 K IOPS → 15.06 K IOPS" in sat and "the later rise is a recovery" in sat, sat


# --- QD -------------------------------------------------------------------------------------------------------------

def _kind(res, kind):
    return [c for c in res.claims() if c["kind"] == kind]


def test_qd_otwbs_byte_level_from_the_first_size():
    """otwbs: medians 46.1, 54.0, 51.4, 41.8, 36.4, 51.5 MB/s over 4–256 KiB; round 30 read "still rises at the
    largest block_size_bytes … (+49%)" (misleading, QD)."""
    res = cs.fit_case_id(OTWBS, "blind30")
    assert not _kind(res, "rising")
    c, = _kind(res, "plateau")
    assert c["text"].startswith("Measured throughput holds a byte level from the first block_size_bytes: 36.4 MB/s "
                                "(34.8 MiB/s)–54 MB/s (51.5 MiB/s) (the medians) over block_size_bytes = 4 KiB–256 KiB "
                                "(×64 the size), the largest ×1.48 the smallest, their median 48.8 MB/s"), c["text"]
    assert "702 µs at 4 KiB → 40.9 ms at 256 KiB at 8 in flight" in c["text"], c["text"]
    assert c["facts"]["state"] == "from_first" and 34e6 <= c["facts"]["plateau"] <= 56e6


def test_qd_counter_cases():
    """otrbs (a rise ×3.1, then a level) and ldseq (a rise, a level, a fall) keep their own claims."""
    for case in (OTRBS, LDSEQ):
        res = cs.fit_case_id(case, "blind30")
        assert "byte level from the first" not in res.explain(), case


# --- QE -------------------------------------------------------------------------------------------------------------

def test_qe_ldseq_level_before_the_peak():
    """ldseq: 64 KiB already gave 3.384 GB/s, 128 KiB 3.412, the peak 3.414 at 256 KiB; round 30 read "peaks at 3.41
    GB/s … at 256 KiB and falls 11%" without where the level began (mild, QE)."""
    text = cs.fit_case_id(LDSEQ, "blind30").explain()
    assert "Measured bandwidth reaches a level of 3.38 GB/s (3.15 GiB/s)–3.41 GB/s (3.18 GiB/s) at block_size_bytes = " \
           "64 KiB (every size from there to 256 KiB within 2% of the peak), peaks at 3.41 GB/s" in text, text
    assert "falls 11% to 3.05 GB/s" in text, text


def test_qe_one_point_peak():
    """A one-point peak (the size before it 10 % lower): no level before it."""
    from nvmemodel.fitting.first_size import level_before_peak

    x = [4096, 65536, 131072, 262144, 1048576]
    assert level_before_peak(x, [1e9, 2.9e9, 3.0e9, 3.4e9, 3.0e9], 262144) is None
    d = level_before_peak(x, [1e9, 3.36e9, 3.39e9, 3.4e9, 3.0e9], 262144)
    assert d == {"x0": 65536.0, "lo": 3.36e9, "hi": 3.4e9}
