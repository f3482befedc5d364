"""Round 16's one-verdict classes (``_blind_rounds/round16_hand_read_part1.md`` VA, VC, VF): two sentences of one
explanation that contradict each other, whichever rule wrote them.

- VA: "The files do not show what holds it" beside "the level is CPU-bound (the submitting job, ≥ 90 % busy)" — the
  verification pass (``verify.one_holder``) takes the saturation sentence's "cannot tell" words out where another
  sentence names the holder with its proof.
- VC: "no run reached that rate (at most 49.8 %): it did not bind" then "the runs were paced: a cost at a set rate …"
  — the CPU sentence reads the pacing sentence's own did-it-bind verdict (``pacing.pace_binds``).
- VF: the same unbound pace withheld the saturation sentence (onset, rise, latency): a pace no run reached is no load
  axis change, and the series reads as unpaced.

Round 16 is spent (its cases are fitted here); counter-cases where a rule must not fire: a cgroup-throttled series
with a nearly idle job (dev, here_blkio_iops_iodepth: the holder is not in the files, the words stay), a pace that
holds five of six points (tests/data/qa7/rateqd: still "paced", no saturation read), and seeded claim lists.
"""

from __future__ import annotations

import pathlib
import re
import warnings

import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.claim import Claim
from nvmemodel.fitting.fact_claims import UNKNOWN_HOLDER
from nvmemodel.fitting.verify import one_holder
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore:'str' is not supported as a fill value")

QA7 = pathlib.Path(__file__).parents[1] / "data" / "qa7"
ZRAM = "r16_here-zram_zram-lzorle_libaio_randread_iodepth_repeats"
NOPOLL = "r16_mickeydonkey_optane-nvme_4k-randread_iouring-nopoll_qd"
SQPOLL = "r16_mickeydonkey_optane-nvme_4k-randread_iouring-sqpoll_qd"
RAMFS = "r16_mickeydonkey_ramfs_4k-randread_iouring-nopoll_buffered_qd"


def _points(case_id) -> pd.DataFrame:
    return pd.read_csv(cs.CORPUS / case_id / "points.csv")


def _by_kind(fit) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in fit.claims():
        out[c["kind"]] = (out.get(c["kind"], "") + " " + c["text"]).strip()
    return out


# ------------------------------------------------------------------------------ VA: one holder per explanation
def test_cpu_bound_level_is_not_also_said_unknown():
    """r16 zram libaio randread QD1-32: usr+sys 0.997-0.999 CPU in all 18 runs at one cost (2.97-3.84 µs per point)
    — the CPU sentence names the holder, so the saturation sentence no longer says the files do not show it; what was
    taken out is in summary()."""
    p = _points(ZRAM)
    busy = p["cpu_usr"] + p["cpu_sys"]
    assert busy.min() >= 0.99  # the proof the CPU sentence rests on: the one job busy in every run
    fit = cs.fit_case_id(ZRAM, "blind16")
    said = _by_kind(fit)
    assert "the level is CPU-bound (the submitting job, ≥ 90% busy)" in said["cpu"]
    assert "saturated from the first point" in said["saturation"]
    assert "do not show what holds it" not in fit.explain()
    assert "what holds the level is not unknown: the CPU sentence names it" in fit.summary()


def test_a_throttle_the_files_do_not_name_keeps_cannot_tell():
    """Counter (dev, here_blkio_iops_iodepth: a cgroup's IOPS throttle over loop1, 3.08-4.01 K IOPS at QD1-64): the
    job is nearly idle (1.3 % of a CPU), no sentence names the holder. Since round 30 (RG) loop1's idle share (busy
    0-38 % a run) with Little at 1.00-1.08 places the wait above the device: a serial server or a throttle there, no
    one holder named."""
    fit = cs.fit_case_id("here_blkio_iops_iodepth", "dev")
    said = _by_kind(fit)
    assert "by a serial server or a throttle there" in said["saturation"]
    assert "not by the device or a cap beneath it" in said["saturation"]
    assert "CPU-bound" not in said.get("cpu", "")


def _sat(text=f"Measured IOPS is saturated from the first point.{UNKNOWN_HOLDER} 3 runs a point."):
    return Claim("saturation", text, {"holder_unknown": UNKNOWN_HOLDER})


@pytest.mark.parametrize("other, cut", [
    (Claim("cpu", "… the level is CPU-bound …", {"cpu_bound": True}), True),
    (Claim("paced", "… the measured IOPS is fio's pacing …", {"holder": "the pacing sentence names it"}), True),
    # SEEDED counters: a conditional host-CPU reading (cpu_bound None) and a job below 90 % name no holder
    (Claim("cpu", "… if this host has about 2 CPUs for fio …", {"cpu_bound": None}), False),
    (Claim("cpu", "… below 90% of one CPU …", {"cpu_bound": False}), False),
])
def test_one_holder_takes_out_only_the_cannot_tell_words(other, cut):
    claims, dropped = one_holder([_sat(), other])
    assert claims[1] == other  # the naming claim is never touched
    if cut:
        assert claims[0].text == "Measured IOPS is saturated from the first point. 3 runs a point."
        assert dropped and dropped[0][0] == UNKNOWN_HOLDER.strip()
    else:
        assert claims[0].text == _sat().text and not dropped


# ------------------------------------------------------------------------------ VC, VF: a pace that did not bind
def test_an_unbound_pace_leaves_the_cost_and_the_saturation_read():
    """r16 Optane io_uring without polling, --rate_iops=700000 at QD1-32: at most 49.8 % of the pace (348.9 K IOPS).
    The pacing sentence says it did not bind; the CPU sentence now reads the cost as unpaced — 0.989-1.00 CPU at QD8-32,
    2.84-2.89 µs per I/O, 1 ÷ 2.84 µs ≈ the 346.5-348.9 K level — and the saturation sentence gives the onset (QD8), the
    rise up to it and the latency growth (VC, VF)."""
    p = _points(NOPOLL).sort_values("iodepth")
    assert (p["iops"] / p["rate_iops"]).max() < 0.5
    fit = cs.fit_case_id(NOPOLL, "blind16")
    said = _by_kind(fit)
    assert "it did not bind" in said["paced"]
    assert "were paced" not in said["cpu"] and "a cost at a set rate" not in said["cpu"]
    # since round 20 (RH) the one-CPU rate of a CPU-bound level is the range its busy points' costs give
    m = re.search(r"([\d.]+) µs of CPU per I/O .* one CPU sustains ([\d.]+) K IOPS–([\d.]+) K IOPS per job: the level "
                  r"is CPU-bound", said["cpu"])
    at8 = p[p["iodepth"] == 8].iloc[0]
    assert m and float(m[1]) == pytest.approx((at8["cpu_usr"] + at8["cpu_sys"]) / at8["iops"] * 1e6, rel=0.01)
    level = p["iops"].iloc[3:].mean()
    assert float(m[2]) * 1e3 <= level <= float(m[3]) * 1e3  # the one-CPU rates bracket the level
    assert float(m[3]) / float(m[2]) < 1.03
    s = said["saturation"]
    assert "saturated from iodepth = 8" in s and "Up to it the load still paid" in s
    lat = p["lat_mean_s"].to_numpy()
    assert f"×{lat[-1] / lat[3]:.3g}" in s  # fio's mean latency over the plateau, QD8 → QD32


def test_an_unbound_pace_with_polling_gets_its_onset():
    """r16 Optane sqthread_poll, --rate_iops=700000, at most 83.6 %: the plateau from QD8 (585.08 K) now has its onset
    and the +63 % step up to it (358.6 → 585.4 K for QD4 → 8), VF; its CPU sentence stays the polling one."""
    fit = cs.fit_case_id(SQPOLL, "blind16")
    said = _by_kind(fit)
    assert "saturated from iodepth = 8" in said["saturation"] and "+63% (4 → 8) per doubling" in said["saturation"]
    assert "sqthread_poll" in said["cpu"] and "CPU-bound" not in said["cpu"]


def test_buffered_unbound_pace_reads_the_job_cpu():
    """r16 ramfs buffered io_uring, --rate_iops=700000 at most 76.1 %: CPU 1.00 at every depth, 1.88-1.93 µs per I/O
    → one CPU ≈ 532 K against the 518-533 K level; no "paced" refusal (VC)."""
    said = _by_kind(cs.fit_case_id(RAMFS, "blind16"))
    assert "did not bind" in said["paced"] and "were paced" not in said["cpu"]
    assert "the level is CPU-bound" in said["cpu"]


def test_a_pace_that_holds_stays_the_pace():
    """Counter (qa7/rateqd, fio 3.33, --rate_iops=20000 at QD1-32, 99.9-100 % of it from QD2): the runs are paced,
    no saturation is read from them and the CPU sentence keeps "the runs were paced"."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = nm.fit(str(QA7 / "rateqd"), x="iodepth", y="iops")
    said = _by_kind(fit)
    assert "the measured IOPS is that rate" in said["paced"]
    assert "saturation" not in said
    assert "the runs were paced (rate_iops)" in said["cpu"]
