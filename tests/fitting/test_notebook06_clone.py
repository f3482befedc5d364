"""Notebook 06 is complete in a user's clone: it reads only data shipped in the repository and never speaks
of ``../shared`` (which only developers have)."""

import json
import pathlib
import re

NB = pathlib.Path(__file__).parents[2] / "notebooks" / "06_fit_your_results.ipynb"


def test_notebook_06_needs_nothing_outside_the_repository():
    nb = json.loads(NB.read_text())
    text = "\n".join("".join(c["source"]) + "".join("".join(o.get("text", "")) for o in c.get("outputs", []))
                     for c in nb["cells"])
    assert "shared" not in text.lower().replace("shared=", "")
    root = NB.parents[1]
    for rel in re.findall(r"\.\./(tests/data/[\w/\-.*]+)", text):  # every bundled folder it reads exists
        assert list(root.glob(rel)), rel
