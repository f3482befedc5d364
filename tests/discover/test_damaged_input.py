"""Damaged lspci text (cut anywhere, lines lost) gives a partial tree or one LspciError — never a traceback."""

import pathlib

from hypothesis import given, settings
from hypothesis import strategies as st

from nvmemodel.discover import build_topology, parse_lspci, parse_lspci_tree
from nvmemodel.errors import NvmeModelError

LSPCI = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci"
VERBOSE = [(LSPCI / n).read_text() for n in ("synthetic-switched-gen4_vvv.txt", "hwloc-dell-xeon-e5-2s-p3600_vvv.txt")]
DRAWINGS = [(LSPCI / n).read_text()
            for n in ("synthetic-switched-gen4_tv.txt", "hwloc-xeon-2s-pcie-switches-ve_tv.txt")]


@settings(max_examples=150, deadline=None)
@given(which=st.integers(0, 1), cut=st.floats(0, 1), drop=st.lists(st.integers(0, 10_000), max_size=5))
def test_cut_verbose_text(which, cut, drop):
    lines = VERBOSE[which][: int(cut * len(VERBOSE[which]))].splitlines()
    for i in sorted({d % len(lines) for d in drop} if lines else (), reverse=True):
        del lines[i]
    try:
        found = build_topology(parse_lspci("\n".join(lines)))
    except NvmeModelError:
        return
    assert all(d.parent is None or d.parent in found.tree.devices for d in found.tree)


@settings(max_examples=150, deadline=None)
@given(which=st.integers(0, 1), cut=st.floats(0, 1))
def test_cut_tree_drawing(which, cut):
    try:
        tree = parse_lspci_tree(DRAWINGS[which][: int(cut * len(DRAWINGS[which]))])
    except NvmeModelError:
        return
    assert all(d.parent is None or d.parent in tree.devices for d in tree)


def test_read_lspci_reads_only_a_bounded_regular_file(tmp_path, monkeypatch):
    """QA L1: read_lspci goes through userfiles.read_input — no folder, FIFO or endless file, a size bound."""
    import os

    import pytest

    from nvmemodel.discover import LspciError, read_lspci
    from nvmemodel.discover import lspci as lspci_module

    with pytest.raises(LspciError, match="cannot read: expected a regular file"):
        read_lspci(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(LspciError, match="cannot read"):
        read_lspci(fifo)
    big = tmp_path / "big.txt"
    big.write_text("00:00.0 Host bridge: x\n" * 100)
    monkeypatch.setattr(lspci_module, "MAX_LSPCI_BYTES", 1000)
    with pytest.raises(LspciError, match="at most 1,000 bytes"):
        read_lspci(big)
    latin = tmp_path / "latin1.txt"  # a device name that is not UTF-8 is kept, replaced, not refused
    latin.write_bytes(b"00:00.0 Host bridge: Caf\xe9 Corp Device 1234\n")
    monkeypatch.setattr(lspci_module, "MAX_LSPCI_BYTES", 16 * 2**20)
    assert "Caf\ufffd" in read_lspci(latin).devices["0000:00:00.0"].name
