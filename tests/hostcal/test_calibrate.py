"""``nvmemodel calibrate`` (issue 29 item 2): real fio runs on this machine into a new folder, resumed when run
again, a host profile that ``plan --profile`` charges; and what it refuses (a block device without --allow-write,
a folder it did not make, a name fio would read as syntax). The fio runs are skipped without fio."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import stat

import pytest

import nvmemodel as nm
from nvmemodel.cli import main
from nvmemodel.hostcal.apply import stack_costs
from nvmemodel.hostcal.measure import MARKER, calibrate

FIO = shutil.which("fio")
needs_fio = pytest.mark.skipif(FIO is None, reason="fio is not installed (apt-get install fio)")


def test_a_calibration_measures_plausible_costs(calibrated):
    root, target, profile, lines = calibrated
    assert profile["schema"] == "nvmemodel.host-profile/1"
    assert (root / "out" / "profile.json").is_file() and (root / "out" / MARKER).is_file()
    steps = {s["step"]: s for s in profile["steps"]}
    null = steps["fio-null"]
    assert null["scope"] == "fio" and null["runs"][0]["ios"] > 1000
    # fio's own work per I/O: hundreds to a few thousand cycles on any CPU of the last decade
    assert 100 < null["cycles_per_io"]["median"] < 20_000
    for name in ("psync-null-device", "libaio-null-device"):  # every Linux fio has these
        assert steps[name]["scope"] == "no_device" and steps[name]["cycles_per_io"]["median"] > 100
        assert steps[name]["command"][0] == FIO and "--filename=/dev/zero" in steps[name]["command"]
    # every step fio could not run here is named with its reason
    ran = {s["step"] for s in profile["steps"]}
    assert all(s["reason"] for s in profile["skipped"]) and not ran & {s["step"] for s in profile["skipped"]}
    assert any("kept" not in line and "IOPS" in line for line in lines)
    device = [s for s in profile["steps"] if s["scope"] == "device"]
    if not device:  # e.g. a temporary folder on tmpfs, which refuses O_DIRECT
        assert {"libaio-device", "psync-device"} <= {s["step"] for s in profile["skipped"]}
        pytest.skip(f"no device step could run on the temporary folder's file system: {profile['skipped']}")
    for s in device:  # the whole path through a real block layer costs more than fio alone
        assert s["cycles_per_io"]["median"] > null["cycles_per_io"]["median"]
        assert "--readonly" in s["command"] and "--direct=1" in s["command"]
        assert s["target"] == str(target)


def test_a_rerun_resumes_and_keeps_the_runs(calibrated):
    root, target, profile, _ = calibrated
    before = {p.name: p.stat().st_mtime_ns for p in (root / "out" / "runs").iterdir()}
    lines = []
    again = calibrate(root / "out", seconds=8, repeats=1, target=str(target), progress=lines.append)
    after = {p.name: p.stat().st_mtime_ns for p in (root / "out" / "runs").iterdir()}
    assert before == after  # nothing run again, nothing rewritten
    assert sum("kept from an earlier calibrate" in line for line in lines) == len(profile["steps"])
    assert [s["cycles_per_io"] for s in again["steps"]] == [s["cycles_per_io"] for s in profile["steps"]]
    other = root / "other.dat"
    other.write_bytes(os.urandom(1 << 20))
    with pytest.raises(nm.ParameterError, match="a new folder for these settings"):  # kept runs are of target.dat
        calibrate(root / "out", seconds=8, repeats=1, target=str(other), progress=None)
    with pytest.raises(nm.ParameterError, match="a new folder for these settings"):
        calibrate(root / "out", seconds=8, repeats=1, progress=None)


def test_plan_with_the_profile_charges_what_was_measured(calibrated, capsys):
    root, _, profile, _ = calibrated
    path = str(root / "out" / "profile.json")
    libaio = next((s for s in profile["steps"] if s["step"] == "libaio-device"), None)
    assert main(["plan", "--iops", "40M", "--io-stack", "libaio", "--profile", path]) == 0
    text = capsys.readouterr().out
    if libaio is None:  # no device step ran here (tmpfs): the /dev/zero figure is a lower bound, named beside the cost
        zero = next(s for s in profile["steps"] if s["step"] == "libaio-null-device")["cycles_per_io"]["median"]
        assert f"{zero:,.0f} cycles per I/O (median" in text and path in text
        assert "unchanged: measured here by nvmemodel calibrate" in text or "measured: at least this" in text
        return
    shown = f"libaio: {libaio['cycles_per_io']['median']:,.0f} cycles per I/O (measured: here by nvmemodel calibrate"
    assert shown in text and path in text
    # the plan's CPU ceiling is the measured cost's: 2 x 64 cores x 2.25 GHz (the R7525's assumed EPYC 7742)
    reached = float(re.search(r"reaches at most ([\d.]+) M IOPS with 24 drives", text)[1]) * 1e6
    expected = min(128 * 2.25e9 / libaio["cycles_per_io"]["median"], 24 * 1.45e6)
    assert reached == pytest.approx(expected, rel=0.01)
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[24], profile=path)
    assert curve.sources["host.cycles_per_io"].status == "measured"
    assert main(["plan", "--iops", "40M", "--profile", path, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert any(n.startswith(f"host CPU cost per I/O measured on your machine: libaio: "
                            f"{libaio['cycles_per_io']['median']:,.0f} cycles") for n in doc["notes"])


def _profile(scope: str, cycles: float, **extra) -> dict:
    """A SYNTHETIC profile (not a measurement: the numbers are chosen to sit on either side of a default)."""
    return {"schema": "nvmemodel.host-profile/1", "created": "synthetic", "host": {"clock_hz": 2e9},
            "fio": {"version": "fio-synthetic"},
            "steps": [{"step": "libaio-x", "stack": "libaio", "ioengine": "libaio", "scope": scope, "target": "t",
                       "direction": "read", "block_size_bytes": 4096, "iodepth": 8, "runs": [{}],
                       "cycles_per_io": {"median": cycles, "min": cycles, "max": cycles}, **extra}]}


def test_a_null_device_figure_is_a_lower_bound():
    host = nm.get_host("intel-xeon-platinum-8380")  # libaio's default: 8,200 cycles ([RT23])
    (stack, cycles, text), = stack_costs(host, profile=_profile("no_device", 20_000.0))
    assert (stack, cycles) == ("libaio", 20_000.0) and text.startswith("measured: at least this")
    (stack, cycles, text), = stack_costs(host, profile=_profile("no_device", 3_000.0))
    assert cycles == 8200.0 and "consistent with" in text and "Ren & Trivedi" in text  # the default, its source
    (stack, cycles, text), = stack_costs(host, profile=_profile("device", 3_000.0))
    assert cycles == 3000.0 and text.startswith("measured: here")
    assert stack_costs(host, profile=_profile("device", 3_000.0, polling=True)) == ()  # busy whatever the rate


def test_a_profile_of_another_schema_is_refused(tmp_path):
    bad = tmp_path / "p.json"
    bad.write_text(json.dumps({**_profile("device", 1.0), "schema": "other/1"}))
    with pytest.raises(nm.ParameterError, match="nvmemodel.host-profile/1"):
        nm.with_costs(nm.preset("dell-r7525"), profile=str(bad))
    bad.write_text(json.dumps(_profile("device", -5.0)))
    with pytest.raises(nm.ParameterError, match=r"steps\[0\].cycles_per_io.median"):
        nm.with_costs(nm.preset("dell-r7525"), profile=str(bad))


def _a_block_device() -> str | None:
    for name in sorted(os.listdir("/dev")):
        path = f"/dev/{name}"
        try:
            if stat.S_ISBLK(os.stat(path).st_mode):
                return path
        except OSError:
            continue
    return None


def test_a_block_device_is_refused_without_allow_write(tmp_path, capsys):
    device = _a_block_device()
    if device is None:
        pytest.skip("no block device under /dev on this machine")
    assert main(["calibrate", "--out", str(tmp_path / "o"), "--target", device]) == 2
    err = capsys.readouterr().err
    assert "--allow-write" in err and device in err and not (tmp_path / "o").exists()


def test_a_folder_calibrate_did_not_make_is_refused(tmp_path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("the user's own\n")
    assert main(["calibrate", "--out", str(mine)]) == 2
    assert "marker" in capsys.readouterr().err and sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("name", ["a\nb.dat", "x.dat;exec", "${HOME}.dat", "a=b.dat"])
def test_a_target_fio_would_read_as_syntax_is_refused(tmp_path, capsys, name):
    assert main(["calibrate", "--out", str(tmp_path / "o"), "--target", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert err.count("nvmemodel: error:") == 1 and "--target" in err and not (tmp_path / "o").exists()


@needs_fio  # (without fio, that is the first refusal)
def test_without_a_clock_nothing_runs(tmp_path, monkeypatch, capsys):
    import nvmemodel.hostcal.measure as measure

    monkeypatch.setattr(measure, "_cpuinfo", lambda: [])  # as on a machine whose /proc/cpuinfo gives no clock
    monkeypatch.setattr(measure.pathlib.Path, "read_text", lambda self, *a, **k: (_ for _ in ()).throw(OSError()))
    with pytest.raises(nm.ParameterError, match="--clock"):
        measure.calibrate(tmp_path / "o", seconds=8, repeats=1, progress=None)
    assert not (tmp_path / "o").exists()


def test_without_fio_the_error_says_how_to_install_it(tmp_path, capsys):
    assert main(["calibrate", "--out", str(tmp_path / "o"), "--fio", str(tmp_path / "no-fio")]) == 2
    assert "install fio" in capsys.readouterr().err and not (tmp_path / "o").exists()


def test_a_file_held_in_memory_is_no_device():
    """A file on tmpfs is read without any block device (Linux 6.6+ tmpfs takes O_DIRECT, so fio runs): its steps
    are lower bounds, as /dev/zero's."""
    from nvmemodel.hostcal.measure import MEMORY_FILESYSTEMS, plan_steps, target_filesystem

    assert target_filesystem("/proc/self/status")[0] == "proc"
    if target_filesystem("/dev/shm")[0] not in MEMORY_FILESYSTEMS:
        pytest.skip("/dev/shm is not a tmpfs here")
    steps = plan_steps("/dev/shm/x", target_size=1 << 20, target_scope="no_device")
    assert {s.scope for s in steps if s.target == "/dev/shm/x"} == {"no_device"}
