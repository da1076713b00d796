"""The modules of ``assocmem`` import one another without a cycle.

The graph is read from the source with ``ast``, imports inside functions included (a call-time
import is how a cycle is usually hidden), so a cycle fails here even where Python would tolerate
it at run time. Edges go to the module that defines the imported name: ``from .finite_p import
x`` is an edge to ``finite_p``, ``from . import energetic`` an edge to ``energetic``, and
``from assocmem.linear_memory import x`` an edge to the package ``__init__`` unless ``x`` is a
submodule. Importing a module runs its parent packages first; those implicit edges are not
drawn (every package would otherwise be a cycle with its own submodules).
"""

from __future__ import annotations

import ast
from pathlib import Path

import assocmem

ROOT = Path(assocmem.__file__).parent
PACKAGE = "assocmem"


def _module_names() -> dict[str, Path]:
    """Every module of the package by dotted name (a package is its ``__init__``)."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([PACKAGE, *parts])] = path
    return out


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of ``from <level dots><target> import ...`` inside ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _edges(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Modules of the package that ``module`` imports, anywhere in its source."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, is_package, node.level, node.module)
            names = []
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                names.append(sub if sub in known else source)
        else:
            continue
        out.update(name for name in names if name in known and name != module)
    return out


def _graph() -> dict[str, set[str]]:
    known = _module_names()
    return {name: _edges(name, path, known) for name, path in known.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


class TestImportGraph:
    def test_graph_sees_the_package(self):
        # A guard against a walker that silently finds nothing: the edges this module was
        # written for (sweep and energetic both use the finite-p capacity) must be present.
        graph = _graph()
        assert "assocmem.linear_memory.finite_p" in graph["assocmem.linear_memory.sweep"]
        assert "assocmem.linear_memory.finite_p" in graph["assocmem.linear_memory.energetic"]
        assert "assocmem.linear_memory.sweep" in graph["assocmem.linear_memory.energetic"]
        assert len(graph) > 40

    def test_finds_a_call_time_cycle(self):
        # The detector itself: a cycle hidden in a function body, as sweep -> energetic was.
        graph = {"a": {"b"}, "b": set(), "c": {"a"}}
        assert _cycles(graph) == []
        graph["b"] = {"c"}
        assert _cycles(graph) == [["a", "b", "c"]]

    def test_call_time_imports_are_edges(self, tmp_path):
        src = tmp_path / "m.py"
        src.write_text("def f():\n    from .sweep import x\n    return x\n")
        known = {"assocmem.linear_memory.sweep": src, "assocmem.linear_memory.m": src}
        assert _edges("assocmem.linear_memory.m", src, known) == {"assocmem.linear_memory.sweep"}

    def test_no_import_cycle(self):
        cycles = _cycles(_graph())
        assert not cycles, f"import cycles among the modules of assocmem: {cycles}"
