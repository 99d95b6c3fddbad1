"""The app's modules import in one direction: no circle inside `ui/`, and no screen, dialog or
widget reaches up to the app module (they get what they need from `ui/handle.py`).

Type-only imports (under TYPE_CHECKING) and imports inside functions count too: a circle
drawn only for the type checker still ties the modules together.
"""

from __future__ import annotations

import grimp
import pytest

UI = "leadtui.ui"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("leadtui", cache_dir=None)


def _ui_imports(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    modules = {m for m in graph.modules if m == UI or m.startswith(UI + ".")}
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


def test_the_circle_finder_finds_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(edges) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_ui_has_no_import_circle(graph: grimp.ImportGraph) -> None:
    edges = _ui_imports(graph)
    assert len(edges) > 50  # the whole of ui/ was read, not an empty graph
    assert _circles(edges) == []


def test_no_screen_dialog_or_widget_imports_the_app(graph: grimp.ImportGraph) -> None:
    importers = graph.find_modules_that_directly_import(f"{UI}.app")
    assert importers == {f"{UI}.launch"}
