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
