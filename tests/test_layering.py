"""No import circles: every module of the package imports only modules that do not import it back.

Imports inside functions count too (a lazy import is still a dependency; it only hides the circle from
Python's loader); imports under ``if TYPE_CHECKING:`` do not (they name types for annotations and run never). Package ``__init__`` modules are left out: they re-export their submodules by design, and a
submodule that needs a sibling imports the sibling, not the package. STYLE.md: "private modules import downward
only"; issue 22 asked for the circles to go, and this test keeps them gone.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1] / "nvmemodel"


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        if path.name == "__init__.py":
            continue
        out[".".join(path.relative_to(ROOT.parent).with_suffix("").parts)] = path
    return out


def _imports(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    package = name.rsplit(".", 1)[0].split(".")
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()  # imports under `if TYPE_CHECKING:` name a type for annotations; nothing is imported at run time
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            typing_only |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found |= {t for t in [target] + [f"{target}.{a.name}" for a in node.names] if t in known}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
    return found - {name}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_circle_finder_sees_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_and_relative_imports():
    graph = import_graph()
    # fitting/result.py imports plots.fit inside a method, two levels up: both forms must be seen.
    assert "nvmemodel.plots.fit" in graph["nvmemodel.fitting.result"]
    assert len(graph) > 80


def test_no_import_circles():
    assert circles(import_graph()) == []
