"""Notebook 01's "Try it" controls run headless every time (issue 31).

The hang: ``papermill notebooks/01_pcie_nvme_primer.ipynb out.ipynb -p mps 512`` now and then waited for ever at a
"Try it" cell, kernel idle. Measured (tcpdump of the shell socket): the kernel's ``execute_reply`` reached papermill;
1-5 ms later papermill sent a ``comm_msg`` and never read the reply. nbclient mimics an Output widget: each output a
kernel captures ``with output:`` (ipywidgets ``interactive`` does, for its first draw) is sent back to the kernel as
a ``comm_msg`` by a synchronous send on the shell socket that the client's asyncio loop is polling for the reply
(jupyter_client's Session.send on a shadow of the asyncio socket). A send that lands as the reply arrives consumes
the socket's edge-triggered wake-up, and the poll never wakes. The lessons' controls now set their Output widget's
outputs instead of capturing (``teaching.live_controls``): nothing is echoed, so nothing can race.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import time

import nbformat
import pytest

NOTEBOOKS = pathlib.Path(__file__).parents[1] / "notebooks"
PRIMER = NOTEBOOKS / "01_pcie_nvme_primer.ipynb"

pytest.importorskip("papermill")
pytest.importorskip("ipywidgets")


def _primer_controls_only(lessons=None) -> nbformat.NotebookNode:
    """Notebook 01 cut to what the hang involved: its imports, parameters and their check, and every cell that
    builds "Try it" controls (each lesson's and the waterfall's) or prints a lesson's sentence, in order; the
    rest (tables, static figures, saved figure files) is left out to keep each run short."""
    nb = nbformat.read(PRIMER, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    tagged = next(i for i, c in enumerate(code) if "parameters" in c.metadata.get("tags", []))
    keep = code[:tagged + 2] + [c for c in code[tagged + 2:] if "controls" in c.source or "teaching." in c.source]
    assert sum("controls(" in c.source for c in keep) == 6, "five lessons and the waterfall"
    if lessons is not None:  # only these lessons' controls (each lesson's sentence is still printed)
        keep = [c for c in keep if "controls(" not in c.source or any(f"'{name}'" in c.source for name in lessons)]
    for cell in keep:  # the figure files each lesson saves take time and are not what hung
        cell.source = "\n".join(line for line in cell.source.splitlines() if "rep.figure(" not in line)
    nb.cells = keep
    return nb


def test_the_controls_echo_nothing_to_the_kernel(tmp_path, monkeypatch):
    """The cause, checked directly: while every control of notebook 01 is built and displayed, the client
    (nbclient, as papermill runs it) sends the kernel no comm message; the figures still reach the widgets."""
    from nbclient import NotebookClient
    from nbclient.output_widget import OutputWidget

    from nvmemodel import reproduce

    sent = []
    monkeypatch.setattr(OutputWidget, "_publish_msg", lambda self, msg_type, **kw: sent.append(msg_type))
    nb = _primer_controls_only()
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    params.source += f"\noutput_dir = {str(tmp_path)!r}\n"
    client = NotebookClient(nb, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}},
                            config=reproduce.kernel_config())
    client.execute()
    assert sent == []  # was one comm_msg per captured output: 11 for these six controls
    images = [o for state in client.widget_state.values() for o in state.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) == 6  # each control shows its figure, set by the kernel


def test_primer_with_a_changed_parameter_runs_every_time(tmp_path):
    """papermill with a changed parameter (the way docs/notebooks.md says), three runs in a row, each with a hard
    time limit that fails the test instead of hanging it: the primer's imports, parameters and lesson sentences, and
    the controls of the two lessons whose cells were seen hanging (Little's law, CPU). A run took 43 s at a load of
    9-10 on the shared 2-core machine, mostly the kernel's start and imports; before the fix 3 of 3 full runs of the
    notebook hung there."""
    source = tmp_path / "primer_controls.ipynb"
    nbformat.write(_primer_controls_only(["littles_law", "cpu"]), source)  # the two cells seen hanging
    limit = 90
    for run, (name, value) in enumerate([("mps", "512"), ("lanes", "8"), ("generation", "5")]):
        out = tmp_path / f"run{run}"
        out.mkdir()
        start = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "-m", "papermill", str(source), str(out / "out.ipynb"),
                                   "-p", name, value, "-p", "output_dir", str(out), "--cwd", str(NOTEBOOKS),
                                   "--no-progress-bar"], capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            pytest.fail(f"run {run + 1} (-p {name} {value}) did not finish in {limit} s: the hang is back")
        assert done.returncode == 0, done.stderr[-2000:]
        assert time.monotonic() - start < limit
        executed = nbformat.read(out / "out.ipynb", as_version=4)
        printed = "".join(o.get("text", "") for c in executed.cells for o in c.get("outputs", []))
        assert printed.count("binds") >= 5  # each lesson's sentence, at the changed parameter


def test_kernels_run_on_the_ports_chosen_for_them(tmp_path):
    """reproduce picks every notebook's five ports at once in the parent (reproduce.distinct_ports), so kernels
    started together by parallel workers never share one (the retry loop used to restart a kernel that died of it)."""
    import json

    from nbclient import NotebookClient

    from nvmemodel import reproduce

    ports = reproduce.distinct_ports(2 * len(reproduce.KERNEL_PORTS))
    assert len(set(ports)) == len(ports)
    chosen = dict(zip(reproduce.KERNEL_PORTS, ports))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import json\nfrom ipykernel import get_connection_info\nprint(get_connection_info())")])
    NotebookClient(nb, kernel_name="python3", config=reproduce.kernel_config(chosen)).execute()
    info = json.loads(nb.cells[0].outputs[0]["text"])
    assert {name: info[f"{name}_port"] for name in reproduce.KERNEL_PORTS} == chosen
