"""Every subcommand, given hostile input, answers with one ``nvmemodel: error:`` line, exit status 2, no
traceback, no hang — and writes nothing (issue 17 items 11, 12, 15; docs/cli.md).

The subcommands are enumerated from the argparse registry (``cli._build_parser()``), so a new command
is covered automatically twice: an unknown option, and a FIFO given to every option that names an
input file (``cli.INPUT_FILES``); and the table :data:`BAD` must name it, or this test fails saying so.
"""

import argparse
import json
import os
import pathlib
import signal
import subprocess
import sys

import pytest

from nvmemodel import cli
from nvmemodel.errors import NvmeModelError
from nvmemodel.jobs import sweep_plan, write_jobs

#: Hostile command lines per subcommand, run in a folder holding the files named here (see `world`):
#: missing (absent), fifo (a named pipe), bin.json/bin.csv (binary), empty.json, exists.txt (a file),
#: folder/ (empty), results/ (someone's results), sweep/ (a folder written by fio-jobs), binplan/ (a
#: binary plan.json), nothing/ (a sysfs root without sys/), folder.csv/ (a folder named like a table).
#: Each with a text the error line must hold.
BAD = {
    "ceilings": [(["--drives", ""], "--drives=''"), (["--drives", "1,,2"], "--drives='1,,2'"),
                 (["--drives", "0"], "--drives"), (["--drives", "4-2"], "--drives"), (["--bs", "0"], "block_size"),
                 (["--preset", "nope"], "unknown preset"), (["--set", "nope=1"], "nope"),
                 (["--iodepth", "x"], "--iodepth"), (["--mps", "-1"], "mps")],
    "sweep": [(["--grid", "nope.param=1,2"], "unknown parameter 'nope.param'"),
              (["--grid", "host.clock_hz=2GHz,,3GHz"], "--grid"), (["--grid", "host.clock_hz"], "--grid"),
              (["--grid", "=2GHz"], "--grid"), (["--grid", "host.clock_hz=fast"], "host.clock_hz='fast'"),
              (["--grid", "workload.io_stack=libaio,nope"], "workload.io_stack='nope'"),
              (["--grid", "workload.io_stack=libaio\nspdk"], "workload.io_stack='libaio\\nspdk'"),
              (["--grid", "drive.model=samsung-pm1743\nx"], "drive.model"),
              (["--grid", "host.clock_hz=2GHz,2000MHz"], "each value once"),
              (["--grid", "host.clock_hz=2GHz", "--grid", "host.clock_hz=3GHz"], "each parameter once"),
              (["--grid", "host.clock_hz=2GHz", "--set", "host.clock_hz=3GHz"], "not also set"),
              (["--grid", "host.cores_per_socket=" + ",".join(str(c) for c in range(1, 501)),
                "--grid", "workload.iodepth=1,2,4,8,16,32,64,128,256,512", "--drives", "1-24"], "--max-points"),
              (["--max-points", "0"], "--max-points"), (["--max-points", "1e9"], "--max-points"),
              (["--max-points", "999999999"], "at most 2,000,000"), (["--drives", "99"], "drives=99"),
              (["--grid", "host.port_lanes=4,8", "--drives", "12,24"], "at most 12 for the grid's host.port_lanes=8"),
              (["--grid", "switch.model=broadcom-pex9797", "--grid", "switch.count=1,3", "--drives", "24"],
               "switch.count=1"),
              (["--out", "t.csv"], "it exists"), (["--out", "folder.csv"], "it exists: a folder"),
              (["--out", "folder"], "ending in .csv"), (["--out", "fifo.csv"], "it exists"),
              (["--out", "/dev/null"], "--out"), (["--out", "/proc/x.csv"], "kernel state"),
              (["--out", "/proc/self/x.csv"], "kernel state"), (["--out", "/sys/x.csv"], "kernel state"),
              (["--out", "o\nx.csv"], "printable"), (["--out", ""], "--out"),
              (["--out", "missing/x.csv"], "existing folder"), (["--json", "--out", "x.csv"], ".json"),
              (["--group", "drive=samsung-pm1733-u2,count=8", "--grid", "drive.model=samsung-pm1743"],
               "no drive.* grid with --group"),
              (["--group", "drive=samsung-pm1733-u2,count=4", "--group", "drive=intel-p3700-800gb,count=4",
                "--grid", "host.sockets=1,2"], "one value"),
              (["--group", "drive=samsung-pm1733-u2,count=8", "--drive", "samsung-pm1743"], "--drive"),
              (["--group", "drive=samsung-pm1733-u2,count=8", "--drives", "9"], "drives=9"),
              (["--group", "drive=samsung-pm1733-u2,count=8,name=a\nb"], "printable"),
              (["--group", "drive=samsung-pm1733-u2,count=8", "--group", "drive=intel-p3700-800gb,count=16",
                "--grid", "host.lanes_per_socket=48,80"], "host.lanes_per_socket=48' is not allowed")],
    "plan": [([], "--iops"), (["--iops", "nope"], "--iops"), (["--iops", "1M", "--top", "0"], "--top")],
    "ingest": [(["missing"], "no such file"), (["fifo"], "FIFO"), (["empty.json"], "0 rows"),
               (["folder"], "no files found"), (["results", "--labels", "fifo"], "--labels"),
               (["results", "-o", "x.xlsx"], "--output"), (["results", "-o", "fifo.csv"], "not a regular file"),
               (["results", "-o", ""], "--output"), (["/"], "/proc and /sys"), (["/proc"], "kernel state")],
    "plot": [(["missing", "-o", "a.png"], "missing"), (["--logs", "fifo", "-o", "a.png"], "FIFO"),
             (["--histogram", "bin.json", "-o", "a.png"], "bin.json"), (["results", "-o", "/dev/null"], "--output")],
    "fit": [(["missing.csv", "--x", "drives"], "no such file"), (["bin.csv", "--x", "drives"], "bin.csv"),
            (["fifo", "--x", "drives"], "FIFO"),
            (["exists.txt", "--x", "drives", "--preset", "dell-r7525", "--free", "nope.param"], "nope.param"),
            (["exists.txt", "--x", "drives", "--by", ""], "--by"), (["exists.txt", "--x", "drives", "--plot", ""], "--plot"),
            (["t.csv", "--x", "drives", "--labels", "exists.txt"], "--labels")],
    "reproduce": [(["--out", "exists.txt"], "--out"), (["--out", "/dev/null"], "--out"),
                  (["--out", "results"], "not written by reproduce"), (["--jobs", "0"], "--jobs"),
                  (["--jobs", "-2"], "--jobs"), (["--only", "99"], "unknown notebook")],
    "parameters": [(["--preset", "nope"], "unknown preset"), (["--format", "xml"], "--format")],
    "presets": [(["extra"], "unrecognized")],
    "drives": [(["extra"], "unrecognized")],
    "switches": [(["extra"], "unrecognized"), (["--gen", "-1"], "--gen"), (["--gen", "x"], "--gen")],
    "hosts": [(["extra"], "unrecognized"), (["--vendor", "nope"], "--vendor"), (["--vendor", ""], "--vendor")],
    "discover": [(["--lspci", "fifo"], "FIFO"), (["--lspci", "missing"], "no such file"),
                 (["--lspci", "folder"], "folder"), (["--lspci", "bin.json"], "no lspci device lines"),
                 (["--sysfs-root", "missing"], "--sysfs-root"), (["--sysfs-root", "nothing"], "sys/"),
                 (["--lspci-tree", "exists.txt"], "--lspci too"), (["--lspci", "/proc/self/status"], "kernel state")],
    "calibrate": [(["--out", "results"], "marker"), (["--out", "exists.txt"], "not a folder"),
                  (["--out", "o", "--target", "f\nexec=/bin/sh"], "line break"),
                  (["--out", "o", "--target=-f"], "'-'"), (["--out", "o", "--target", "/dev/null"], "block device"),
                  (["--out", "o", "--target", "missing"], "existing file"), (["--out", "o", "--seconds", "0"], "--seconds"),
                  (["--out", "o", "--seconds", "1"], "at least"), (["--out", "o", "--allow-write"], "only with --target"),
                  (["--out", "o", "--clock", "fast"], "--clock"), (["--out", "o", "--fio", "no-such-fio"], "fio executable"),
                  (["--out", "o\nx"], "line breaks")],
    "fio-jobs": [(["--out", "o", "--targets", "f", "--ioengine", "libaio\nexec=/bin/sh"], "ioengine"),
                 (["--out", "o", "--targets", "f", "--ioengine", "libaio;rm -rf /"], "ioengine"),
                 (["--out", "o", "--targets", "f\nexec=/bin/sh"], "line break"),
                 (["--out", "exists.txt", "--targets", "f"], "not a folder"),
                 (["--out", "/dev/null", "--targets", "f"], "not a folder"),
                 (["--out", "results", "--targets", "f"], "no plan.json"),
                 (["--out", "o", "--targets", "f", "--size", "0"], "size"),
                 (["--out", "o", "--targets", "f", "--drives", "1,,2"], "--drives"),
                 (["--out", "o", "--targets", "f", "--runtime", "inf"], "inf"),
                 (["--out", "o", "--targets", "f", "--iodepth", "99999999999"], "iodepth"),
                 (["--out", "o", "--targets", "auto", "--sysfs-root", "missing"], "--sysfs-root"),
                 (["--out", "o", "--targets", "f", "--sysfs-root", "folder"], "--targets auto too"),
                 (["--out", "o", "--targets", "f", "--bs", "1e400"], "--bs"),
                 (["--out", "o", "--targets", "f", "--size", "1.5"], "--size"),
                 (["--out", "o", "--targets", "f,,g"], "--targets"), (["--out", "o", "--targets", ""], "--targets"),
                 (["--out", "o", "--targets", "f", "--pattern", ""], "--pattern"),
                 (["--out", "o", "--targets", "f", "--iodepth", "1,,4"], "--iodepth"),
                 (["--out", "o", "--targets", "f", "--numa-nodes", ""], "--numa-nodes"),
                 (["--out", "o", "--targets", "f", "--read-fraction", "0.7"], "mixed --pattern"),
                 (["--out", "o", "--targets", "f,g", "--matrix", "dell-r7525", "--iodepth", "4"], "with --matrix"),
                 (["--out", "", "--targets", "f"], "folder name"),
                 (["--out", "results", "--targets", "f", "--dry-run"], "no plan.json"),
                 (["--out", "o\nx", "--targets", "f"], "printable"), (["--out", "o", "--targets", "fifo"], "FIFO"),
                 (["--out", "o", "--targets", "folder"], "a folder"),
                 (["--out", "o", "--targets", "auto", "--precondition"], "named one by one"),
                 (["--out", "o", "--targets", "f", "--steady-state", "iops:5%\nexec=/bin/sh"], "steady_state"),
                 (["--out", "o", "--targets", "f", "--steady-state", "latency:5%"], "steady_state"),
                 (["--out", "o", "--targets", "f", "--ss-dur", "5s"], "--steady-state"),
                 (["--out", "o", "--targets", "f", "--steady-state", "iops:5%", "--ss-dur", "1.5s"], "whole seconds"),
                 (["--out", "o", "--targets", "f", "--steady-state", "iops:5%", "--ss-dur", "2min"], "within the run"),
                 (["--out", "o", "--targets", "/dev/nvme9n1", "--pattern", "read", "--precondition"], "destroys")],
    "compare": [(["results", "missing"], "missing"), (["fifo", "results"], "FIFO"),
                (["exists.txt", "results"], "exists.txt"), (["results", "results", "--threshold", "x"], "--threshold"),
                (["results", "results", "--metrics", ""], "--metrics"), (["/proc/self/status", "results"], "kernel"),
                (["results", "results", "-o", "/dev/null"], "--output")],
    "run-sweep": [(["binplan"], "binary"), (["sweep", "--fio", "folder"], "--fio"), (["missing"], "folder"),
                  (["exists.txt"], "folder"), (["results"], "no plan.json"), (["sweep", "--limit", "-1"], "--limit")],
}
#: what a subcommand requires before argparse looks further (for the automatic cases): options, positionals
REQUIRED = {"plot": ["-o", "a.png"], "fit": ["--x", "drives"], "fio-jobs": ["--out", "o", "--targets", "f"],
            "calibrate": ["--out", "o"], "compare": ["results"]}
POSITIONALS = {"fit": ["exists.txt"], "run-sweep": ["sweep"], "compare": ["results"]}


def registry() -> dict[str, argparse.ArgumentParser]:
    """Subcommand name → its parser, as ``nvmemodel --help`` lists them."""
    (sub,) = [a for a in cli._build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


@pytest.fixture
def world(tmp_path, monkeypatch):
    w = tmp_path / "world"
    w.mkdir()
    os.mkfifo(w / "fifo")
    os.mkfifo(w / "fifo.csv")
    (w / "bin.json").write_bytes(b"\x00\xff\xfe\x01" * 64)
    (w / "bin.csv").write_bytes(b"\x00\xff\xfe\x01" * 64)
    (w / "t.csv").write_text("drives,iops\n1,100\n2,200\n")
    (w / "empty.json").write_text("")
    (w / "exists.txt").write_text("a file\n")
    (w / "folder").mkdir()
    (w / "folder.csv").mkdir()
    (w / "nothing").mkdir()
    (w / "results").mkdir()
    (w / "results/run.json").write_text('{"jobs": []}\n')
    write_jobs(sweep_plan([str(w / "target.dat")]), w / "sweep")
    (w / "binplan").mkdir()
    (w / "binplan/plan.json").write_bytes(b"\x00\xff\xfe\x01" * 64)
    monkeypatch.chdir(w)
    return w


def _snapshot(root):
    """Every path under ``root`` with its type and, for files, its bytes."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            regular = os.path.isfile(p) and name not in ("fifo", "fifo.csv")
            out[p] = (st.st_mode, pathlib.Path(p).read_bytes() if regular else None)
    return out


class _Hang(Exception):
    pass


def _run(argv, capsys) -> tuple[int, str]:
    """``cli.main(argv)`` in this process (argparse's exits included), stopped after 60 s as a hang."""
    def hang(*_):
        raise _Hang(f"nvmemodel {' '.join(argv)} did not return within 60 s")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(60)
    try:
        rc = cli.main(argv)
    except SystemExit as exc:
        rc = exc.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return rc, capsys.readouterr().err


def _assert_one_error_line(rc, err, argv, match=None):
    lines = err.rstrip("\n").split("\n")
    errors = [ln for ln in lines if ln.startswith("nvmemodel: error:")]
    assert rc == 2, f"{argv}: exit {rc}, stderr {err!r}"
    assert "Traceback" not in err, f"{argv}: {err}"
    assert len(errors) == 1 and lines[-1] == errors[0], f"{argv}: not one error line at the end: {err!r}"
    if match is not None:
        assert match in errors[0], f"{argv}: {match!r} not in {errors[0]!r}"


def test_every_subcommand_has_hostile_cases():
    missing = set(registry()) - set(BAD)
    assert not missing, f"new subcommand(s) {sorted(missing)}: add their hostile command lines to BAD in {__file__}"
    assert not set(BAD) - set(registry()), "BAD names a subcommand the CLI no longer has"


@pytest.mark.parametrize("argv, match", [([name, *args], match) for name, cases in BAD.items()
                                         for args, match in cases], ids=lambda v: repr(v)[:60])
def test_bad_input_is_one_error_line_exit_2_and_writes_nothing(world, capsys, argv, match):
    before = _snapshot(world)
    rc, err = _run(argv, capsys)
    _assert_one_error_line(rc, err, argv, match)
    assert _snapshot(world) == before, f"{argv} wrote into {world}"


@pytest.mark.parametrize("name", sorted(registry()))
def test_an_unknown_option_is_one_error_line(world, capsys, name):
    rc, err = _run([name, *REQUIRED.get(name, []), *POSITIONALS.get(name, []), "--no-such-option"], capsys)
    _assert_one_error_line(rc, err, [name], "--no-such-option")


def _input_file_cases():
    for name, parser in sorted(registry().items()):
        for dest, (option, _) in cli.input_options(parser).items():
            if option == dest:  # a positional
                yield [name, *REQUIRED.get(name, []), "fifo"]
            else:
                yield [name, *REQUIRED.get(name, []), *POSITIONALS.get(name, []), option, "fifo"]


@pytest.mark.parametrize("argv", list(_input_file_cases()), ids=" ".join)
def test_a_fifo_for_any_input_file_is_refused_not_waited_on(world, capsys, argv):
    """Issue 17 item 12: opening a FIFO for reading waits for a writer forever."""
    rc, err = _run(argv, capsys)
    _assert_one_error_line(rc, err, argv, "FIFO")


def test_input_file_options_are_all_declared():
    """Every option registered under a name of cli.INPUT_FILES exists somewhere (the table is not stale) and
    the automatic FIFO cases above cover at least the known readers."""
    dests = {a.dest for p in registry().values() for a in p._actions}
    assert set(cli.INPUT_FILES) <= dests
    covered = {(argv[0], argv[-2] if argv[-2].startswith("-") else "paths") for argv in _input_file_cases()}
    assert {("discover", "--lspci"), ("discover", "--lspci-tree"), ("ingest", "paths"), ("ingest", "--labels"),
            ("fit", "paths"), ("fit", "--labels"), ("fit", "--topology"), ("plot", "--logs"),
            ("plot", "--histogram")} <= covered


@pytest.mark.parametrize("argv", [["discover", "--lspci", "fifo"], ["plot", "--logs", "fifo", "-o", "a.png"],
                                  ["run-sweep", "binplan"], ["reproduce", "--out", "/dev/null"],
                                  ["sweep", "--grid", "workload.io_stack=libaio\nspdk", "--out", "o.csv"],
                                  ["fio-jobs", "--out", "o", "--targets", "f", "--ioengine", "libaio\nexec=/bin/sh"]])
def test_a_real_process_prints_one_line_and_no_traceback(world, argv):
    """The installed entry point, not just main(): the process's whole stderr is one line."""
    run = subprocess.run([sys.executable, "-m", "nvmemodel", *argv], capture_output=True, text=True, timeout=120, check=False,
                         cwd=world)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and run.stderr.startswith("nvmemodel: error:"), \
        run.stderr
    assert not (world / "o").exists() and not (world / "o.csv").exists()


def test_ingest_where_every_file_was_skipped_lists_them_and_fails(world, capsys):
    rc, err = _run(["ingest", "empty.json", "exists.txt", "-o", "new.csv"], capsys)
    _assert_one_error_line(rc, err, "ingest", "2 skipped")
    assert "skipped empty.json: empty file" in err and not (world / "new.csv").exists()


def test_fit_free_refuses_an_unknown_parameter_naming_the_close_ones(world, capsys):
    # before the files are read; the library's check (nm.fit takes discrete ones such as host.gen too, trying
    # each value: QA s25 H19 made the CLI accept what the library fits)
    rc, err = _run(["fit", "exists.txt", "--x", "drives", "--preset", "dell-r7525", "--free", "host.genn"], capsys)
    _assert_one_error_line(rc, err, "fit", "unknown free parameter")
    assert "did you mean 'host.gen'" in err and "switch.efficiency" in err


def test_run_sweep_binary_plan_names_the_file(world, capsys):
    rc, err = _run(["run-sweep", "binplan"], capsys)
    _assert_one_error_line(rc, err, "run-sweep", "binplan/plan.json")
    assert json.loads((world / "sweep/plan.json").read_text())["schema"] == "nvmemodel.plan/1"  # the good one


@pytest.mark.parametrize("exc, expected", [
    (OSError(28, "No space left on device", "t.csv"), "nvmemodel: error: t.csv: No space left on device"),
    (NvmeModelError("first line\nsecond line"), "nvmemodel: error: first line second line"),
])
def test_what_the_checks_did_not_foresee_is_still_one_line(monkeypatch, capsys, exc, expected):
    """The last resort in cli.main: an OSError (disk full, …) or a message spanning lines stays one line."""
    def run(args):
        raise exc

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", lambda self, argv=None: argparse.Namespace(run=run, command="presets"))
    assert cli.main(["presets"]) == 2
    assert capsys.readouterr().err == expected + "\n"
