"""One real calibration for the whole test run, shared by test_calibrate.py and test_file_schemas.py."""

from __future__ import annotations

import fcntl
import json
import os
import shutil

import pytest


@pytest.fixture(scope="session")
def calibrated(tmp_path_factory, worker_id):
    """One short calibration (about 8 s) with a 1 MiB file as the target: null engine, each stack on /dev/zero and
    on the file (O_DIRECT, fio readonly). ``(root, target, profile, progress lines)``; the folder is ``root/out``.

    Both files read it, and ``--dist loadfile`` may give them to different xdist workers: the first worker to ask
    runs it in the run's common temporary folder, under a lock, and the other reads what it wrote (each calibration
    is seconds of fio spinning a core). Tests only read it: ``test_a_rerun_resumes_and_keeps_the_runs`` asserts
    that calibrating again rewrites nothing."""
    from nvmemodel.hostcal.measure import calibrate

    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (apt-get install fio)")
    base = tmp_path_factory.getbasetemp()
    common = base if worker_id == "master" else base.parent  # the parent of every worker's basetemp
    root = common / "hostcal-calibration"
    target = root / "target.dat"
    said = root / "progress.json"
    with open(common / "hostcal-calibration.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not said.is_file():
            shutil.rmtree(root, ignore_errors=True)  # a worker that died part way: start afresh
            root.mkdir()
            target.write_bytes(os.urandom(1 << 20))
            lines: list[str] = []
            calibrate(root / "out", seconds=8, repeats=1, target=str(target), progress=lines.append)
            said.write_text(json.dumps(lines))
    profile = json.loads((root / "out" / "profile.json").read_text())
    return root, target, profile, json.loads(said.read_text())
