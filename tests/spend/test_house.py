"""The spend core's own house: no import circle among its modules, every name imported from
the module that defines it, and each code of ours spelled once for every surface."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import leadtui.spend as spend
from leadtui.mcp import spend_answers
from leadtui.spend.errors import Code

SPEND = Path(spend.__file__).parent


def _spend_imports(path: Path) -> set[str]:
    """The spend modules `path` imports, under TYPE_CHECKING or in a function too."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("leadtui.spend."):
            found.add(str(node.module).removeprefix("leadtui.spend."))
    return found


def test_no_import_circle_inside_the_spend_core() -> None:
    graph = {p.stem: _spend_imports(p) for p in SPEND.glob("*.py")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(m for m in graph if reaches(m, m, {m}))
    assert circles == []


def test_the_package_and_its_modules_pass_nothing_on() -> None:
    names = [n for n, v in vars(spend).items() if not isinstance(v, ModuleType)]
    assert [n for n in names if not n.startswith("_")] == []
    for name in ("journal", "errors", "gate"):
        module = ast.parse((SPEND / f"{name}.py").read_text())
        assert not any(
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            for node in module.body
        ), name


def test_each_code_is_spelled_once_and_imported_by_every_surface() -> None:
    assert spend_answers.Code is Code
    for path in (SPEND.parent / "cli" / "failures.py", SPEND.parent / "mcp" / "spend_answers.py"):
        text = path.read_text()
        for code in Code:
            assert f'"{code.value}"' not in text, (path.name, code)
