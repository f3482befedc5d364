"""On a core-only install (no matplotlib: it is in the notebooks/test extras, not a core dependency) the commands
that draw end in the documented one error line with exit status 2 (docs/cli.md), before any work — not an
ImportError traceback with exit 1 (issue 32). matplotlib is made absent in a fresh interpreter by a
``sys.modules`` entry of None, which makes every ``import matplotlib`` raise ImportError as a missing package
does."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parents[2]
SWEEP = ROOT / "tests" / "data" / "fio_sweep"  # fio iodepth sweep measured here (tests/data/SOURCES.md)

_RUN = """
import sys
names = sys.argv.pop(1).split(",")
for name in names:
    sys.modules[name] = None
from nvmemodel.cli import main
code = main(sys.argv[1:])
assert all(sys.modules[name] is None for name in names)  # still absent: nothing loaded them another way
sys.exit(code)
"""


def _without_matplotlib(*argv, absent="matplotlib"):
    return subprocess.run([sys.executable, "-c", _RUN, absent, *argv], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("argv, needed_for", [
    (["plot", str(SWEEP), "--output", "{out}"], "nvmemodel plot"),
    (["plot", "--histogram", str(SWEEP / "qd1" / "run1.json"), "--output", "{out}"], "nvmemodel plot"),
    (["fit", str(SWEEP), "--x", "iodepth", "--y", "iops", "--plot", "{out}"], "fit --plot"),
])
def test_drawing_without_matplotlib_is_one_error_line(tmp_path, argv, needed_for):
    out = tmp_path / "chart.png"
    done = _without_matplotlib(*[a.format(out=out) for a in argv])
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == [f"nvmemodel: error: {needed_for} needs matplotlib, which is not installed: pip install "
                     "matplotlib (or pip install 'nvmemodel[notebooks]')"], done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == []


def test_commands_that_do_not_draw_run_without_matplotlib():
    done = _without_matplotlib("fit", str(SWEEP), "--x", "iodepth", "--y", "iops", "--json")
    assert done.returncode == 0, done.stderr
    assert '"schema"' in done.stdout


def test_plot_without_seaborn_is_one_error_line(tmp_path):
    # matplotlib installed, seaborn not: `nvmemodel plot` draws the measured-data charts with seaborn
    out = tmp_path / "chart.png"
    done = _without_matplotlib("plot", str(SWEEP), "--output", str(out), absent="seaborn")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == ["nvmemodel: error: nvmemodel plot needs seaborn, which is not "
                                                "installed: pip install seaborn (or pip install 'nvmemodel[notebooks]')"]
    assert not out.exists()
