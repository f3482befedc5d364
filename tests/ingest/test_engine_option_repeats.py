"""Runs that differ only in how fio submitted and completed I/O (hipri, sqthread_poll, the depth marks,
cpus_allowed) or in syncs are not repeats of one point: ``summarize`` and ``fit`` refuse to average them, naming
the column.

The tables are real fio 3.33 output (tests/data/fio_engine_options, see its provenance.txt) joined with an edited
copy (one option changed, ``source_path`` marked ``#edited``: not a measurement), as in
tests/fitting/test_paced_repeats.py.
"""

import warnings

import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError, ParameterError
from nvmemodel.ingest.summary import summarize

DATA = "tests/data/fio_engine_options/"


def _read(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.read_results(DATA + name)


def _with_copy(t, **columns):
    edited = t.assign(**columns, source_path=t["source_path"] + "#edited")
    for c, v in columns.items():
        edited[c] = pd.Series([v] * len(t), index=t.index, dtype=t[c].dtype)
    return pd.concat([t, edited], ignore_index=True)


def test_sqthread_poll_alone_makes_another_workload():
    real = _read("io_uring_hipri0.json")
    assert real["sqthread_poll"].isna().all() and len(summarize(real, x="iodepth")) == 1
    both = _with_copy(real, sqthread_poll=1)
    with pytest.raises(IngestError, match=r"different sqthread_poll \(1, not set\)"):
        summarize(both, x="iodepth")
    with pytest.raises(ParameterError, match="one sqthread_poll among the runs of a point") as info:
        nm.fit(both, x="iodepth", y="iops")
    assert "1 in 1 run(s)" in str(info.value) and "not set in 1 run(s)" in str(info.value)


def test_hipri_unknown_is_not_fios_default():
    # fio's hipri is a FIO_OPT_STR_SET with no .def (engines/io_uring.c, engines/sync.c): 0 unless named. But fio's
    # JSON leaves a bare --hipri out of its options, so NA there is "cannot say", not 0: this file ran pvsync2 with a
    # bare --hipri (polled) and reads NA. NA beside a stated 0 is not a repeat.
    bare = _read("pvsync2_bare_hipri.json")
    assert bare["hipri"].isna().all()
    both = _with_copy(bare, hipri=0)
    with pytest.raises(IngestError, match=r"different hipri \(0, not set\)"):
        summarize(both, x="iodepth")
    with pytest.raises(ParameterError, match="one hipri among the runs of a point"):
        nm.fit(both, x="iodepth", y="iops")
    # io_uring alike: hipri=0 stated beside a copy whose JSON did not name it
    stated = _read("io_uring_hipri0.json")
    with pytest.raises(IngestError, match="different hipri"):
        summarize(_with_copy(stated, hipri=pd.NA), x="iodepth")
    # where the reader could prove fio's default (an engine without the option: libaio is 0), both sides say 0
    libaio = _read("libaio_numjobs.json")
    assert set(libaio["hipri"]) == {0}
    assert summarize(_with_copy(libaio, cpus_allowed=None), x="iodepth")["n"].eq(2).all()


@pytest.mark.parametrize("column, value", [("iodepth_batch", 4), ("iodepth_batch_complete", 4), ("iodepth_low", 2),
                                           ("cpus_allowed", "0-3"), ("fsync_every", 1), ("fdatasync_every", 8)])
def test_each_option_separates_runs(column, value):
    real = _read("libaio_numjobs.json")
    with pytest.raises(IngestError, match=f"different {column}"):
        summarize(_with_copy(real, **{column: value}), x="iodepth")
    # a curve per value is what was measured
    assert len(summarize(_with_copy(real, **{column: value}), x="iodepth", hue=column)) == 2


def test_sync_every_zero_is_fios_default():
    # fsync / fdatasync / thinktime default to 0 (fio options.c, .def = "0"): a run stating fsync=0 ran as one that
    # does not state it, and they pool
    real = _read("libaio_numjobs.json")
    assert real["fsync_every"].isna().all()
    s = summarize(_with_copy(real, fsync_every=0, thinktime_s=0.0), x="iodepth")
    assert s["n"].eq(2).all()


def test_depth_marks_follow_iodepth_along_outstanding():
    # fio sets an unset iodepth_low (and iodepth_batch above iodepth) to iodepth (init.c fixup_options): runs of
    # 4 x 2 and 8 x 1 outstanding I/Os differ in them as they do in iodepth, which the axis varies itself
    real = _read("libaio_numjobs.json")
    assert real["job_index"].nunique() == 2  # (one row per job: the copy keeps one job at twice the depth)
    other = real[real["job_index"] == real["job_index"].min()].assign(
        iodepth=8, numjobs=1, iodepth_low=8, source_path=real["source_path"] + "#edited")
    for c in ("iodepth", "numjobs", "iodepth_low"):
        other[c] = other[c].astype(real[c].dtype)
    both = pd.concat([real, other], ignore_index=True)
    assert set(summarize(both, x="outstanding")["n"]) == {2}
