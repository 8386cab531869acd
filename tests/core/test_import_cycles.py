"""No package of ours has modules that import each other in a circle, even through an import
placed inside a function to dodge the cycle at load time.

A module that needs a function of a module importing it back is a sign that the function
lives in the wrong place (or that a table should be filled from one place that imports every
module, as ``domain/tapestry/handlers.py`` and ``domain/imperium/handlers.py`` do). The graph
below has an edge for every ``import``/``from ... import`` of one of our modules, wherever it
is written, except under ``if TYPE_CHECKING:`` (type names only, never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: source folder -> the dotted name of its top package.
PACKAGES = {
    ROOT / "domain": "domain",
    ROOT / "service": "service",
    ROOT / "projections": "projections",
    ROOT / "clients" / "python" / "annales_cli": "annales_cli",
    ROOT / "clients" / "python" / "annales_client": "annales_client",
}


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of our packages (generated code aside)."""
    found: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            relative = path.relative_to(folder).with_suffix("")
            if "gen" in relative.parts:
                continue
            parts = [package, *relative.parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    """Ids of the nodes under ``if TYPE_CHECKING:`` blocks."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return hidden


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ours that module ``name`` imports, anywhere in its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in modules else base)
    return {t for t in targets if t in modules and t != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_module_imports_itself_back() -> None:
    """Not one circle of imports in domain/, service/, projections/ or the Python clients."""
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert sum(len(targets) for targets in graph.values()) > 500  # the graph was really read
    assert _cycles(graph) == []


def test_a_planted_cycle_is_found() -> None:
    """The check itself: a circle through an import inside a function is reported."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
