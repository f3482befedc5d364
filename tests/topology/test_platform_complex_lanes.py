"""A platform whose root complexes are charged at their links' raw rate must give its complexes together the
socket's lanes (QA round 4, F20: Kunpeng 920's 40 lanes charged as 2 x x16 made the estimate bind below the links)."""
import csv
import importlib.resources

import pytest

RAW_PER_LANE = {3: 8e9 * 128 / 130 / 8, 4: 16e9 * 128 / 130 / 8, 5: 32e9 * 128 / 130 / 8}  # bytes/s, one direction


def _rows(name):
    with importlib.resources.files("nvmemodel.catalog").joinpath(name).open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


PLATFORMS = {r["key"]: r for r in _rows("host_platforms.csv")}
CPUS = _rows("hosts.csv")


@pytest.mark.parametrize("key", [k for k, r in PLATFORMS.items()
                                 if "raw rate" in r["complex_source"] and "fabric clock" not in r["complex_source"]])
def test_complexes_charged_at_raw_rate_carry_the_sockets_lanes(key):
    row = PLATFORMS[key]
    for cpu in (c for c in CPUS if c["platform"] == key):
        lanes = int(cpu["lanes_1p"])
        raw = lanes * RAW_PER_LANE[int(cpu["pcie_gen"])]
        total = int(row["complexes_per_socket"]) * float(row["complex_GB_per_s"]) * 1e9
        assert total == pytest.approx(raw, rel=0.01), (cpu["key"], lanes, total / 1e9)
