"""Software RAID with no CPU cost given is an upper bound, and says so (issue 18: no silent 'no limit'; the
blind mdadm#28 point is +211 % with md charged nothing, docs/physics.md §12.8)."""
import nvmemodel as nm
from nvmemodel.ceiling.raid import MD_CYCLES_PER_IO


def _curve(**overrides):
    # the PM1733's QD1 latency given (80 us, as for a Gen4 NAND drive): otherwise its unknown latency may bind at
    # QD32 and says so (QA s25 H39), which is not what these tests are about
    return nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[24],
                       overrides={"drive.read_latency_s": 80e-6, **overrides})


def test_md_charged_nothing_is_called_an_upper_bound():
    note = _curve(**{"raid.level": "raid0"}).upper_bound_note
    assert "software RAID layer's CPU cost is not charged" in note


def test_md_given_its_cost_is_not():
    c = _curve(**{"raid.level": "raid0", "raid.cycles_per_io": MD_CYCLES_PER_IO})
    assert c.upper_bound_note is None
    assert float(c.iops_at(24)) == 2 * 64 * 2.25e9 / (10_000 + MD_CYCLES_PER_IO)  # the CPU binds


def test_no_raid_no_note():
    assert _curve().upper_bound_note is None


def test_the_way_out_names_the_raid_cost_not_the_drive():
    # QA round 5, G1: the RAID part fell into the drive-field branch ("set them with --set drive.<field>")
    text = _curve(**{"raid.level": "raid5"}).explain(24)
    assert "set raid.cycles_per_io" in text and "drive.<field>" not in text
