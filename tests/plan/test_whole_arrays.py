"""The planner answers in whole RAID arrays (QA round 4, F31: '3 drives' for ION's RAID-5 of 4)."""
import nvmemodel as nm


def test_ion_raid5_of_4_is_planned_in_arrays_of_4():
    space = nm.DesignSpace("ion-sr71mach5-linux", {})
    p = nm.plan(nm.Target(nm.Workload("randwrite", "4K"), iops=50e3), space)
    assert int(p.best["drives"]) == 4  # one array; 3 drives hold no RAID-5 of 4


def test_a_level_axis_steps_in_arrays_of_the_width():
    space = nm.DesignSpace("dell-r7525", {"raid.level": ["raid5", "raid6", "raid10"], "raid.width": [6.0]},
                           max_drives=24)
    p = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=8e6), space)
    assert len(p.frame) and all(int(d) % 6 == 0 for d in p.frame["drives"])
