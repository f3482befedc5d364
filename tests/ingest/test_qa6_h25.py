"""QA s25 H25: DiskSpd's and IOmeter's CPU percentages are averages over ALL the machine's CPUs; the ingest
schema's unit is CPUs (1 = one CPU busy all run), so they are multiplied by the number of CPUs the file lists,
and the fit's CPU sentence names the tool and says the number is the machine's, not fio's jobs'."""

from __future__ import annotations

import pathlib
import shutil
import warnings

import pytest

import nvmemodel as nm

DISKSPD = pathlib.Path(__file__).resolve().parents[1] / "data" / "diskspd"
IOMETER = "data/real/iometer_csv/quarch_iometer-1.1.0_intel-p3600-ssdpe2me016t4_results.csv"


def _read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.read_results(path)


def test_diskspd_cpu_is_the_average_times_the_cpus_listed():
    # virtualclient: <CPU> entries at 2.92, 0.14, 0.46, 0.46 % -> <Average> 0.99 % (user 0.23, kernel 0.76):
    # 0.99 % of 4 CPUs = 0.0396 CPUs, not 0.0099
    t = _read(DISKSPD / "virtualclient_diskspd-2.0.21a_results.xml")
    assert list(t["cpu_usr"]) == pytest.approx([0.0023 * 4] * 2)
    assert list(t["cpu_sys"]) == pytest.approx([0.0076 * 4] * 2)
    # pkb: 4 CPUs, average user 0.25 %, kernel 2.95 %
    t = _read(DISKSPD / "pkb_diskspd-2.0.21a_result.xml")
    assert (t["cpu_usr"].iloc[0], t["cpu_sys"].iloc[0]) == pytest.approx((0.01, 0.118))


def test_diskspd_without_cpu_entries_has_no_cpu(tmp_path):
    text = (DISKSPD / "virtualclient_diskspd-2.0.21a_results.xml").read_text()
    start, end = text.index("<CPU>"), text.rindex("</CPU>") + len("</CPU>")
    path = tmp_path / "nocpus.xml"
    path.write_text(text[:start] + text[end:])  # <Average> kept: over how many CPUs is not said
    t = _read(path)
    assert t["cpu_usr"].isna().all() and t["cpu_sys"].isna().all()
    assert t["iops"].notna().all()


def test_the_fit_says_diskspds_machine_cpu_not_fios_jobs(tmp_path):
    for f in DISKSPD.glob("*.xml"):
        shutil.copy(f, tmp_path / f.name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nm.fit(tmp_path, x="iodepth", y="iops")
    pts = r.points.sort_values("iodepth")
    assert list(pts["cpus"]) == pytest.approx([0.0396, 0.128])  # once per run, not x numjobs or summed
    text = r.explain()
    assert "fio's CPU" not in text
    assert "DiskSpd's CPU accounting at the maximum (iodepth = 2): the machine used 0.128 CPUs" in text
    assert "per job" not in text.split("DiskSpd's CPU accounting")[1].split(".")[0]


@pytest.mark.shared
def test_iometer_cpu_is_the_average_times_the_processor_rows(shared_dir):
    t = _read(shared_dir / IOMETER)
    first = t[(t["run"] == 0) & (t["level"] == "ALL")].iloc[0]
    # test 0: ALL % User Time 55.637596, % Privileged Time 13.343623, 12 PROCESSOR rows (CPU 0 … CPU 11)
    assert first["cpu_usr"] == pytest.approx(0.55637596 * 12)
    assert first["cpu_sys"] == pytest.approx(0.13343623 * 12)
    manager = t[(t["run"] == 0) & (t["level"] == "MANAGER")].iloc[0]
    assert manager["cpu_usr"] == pytest.approx(first["cpu_usr"])  # one manager: its CPUs are all of them
    assert t.loc[t["level"].isin(["WORKER", "DISK"]), "cpu_usr"].isna().all()  # IOmeter gives none per worker
