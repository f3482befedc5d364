"""elbencho's own CSV results (``elbencho --csvfile``) read by ``read_results``: one row per READ/WRITE phase
from its ``[last]`` columns (the whole phase), housekeeping phases dropped, bad lines an error naming file, line and
field. The real file is glennklockwood/elbencho-test's VAST NFS run (elbencho 2.1-0, 4 hosts × 8 threads, 1 MiB
direct writes; no licence, so it is read where present and not copied); the explanation corpus transcribed the same
run by hand (``elbencho_vast-nfs_1m-write_threads/points.csv``), a second reading to agree with."""

from __future__ import annotations

import csv
import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError
from nvmemodel.ingest.api import detect_format, read_file

REAL = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real" / "elbencho" / \
    "glennklockwood_elbencho-2.1_vast-nfs_4hosts_8threads_1m-write.csv"
CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus" / "elbencho_vast-nfs_1m-write_threads"

# elbencho 3.x's leading columns (it writes no rwmix/version/command columns in this form); lines made here
HEADER3 = ("ISO date,label,path type,paths,hosts,threads,dirs,files,file size,block size,direct IO,random,"
           "random aligned,IO depth,shared paths,truncate,operation,time ms [first],time ms [last],entries/s [first],"
           "entries/s [last],IOPS [first],IOPS [last],MiB/s [first],MiB/s [last],CPU% [first],CPU% [last],"
           "entries [first],entries [last],MiB [first],MiB [last],Ent lat us [min],Ent lat us [avg],Ent lat us [max],"
           "IO lat us [min],IO lat us [avg],IO lat us [max]")
MKDIRS = "2026-01-01T00:00:00,,dir,1,2,4,1,4,1073741824,4096,1,1,1,16,0,0,MKDIRS,2,4,3000,2000,,,,,5,6,8,8,,,100,200,300,,,"
READ = ("2026-01-01T00:00:05,run1,dir,1,2,4,1,4,1073741824,4096,1,1,1,16,0,0,READ,9800,10000,,,200000,190000,781,742,"
        "60,55,,,7324,7421,,,,40,336,9000")


def _write(tmp_path, *lines, name="run.csv"):
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


@pytest.mark.skipif(not REAL.exists(), reason="the real elbencho CSV is not on this machine (shared data)")
def test_real_vast_nfs_csv():
    """The WRITE phase of 4 hosts × 8 threads: 4831 IOPS, 4831 MiB/s, 6621 µs mean I/O latency over 45.253 s (the
    run's .out says 'Throughput MiB/s : … 4831'); MKDIRS and SYNC lines give no row."""
    rows = read_file(REAL)
    assert len(rows) == 1
    r = rows[0]
    assert (r["tool"], r["tool_version"], r["format"]) == ("elbencho", "2.1-0", "elbencho-csv")
    assert (r["pattern"], r["direction"], r["numjobs"], r["iodepth"], r["direct"]) == ("write", "write", 32, 1, True)
    assert r["block_size_bytes"] == 1048576
    assert r["iops"] == 4831 and r["bw_bytes_per_s"] == 4831 * 2**20
    assert r["lat_mean_s"] == pytest.approx(6621e-6) and r["runtime_s"] == pytest.approx(45.253)
    assert r["io_bytes"] == 218627 * 2**20 and r["ios"] == 218627  # 'MiB [last]' of 1 MiB blocks
    assert r["target_names"] == "/vast/glock"
    # the corpus's hand transcription of the same run (a second reading)
    with open(CORPUS / "points.csv", encoding="utf-8") as fh:
        hand = next(x for x in csv.DictReader(fh) if "08threads" in x["source_path"])
    assert float(hand["iops"]) == r["iops"] and float(hand["bw_bytes_per_s"]) == r["bw_bytes_per_s"]
    assert float(hand["lat_mean_s"]) == pytest.approx(r["lat_mean_s"]) and int(hand["numjobs"]) == r["numjobs"]


def test_version3_header_random_read(tmp_path):
    """A 3.x header (no version column): a random READ phase of 2 hosts × 4 threads at IO depth 16; '[last]' read,
    not '[first]' (190,000 IOPS, not 200,000); MKDIRS dropped; CPU% (whole machine, no core count) not made CPUs."""
    p = _write(tmp_path, HEADER3, MKDIRS, READ)
    assert detect_format(p.read_text()) == "elbencho-csv"
    df = nm.read_results(p)
    assert len(df) == 1
    r = df.iloc[0]
    assert (r["pattern"], r["direction"], r["numjobs"], r["iodepth"]) == ("randread", "read", 8, 16)
    assert r["iops"] == 190000 and r["bw_bytes_per_s"] == 742 * 2**20 and r["runtime_s"] == 10.0
    assert r["lat_mean_s"] == pytest.approx(336e-6) and r["lat_max_s"] == pytest.approx(9e-3)
    assert r["job_name"] == "run1" and r["read_fraction"] == 1.0 and r["random_fraction"] == 1.0
    assert r["io_bytes"] == 7421 * 2**20
    assert r["cpu_usr"] != r["cpu_usr"]  # NA: elbencho's CPU% is the machine's, not the jobs'


def test_rwmix_gives_a_read_and_a_write_row(tmp_path):
    """--rwmixpct: the WRITE line's 'rwmix read' columns are the mix's reads: rows of pattern randrw, read share
    from the two rates (3000 of 3000 + 1000 = 0.75)."""
    header = HEADER3 + (",rwmix read entries/s [first],rwmix read entries/s [last],rwmix read IOPS [first],"
                        "rwmix read IOPS [last],rwmix read MiB/s [first],rwmix read MiB/s [last],"
                        "rwmix read entries [first],rwmix read entries [last],rwmix read MiB [first],"
                        "rwmix read MiB [last],rwmix read Ent lat us [min],rwmix read Ent lat us [avg],"
                        "rwmix read Ent lat us [max],rwmix read IO lat us [min],rwmix read IO lat us [avg],"
                        "rwmix read IO lat us [max],version,command")
    line = ("2026-01-01T00:00:05,,dir,1,1,2,1,2,1073741824,4096,1,1,1,4,0,0,WRITE,5000,5000,,,1000,1000,3.9,3.9,"
            "10,10,,,19.5,19.5,,,,50,500,5000,,,3000,3000,11.7,11.7,,,58.6,58.6,,,,30,90,900,3.1-1,"
            '"elbencho" "-w" "-r" "--rwmixpct" "75" "-t" "2" "/mnt/x"')
    rows = read_file(_write(tmp_path, header, line))
    by = {r["direction"]: r for r in rows}
    assert set(by) == {"read", "write"} and {r["pattern"] for r in rows} == {"randrw"}
    assert by["read"]["iops"] == 3000 and by["write"]["iops"] == 1000
    assert by["read"]["read_fraction"] == pytest.approx(0.75) == by["write"]["read_fraction"]
    assert by["read"]["lat_mean_s"] == pytest.approx(90e-6) and by["write"]["lat_mean_s"] == pytest.approx(500e-6)
    assert by["read"]["target_names"] == "/mnt/x" and by["read"]["tool_version"] == "3.1-1"


@pytest.mark.parametrize("line, message", [
    (READ.replace(",190000,", ",1.9e5x,"), "line 2 (READ): field 'IOPS [last]' = '1.9e5x': expected a number"),
    (READ.replace(",190000,", ",-5,"), "field 'IOPS [last]' = '-5': expected a finite number >= 0"),
    (READ.replace(",9800,10000,", ",9800,,"), "field 'time ms [last]' is empty"),
    (READ.rsplit(",", 3)[0], "line 2: 34 fields under a header of 37"),
    (READ.replace(",16,0,0,READ", ",0,0,0,READ"), "IO depth 0"),
])
def test_bad_lines_name_file_line_and_field(tmp_path, line, message):
    p = _write(tmp_path, HEADER3, line)
    with pytest.raises(IngestError) as exc:
        read_file(p)
    assert message in str(exc.value) and str(p) in str(exc.value)


def test_header_without_required_columns(tmp_path):
    p = _write(tmp_path, HEADER3.replace("IOPS [last]", "IOPS [end]"), READ)
    with pytest.raises(IngestError, match=r"header lacks 'IOPS \[last\]'"):
        read_file(p)


def test_only_housekeeping_phases(tmp_path):
    p = _write(tmp_path, HEADER3, MKDIRS)
    with pytest.raises(IngestError, match="no READ or WRITE phase"):
        read_file(p)


def test_folder_ingest_lists_a_bad_csv_as_skipped_with_its_reason(tmp_path):
    _write(tmp_path, HEADER3, READ, name="good.csv")
    _write(tmp_path, HEADER3, READ.replace(",190000,", ",n/a,"), name="bad.csv")
    with pytest.warns(nm.errors.IngestWarning):
        df = nm.read_results(tmp_path)
    assert len(df) == 1
    (skipped,) = df.attrs["skipped"]
    assert skipped.path.endswith("bad.csv") and "'IOPS [last]' = 'n/a'" in skipped.reason
