"""Every dataset under data/ says where it comes from.

* each folder under ``data/`` (``data/catalog`` links to ``nvmemodel/catalog``) has a README that
  names each of its data files and states their provenance, and ``data/README.md`` lists it;
* every CSV has provenance columns (``source``/``status``, ``document``/``where``/``quote``, or
  per-parameter ``*_status``) and every row fills them — nothing under data/ without its source;
* catalog ``status`` values use the vocabulary ``nvmemodel/catalog/README.md`` defines;
* each whitepaper anchor's quote really is in the seed text it cites (needs ../shared).

The SI values of the anchors are re-derived from their printed values in
``tests/test_packaging.py::test_anchor_si_values_follow_from_printed_values``.
"""

from __future__ import annotations

import csv
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
#: Columns that carry provenance, by name (``*_status`` columns count too).
PROVENANCE = {"source", "status", "document", "where", "quote"}
DATA_SUFFIXES = {".csv", ".json", ".parquet", ".txt", ".yaml", ".yml"}


def _datasets() -> list[pathlib.Path]:
    return sorted(p for p in DATA.iterdir() if p.is_dir())


def _csv_files() -> list[pathlib.Path]:
    return sorted(f for d in _datasets() for f in d.rglob("*.csv"))


def _rel(path: pathlib.Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_there_are_datasets():
    # Guards the loops below against an empty or moved data/ folder.
    assert {d.name for d in _datasets()} >= {"catalog", "whitepapers"}
    assert len(_csv_files()) >= 3


@pytest.mark.parametrize("folder", _datasets(), ids=lambda p: p.name)
def test_dataset_readme_names_its_files_and_their_provenance(folder):
    readme = folder / "README.md"
    assert readme.is_file(), f"{_rel(folder)} has no README.md"
    text = readme.read_text(encoding="utf-8")
    assert re.search(r"provenance|source", text, re.IGNORECASE), f"{_rel(readme)} says nothing about provenance"
    files = [f for f in folder.iterdir() if f.suffix in DATA_SUFFIXES]
    unnamed = [f.name for f in files if f.name not in text]
    assert not unnamed, f"{_rel(readme)} does not describe {unnamed}"
    index = (DATA / "README.md").read_text(encoding="utf-8")
    assert f"`{folder.name}/`" in index, f"data/README.md does not list {folder.name}/"


@pytest.mark.parametrize("path", _csv_files(), ids=_rel)
def test_every_csv_row_carries_its_source(path):
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        rows = list(reader)
        columns = [c for c in reader.fieldnames or [] if c in PROVENANCE or c.endswith("_status")]
    assert columns, f"{_rel(path)} has no provenance column (one of {sorted(PROVENANCE)} or *_status)"
    assert rows, f"{_rel(path)} is empty"
    for i, row in enumerate(rows, start=2):  # line 1 is the header
        empty = [c for c in columns if not (row[c] or "").strip()]
        assert not empty, f"{_rel(path)} line {i}: empty provenance {empty}"


def _status_vocabulary() -> set[str]:
    # The table in nvmemodel/catalog/README.md: "| `spec` | copied from a vendor spec table ... |"
    text = (ROOT / "nvmemodel" / "catalog" / "README.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\|\s*`(\w+)`\s*\|", text, re.MULTILINE))


def test_catalog_status_values_are_defined():
    vocabulary = _status_vocabulary()
    assert {"spec", "inferred", "recalled", "calibrated"} <= vocabulary
    for path in _csv_files():
        with path.open(encoding="utf-8", newline="") as fh:
            for i, row in enumerate(csv.DictReader(fh), start=2):
                if "status" in row:
                    assert row["status"] in vocabulary, f"{_rel(path)} line {i}: status {row['status']!r}"


def _normalise(text: str) -> str:
    # Seed tables are tab-separated; anchors quote their cells joined by " | ".
    return re.sub(r"\s+", " ", text.replace("|", " ")).strip()


@pytest.mark.shared
def test_anchor_quotes_are_in_their_seed_documents(shared_dir):
    with (DATA / "whitepapers" / "anchors.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        seed = shared_dir / row["document"]
        assert seed.is_file(), f"anchor {row['id']}: no seed file {row['document']}"
        text = _normalise(seed.read_text(encoding="utf-8"))
        # "..." in a quote marks an elision: each part must appear, in order.
        position = 0
        for part in (_normalise(p) for p in row["quote"].split("...")):
            found = text.find(part, position)
            assert found >= 0, f"anchor {row['id']}: {part!r} is not in {row['document']}"
            position = found + len(part)
