"""The layering the README describes, as the imports of every module say it: parsed, not imported.

Every import counts, at module level or inside a function: a function-level import is no way round a
layer or a cycle. A module imports only its own part or the parts below it, and no chain of imports
leads back to where it started.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "strategies", "questions", "research")

# part -> the parts it may import (besides its own). Strategies and the referee stand side by side on the
# core, each knowing nothing of the other; the experiments reach strategies only by name (sim.core.dispatch)
# and questions only by file (sim.experiments.settle).
ALLOWED = {
    "sim": set(),
    "sim.core": {"sim"},
    "strategies": {"sim", "sim.core"},
    "sim.referee": {"sim", "sim.core"},
    "sim.experiments": {"sim", "sim.core", "sim.referee"},
    "sim.learn": {"sim", "sim.core", "sim.referee", "sim.experiments", "strategies"},
    "sim.api": {"sim", "sim.core", "sim.referee", "sim.experiments"},
    "sim.cli": {"sim", "sim.core", "sim.referee", "sim.experiments", "sim.learn", "sim.api"},
    # the settled questions: hooks over the experiments; the framework (sim.experiments.settle) loads them by path
    "questions": {"sim", "sim.core", "sim.referee", "sim.experiments"},
    "research": {"sim", "sim.core", "sim.referee", "sim.experiments", "sim.learn", "sim.api", "strategies"},
}
# modules that import nothing of the project: the backends know tasks only as functions and values
LEAVES = ("sim.experiments.backends", "sim.experiments.stats", "sim.core.rules", "sim.core.cards")


def _modules() -> dict[str, Path]:
    mods = {}
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            rel = p.relative_to(ROOT).with_suffix("")
            name = ".".join(rel.parts)
            mods[name[: -len(".__init__")] if name.endswith(".__init__") else name] = p
    return mods


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project's modules that `name` imports, anywhere in its text."""
    out = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:  # `import sim.core.rules as R` names the module; a name inside it
                t = t.rpartition(".")[0]   # (from m import f) is an import of m
            if t and t != name:
                out.add(t)
    return out


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def part_of(module: str) -> str:
    """The layer a module belongs to: the longest entry of ALLOWED that prefixes it."""
    best = ""
    for part in ALLOWED:
        if (module == part or module.startswith(part + ".")) and len(part) > len(best):
            best = part
    return best


def test_every_module_has_a_layer():
    assert not [m for m in MODULES if not part_of(m)]


def test_imports_go_down():
    wrong = [f"{m} imports {t} ({part_of(m)} may import {sorted(ALLOWED[part_of(m)]) or 'nothing'})"
             for m, ts in GRAPH.items() for t in sorted(ts)
             if part_of(t) != part_of(m) and part_of(t) not in ALLOWED[part_of(m)]]
    assert not wrong, "\n".join(wrong)


def test_leaves_import_nothing_of_the_project():
    assert {m: sorted(GRAPH[m]) for m in LEAVES if GRAPH[m]} == {}


# what only the API builds: the command line parses options, calls sim.api and prints, so a notebook gets
# the same experiment as the command
BUILT_BY_THE_API = ("sim.experiments.experiment", "sim.experiments.atlas", "sim.experiments.atlas_site",
                    "sim.experiments.compare", "sim.experiments.tournament",
                    "sim.experiments.settle", "sim.experiments.play", "sim.experiments.paired", "sim.referee.narrate",
                    "sim.referee.at_error")


def _cli_builds_itself(graph: dict) -> list[str]:
    return sorted(set(graph["sim.cli"]) & set(BUILT_BY_THE_API))


def test_the_cli_calls_the_api():
    assert "sim.api" in GRAPH["sim.cli"]
    assert _cli_builds_itself(GRAPH) == [], "the CLI builds these itself instead of calling sim.api"


def test_the_cli_check_catches_a_direct_build():
    graph = {**GRAPH, "sim.cli": GRAPH["sim.cli"] | {"sim.experiments.compare"}}
    assert _cli_builds_itself(graph) == ["sim.experiments.compare"]


def _cycle(graph: dict) -> list[str] | None:
    """One import cycle (as a path that returns to its start), or None."""
    state = {}

    def visit(m, path):
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                return path[path.index(t):] + [t] if t in path else [m, t]
            if t not in state:
                found = visit(t, path + [t])
                if found:
                    return found
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m, [m])
            if found:
                return found
    return None


def test_no_import_cycles():
    cyc = _cycle(GRAPH)
    assert cyc is None, "import cycle: " + " -> ".join(cyc)


@pytest.mark.parametrize("extra, why", [
    ({"sim.core.rules": {"sim.experiments.batch"}}, "up a layer"),
    ({"sim.experiments.batch": {"sim.experiments.tasks"}}, "a cycle"),
    ({"sim.experiments.hint": {"strategies.search"}}, "a strategy by import"),
    ({"sim.experiments.settle": {"questions.vdogonku"}}, "a question by import"),
    ({"questions.vdogonku": {"strategies.greedy"}}, "a question importing a strategy"),
    ({"questions.vdogonku": {"sim.cli"}}, "a question importing the command line"),
])
def test_the_checks_catch_a_back_import(extra, why):
    """A deliberately added back-import fails one of the checks above."""
    graph = {m: set(ts) | extra.get(m, set()) for m, ts in GRAPH.items()}
    down = [(m, t) for m, ts in graph.items() for t in ts
            if part_of(t) != part_of(m) and part_of(t) not in ALLOWED[part_of(m)]]
    leaves = [m for m in LEAVES if graph[m]]
    assert down or leaves or _cycle(graph), why
