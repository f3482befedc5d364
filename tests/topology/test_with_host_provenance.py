"""Values kept from the old host keep their own status (QA round 4, F19 and F17): the catalog has no cycles per
I/O, so a preset's calibration carried to another CPU is not a 'spec' value of that CPU, and the chassis's
reserved lanes are an assumption, not a spec sheet."""
import nvmemodel as nm


def _table(preset, host):
    t = nm.parameter_table(nm.with_host(nm.preset(preset), host))
    return t.set_index("name")


def test_a_calibration_is_not_carried_to_another_cpu():
    # QA round 5, G16: the R7525's 10,000 (fitted on its assumed EPYC 7742) gave a Xeon 8380 18.4 M IOPS there and
    # 22.4 M in another chassis; another CPU takes the stacks' measured defaults
    row = _table("dell-r7525", "amd-epyc-9554").loc["host.cycles_per_io"]
    assert row["status"] != "calibrated" and float(row["value"]) == 8_200
    same = _table("dell-r7525", "amd-epyc-7742").loc["host.cycles_per_io"]  # the CPU it was made on keeps it
    assert same["status"] == "calibrated" and "kept from dell-r7525" in same["source"]


def test_the_chassis_lanes_are_an_assumption():
    row = _table("dell-r7525", "amd-threadripper-pro-7995wx").loc["host.reserved_lanes_per_socket"]
    assert row["status"] == "assumption" and "kept from dell-r7525" in row["source"]


def test_the_plan_says_where_reserved_lanes_come_from():
    space = nm.DesignSpace("dell-r7525", {"host": ["amd-threadripper-pro-7995wx"],
                                          "drive.model": ["samsung-pm1743"]}, max_drives=40)
    # 300 GB/s: beyond the 24 bays' socket-DMA ceiling (0.68 x 8 x DDR5-5200 x 8 B = 226 GB/s; 200 GB/s was beyond the
    # former 0.38 share's 126 GB/s and is now met), so the plan rejects the row and says why
    p = nm.plan(nm.Target(nm.Workload("read", "128K"), bytes_per_s=300e9), space)
    reason = p.rejected["reason"][0]
    assert "24 drives is the most it can attach" in reason
    assert "(reserved lanes: assumption, the chassis's drive lanes, kept from dell-r7525" in reason  # the row's host
