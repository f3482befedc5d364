"""Command line for results: ingest, plot, --version, python -m nvmemodel, one-line misuse errors."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from nvmemodel.cli import main

DATA = pathlib.Path(__file__).parents[1] / "data"
SWEEP = DATA / "fio_sweep"
CORPUS = DATA / "fio_corpus"


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_version_and_module_entry_point():
    import nvmemodel

    done = subprocess.run([sys.executable, "-m", "nvmemodel", "--version"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and done.stdout.strip() == f"nvmemodel {nvmemodel.__version__}"


@pytest.mark.parametrize("argv", [
    ["ingest", "--bogus"], ["plot", str(SWEEP)], ["ceilings", "--iodepth", "deep"], ["no-such-command"], [],
    ["plot", "--kind", "speed", "--logs", "x.log", "-o", "a.png"],
    ["ceilings", "--drives", "1-1000000000"], ["ingest", str(CORPUS / "bs-1m.json"), "-o", "out.txt"],
])
def test_misuse_is_one_line_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("nvmemodel: error: "), err


def test_ingest_output_never_overwrites_an_input(capsys, tmp_path):
    src = tmp_path / "io.csv"
    src.write_text((CORPUS / "bs-1m.terse").read_text())
    before = src.read_bytes()
    code, _, err = run(capsys, "ingest", str(src), "-o", str(src))
    assert code == 2 and "not one of the inputs" in err and src.read_bytes() == before
    (tmp_path / "old.csv").write_text("x")
    code, _, err = run(capsys, "ingest", str(tmp_path), "-o", str(tmp_path / "old.csv"))
    assert code == 2 and "not one of the inputs" in err


def test_ingest_output_folder_checked_before_work(capsys, tmp_path):
    code, _, err = run(capsys, "ingest", str(SWEEP), "-o", str(tmp_path / "missing" / "t.csv"))
    assert code == 2 and "does not exist" in err and err.count("\n") == 1


def test_ingest_summary_keeps_whole_reasons_and_sorts_by_the_sweep(capsys, tmp_path):
    code, out, err = run(capsys, "ingest", str(SWEEP), "--path-pattern", "qd{qd}/run{run}.json")
    assert code == 0
    qd = [int(line.split()[0]) for line in out.splitlines()[1:] if line.split()[0].isdigit()]
    assert qd == sorted(qd) and qd[0] == 1 and qd[-1] == 32  # numerically sorted: 2 before 16
    # the whole reason (fio JSON/terse/normal output, …), said once: the summary counts, the list says why (issue 31)
    assert "skipped 1 (below, each with why)" in err
    assert err.count("not a recognised benchmark result (fio JSON/terse/normal output") == 1


def test_bad_yaml_is_one_line(capsys, tmp_path):
    (tmp_path / "labels.yaml").write_text("a: [1, 2\nb: {c: d\n")
    code, _, err = run(capsys, "ingest", str(CORPUS / "bs-1m.json"), "--labels", str(tmp_path / "labels.yaml"))
    assert code == 2 and err.count("\n") == 1 and "not valid YAML at line" in err


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_command(capsys, tmp_path, suffix):
    out = tmp_path / f"iops{suffix}"
    code, stdout, _ = run(capsys, "plot", str(SWEEP), "--x", "iodepth", "--y", "iops", "-o", str(out))
    assert code == 0 and out.stat().st_size > 1000
    table = [line.split() for line in stdout.splitlines()[1:]]
    assert [int(r[0]) for r in table] == sorted(int(r[0]) for r in table)  # sorted by the swept variable
    assert {r[1] for r in table} == {"read", "write", "total"}


def test_plot_histogram_and_logs(capsys, tmp_path):
    code, _, _ = run(capsys, "plot", "--histogram", str(CORPUS / "json-plus.jsonplus"), "-o", str(tmp_path / "h.png"))
    assert code == 0
    logs = sorted(str(p) for p in (DATA / "fio").glob("fioplot_*_iops.1.log"))
    code, _, _ = run(capsys, "plot", "--logs", *logs, "--kind", "iops", "-o", str(tmp_path / "t.svg"))
    assert code == 0 and (tmp_path / "t.svg").exists()
    # plain JSON (no json+ bins) is drawn from fio's coarse latency buckets now (issue 32), no longer refused
    code, _, err = run(capsys, "plot", "--histogram", str(CORPUS / "bs-1m.json"), "-o", str(tmp_path / "x.png"))
    assert code == 0 and (tmp_path / "x.png").read_bytes().startswith(b"\x89PNG")
