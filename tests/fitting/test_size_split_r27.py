"""Round 27's class IE (``_blind_rounds/round27_hand_read_part3.md``), read before the rule this test holds was set:
along block size a byte level "flattens at 1.67 GB/s … over 64 KiB–1 MiB" pooled 64 KiB (runs 1.48–1.51 GB/s) with
256 KiB / 1 MiB (medians 1.86 / 2.01 GB/s), and quoted 1 MiB as 1.89 GB/s (mean) and 2.01 GB/s (median) in two
sentences (size_split.py). Counter-cases: seeded tables whose sizes' runs overlap, or with one run a size."""
from __future__ import annotations

import types

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.size_split import split_level
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

VDABS = "r27_here-vdabs_vda-ext4-1gfile_libaio-direct-qd16_randread_bs_repeats"


def test_vdabs_byte_level_split_at_the_step():
    r = fit_case_id(VDABS, "blind27")
    (text,) = [c["text"] for c in r.claims() if c["kind"] == "plateau"]
    pts = pd.read_csv(CORPUS / VDABS / "points.csv")
    med = pts.groupby("block_size_bytes")["bw_bytes_per_s"].median() / 1e9
    assert f"{med[262144]:.3g}" == "1.86" and f"{med[1048576]:.3g}" == "2.01"
    assert "levels at 1.86 GB/s (1.73 GiB/s) to 2.01 GB/s (1.87 GiB/s)" in text
    assert "over block_size_bytes = 256 KiB–1 MiB" in text
    assert f"{med[262144] / med[65536] - 1:+.0%}" == "+24%" and "a step of +24% from 64 KiB to 256 KiB" in text
    run64 = pts[pts.block_size_bytes == 65536]["bw_bytes_per_s"] / 1e9
    assert run64.max() < med[262144] and "(runs 1.48 GB/s (1.38 GiB/s) to 1.51 GB/s (1.4 GiB/s))" in text
    assert "1.67 GB/s" not in text and "1.89 GB/s" not in text  # no pooled level, no mean beside a median


def _cf(runs):
    rows = []
    for x, rr in runs.items():
        k = np.sort(np.asarray(rr, float))
        rows.append({"x": float(x), "level": float(np.median(k)), "level_lo": k[0], "level_hi": k[-1],
                     "kept_runs": len(k) if len(k) > 1 else 0, "split": False, "lat_kept": np.nan,
                     "p50_kept": np.nan, "stalled": [], "runs_kept": k})
    return types.SimpleNamespace(points=pd.DataFrame(rows))


def test_split_level_counter_cases():
    rng = np.random.default_rng(27)  # seeded: three sizes, three runs each
    plat = {"x_from": 65536.0, "x_to": 1048576.0}
    step = {65536: 1.50 * (1 + rng.uniform(-0.01, 0.01, 3)), 262144: [1.86, 1.16, 1.89], 1048576: [2.01, 2.22, 1.44]}
    got = split_level(_cf(step), plat)
    assert got is not None and [d["x"] for d in got["level"]] == [262144.0, 1048576.0]
    flat = {65536: [1.80, 1.95, 1.88], 262144: [1.86, 1.79, 1.99], 1048576: [2.01, 1.85, 1.90]}  # runs overlap
    assert split_level(_cf(flat), plat) is None
    wide = {65536: [1.30, 1.95, 1.60], 262144: [1.50, 1.86, 2.10], 1048576: [1.90, 1.80, 2.00]}  # +16 % inside runs
    assert split_level(_cf(wide), plat) is None
    one = {65536: [1.50], 262144: [1.86], 1048576: [2.01]}  # one run a size: no scatter to read
    assert split_level(_cf(one), plat) is None
