"""Units at the edges: decimal vs binary, bits vs bytes, block-size convention."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nvmemodel import UnitError, units


@pytest.mark.parametrize("text, expected", [
    ("6200 MB/s", 6.2e9), ("6,200 MB/s", 6.2e9), ("80.41GiB/s", 80.41 * 2**30), ("7GiB/s", 7 * 2**30),
    ("100Gb/s", 12.5e9), ("100 Gbps", 12.5e9), ("91.16 Gb/s", 11.395e9), ("3350 MBps", 3.35e9),
    ("1 KiB/s", 1024.0), ("1 kB/s", 1000.0), (5.0, 5.0),
])
def test_parse_bandwidth(text, expected):
    assert units.parse_bandwidth(text) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("text, expected", [
    ("4K", 4096), ("4k", 4096), ("4KB", 4096), ("4KiB", 4096), ("128K", 131072), ("256KB", 262144),
    ("1M", 2**20), ("512", 512), ("512B", 512),
])
def test_parse_block_size_is_binary(text, expected):
    # fio, IOmeter and LP0865 Table 1 ("4KB", "256KB") mean 4096 / 262144 bytes.
    assert units.parse_block_size(text) == expected


@pytest.mark.parametrize("text, expected", [("4KB", 4000.0), ("4KiB", 4096.0), ("960GB", 9.6e11), ("1 TiB", 2.0**40)])
def test_parse_bytes_is_strict(text, expected):
    assert units.parse_bytes(text) == expected


@pytest.mark.parametrize("text, expected", [("15.07 µs", 15.07e-6), ("200us", 200e-6), ("1.5 ms", 1.5e-3),
                                            ("10 μs", 10e-6), ("3s", 3.0), ("100ns", 100e-9)])
def test_parse_time(text, expected):
    assert units.parse_time(text) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("text, expected", [("2811K", 2.811e6), ("1.3 M", 1.3e6), ("17M IOPS", 17e6), ("835,000", 835e3)])
def test_parse_count(text, expected):
    assert units.parse_count(text) == pytest.approx(expected)


@pytest.mark.parametrize("func, text", [
    (units.parse_bandwidth, "fast"), (units.parse_bandwidth, "6200 MB"), (units.parse_bytes, "4 MB/s"),
    (units.parse_time, "3 parsecs"), (units.parse_count, "4Ki"), (units.parse_block_size, "4K/s"),
])
def test_bad_quantities_raise_unit_error(func, text):
    with pytest.raises(UnitError, match="parse|not"):
        func(text)


def test_unit_error_is_value_error():
    with pytest.raises(ValueError):
        units.parse_bandwidth("nonsense")


def test_dell_gib_vs_gb():
    # Dell's 80.41 GiB/s is 86.34 GB/s (docs/physics.md §7.1): the two must never be confused.
    assert units.convert(80.41 * units.GiB, "GB/s") == pytest.approx(86.340, rel=1e-4)


@given(st.floats(min_value=1e-3, max_value=1e15, allow_nan=False),
       st.sampled_from(["B/s", "kB/s", "KiB/s", "MB/s", "MiB/s", "GB/s", "GiB/s", "Gb/s", "Mb/s", "TB/s"]))
def test_convert_round_trips(value, unit):
    si = units.convert(value, unit, to_si=True)
    assert units.convert(si, unit) == pytest.approx(value, rel=1e-12)
    # the string form parses back to the same SI value
    assert units.parse_bandwidth(f"{value!r} {unit}") == pytest.approx(si, rel=1e-12)


def test_bits_are_an_eighth_of_bytes():
    assert units.convert(1, "Gb/s", to_si=True) * 8 == units.convert(1, "GB/s", to_si=True)
    assert units.MiB / units.MB == pytest.approx(1.048576)
    assert not math.isclose(units.parse_bandwidth("1 MiB/s"), units.parse_bandwidth("1 MB/s"))


def test_format_helpers():
    assert units.format_bandwidth(6.2e9, "MB/s", 0) == "6200 MB/s"
    assert units.format_iops(2.811e6) == "2.81 M IOPS"
