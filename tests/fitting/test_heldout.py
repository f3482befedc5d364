"""Held-out real series (tests/data/fit/heldout/, measured with fio on this project's VM after the evidence
and claims code was written, by tests/data/fit/heldout/generate.py): the first sentence and the claims must
hold for data the code was not developed against."""

import pathlib

import pytest

import nvmemodel as nm

HELD = pathlib.Path(__file__).parents[1] / "data" / "fit" / "heldout"


def _text(folder, x, y="iops", **kw):
    return nm.fit(nm.read_results(HELD / folder), x=x, y=y, **kw).explain()


def test_rate_limited_qd_sweep_is_flat_at_fios_rate_limit():
    # rate_iops=6000: QD 1 already reaches it (a 4 KiB read takes ~0.1 ms here), every QD gives 6,000 IOPS
    text = _text("rateqd", "iodepth")
    assert text.startswith("Measured IOPS does not change with iodepth beyond the repeat noise: 5.9")
    # round 8: the flat line is the level; no model sentence beside it (was "No shape is claimed for flat data")
    assert "No shape is claimed" not in text and "fit's parameters are not read" not in text
    assert "falls" not in text and "peaks" not in text and "however far" not in text
    # the throttled queue is not full: fio's own latency says so (X·R/N far below 1 from QD 2 on)
    assert "far below 1: fewer I/Os were in flight than asked for" in text


def test_short_rising_qd_sweep_never_claims_a_ceiling():
    text = _text("rising", "iodepth")
    assert text.startswith("Measured IOPS still rises at the largest iodepth")
    assert "stays at" not in text and "however far" not in text and "falls" not in text


def test_null_engine_jobs_sweep_to_16_jobs():
    text = _text("nulljobs16", "numjobs")
    first = text.split(";")[0]
    # what these runs show, whatever a model would prefer: 8 → 16 jobs still gained beyond the repeat noise
    assert first.startswith("Measured IOPS still rises at the largest numjobs")
    assert "falls" not in text and "however far" not in text


@pytest.mark.parametrize("y", ["iops", "bytes_per_s"])
def test_block_size_sweep_gets_the_per_io_byte_model(y):
    r = nm.fit(nm.read_results(HELD / "bs4"), x="block_size_bytes", y=y)
    assert r.chosen[()] == "per_io_byte" and list(r.fits[()]) == ["per_io_byte"]
    text = r.explain()
    assert "crossing at a block size of" in text and "Little's law up to" not in text
    if y == "iops":
        assert text.startswith("Measured IOPS fall from")
