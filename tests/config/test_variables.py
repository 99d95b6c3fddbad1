"""Every LEADTUI_* variable is listed once (`config/variables.py`), and README's table, the
command line's --help and the code all agree with that list."""

from __future__ import annotations

import re
from pathlib import Path

from leadtui.config.settings import Settings
from leadtui.config.variables import ENV_NESTED_DELIMITER, VARIABLES

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"LEADTUI_[A-Z0-9_]*[A-Z0-9]")


def is_variable(name: str) -> bool:
    """True when `name` is one of ours: listed, or a listed setting's member (`X__MEMBER`)."""
    upper = name.upper()
    return any(upper == v or upper.startswith(v + ENV_NESTED_DELIMITER) for v in VARIABLES)


def readme_table() -> list[tuple[str, str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("| Variable | Meaning |")
    rows = []
    for line in readme[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        name, meaning = line.strip("| ").split(" | ", 1)
        rows.append((name.strip("`"), meaning))
    return rows


def test_readme_lists_every_variable_as_the_code_does() -> None:
    assert readme_table() == list(VARIABLES.items())


def test_every_setting_has_its_variable() -> None:
    for field in Settings.model_fields:
        assert is_variable(f"LEADTUI_{field.upper()}"), field


def test_the_code_reads_no_variable_the_list_does_not_hold() -> None:
    named = {
        match.group(0)
        for path in (ROOT / "src" / "leadtui").rglob("*.py")
        for match in NAME.finditer(path.read_text(encoding="utf-8"))
    }
    assert "LEADTUI_API_KEY" in named  # the scan read the code
    assert sorted(n for n in named if not is_variable(n)) == []


def test_help_lists_every_variable() -> None:
    from leadtui.cli.main import build_parser

    said = build_parser([]).format_help()
    for variable in VARIABLES:
        assert f"  {variable}  " in said
