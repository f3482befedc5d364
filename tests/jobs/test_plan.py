"""Sweep plans and whitepaper matrices: points, names, provenance; bad input is one clear error."""

import re

import pytest

from nvmemodel.errors import ParameterError, UnknownNameError
from nvmemodel.jobs import MATRICES, PATH_PATTERN, Plan, SweepPoint, matrix_plan, sweep_plan


def test_user_sweep_is_the_full_product():
    plan = sweep_plan(["a", "b", "c"], patterns=["randread", "read"], block_sizes=[4096, 131072],
                      iodepths=[1, 8, 32], numjobs=[1, 2])
    assert len(plan.points) == 3 * 2 * 2 * 3 * 2
    assert {p.drives for p in plan.points} == {1, 2, 3}
    p = SweepPoint(2, "randread", 4096, 8, 1)
    assert p in plan.points
    assert p.result_path == "2drives/randread-bs4096-qd8-nj1.json"
    # the ingest's path pattern recovers the drive count from every result path
    rx = re.compile(PATH_PATTERN.replace("{drives}", r"(?P<drives>[^/]+?)").replace("*", "[^/]*") + "$")
    assert {int(rx.search(q.result_path)["drives"]) for q in plan.points} == {1, 2, 3}


def test_mixed_pattern_defaults_to_fio_half_and_is_named():
    p = SweepPoint(1, "randrw", 4096, 4, 1)
    assert p.read_fraction == 0.5 and p.name == "randrw-rw50-bs4096-qd4-nj1"
    assert SweepPoint(1, "randread", 4096, 4, 1, read_fraction=0.7).read_fraction is None


def test_plan_round_trips_through_json(tmp_path):
    plan = sweep_plan(["/tmp/x", "/tmp/y"], patterns=["randrw"], read_fraction=0.7, runtime_s=10, size_bytes=2**20)
    path = tmp_path / "plan.json"
    import json

    path.write_text(json.dumps(plan.to_dict()))
    assert Plan.load(path) == plan


@pytest.mark.parametrize("kwargs, match", [
    ({"drives": [3]}, "drives=3"),
    ({"patterns": ["randomread"]}, "pattern='randomread'"),
    ({"iodepths": [0]}, "iodepth=0"),
    ({"block_sizes": [4096.5]}, "block_size=4096.5"),
])
def test_bad_sweeps(kwargs, match):
    with pytest.raises(ParameterError, match=re.escape(match)):
        sweep_plan(["a", "b"], **kwargs)


def test_unknown_matrix_suggests():
    with pytest.raises(UnknownNameError, match="lenovo-lp0865"):
        matrix_plan("lenovo", ["a"])


def test_matrix_leaves_out_drive_counts_it_cannot_run():
    plan = matrix_plan("dell-r7525", ["a", "b", "c", "d"])
    assert sorted({p.drives for p in plan.points}) == [1, 2, 4]
    assert any("[8, 12, 24]" in n for n in plan.notes)
    assert any(n.startswith("ASSUMPTION") for n in plan.notes)


def test_lenovo_matrix_rows_follow_table_1():
    plan = matrix_plan("lenovo-lp0865", ["a", "b", "c", "d"])
    assert len(plan.points) == 5 * 4
    rows = {(p.pattern, p.block_size, p.numjobs, p.iodepth) for p in plan.points}
    assert rows == {("randwrite", 4096, 8, 256), ("randread", 4096, 8, 256), ("randrw", 4096, 8, 256),
                    ("write", 262144, 1, 64), ("read", 262144, 1, 64)}


@pytest.mark.shared
def test_lenovo_matrix_is_the_papers_table(shared_dir):
    """Authority: the matrix rows are Table 1 of the Lenovo paper as its seed text prints it."""
    text = (shared_dir / "seeds" / "lenovo-lp0865-pcie-host-connections.txt").read_text()
    table = re.findall(r"^(Random Write|Random Read|OLTP|Sequential Write|Sequential Read)\t(\d+)KB\t(\d+)\t(\d+)$",
                       text, re.MULTILINE)
    names = {"Random Write": "randwrite", "Random Read": "randread", "OLTP": "randrw", "Sequential Write": "write",
             "Sequential Read": "read"}
    paper = {(names[n], int(kb) * 1024, int(workers), int(qd)) for n, kb, workers, qd in table}
    assert len(paper) == 5
    ours = {(pat, bs, nj, qd) for pat, bs, nj, qd, _ in MATRICES["lenovo-lp0865"].rows}
    assert ours == paper


def test_fit_axes_follow_what_the_sweep_varies():
    plan = sweep_plan(["a", "b", "c", "d"], iodepths=[1, 32])
    assert plan.fit_axes() == ("drives", ["iodepth"])
    assert plan.fit_command("s") == ("nvmemodel fit s/results --x drives --by iodepth "
                                     "--path-pattern '{drives}drives/*.json'")
    qd = sweep_plan(["a", "b"], drives=[2], iodepths=[1, 2, 4, 8], patterns=["randread", "randwrite"])
    assert qd.fit_axes() == ("iodepth", ["pattern"])


def test_caveats_name_settings_that_defeat_the_points():
    assert sweep_plan(["a"], iodepths=[1, 32]).caveats() == []  # libaio, O_DIRECT
    sync = sweep_plan(["a"], iodepths=[1, 32], ioengine="psync", direct=False).caveats()
    assert len(sync) == 2 and "iodepth [32] has no effect" in sync[0] and "page cache" in sync[1]
