"""``nvmemodel drives --sources / --gen`` (QA F30: the help promised sources the listing did not show)."""

from nvmemodel import cli
from nvmemodel.topology.drive import get_drive


def test_drives_sources_prints_each_rows_document(capsys):
    assert cli.main(["drives", "--gen", "5", "--sources"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines()[1:] if not line.startswith("    |")]
    assert rows and all(" Gen5 x" in line for line in rows)
    assert "samsung-pm1743" in out and "Samsung PM1743: PCIe-5.0-SSD mit 13 GB/s" in out
    assert get_drive("samsung-pm1743").source.split(":")[0] in out


def test_drives_plain_listing_has_no_sources_and_a_missing_generation_is_refused(capsys):
    assert cli.main(["drives"]) == 0
    out = capsys.readouterr().out
    assert "samsung-pm1733-u2" in out and "    | source" not in out
    assert cli.main(["drives", "--gen", "1"]) == 2
    assert "--gen=1 is not allowed" in capsys.readouterr().err
