"""Round 31's device-axis classes SA and SG (``_blind_rounds/round31_hand_read_part1.md``), read before the rules these
tests hold were set (docs/fitting.md names them). Round 31 is spent: its spdk #3097 cases are fitted here, with round
30's device series and labelled synthetic tables as counter-cases.

- SA: a peak, then a collapse (a fall beyond the noise that stays below the peak) along targets, told "the added
  targets added nothing … a limit the targets share binds (… or a load that did not grow with the targets)". Counter:
  r30 i7ie randwrite (a shared limit that binds: "binds" right), r30 azure (interleaved levels), a last-point dip
  inside the ±25 % a single run moves, a fall inside the repeats' noise, a fall along iodepth.
- SG: the trough and the last point after a peak; the one-step rise as a yield per added target; cpus_allowed growing
  with the count said once. Counter: a fall whose last point is the trough; an iodepth axis (no trough words).
"""
from __future__ import annotations

import types

import numpy as np
import pytest

from nvmemodel.fitting.device_collapse import _cpu_count, collapse, trough_words
from nvmemodel.fitting.device_steps import yields_verdict
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

P30_2305 = "r31_spdk3097_vfio-user-spdk2305-qemu-p30_qd128_targets"
P30_2401 = "r31_spdk3097_vfio-user-spdk2401-qemu-p30_qd128_targets"
P31 = "r31_spdk3097_vfio-user-spdk2401-qemu-p31_qd128_targets"
I7IE_WRITE = "r30_scyllaio_aws-i7ie-7500g-raid0_iotune-randwrite_drives"
AZURE = "r30_scyllaio_azure-lsv3-1.92t-raid0_iotune-randread_drives"

_CACHE: dict = {}


def _claim(case, kind):
    if case not in _CACHE:
        _CACHE[case] = fit_case_id(case).claims()
    (c,) = [c for c in _CACHE[case] if c["kind"] == kind]
    return c


def test_sa_a_collapse_along_targets_is_no_cap_reached():
    c = _claim(P30_2305, "scaling")
    t = c["text"]
    assert c["facts"]["verdict"] == "collapse"
    # 17.78 M at 20 VMs = 0.855 of 20 × 1.04 M; yields (4.37−2.08)/2, (12.06−4.37)/8, (17.78−12.06)/8 of 1.04 M
    assert "peaks at 17.78 M IOPS at 20 targets (85% of linear; the steps to it yielded 110%, 92%, 69% of one " \
           "target)" in t
    # 7.42/17.78 = −58 %; 7.42, 5.61, 6.84 M are 58, 68, 62 % below the peak; the trough 5.61 M at 36
    assert "then falls 58% at 28 and stays 58–68% below the peak to 44" in t
    assert "the trough 5.61 M IOPS at 36, 68% below the peak; 6.84 M IOPS at 44, 62% below it" in t
    assert "something they share degrades past 20 targets, not a cap reached (a cap holds its level)" in t
    assert "+22% to 44) is one run a point: no verdict" in t
    assert "1 → 22 (1 per 2 targets at every count)" in t  # cpus_allowed "1 SPDK target core(s)" … 22 (SG)
    for never in ("added nothing", "did not grow", "binds"):
        assert never not in t
    c2 = _claim(P30_2401, "scaling")["text"]
    assert "peaks at 18.01 M IOPS at 20 targets (84% of linear" in c2 and "55–66% below the peak to 44" in c2
    c3 = _claim(P31, "scaling")["text"]  # the peak at the end of the linear stretch, a gradual first fall (−16 %)
    assert "peaks at 12.90 M IOPS at 12 targets (98% of linear; the step to it yielded 96% of one target), then " \
           "falls 16% at 20 and stays 16–59% below the peak to 36" in c3 and "2 → 18" in c3


def test_sa_counter_a_binding_shared_limit_and_interleaved_levels_keep_their_words():
    assert _claim(I7IE_WRITE, "scaling")["facts"]["verdict"] == "shared_limit"   # "binds" right there
    assert "a limit the devices share binds" in _claim(I7IE_WRITE, "scaling")["text"]
    assert _claim(AZURE, "scaling")["facts"]["verdict"] == "levels"


def test_sa_counter_a_dip_within_what_one_run_moves_or_the_noise_is_no_collapse():
    x = [1, 2, 4, 8, 16]
    # one run a point: the last point 12 % below the peak, no step beyond 25 %: no collapse
    assert collapse(x, [1.0, 2.0, 3.9, 7.5, 6.6]) is None
    # a larger fall in steps of 20 % each, never one beyond 25 %: no collapse read from one run a point
    assert collapse(x, [1.0, 2.0, 3.9, 3.1, 2.5]) is None
    # the same −30 % step: one run a point, a collapse
    c = collapse(x, [1.0, 2.0, 3.9, 2.73, 2.6])
    assert c is not None and c["x_peak"] == 4 and c["trough"] == 2.6 and not c["repeated"]
    # with repeats: the trough's runs overlap the peak's runs → within the noise, no collapse
    n = [3] * 5
    assert collapse(x, [1.0, 2.0, 3.9, 2.73, 2.6], lo=[.9, 1.8, 2.0, 2.5, 2.5], hi=[1.1, 2.2, 5.0, 3.0, 2.7],
                    n_runs=n) is None
    assert collapse(x, [1.0, 2.0, 3.9, 2.73, 2.6], lo=[.9, 1.8, 3.7, 2.5, 2.5], hi=[1.1, 2.2, 4.1, 3.0, 2.7],
                    n_runs=n) is not None
    # a peak at the last point, or a recovery to within 10 % of the peak: no collapse
    assert collapse(x, [1.0, 2.0, 3.9, 5.0, 7.0]) is None
    assert collapse(x, [1.0, 2.0, 3.9, 2.0, 3.6]) is None


def test_sg_the_trough_and_the_last_point_after_a_peak():
    t = _claim(P30_2305, "saturation")["text"]
    assert "falls 68% to its trough, 5.61 M IOPS at targets = 36 (6.84 M IOPS at targets = 44, the last point, 62% " \
           "below the peak)" in t
    # counter: the last point is the trough → the head unchanged; an iodepth axis → unchanged
    head = "peaks at 9 at targets = 4 and falls 40% to 6 at targets = 16, beyond"
    dev = types.SimpleNamespace(x="targets", y_unit="IOPS")
    assert trough_words(dev, [1, 2, 4, 8, 16], [2, 4, 10, 7, 6], {"x_max": 4, "y_max": 10}, head, "40%") == head
    qd = types.SimpleNamespace(x="iodepth", y_unit="IOPS")
    assert trough_words(qd, [1, 2, 4, 8, 16], [2, 4, 10, 5, 6], {"x_max": 4, "y_max": 10}, head, "40%") == head


def test_sg_a_one_step_rise_along_devices_is_a_yield_per_added_target():
    t = _claim(P31, "saturation")["text"]
    # (12.90 − 4.41) M / 8 VMs = 1.06 M a VM, 96 % of 4.41/4 = 1.10 M
    assert "Up to it the load still paid, from 4.41 M IOPS at targets = 4: 1.06 M IOPS per added target (4 → 12: " \
           "96% of one target's 1.10 M IOPS)" in t
    assert "per doubling from" not in t
    assert yields_verdict([0.5]) == {"kind": "one"}
    assert yields_verdict([0.5, 0.3, 0.1])["kind"] == "slows"  # (two falls: unchanged)


def test_sg_cpus_allowed_counts():
    assert _cpu_count("0-3,8") == 5            # fio's list, as fio counts it
    assert _cpu_count("6 SPDK target core(s)") == 6
    assert _cpu_count("2 CPUs") == 2
    assert _cpu_count("numa") is None and _cpu_count(None) is None and _cpu_count(np.nan) is None


def test_sa_a_fall_then_a_held_lower_level_is_said_as_a_level():
    # r20 devcount seqread128k (blind20, spent): 7.07 GB/s at 2 loop devices (the 2 cores), then 5.08, 4.87, 4.74 GB/s
    # at 3, 4, 6 (each within 4 % of their mean): a fall, then a lower level held — not "the trough" of a collapse
    c = _claim("r20_here-devcount_loops_libaio_seqread128k_qd4-per-dev_devcount_repeats", "scaling")
    t = c["text"]
    assert c["facts"]["verdict"] == "collapse" and c["facts"]["collapse"]["held"]
    assert "then falls 28% at 3 and holds a lower level to 6, 4.74 GB/s (4.42 GiB/s)–5.08 GB/s (4.73 GiB/s) (28–33% " \
           "below the peak)" in t
    assert "not a cap reached at the peak" in t and "trough" not in t and "added nothing" not in t
    # pure: a later level that drifts beyond ±10 % of its mean is no held level
    assert collapse([1, 2, 3, 4, 6], [4.26, 7.07, 5.08, 4.87, 4.74])["held"]
    assert not collapse([2, 4, 12, 20, 28, 36, 44], [2.08, 4.37, 12.06, 17.78, 7.42, 5.61, 6.84])["held"]
