"""No dangling references: physics sections, repository paths, and the physics reference's worked checks.

* every ``docs/physics.md §X`` citation in the repository (package, tests, notebooks, README,
  data, benchmarks, docs) names a section heading that exists in ``docs/physics.md``, and so does
  every ``§X`` inside that file;
* every repository path written in the READMEs and in ``docs/*.md`` exists;
* the Appendix of ``docs/physics.md`` runs as a doctest, so the worked checks it quotes are what
  the code computes.
"""

from __future__ import annotations

import doctest
import json
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PHYSICS = ROOT / "docs" / "physics.md"

#: Where citations may appear (README.md is a file; the others are folders).
CITING = ("README.md", "nvmemodel", "tests", "notebooks", "data", "benchmarks", "docs")
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".csv", ".txt", ".toml", ".yml", ".yaml", ".json", ".cfg"}
#: Generated or local folders: not part of a user's clone.
SKIP_DIRS = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".hypothesis", ".ruff_cache", "output"}

_NUM = r"\d+(?:\.\d+)*"
# "docs/physics.md §7.1", "``docs/physics.md`` §1–2 and §8", "docs/physics.md §4, §9.5", "§1–§3"
_CITATION = re.compile(
    r"docs/physics\.md[`'\"]*[ \t]*"
    rf"(§[ \t]*{_NUM}(?:[ \t]*(?:[–-]|,|and|&)[ \t]*§?[ \t]*{_NUM})*)"
)
_SECTION_REF = re.compile(rf"§[ \t]*({_NUM})(?:[ \t]*[–-][ \t]*§?[ \t]*({_NUM}))?")
_HEADING = re.compile(rf"^#{{2,4}}[ \t]+({_NUM})\.?[ \t]", re.MULTILINE)


def sections(text: str) -> set[str]:
    """Section numbers of the markdown headings ``## 7. …`` / ``### 7.1 …``."""
    return set(_HEADING.findall(text))


def cited_sections(text: str) -> list[str]:
    """Every section number a ``docs/physics.md §…`` citation names (both ends of a range)."""
    out = []
    for group in _CITATION.findall(text):
        for first, last in _SECTION_REF.findall(group):
            out += [first] + ([last] if last else [])
    return out


def _read_text(path: pathlib.Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":  # the cells' sources, not the JSON escaping around them
        cells = json.loads(text)["cells"]
        return "\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells)
    return text


def _citing_files():
    for name in CITING:
        top = ROOT / name
        if top.is_file():
            yield top
            continue
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
            for f in files:
                path = pathlib.Path(folder, f)
                if path.suffix in TEXT_SUFFIXES:
                    yield path


def _citations():
    found = []
    for path in _citing_files():
        for number in cited_sections(_read_text(path)):
            found.append((path.relative_to(ROOT).as_posix(), number))
    return found


# ---- the parsers themselves (built from pieces so this file cites nothing) -------------------

_DOC = "docs/physics" + ".md"


@pytest.mark.parametrize("text, expected", [
    (f"see {_DOC} §7.1).", ["7.1"]),
    (f"``{_DOC}`` §1–2 and §8 for", ["1", "2", "8"]),
    (f"({_DOC} §4, §9.5): kernel", ["4", "9.5"]),
    (f"{_DOC} §1–3 (derivations)", ["1", "3"]),
    (f"{_DOC} §1-§3", ["1", "3"]),
    (f"`{_DOC}` (shipped with the repository)", []),
    (f"{_DOC} §N citation", []),
])
def test_citation_parser(text, expected):
    assert cited_sections(text) == expected


def test_heading_parser():
    text = "# title\n## 1. PCIe\n### 2.4 DLLP overhead\n#### 9.10 x\n## Sources\nnot ## 5. a heading\n"
    assert sections(text) == {"1", "2.4", "9.10"}


# ---- the repository ---------------------------------------------------------------------------

def test_physics_reference_has_the_cited_sections():
    have = sections(PHYSICS.read_text(encoding="utf-8"))
    citations = _citations()
    # About 60 citations exist (issue 6); far fewer means the scan or the parser went blind.
    assert len(citations) >= 40, len(citations)
    dangling = sorted({(path, n) for path, n in citations if n not in have})
    assert not dangling, f"citations of sections missing from docs/physics.md: {dangling}"


def test_physics_reference_cross_references_resolve():
    # Inside docs/physics.md every "§X" is one of its own sections (external spec sections are
    # written "section X" there, so they cannot be mistaken for these).
    text = PHYSICS.read_text(encoding="utf-8")
    have = sections(text)
    refs = {n for first, last in _SECTION_REF.findall(text) for n in (first, last) if n}
    assert refs, "no cross-references found: the parser went blind"
    assert refs <= have, sorted(refs - have)


def _documents():
    docs = [ROOT / "README.md", ROOT / "nvmemodel" / "catalog" / "README.md"]
    docs += sorted((ROOT / "data").rglob("README.md")) + sorted((ROOT / "docs").glob("*.md"))
    return [d for d in docs if d.is_file()]


def _top_level_names() -> set[str]:
    return {p.name for p in ROOT.iterdir()
            if p.name not in SKIP_DIRS and p.name != ".git" and not p.name.endswith(".egg-info")}


_TOKEN = re.compile(r"[^\s`'\"()\[\]<>,;|]+")


def repository_paths(text: str, top_level: set[str]) -> set[str]:
    """Tokens that look like repository paths: they start with a top-level file or folder name
    and either contain a '/' or are that top-level file itself. Globs and placeholders are skipped."""
    out = set()
    for token in _TOKEN.findall(text):
        token = token.rstrip(".:!?")
        token = token.removeprefix("./")
        if any(c in token for c in "*{}$~") or "..." in token or "…" in token:
            continue
        head = token.split("/", 1)[0]
        if head in top_level and ("/" in token or (ROOT / head).is_file()):
            out.add(token)
    return out


def test_repository_path_parser():
    top = {"tests", "nvmemodel", "README.md", "data"}
    text = ("`tests/test_x.py` enforces it; see nvmemodel/ceiling/system.py. Globs like "
            "`data/*/x.csv` and user paths runs/ or ../shared/seeds/ or tests, README.md.")
    assert repository_paths(text, top) == {"tests/test_x.py", "nvmemodel/ceiling/system.py", "README.md"}


@pytest.mark.parametrize("document", _documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_paths_named_in_documentation_exist(document):
    paths = repository_paths(document.read_text(encoding="utf-8"), _top_level_names())
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"{document.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_physics_appendix_runs_against_the_code():
    # The Appendix quotes the code's own results for the worked checks; rerun them.
    result = doctest.testfile(str(PHYSICS), module_relative=False, verbose=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 20, result  # the Appendix was found and run
    assert result.failed == 0, f"{result.failed} worked checks in docs/physics.md disagree with the code (see output)"


def _task_pages():
    """The task pages under docs/ (every page but the physics reference, whose Appendix runs above)."""
    return [p for p in sorted((ROOT / "docs").glob("*.md")) if p.name != PHYSICS.name]


@pytest.mark.parametrize("page", _task_pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_docs_page_examples_run(page, monkeypatch):
    # Every ">>>" example of a docs page is a doctest: a page cannot show a result the code no longer gives.
    # Examples run from the repository root, as a reader of the page would; they read, never write, files.
    monkeypatch.chdir(ROOT)
    # A code fence ends an example's expected output, as a blank line does (the page renders the same).
    text = re.sub(r"^[ \t]*```.*$", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    name = page.relative_to(ROOT).as_posix()
    test = doctest.DocTestParser().get_doctest(text, {}, name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    result = runner.run(test)
    assert result.failed == 0, f"{result.failed} examples in {name} disagree with the code (see output)"
