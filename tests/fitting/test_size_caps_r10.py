"""Round 10's block-size classes (``_blind_rounds/round10_hand_read_part2.md`` JD, ``_part1.md`` HD), each by the
session rule "a cause only with its proof" (issue 28):

- JD: a point whose job was ≥ 90 % busy on its CPU cannot define the byte roof: the byte cap is the level of the flat
  large-size points whose jobs had CPU to spare (r10 980pro io_uring, 8 KiB at 0.989 of a CPU made 2.48 GB/s above
  2.08–2.21 GB/s at 16–64 KiB, and was called "a byte cap of 2.48 GB/s").
- HD: along block size a side of a step is read in the unit it is level in, and the step is the adjacent one (r10
  palacios net ping-pong, 8.6 → 48.6 MB/s at 4–32 KiB was "a level of 25.9 MB/s" and "a step of ×55.5").

Rounds 1–10 are spent; counter-cases are seeded synthetics where the rule must not fire, and r9's gen2 byte cap.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")


def _texts(fit, kind=None) -> list[str]:
    return [c["text"] for c in fit.claims() if kind is None or c["kind"] == kind]


def _fit(case_id):
    d = cs.CORPUS / case_id
    if not (d / "case.json").exists():
        pytest.skip(f"{case_id} not in the corpus")
    return cs.fit_case(d, cs.load_case(d))


def _sizes(bw: list[float], busy: list[float], sizes=None, runs: int = 1) -> pd.DataFrame:
    """One job at QD32 along block size: bandwidth ``bw`` (B/s) with its job ``busy`` share of a CPU."""
    sizes = sizes or [4096 * 2 ** k for k in range(len(bw))]
    rng = np.random.default_rng(10)
    rows = []
    for bs, b, c in zip(sizes, bw, busy):
        for r in range(runs):
            v = b * (1 + 0.003 * rng.standard_normal())
            rows.append({"block_size_bytes": bs, "bw_bytes_per_s": v, "iops": v / bs, "iodepth": 32, "numjobs": 1,
                         "cpu_usr": 0.3 * c, "cpu_sys": 0.7 * c, "lat_mean_s": 32 * bs / v, "run": r,
                         "source_path": f"bs{bs}-r{r}.json", "ioengine": "io_uring"})
    return pd.DataFrame(rows)


def _fit_df(df, y="bw_bytes_per_s"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(df, x="block_size_bytes", y=y)


# ------------------------------------------------------------------------------ JD: a held point is no byte roof
BS_980 = "r10_icpe24sched_980pro_randread_iouring-1core_qd128_bs"


def test_cpu_held_peak_is_not_the_byte_cap():
    p = pd.read_csv(cs.CORPUS / BS_980 / "points.csv").sort_values("block_size_bytes")
    bw = p["iops"] * p["block_size_bytes"]
    share = p["cpu_usr"] + p["cpu_sys"]
    peak = int(np.argmax(bw.to_numpy()))
    assert share.iloc[peak] >= 0.9 and peak < len(p) - 1  # the case as read: a busy peak before the large sizes
    large = bw[p["block_size_bytes"] >= 16384]
    text = " ".join(_texts(_fit(BS_980)))
    # the level of the large sizes, all at QD128: 128 × the size in flight grew ×4 over 16–64 KiB while the byte rate
    # stayed 2.08–2.21 GB/s (Little's law holding) — a byte cap, measured (set after round 16 was read, WB; the case's
    # reading: "a bandwidth ceiling of 2.08-2.21 GB/s … the drive's random-read bandwidth"); the held 8 KiB peak above
    # it shows no byte limit
    m = re.search(r"bandwidth is flat at ([\d.]+) GB/s \([\d.]+ GiB/s\)–([\d.]+) GB/s \([\d.]+ GiB/s\) from 16 KiB to "
                  r"64 KiB, all at 128 I/Os outstanding: the bytes in flight grew ×4", text)
    assert m, text
    assert float(m[1]) == pytest.approx(large.min() / 1e9, abs=0.005)
    assert float(m[2]) == pytest.approx(large.max() / 1e9, abs=0.005)
    assert f"a byte cap of {large.max() / 1e9:.3g} GB/s" in text
    assert f"{bw.iloc[peak] / 1e9:.3g} GB/s" in text and "does not show the byte limit" in text
    assert "a byte cap of 2.48" not in text
    assert "the most bandwidth measured is the byte limit" not in text


def test_scorer_does_not_count_a_busy_point_against_a_byte_cap():
    d = cs.CORPUS / BS_980
    if not (d / "case.json").exists():
        pytest.skip("not in the corpus")
    fit = _fit(BS_980)
    data = cs.curve_data(fit, next(iter(fit.chosen)))
    assert data.cpu_busy is not None and data.cpu_busy.any() and not data.cpu_busy.all()
    assert data.byte_roof().max() < data.bytes_per_s.max()


def test_peak_with_cpu_to_spare_keeps_its_byte_cap():
    """Counter-case: the same shape with the peak's job at 50 %: the most bandwidth measured is the byte limit."""
    bw = [1.0e9, 1.9e9, 2.5e9, 2.2e9, 2.1e9, 2.1e9]
    text = " ".join(_texts(_fit_df(_sizes(bw, [0.5] * 6))))
    m = re.search(r"a byte cap of ([\d.]+) GB/s", text)
    assert m and float(m[1]) == pytest.approx(2.5, abs=0.02) and "does not show the byte limit" not in text


def test_held_peak_before_a_fall_gets_no_byte_cap():
    """Synthetic: a busy peak, then a steady fall with no flat stretch: the fall is said, no byte cap."""
    bw = [1.0e9, 1.9e9, 2.5e9, 2.1e9, 1.8e9, 1.5e9]
    text = " ".join(_texts(_fit_df(_sizes(bw, [0.99, 0.99, 0.99, 0.5, 0.4, 0.3]))))
    assert "larger blocks were slower" in text and "does not show the byte limit" in text
    assert "a byte cap of 2.5" not in text


def test_all_busy_points_keep_the_old_reading():
    """Counter-case: every job busy (a CPU-bound engine): nothing is set apart, the peak stays the byte cap."""
    bw = [1.0e9, 1.9e9, 2.5e9, 2.2e9, 2.1e9, 2.1e9]
    text = " ".join(_texts(_fit_df(_sizes(bw, [0.99] * 6))))
    assert "more at a smaller block" not in text


# ------------------------------------------------------------------------------ HD: levels in the unit that is flat
PALACIOS = "r10_dgfiobench_palacios-guest-loopback-tcp_net-pingpong-receiver_bs"


def test_rising_side_of_a_step_is_no_level():
    p = pd.read_csv(cs.CORPUS / PALACIOS / "points.csv").sort_values("block_size_bytes")
    bw = (p["iops"] * p["block_size_bytes"]).to_numpy()
    k = int(np.argmax(bw[1:] / bw[:-1])) + 1  # the largest adjacent step
    text = " ".join(_texts(_fit(PALACIOS), "step"))
    m = re.search(r"jumps ×([\d.]+) between", text)
    assert m and float(m[1]) == pytest.approx(bw[k] / bw[k - 1], rel=0.005), text
    assert "two levels" not in text and "neither side is level" in text
    assert "between the two regimes" in " ".join(_texts(_fit(PALACIOS), "model"))


def test_two_flat_levels_along_block_size_stay_levels():
    """Counter-case: bandwidth flat at 0.50 GB/s over 4–32 KiB, then 2.0 GB/s over 64–512 KiB."""
    bw = [0.50e9, 0.51e9, 0.50e9, 0.505e9, 2.0e9, 2.02e9, 2.01e9, 2.0e9]
    text = " ".join(_texts(_fit_df(_sizes(bw, [0.3] * 8))))
    assert "shows two levels" in text and "a step of ×" in text and "jumps ×" not in text
