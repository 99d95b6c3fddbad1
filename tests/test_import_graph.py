"""The package's modules import in one direction: no circle anywhere in `leadtui`, and no
screen, dialog or widget reaches up to the app module (they get what they need from
`ui/frame/handle.py`).

Type-only imports (under TYPE_CHECKING) and imports inside functions count too: a circle
drawn only for the type checker still ties the modules together.
"""

from __future__ import annotations

import grimp
import pytest

PACKAGE = "leadtui"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(PACKAGE, cache_dir=None)


def _imports_within(graph: grimp.ImportGraph, package: str) -> dict[str, set[str]]:
    modules = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    return {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def _a_way_round(edges: dict[str, set[str]], circle: list[str]) -> list[str]:
    """One shortest way from the circle's first module back to itself, for the message."""
    start = circle[0]
    inside = set(circle)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for child in sorted(edges[node] & inside):
                if child == start:
                    back = [node]
                    while back[-1] != start:
                        back.append(came_from[back[-1]])
                    return [*reversed(back), start]
                if child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    return circle


def _described(edges: dict[str, set[str]], circles: list[list[str]]) -> str:
    return "\n".join(
        f"circle of {len(circle)} modules: {', '.join(circle)}\n"
        f"  e.g. {' -> '.join(_a_way_round(edges, circle))}"
        for circle in circles
    )


def test_the_circle_finder_finds_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(edges) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
    assert _a_way_round(edges, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert _a_way_round({"a": {"b", "c"}, "b": {"a"}, "c": {"b"}}, ["a", "b", "c"]) == [
        "a",
        "b",
        "a",
    ]


def test_the_package_has_no_import_circle(graph: grimp.ImportGraph) -> None:
    edges = _imports_within(graph, PACKAGE)
    assert len(edges) > 200  # the whole package was read, not an empty graph
    circles = _circles(edges)
    assert not circles, "modules that import each other:\n" + _described(edges, circles)


def test_no_screen_dialog_or_widget_imports_the_app(graph: grimp.ImportGraph) -> None:
    importers = graph.find_modules_that_directly_import("leadtui.ui.frame.app")
    assert importers == {"leadtui.ui.frame.launch"}
