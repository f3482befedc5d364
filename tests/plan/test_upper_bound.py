"""A plan on a host whose layers above the links are unknown says, per answer, that it is an upper bound
(QA round 4, F14; issue 18 item 4): `ceilings` said it, the planner did not."""
import nvmemodel as nm


def _plan(preset, axes=None, gb_s=15):
    space = nm.DesignSpace(preset, axes or {}, max_drives=8)
    return nm.plan(nm.Target(nm.Workload("read", "128K"), bytes_per_s=gb_s * 1e9), space)


def test_ion_answers_are_marked_upper_bounds_in_table_text_and_json():
    plan = _plan("ion-sr71mach5-linux")
    note = plan.frame["upper_bound"].iloc[0]
    assert "root complexes" in note and "socket DMA" in note and "inter-socket" in note
    assert "[upper bound:" in plan.explain()
    assert plan.to_dict()["configurations"][0]["upper_bound"] == note


def test_a_catalog_host_with_every_layer_known_carries_no_note():
    plan = _plan("dell-r7525")
    assert len(plan.frame) and (plan.frame["upper_bound"] == "").all()
    assert "upper bound" not in plan.explain()


def test_a_host_axis_marks_each_answer_by_its_own_host():
    # the ION host has no catalog platform; a catalog CPU on the host axis brings its limits
    plan = _plan("ion-sr71mach5-linux", {"host": ["amd-epyc-7742:1", "intel-xeon-platinum-8380:1"]}, gb_s=10)
    table = plan.table()
    assert len(table) and (table["upper_bound"] == "").all()


def test_a_psync_answer_says_its_qd1_latency_is_unknown():
    # QA2 G4/G5 addendum: one psync job per drive at the drive's high-queue-depth rating, no word
    space = nm.DesignSpace("dell-r7525", {"workload.io_stack": ["libaio", "psync"]}, max_drives=24)
    p = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=1e6), space, merge_identical=False)
    notes = dict(zip(p.frame["workload.io_stack"], p.frame["upper_bound"]))
    # QA s25 H39: libaio's 32 in flight may be bound too (32 / 115 us, the catalog's slowest NAND latency, = 278 K
    # below the PM1733's 1.45 M); the default's 128K reads (61 K per drive) are not: test_a_catalog_host_... above
    assert "QD1 latency" in notes["psync"] and "may bind" in notes["libaio"]
