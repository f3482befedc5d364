"""DiskSpd -Rxml results (stretch format of issue 3), from the copied MIT/Apache fixtures."""

import pathlib

import pytest

from nvmemodel import IngestError
from nvmemodel.ingest import read_file

DATA = pathlib.Path(__file__).parents[1] / "data" / "diskspd"


def test_pkb_64k_sequential_reads():
    # SOURCES.md: 64 KiB reads, 4 threads, 2 outstanding I/Os, 30 s, latency disabled.
    (r,) = read_file(DATA / "pkb_diskspd-2.0.21a_result.xml")
    assert (r["tool"], r["format"], r["pattern"]) == ("diskspd", "diskspd-xml", "read")
    assert (r["block_size_bytes"], r["iodepth"], r["numjobs"], r["runtime_s"]) == (65536, 2, 4, 30.02)
    assert r["bw_bytes_per_s"] == pytest.approx(r["iops"] * 65536)
    assert r["ios"] == 90970  # summed over the four threads' <ReadCount>
    assert r["lat_mean_s"] != r["lat_mean_s"]  # NaN: latency was not measured (-L absent)


def test_virtualclient_random_mix():
    # SOURCES.md: 4 KiB random, 30 % writes, 1 outstanding I/O, 1 thread, 120 s; per-target latency.
    rows = read_file(DATA / "virtualclient_diskspd-2.0.21a_results.xml")
    assert [r["direction"] for r in rows] == ["read", "write"]
    read, write = rows
    assert read["pattern"] == "randrw" and read["read_fraction"] == pytest.approx(0.7)
    assert read["ios"] / (read["ios"] + write["ios"]) == pytest.approx(0.7, abs=0.01)
    assert read["lat_mean_s"] == pytest.approx(2.477e-3) and write["lat_mean_s"] == pytest.approx(1.767e-3)
    assert read["clat_p99_s"] > read["clat_p50_s"] > 0
    assert read["iops"] == pytest.approx(37162 / 120.01)


def test_bad_diskspd(tmp_path):
    text = (DATA / "pkb_diskspd-2.0.21a_result.xml").read_text()
    p = tmp_path / "bad.xml"
    p.write_text(text.replace("<ReadCount>", "<ReadCount>x", 1))
    with pytest.raises(IngestError, match=r"<ReadCount> = 'x.*': expected a number"):
        read_file(p)
    p.write_text(text[: len(text) // 2])
    with pytest.raises(IngestError, match="malformed DiskSpd XML"):
        read_file(p)
