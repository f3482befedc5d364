"""Values kept from the old host keep their own status (QA round 4, F19 and F17): the catalog has no cycles per
I/O, so a preset's calibration carried to another CPU is not a 'spec' value of that CPU, and the chassis's
reserved lanes are an assumption, not a spec sheet."""
import nvmemodel as nm


def _table(preset, host):
    t = nm.parameter_table(nm.with_host(nm.preset(preset), host))
    return t.set_index("name")


def test_a_calibration_carried_to_another_cpu_stays_calibrated():
    row = _table("dell-r7525", "amd-epyc-9554").loc["host.cycles_per_io"]
    assert row["status"] == "calibrated" and "kept from dell-r7525" in row["source"]


def test_the_chassis_lanes_are_an_assumption():
    row = _table("dell-r7525", "amd-threadripper-pro-7995wx").loc["host.reserved_lanes_per_socket"]
    assert row["status"] == "assumption" and "kept from dell-r7525" in row["source"]


def test_the_plan_says_where_reserved_lanes_come_from():
    space = nm.DesignSpace("dell-r7525", {"host": ["amd-threadripper-pro-7995wx"],
                                          "drive.model": ["samsung-pm1743"]}, max_drives=40)
    p = nm.plan(nm.Target(nm.Workload("read", "128K"), bytes_per_s=200e9), space)
    reason = p.rejected["reason"][0]
    assert "24 drives is the most it can attach" in reason and "(reserved lanes: assumption, 24 drive bays" in reason
