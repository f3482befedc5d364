"""The drive catalog (issue 19 item 2): ≥ 40 drives across Gen3/4/5, enterprise and client, each value from the
source its row cites (or marked recalled), each identifiable by PCI ids or the names lspci prints."""

import math
import re

import pytest

from nvmemodel.topology.drive import FIELDS, drive_catalog

CATALOG = drive_catalog()

#: catalog column → how the value appears in a source (MB/s, IOPS, microseconds)
_SCALE = {"seq_read_bytes_per_s": 1e6, "seq_write_bytes_per_s": 1e6, "rand_read_iops": 1.0, "rand_write_iops": 1.0,
          "read_latency_s": 1e-6, "write_latency_s": 1e-6}


def _numbers(text: str) -> set[float]:
    """Every number a source sentence states, read every way a spec sheet or a press article writes it:
    '3,200' / '3.200' / '3 200' (thousands) or '3,2' / '3.2' (decimals), and with K / M / Mio. / Millionen /
    GB/s / GByte/s / Go/s scaled to units (3.2 GB/s = 3200 MB/s; 540K = 540000)."""
    text = re.sub(r"(\d)[ \u00a0](\d{3})\b", r"\1\2", text)
    out: set[float] = set()
    for m in re.finditer(r"(\d[\d.,]*)\s*(K|k|M\b|Mio|Million|Millionen|million|GB|GByte|Go|TB)?", text):
        raw, unit = m.group(1).rstrip(".,"), m.group(2) or ""
        readings = {raw.replace(",", "").replace(".", "")}
        for sep in ",.":
            if raw.count(sep) == 1 and len(raw.split(sep)[1]) != 3:
                readings.add(raw.replace("," if sep == "." else ".", "").replace(sep, "."))
            if raw.count(sep) == 1:
                readings.add(raw.replace(sep, "."))
        for r in readings:
            try:
                v = float(r)
            except ValueError:
                continue
            mult = {"K": 1e3, "k": 1e3, "M": 1e6, "Mio": 1e6, "Million": 1e6, "Millionen": 1e6, "million": 1e6,
                    "GB": 1e3, "GByte": 1e3, "Go": 1e3}.get(unit, 1.0)
            out.update({v, v * mult})
    return out


def test_catalog_size_and_spread():
    assert len(CATALOG) >= 40
    gens = {int(d.gen) for d in CATALOG.values()}
    assert {3, 4, 5} <= gens
    for gen in (3, 4, 5):
        segs = {d.segment for d in CATALOG.values() if int(d.gen) == gen}
        assert segs >= {"enterprise", "client"}, gen


@pytest.mark.parametrize("model", ["PM981", "PM983", "PM9A3", "PM1733", "PM1743", "980 PRO", "990 PRO", "P3700",
                                   "P4510", "P5510", "P5800X", "P44 Pro", "P5520", "7450", "9400", "CM6", "CM7",
                                   "SN850X", "E18", "E26", "MAP1202"])
def test_the_issues_drives_are_there(model):
    hits = [k for k, d in CATALOG.items() if model.lower() in d.name.lower() or model.lower() in d.family.lower()
            or re.search(d.match or "^$", model, re.IGNORECASE)]
    assert hits, model


@pytest.mark.parametrize("key", list(CATALOG))
def test_every_value_is_in_its_source_or_marked_recalled(key):
    d = CATALOG[key]
    sources = d.sources()
    for field in FIELDS:
        src = sources[f"drive.{field}"]
        stated = _numbers(src.text)  # the row's source, or the latency's own source (latency_source column)
        assert src.status in ("spec", "inferred", "recalled", "calibrated"), (key, field, src)
        assert len(src.text) > 20, (key, field)
        value = getattr(d, field)
        if field in ("gen", "lanes") or (isinstance(value, float) and math.isnan(value)):
            continue
        if src.status == "recalled":  # not re-verified: its source must say so
            assert "recalled" in src.text or "NOT re-verified" in src.text or d.status == "recalled", (key, field)
            continue
        want = value / _SCALE[field]
        assert any(math.isclose(want, n, rel_tol=5e-3) for n in stated), (key, field, want, src.text)


def test_latencies_cite_their_own_source_where_the_row_has_one():
    # the CM6's latencies come from Kioxia's Gen5 slides (inferred), not from the heise.de article of its row
    cm6 = CATALOG["kioxia-cm6-r-30.72tb"].sources()
    assert cm6["drive.read_latency_s"].status == "inferred" and "90 μs" in cm6["drive.read_latency_s"].text
    assert cm6["drive.seq_read_bytes_per_s"].status == "spec" and "heise.de" in cm6["drive.seq_read_bytes_per_s"].text
    assert CATALOG["kioxia-cm6-r-30.72tb"].read_latency_s == pytest.approx(90e-6)
    # a row without latency_source keeps its row source for the latencies (the P4500's Lenovo table)
    p4500 = CATALOG["intel-p4500-4tb"].sources()["drive.read_latency_s"]
    assert p4500.status == "spec" and "read access latency random 115 us" in p4500.text


def test_bad_latency_columns_are_one_clear_error(monkeypatch):
    from nvmemodel.errors import NvmeModelError
    from nvmemodel.topology import _catalog, drive

    rows = [dict(r) for r in _catalog.read_catalog("drives.csv")]
    rows[0]["latency_status"], rows[0]["latency_source"] = "guessed", "a forum post"
    monkeypatch.setattr(drive, "read_catalog", lambda fn: tuple(rows))
    drive._catalog.cache_clear()
    try:
        with pytest.raises(NvmeModelError, match=r"drives.csv: row .*'latency_status'/'latency_source'.*'guessed'"):
            drive.drive_catalog()
    finally:
        drive._catalog.cache_clear()


@pytest.mark.parametrize("key", list(CATALOG))
def test_every_drive_can_be_identified(key):
    d = CATALOG[key]
    assert d.match or d.pci_ids or d.family, key
    for pid in d.pci_ids:
        assert re.fullmatch(r"[0-9a-f]{4}:[0-9a-f]{4}(/[0-9a-f]{4}:[0-9a-f]{4})?", pid), (key, pid)
    for pattern in (d.match, *[a for a in d.family.split("|") if a and not a.startswith("id:")]):
        re.compile(pattern)


def test_exact_ids_name_one_drive():
    """A vendor:device/subsystem id, or a device id given without subsystem, belongs to one row only."""
    seen: dict[str, str] = {}
    for key, d in CATALOG.items():
        for pid in d.pci_ids:
            assert pid not in seen, (pid, seen.get(pid), key)
            seen[pid] = key


def test_bad_recalled_column_is_one_clear_error(monkeypatch):
    from nvmemodel.errors import NvmeModelError
    from nvmemodel.topology import _catalog, drive

    rows = [dict(r) for r in _catalog.read_catalog("drives.csv")]
    rows[0]["recalled"] = "seq_read"
    monkeypatch.setattr(drive, "read_catalog", lambda fn: tuple(rows))
    drive._catalog.cache_clear()
    try:
        with pytest.raises(NvmeModelError, match=r"drives.csv: row .*column 'recalled': \['seq_read'\]"):
            drive.drive_catalog()
    finally:
        drive._catalog.cache_clear()
