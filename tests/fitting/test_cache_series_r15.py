"""A memory-speed verdict per series, not per point against a threshold (round 15, UD), and no rate one CPU sustains
where the files name no device (round 14, RE)."""

import warnings

from tests.fitting import corpus_score as cs
from nvmemodel.fitting.cpu_claims import unsaid_cost

NRFILES = "r15_here-ext4_ext4-on-loop_psync_nrfiles32_randread_numjobs_repeats"
KVM = "r5_nknytk_sata-ssd_host-kvm-xen_randread_qd1_bs"


def _case(case_id, split):
    d = cs.CORPUS / case_id
    if not (d / "case.json").exists():
        import pytest

        pytest.skip(f"{case_id} not in the corpus")
    assert cs.split_of(case_id) == split
    return d, cs.load_case(d)


def _fit_table(table, case):
    import nvmemodel as nm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(table, **cs.fit_kwargs(case))


def test_every_point_over_one_loop_image_is_memory_served_r15_ud():
    """UD: 4.70-5.09 µs medians over loop0 at every numjobs, every run's reads counted on loop0: the whole series,
    numjobs = 4 (5.09 µs, above the floor) included; nothing left out of the comparisons."""
    d, case = _case(NRFILES, "blind15")
    res = _fit_table(cs.load_table(d, case), case)
    (cache,) = [c for c in res.claims() if c["kind"] == "cache"]
    assert cache["facts"]["every_point"] and "served every point" in cache["text"]
    assert "left out" not in cache["text"] and "loop0 in every run" in cache["text"]
    assert len(cache["facts"]["points"]) == 1  # the fastest point proves it; no per-point list against the floor
    lo, hi = cache["facts"]["reads"]
    assert 0 < lo <= hi  # every run's reads reached loop0 (fio's disk_util read_ios, ingested)


def test_a_run_that_reached_no_device_breaks_the_series_verdict_seeded():
    """Counter (seeded from the same case): one numjobs = 4 run with no reads on loop0 and the other points' medians
    near the floor: the files do not show one way for every run, and no point is singled out by a threshold's hair."""
    d, case = _case(NRFILES, "blind15")
    table = cs.load_table(d, case)
    i = table.index[(table["numjobs"] == 4)][0]
    table.loc[i, "disk_read_ios"] = 0
    res = _fit_table(table, case)
    assert not [c for c in res.claims() if c["kind"] == "cache"]


def test_a_cache_hit_far_from_the_rest_stays_one_point_r5():
    """Counter: kvm1's 4 KiB read at 5 µs between 310 µs (512 B) and 486 µs (32 KiB) through dm-0 over vda is one
    run's cache hit, not the path's: that point alone, left out of the comparisons (round 5, part 2 #9)."""
    d, case = _case(KVM, "blind5")
    res = _fit_table(cs.load_table(d, case), case)
    cache = [c for c in res.claims() if c["kind"] == "cache"]
    assert len(cache) == 1 and "left out" in cache[0]["text"] and not cache[0]["facts"]["every_point"]


def test_no_rate_one_cpu_sustains_where_no_device_is_named_r14_re():
    """RE: host NFS, fio normal output with no disk statistics: the cost is stated, no rate one CPU sustains."""
    d, case = _case("r14_dpfs_host-nfs-tmpfs_randread_qd128-p2_bs", "blind14")
    res = _fit_table(cs.load_table(d, case), case)
    # (round 19 TE: its job at 20 % of a CPU at most, so the cost line is not said: unsaid_cost gives it)
    text = res.explain() + " " + " ".join(unsaid_cost(res, k) for k in res.fits)
    assert "CPU per I/O" in text and "one CPU sustains 1" not in text
    assert "the results name no device" in text
