"""Notebook tests: ``nvmemodel reproduce --quick`` into a temporary folder (never ``output/``), the key
numbers each notebook writes (with the source of every expected value), the files behind every figure,
``index.html`` opened in headless Chromium, bad parameters stopping at the parameters cell, and the
stored-output policy (see nvmemodel/reproduce.py). nbval re-runs the notebooks and compares their
checked outputs (``pytest --nbval-lax notebooks``, part of the test command)."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import shutil
import subprocess

import nbformat
import pytest

from nvmemodel import report, reproduce
from nvmemodel.cli import main

NOTEBOOKS = pathlib.Path(__file__).parents[1] / "notebooks"


@pytest.fixture(scope="module")
def reproduced(tmp_path_factory) -> pathlib.Path:
    """Every notebook run once with quick=True, as ``nvmemodel reproduce --quick --out TMP`` does; what it printed
    (its own output and its kernels', which write to the file descriptors they inherit) in ``said.txt`` beside
    the folder, as ``capfd`` would have caught it."""
    pytest.importorskip("papermill")
    out = tmp_path_factory.mktemp("reproduce")
    with open(out.parent / "said.txt", "a+", encoding="utf-8", errors="replace") as sink, \
            contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        saved = [os.dup(1), os.dup(2)]
        try:
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            rc = main(["reproduce", "--quick", "--out", str(out)])
        finally:
            sink.flush()
            for fd, copy in ((1, saved[0]), (2, saved[1])):
                os.dup2(copy, fd)
                os.close(copy)
    assert rc == 0, (out.parent / "said.txt").read_text(errors="replace")[-3000:]
    return out


def _key(out: pathlib.Path, stem: str) -> dict:
    return json.loads((out / stem / "key_numbers.json").read_text())


def _check_01(key):
    # docs/physics.md §2-3 (waterfall): Gen4 x4, 128K reads, MPS 256 deliver 91.11 % of the encoded rate (±0.05 %).
    assert key["delivered_fraction_of_encoded"] == pytest.approx(0.9111, abs=5e-4)
    # Gen6 (FLIT, 236/256 TLP share) delivers more than Gen5 but less than twice it; Gen2 is 8b/10b: 2x Gen1 exactly.
    by_gen = key["delivered_GBps_by_gen"]
    assert by_gen["Gen5"] < by_gen["Gen6"] < 2 * by_gen["Gen5"]
    assert by_gen["Gen2"] == pytest.approx(2 * by_gen["Gen1"], rel=1e-3)
    # TLP headers and framing are the largest loss at MPS 256 (docs/physics.md §2: 24-28 B per 256 B)
    losses = key["loss_pct_by_stage"]
    assert max(losses, key=losses.get).startswith("data TLP headers")
    # the catalog drive's 800 K IOPS; the knee is N* = X_max · R0 with R0 ≥ its 90 µs spec latency
    assert key["knee_iodepth"] >= 800e3 * 90e-6 - 1e-9


def _check_02(key):
    # LP0865 Fig. 4 text: 810-4P capped to 6,200 MB/s once more than two disks are attached (±0.1 %).
    assert key["lenovo_810_256k_read_MBps"][2:] == pytest.approx([6200] * 2, rel=1e-3)
    assert key["lenovo_810_256k_read_MBps"][0] < 6200
    # Fig. 6 text: 810-4P random read "capped below 1.3 million IOPS"; conclusion: "up to 30 %" (1610-4P) and
    # "up to 50 %" (810-4P) with four drives (±1 percentage point).
    assert key["lenovo_810_4k_read_KIOPS_max"] <= 1300.0 * (1 + 1e-6)
    assert key["lenovo_1610_4k_read_loss_at_4"] == pytest.approx(0.30, abs=0.01)
    assert key["lenovo_810_4k_read_loss_at_4"] == pytest.approx(0.50, abs=0.01)
    # the paper's explanation: x8 uplink for sequential reads, adapter processing for random reads
    assert key["binding_at_4"]["256K sequential read"]["810-4P (x8 switch)"] == "switch_uplink"
    assert key["binding_at_4"]["4K random read"]["1610-4P (x16 switch)"] == "switch_processing"
    assert key["binding_at_4"]["4K random write"] == {c: "drive" for c in key["binding_at_4"]["4K random write"]}


def _check_03(key):
    # docs/physics.md §7.1: 94.523 GB/s raw (Dell: 94.5); 80.20 GiB/s at MPS 256 (Dell measured 80.41, +0.26 %).
    assert key["raw_12_GBps"] == pytest.approx(94.523, rel=1e-4)
    assert key["sr_128k_12_GiBps"] == pytest.approx(80.20, rel=1e-3)
    assert key["sr_128k_12_binding"] == "pcie_link"
    # the measurement lies above the MPS-256 ceiling: flagged, never "reproduced"; §7.1 table: MPS 512 or
    # no SKP/DLLP charge allow it (80.42 / 83.80 GiB/s)
    assert key["measured_above_ceiling"] == ["dell-measured-128k-sr-12"]
    assert "pcie.mps=512" in key["allowing"] and "pcie.skp=0" in key["allowing"]
    # Dell: 17M 4KiB RR at 12 drives (the model's ceiling 17.4 M: 1.45 M per PM1733, spec); bend past 12 (CPU)
    assert key["rr_4k_12_MIOPS"] == pytest.approx(17.4, rel=1e-3)
    assert 12 < key["rr_knee"] <= 24 and key["rr_24_binding"] == "host_cpu"


def _check_04(key):
    # docs/physics.md §7.3: 2,912 K IOPS 4K and 97.95 Gb/s 128K at RoCE MTU 4096, fabric-bound.
    assert key["stingray_4k_KIOPS"] == pytest.approx(2912, abs=1)
    assert key["stingray_128k_Gbps"] == pytest.approx(97.95, abs=0.01)
    assert key["stingray_4k_binding"] == "fabric"
    # §7.3 table: RoCE MTU 1024 (Ethernet 1500) 2.755 M; 4096 (Ethernet 4200 and 9000) 2.912 M
    assert key["rocev2_4k_KIOPS_by_mtu"]["1500"] == pytest.approx(2755, abs=1)
    assert key["rocev2_4k_KIOPS_by_mtu"]["9000"] == pytest.approx(2912, abs=1)
    assert key["local_4k_KIOPS"] > key["stingray_4k_KIOPS"]
    assert key["measured_above_ceiling"] == []  # 2,811 K and 91.16 Gb/s lie below the ceilings


def _check_05(key):
    # With the Dell preset's assumed CPU (2 x 64 cores at 2.25 GHz, u_max 1) and each stack's own cycles per I/O (the
    # preset's calibrated 10,000 set aside): StorPort's 20,500 give 14.05 M IOPS, i.e. the CPU binds from 10 PM1733
    # drives (1.45 M each); psync's 17,300 16.6 M, from 12; libaio's 8,200 35.1 M, above 24 drives' 34.8 M: never.
    first = key["first_cpu_bound"]
    assert first["windows_storport"] == 10 and first["psync"] == 12
    assert first["libaio"] is None and first["spdk"] is None
    assert key["cycles_per_io"]["windows_storport"] == 20_500 and key["cycles_per_io"]["libaio"] == 8_200
    # ION observations: 3 M (Linux) and 1.2 M (Windows) IOPS, on which the presets are calibrated (±0.1 %)
    assert key["ion_MIOPS"] == pytest.approx({"linux": 3.0, "windows": 1.2}, rel=1e-3)
    # RAID small random writes (nvmemodel/ceiling/raid.py, docs/physics.md §12): RAID-0 costs nothing on the
    # drives, RAID-1/10 two writes per write (half), RAID-5 two reads + two writes, RAID-6 three + three
    raid = key["raid_MIOPS"]
    assert raid["raid0|4K randwrite"] == pytest.approx(raid["none|4K randwrite"], rel=1e-9)
    assert raid["raid10|4K randwrite"] == pytest.approx(raid["none|4K randwrite"] / 2, rel=1e-9)
    assert raid["raid6|4K randwrite"] < raid["raid5|4K randwrite"] < raid["raid10|4K randwrite"]
    # NFS over the same array: the file server's CPU binds, ION's "~10 %" of the local 3 M (calibrated)
    assert key["share_binding"]["ion-sr71mach5-linux-nfs3"] == "share_server_cpu"
    assert key["share_MIOPS"]["ion-sr71mach5-linux-nfs3"] == pytest.approx(0.3, rel=0.01)


def _check_06(key):
    # tests/data/fit/local/qd: 8 queue depths x 3 repeats of real fio 3.33 runs (tests/data/fit/generate.py)
    assert (key["files_read"], key["rows"], key["skipped"], key["points"]) == (24, 24, 0, 8)
    # a QD sweep is a queueing curve: a Little's-law model fits it (R² ≥ 0.98, the fit issue's bar; measured
    # 0.990), and the model AICc chooses fits nearly as well (possibly Amdahl: same shape on these points)
    assert max(key["r2_by_model"]["()"][m] for m in ("littles", "littles_soft", "mva")) >= 0.98
    assert key["r2"]["()"] >= 0.95
    # the fitted cap (x_max or Amdahl's limit) lies near the largest measured mean (QD128): within -5 %/+50 %
    # (a soft knee approaches its cap slowly)
    import nvmemodel as nm

    runs = nm.read_results(NOTEBOOKS.parent / "tests" / "data" / "fit" / "local" / "qd")
    top = runs[runs.iodepth == 128].iops.mean()
    cap = key["derived"].get("x_max", key["derived"].get("amdahl_limit"))
    assert 0.95 * top <= cap <= 1.5 * top
    # the bundled fio 3.1 run's per-interval IOPS log agrees with its JSON summary (±1 %)
    summary = nm.read_results(NOTEBOOKS.parent / "tests" / "data" / "fio" / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json")
    assert key["log_mean_iops"] == pytest.approx(summary.iops.iloc[0], rel=0.01)
    # "did it change?": tests/data/compare (real fio 3.33 runs, 3 repeats a point): psync -> libaio is faster at
    # QD8/QD32, slower at QD1 (IOPS), the p99 longer at QD32: a mixed verdict, as nm.compare gives it
    assert key["compare_verdict"] == "mixed"
    direct = nm.compare(NOTEBOOKS.parent / "tests" / "data" / "compare" / "psync",
                        NOTEBOOKS.parent / "tests" / "data" / "compare" / "libaio", ignore=["ioengine"], metrics=["iops"])
    assert key["compare_changes"]["32.0|iops"] == pytest.approx(direct.changes["change"].iloc[-1], rel=1e-12)
    assert key["compare_changes"]["32.0|iops"] > 1  # +172 %
    assert key["compare_changes"]["1.0|iops"] < 0 < key["compare_changes"]["8.0|iops"]


def _check_07(key):
    # 2 drive models x 3 generations x 2 socket counts x 3 I/O stacks x 2 connections
    assert key["evaluated"] == 72 and 0 < key["feasible"] < 72
    # fewest drives for 60 GB/s (+10 %) of 128K reads and 10 M 4K IOPS: the PM1743 on Gen5 x4, as many as
    # ceil(66 GB/s / one drive's 128K ceiling) — the drive count the model's own curve gives
    import math

    import nvmemodel as nm

    best = key["best"]
    assert (best["drive.model"], best["host.gen"], best["connection"]) == ("samsung-pm1743", 5, "direct-x4")
    gen5 = nm.preset("dell-r7525").replace(drive=nm.get_drive("samsung-pm1743"))
    gen5 = gen5.replace(host=gen5.host.replace(gen=5))
    per_drive = nm.evaluate(gen5, nm.Workload("read", "128K"), drives=[1]).bandwidth_at(1)
    assert best["drives"] == max(math.ceil(66e9 / per_drive), math.ceil(11e6 / 2.5e6))
    # LP0865 conclusion: direct x4 per drive; x2 only when lanes run out; the x16 adapter before the x8
    assert key["lenovo_feasible"] == ["direct-x4"]
    assert set(key["lenovo_rejected"]) == {"direct-x2", "lenovo-1610-4p", "lenovo-810-4p"}


CHECKS = {"01_pcie_nvme_primer": _check_01, "02_lenovo_lp0865": _check_02, "03_dell_r7525": _check_03,
          "04_nvme_over_fabrics": _check_04, "05_cpu_and_io_stack": _check_05, "06_fit_your_results": _check_06,
          "07_capacity_planner": _check_07}


def test_every_notebook_has_a_test():
    assert sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) == sorted(CHECKS)


def test_every_number_a_paper_states_is_compared_in_a_notebook():
    """Each row of data/whitepapers/anchors.csv goes through report.compare_to_paper in some notebook."""
    sources = "".join(c.source for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")
                      for c in nbformat.read(p, as_version=4).cells if "compare_to_paper" in c.source)
    missing = [a for a in report.anchors().index if f'"{a}"' not in sources]
    assert missing == []


@pytest.mark.notebook
@pytest.mark.parametrize("stem", sorted(CHECKS))
def test_notebook_key_numbers(reproduced, stem):
    CHECKS[stem](_key(reproduced, stem))


@pytest.mark.notebook
def test_reproduce_writes_every_figure_with_its_data(reproduced):
    from PIL import Image

    assert (reproduced / "index.html").is_file()
    for stem in CHECKS:
        folder = reproduced / stem
        assert (folder / f"{stem}.ipynb").is_file()
        manifest = json.loads((folder / report.MANIFEST).read_text())
        if stem.startswith(("01", "02", "03", "04", "05")):
            assert manifest["figures"], f"{stem} draws figures"
        for fig in manifest["figures"]:
            with Image.open(folder / fig["png"]) as im:  # decodes, and has the stated size
                im.load()
                assert im.size == (fig["width_px"], fig["height_px"])
                low, high = im.convert("L").getextrema()
                assert high - low > 100, f"{fig['png']} is blank"
            assert (folder / fig["svg"]).read_text().lstrip().startswith("<?xml")
            assert len((folder / fig["csv"]).read_text().splitlines()) > 1
            assert len(fig["caption"]) > 40


CHECK_PAGE = """<script>
window.addEventListener('load', () => {
  const bad = [];
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) bad.push('image ' + img.getAttribute('src'));
  }
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (href.startsWith('#')) { if (!document.getElementById(href.slice(1))) bad.push('anchor ' + href); continue; }
    try { const r = new XMLHttpRequest(); r.open('GET', href, false); r.send();
          if (!(r.status === 0 || r.status === 200) || r.responseText.length === 0) bad.push('link ' + href); }
    catch (e) { bad.push('link ' + href); }
  }
  const out = document.createElement('pre'); out.id = 'check';
  out.textContent = JSON.stringify({images: document.images.length,
                                    links: document.querySelectorAll('a[href]').length, bad: bad});
  document.body.appendChild(out);
});
</script>"""

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--allow-file-access-from-files"]


@pytest.mark.notebook
def test_index_html_in_headless_chromium(reproduced, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (.ci/run installs Debian's chromium)")
    page = reproduced / "index_check.html"  # index.html plus a script that checks it, next to it (same links)
    page.write_text((reproduced / "index.html").read_text().replace("</body>", CHECK_PAGE + "</body>"))
    run = subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                          "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
                         check=False, capture_output=True, text=True, timeout=180)
    assert "<pre id=\"check\">" in run.stdout, run.stderr[-2000:]
    result = json.loads(run.stdout.split("<pre id=\"check\">", 1)[1].split("</pre>", 1)[0].replace("&quot;", '"'))
    figures = sum(len(json.loads((reproduced / s / report.MANIFEST).read_text())["figures"]) for s in CHECKS)
    assert result["images"] == figures and result["links"] > 3 * figures
    assert result["bad"] == []
    # a screenshot for a human to look at (kept with the test's temporary files)
    subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile2'}", "--window-size=1200,2400",
                    f"--screenshot={tmp_path / 'index.png'}", (reproduced / "index.html").as_uri()],
                   check=False, capture_output=True, timeout=180)
    assert (tmp_path / "index.png").stat().st_size > 10_000


def test_unknown_only_is_an_error(tmp_path, capsys):
    assert main(["reproduce", "--only", "02,99", "--out", str(tmp_path / "out")]) == 2
    assert "unknown notebook '99'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing ran


def test_select_by_number_or_name():
    by_number = reproduce.select("2")
    assert by_number == reproduce.select(["02"]) == reproduce.select("02_lenovo_lp0865") == reproduce.select("lenovo_lp0865")
    assert [p.stem for p in reproduce.select("3,1")] == ["01_pcie_nvme_primer", "03_dell_r7525"]
    assert len(reproduce.select(None)) == len(CHECKS)


def test_relative_paths_resolve_against_the_notebooks_not_the_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NVMEMODEL_OUTPUT_ROOT", raising=False)
    assert report.notebook_path("../tests/data") == (NOTEBOOKS.parent / "tests" / "data").resolve()
    monkeypatch.setenv("NVMEMODEL_OUTPUT_ROOT", str(tmp_path / "root"))
    rep = report.Report("../output/02_lenovo_lp0865", notebook="02_lenovo_lp0865")
    assert rep.dir == (tmp_path / "root" / "02_lenovo_lp0865").resolve()  # the tests' redirect, not output/


BAD_PARAMETERS = [
    ("03_dell_r7525", {"preset": "dell-r9999"}, "UnknownNameError", "unknown preset 'dell-r9999'"),
    ("02_lenovo_lp0865", {"mps": 300}, "ParameterError", "pcie.mps=300"),
    ("06_fit_your_results", {"results": ["/no/such/runs"]}, "ParameterError", "results='/no/such/runs'"),
    ("06_fit_your_results", {"results": ["../tests/data/SOURCES.md"]}, "ParameterError", "readable benchmark result"),
    ("06_fit_your_results", {"x": "drivez"}, "ParameterError", "x='drivez'"),
    ("06_fit_your_results", {"preset": "lenovo-x"}, "UnknownNameError", "unknown preset 'lenovo-x'"),
    ("07_capacity_planner", {"read_bw": "60G"}, "ParameterError", "read_bw='60G'"),
]


@pytest.mark.notebook
@pytest.mark.parametrize("stem, params, ename, message", BAD_PARAMETERS,
                         ids=[f"{b[0][:2]}-{next(iter(b[1]))}" for b in BAD_PARAMETERS])
def test_bad_parameters_stop_at_the_parameters_cell(tmp_path, stem, params, ename, message):
    pm = pytest.importorskip("papermill")
    nb = NOTEBOOKS / f"{stem}.ipynb"
    with pytest.raises(pm.PapermillExecutionError) as err:
        pm.execute_notebook(str(nb), str(tmp_path / nb.name), cwd=str(NOTEBOOKS), progress_bar=False,
                            parameters={"quick": True, "output_dir": str(tmp_path), **params})
    assert err.value.ename == ename and message in err.value.evalue
    cells = nbformat.read(tmp_path / nb.name, as_version=4).cells
    failed = [c.source for c in cells if any(o.get("output_type") == "error" for o in c.get("outputs", []))]
    original = nbformat.read(nb, as_version=4).cells
    tagged = next(i for i, c in enumerate(original) if "parameters" in c.metadata.get("tags", []))
    assert failed == [original[tagged + 1].source], "the check right after the parameters stops the notebook"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_stored_output_policy(path):
    nb = nbformat.read(path, as_version=4)
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    assert "quick" in tagged[0].source and "output_dir" in tagged[0].source
    checked = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if reproduce.CHECK_MARK in cell.source:
            checked += 1
            assert cell.outputs, "a checked cell keeps its stored output (nvmemodel reproduce --refresh)"
            assert all(o["output_type"] == "stream" for o in cell.outputs)
            assert "np.float64(" not in "".join(o.get("text", "") for o in cell.outputs)
        else:
            assert not cell.outputs, "only '# NBVAL_CHECK_OUTPUT' cells keep outputs"
    assert checked >= 1
    assert "key_numbers" in nb.cells[-1].source
    assert "**For**" in nb.cells[0].source, "the first cell says whom the notebook is for"
    assert set(nb.metadata) <= {"kernelspec", "language_info"}, "no run state (papermill, widgets) is stored"


@pytest.mark.notebook
@pytest.mark.fio
def test_fit_notebook_on_a_fresh_fio_folder(tmp_path):
    """Notebook 06 on a folder it has never seen: real fio runs (null engine, iodepth 1-16) made now."""
    pm = pytest.importorskip("papermill")
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (.ci/run installs Debian's fio)")
    runs = tmp_path / "my runs"
    runs.mkdir()
    for qd in (1, 2, 4, 8, 16):
        subprocess.run(["fio", "--name=qd", "--ioengine=null", "--size=64M", "--bs=4k", "--rw=randread",
                        f"--iodepth={qd}", "--time_based", "--runtime=300ms", "--output-format=json",
                        f"--output={runs / f'qd{qd}.json'}"], check=True, capture_output=True, timeout=60)
    nb = NOTEBOOKS / "06_fit_your_results.ipynb"
    pm.execute_notebook(str(nb), str(tmp_path / nb.name), cwd=str(NOTEBOOKS), progress_bar=False,
                        parameters={"quick": True, "output_dir": str(tmp_path / "out"), "results": [str(runs)],
                                    "x": "iodepth", "examples": False, "logs": ""})
    key = json.loads((tmp_path / "out" / "key_numbers.json").read_text())
    assert (key["files_read"], key["points"]) == (5, 5)
    assert (tmp_path / "out" / "fit.png").is_file()


@pytest.mark.notebook
def test_a_notebook_runs_from_any_working_directory(tmp_path, monkeypatch):
    """papermill started elsewhere (no --cwd): the default output_dir still resolves against notebooks/ (here
    redirected by NVMEMODEL_OUTPUT_ROOT, as the tests do) and nothing lands in the caller's directory."""
    pm = pytest.importorskip("papermill")
    caller = tmp_path / "caller"
    caller.mkdir()
    monkeypatch.chdir(caller)
    monkeypatch.setenv("NVMEMODEL_OUTPUT_ROOT", str(tmp_path / "root"))
    nb = NOTEBOOKS / "02_lenovo_lp0865.ipynb"
    pm.execute_notebook(str(nb), str(tmp_path / nb.name), progress_bar=False, parameters={"quick": True, "mps": 512})
    assert json.loads((tmp_path / "root" / "02_lenovo_lp0865" / "key_numbers.json").read_text())["mps"] == 512
    assert list(caller.iterdir()) == []


@pytest.mark.notebook
def test_a_failing_notebook_is_reported_in_one_line(tmp_path):
    pytest.importorskip("papermill")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("quick = False\noutput_dir = ''"),
                                         nbformat.v4.new_code_cell("raise ValueError('bad input here')")])
    nb.cells[0].metadata["tags"] = ["parameters"]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "99_failing.ipynb"
    nbformat.write(nb, path)
    message = reproduce._execute(path, tmp_path / "out", True)
    assert message.startswith("99_failing.ipynb stopped in cell") and "ValueError: bad input here" in message
    # the same notebook without the failing cell: no message. (This ran notebook 07 before, ~5 s under load 1 and
    # 14 s under load 7; the module's ``reproduced`` fixture asserts that every real notebook runs through _execute.)
    nb.cells.pop()
    nbformat.write(nb, path)
    assert reproduce._execute(path, tmp_path / "ok", True) is None
    assert (tmp_path / "ok" / path.name).is_file()


def test_reproduce_progress_is_quiet(reproduced):
    """The kernels' TCP connections are CurveZMQ-encrypted: no "[IPKernelApp] WARNING | Kernel is running
    over TCP without encryption" lines spliced into the progress bar (one per notebook before). Read from what the
    module's one ``reproduce --quick`` of every notebook printed (it ran 2 and 3 again before: ~45 s)."""
    said = (reproduced.parent / "said.txt").read_text(errors="replace")
    n = len(sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")))
    assert "IPKernelApp" not in said and "running over TCP" not in said
    assert f"{n}/{n}" in said and f"{n} notebook(s) executed" in said
    # the kernels' own stderr (e.g. "KeyboardInterrupt caught in kernel" at shutdown: QA F13) is kept per notebook
    assert (reproduced / "02_lenovo_lp0865" / reproduce.KERNEL_LOG).is_file()


def test_kernels_are_started_with_transport_encryption():
    from jupyter_client.manager import KernelManager

    if KernelManager.class_traits().get("transport_encryption") is None:
        pytest.skip("this jupyter_client cannot provision CurveZMQ keys (needs >= 8.7)")
    assert reproduce.kernel_config().KernelManager.transport_encryption == "auto"


@pytest.mark.notebook
def test_no_shared_folder_in_what_a_user_reads(reproduced):
    """A user's clone has no ../shared (the development folder beside the repository): no notebook text,
    printed output, caption, index page or README sentence may mention it."""
    seen = []
    for stem in CHECKS:
        nb = json.loads((reproduced / stem / f"{stem}.ipynb").read_text())
        for cell in nb["cells"]:
            texts = ["".join(cell["source"])] if cell["cell_type"] == "markdown" else [
                "".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                for o in cell.get("outputs", [])]
            seen += [f"{stem}: {t[:80]!r}" for t in texts if "../shared" in t or "shared/data" in t]
        captions = json.loads((reproduced / stem / report.MANIFEST).read_text())["figures"]
        seen += [f"{stem} caption {f['name']}" for f in captions if "../shared" in f["caption"]]
    page = (reproduced / "index.html").read_text()
    readme = (NOTEBOOKS.parent / "README.md").read_text()
    seen += [name for name, text in (("index.html", page), ("README.md", readme)) if "../shared" in text]
    assert seen == []
