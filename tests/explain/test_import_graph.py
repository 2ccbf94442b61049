"""The house of service/: no import cycle, at module level or inside functions, and no module of service/explain over 600 lines."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "service"
MAX_LINES = 600
_LOADED_BY_NAME = re.compile(r"^service(?:\.\w+)+:\w+$")


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(SERVICE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest module of service/ that `name` (a module or a name inside one) falls in."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Every module of service/ each module imports, wherever the import statement stands (functions included)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(filter(None, (_resolve(a.name, modules) for a in node.names)))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in node.names:
                    # "from pkg import sub" imports the submodule; "from pkg import name" the package itself
                    target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else _resolve(base, modules)
                    if target:
                        targets.add(target)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _LOADED_BY_NAME.match(node.value):
                # "service.llm.anthropic:AnthropicBackend": a module imported by its name at run time is an edge too
                target = _resolve(node.value.partition(":")[0], modules)
                if target:
                    targets.add(target)
        targets.discard(name)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each a cycle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_names_the_modules_of_a_cycle():
    graph = {"service.a": {"service.b"}, "service.b": {"service.a"}, "service.c": {"service.a"}}
    assert cycles(graph) == [["service.a", "service.b"]]
    assert cycles({"service.a": {"service.b"}, "service.b": set()}) == []


def test_imports_inside_functions_are_edges():
    modules = _modules()
    graph = imports(modules)
    # service.explain.glossary reads the languages registry only inside a function: still an edge
    assert "service.i18n.languages" in graph["service.explain.glossary"]


def test_service_has_no_import_cycle():
    assert cycles(imports(_modules())) == []


def test_a_backend_loaded_by_name_is_an_edge():
    graph = imports(_modules())
    assert "service.llm.anthropic" in graph["service.llm"]


def test_no_module_of_service_explain_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in (SERVICE / "explain").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
