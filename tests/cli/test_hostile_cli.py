"""Issue 30: command lines docs/cli.md refuses that were accepted — each one error line, exit 2, nothing written.

The rules are checked once for every command (``cli._common.check_command_line``): an empty value is an error, a
list has no empty part, a repeatable NAME=VALUE names each NAME once, an option that would be ignored is refused,
and an output is never one of the inputs (links resolved).
"""

import os
import shutil

import pytest

from tests.cli.test_bad_input import _assert_one_error_line, _run, _snapshot, world  # noqa: F401 (fixture)

FIO_JSON = os.path.abspath("tests/data/fio/fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json")

CASES = [
    # empty values, empty list parts
    (["ceilings", "--host", "amd-epyc-7742:"], "--host='amd-epyc-7742:'"),
    (["run-sweep", "sweep", "--fio", ""], "--fio=''"),
    (["run-sweep", "sweep", "--fio", " ", "--dry-run"], "--fio=' '"),
    (["plan", "--iops", "1M", "--host", "amd-epyc-7742,"], "--host='amd-epyc-7742,'"),
    (["plan", "--iops", "1M", "--gen", "4,"], "--gen='4,'"),
    (["plan", "--iops", "1M", "--gen", ",4"], "without empty parts"),
    (["fit", "t.csv", "--x", "drives", "--by", "a,"], "--by='a,'"),
    (["fit", "t.csv", "--x", "drives", "--preset", "dell-r7525", "--free", "host.cycles_per_io,"], "--free"),
    (["hosts", "--vendor", " "], "--vendor"),
    # options that would be ignored
    (["ceilings", "--order", "interleaved"], "--group too"),
    (["sweep", "--grid", "host.clock_hz=2GHz,3GHz", "--order", "interleaved"], "--group too"),
    (["plan", "--iops", "1M", "--order", "interleaved"], "--group too"),
    (["ceilings", "--set", "host.clock_hz=2GHz", "--set", "host.clock_hz=3GHz"], "each NAME once"),
    (["plan", "--iops", "1M", "--price", "drive=900", "--price", "drive=1000"], "each ITEM once"),
    (["plot", "--histogram", "run.json", "--preset", "dell-r7525", "-o", "h.png"], "no --preset beside --histogram"),
    (["plot", "--histogram", "run.json", "--x", "numjobs", "-o", "h.png"], "no --x beside --histogram"),
    (["plot", "--logs", "run.json", "--direction", "read", "-o", "h.png"], "no --direction beside --logs"),
    (["plot", "run.json", "--kind", "bw", "-o", "h.png"], "--logs too"),
    (["plot", "run.json", "--job", "1", "-o", "h.png"], "--histogram too"),
    # an output that is one of the inputs
    (["plot", "run.json", "-o", "run.json"], "not one of the inputs"),
    (["plot", "link.json", "-o", "run.json"], "not one of the inputs"),
    (["plot", "--histogram", "run.json", "-o", "link.json"], "not one of the inputs"),
    (["plot", "run.png", "-o", "run.png"], "not one of the inputs"),
    # found in the pass over what changed since 2026-11-20: a traceback each before
    (["fio-jobs", "--out", "o", "--targets", "f", "--runtime", "1e308"], "runtime=1e+308"),
    (["fio-jobs", "--out", "o", "--targets", "f", "--ramp", "1e308"], "ramp_time=1e+308"),
    (["plot", "inf.csv", "--x", "drives", "-o", "i.png"], "column iops, row 2: inf where a finite number ≥ 0"),
    (["plot", "abc.csv", "--x", "drives", "-o", "i.png"], "column iops, row 1: 'abc' where a number"),
    (["plot", "deep.csv", "--x", "drives", "-o", "i.png"], "column iodepth, row 1: 1e+308 where a whole number"),
    (["compare", "inf.csv", "t.csv"], "column iops, row 2"),
    # a chart with nothing to draw (fit refuses the same runs)
    (["plot", "run.json", "--x", "iodepth", "--y", "lat_p99_s", "-o", "p99.png"], "clat_p99_s instead"),
]


@pytest.fixture
def files(world):  # noqa: F811
    shutil.copy(FIO_JSON, world / "run.json")
    (world / "link.json").symlink_to(world / "run.json")
    (world / "run.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (world / "inf.csv").write_text("drives,iops\n1,100\n2,inf\n")  # tables edited by hand
    (world / "abc.csv").write_text("drives,iops\n1,abc\n")
    (world / "deep.csv").write_text("drives,iops,iodepth\n1,100,1e308\n")
    return world


@pytest.mark.parametrize("argv, match", CASES, ids=lambda v: repr(v)[:70])
def test_refused_with_one_line_and_nothing_written(files, capsys, argv, match):
    before = _snapshot(files)
    rc, err = _run(argv, capsys)
    _assert_one_error_line(rc, err, argv, match)
    assert _snapshot(files) == before, f"{argv} wrote into {files}"


@pytest.mark.parametrize("argv", [["ceilings", "--order", "interleaved", "--group", "drive=samsung-pm1733-u2,count=4",
                                   "--group", "drive=intel-p3700-800gb,count=4"],
                                  ["ceilings", "--host", "amd-epyc-7742:1"],
                                  ["ceilings", "--set", "host.clock_hz=2GHz", "--set", "host.cores_per_socket=32"]])
def test_what_the_rules_allow_still_runs(files, capsys, argv):
    rc, err = _run(argv, capsys)
    assert rc == 0, err
