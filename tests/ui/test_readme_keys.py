"""README.md's key table is the one help lists, as scripts/key_table.py generates it."""

from __future__ import annotations

import pytest
from scripts import key_table

pytestmark = pytest.mark.slow  # every screen opened in turn: seconds


async def test_the_readme_key_table_is_the_one_help_lists() -> None:
    readme = key_table.README.read_text(encoding="utf-8")
    assert key_table.START in readme, "README.md's ### Keys lost its generated-table markers"
    table = await key_table.generate()
    # Every place was reached, and lists keys.
    cells = dict(line.strip("| ").split(" | ", 1) for line in table.splitlines()[3:-1])
    assert list(cells) == ["Every table", "Go to", "Everywhere", *key_table.ORDER]
    assert all(keys.startswith("`") for keys in cells.values()), cells
    assert key_table.block(readme) == table, (
        f"README.md's key table is not the one help lists: {key_table.FIX}"
    )


def test_rewriting_the_table_leaves_the_rest_of_the_readme_as_it_was() -> None:
    stale = "\n".join([key_table.START, "| Where | Keys |", "| Jobs | `x` Gone |", key_table.END])
    readme = f"### Keys\n\nBefore.\n\n{stale}\n\nAfter.\n\n## Next\n"
    table = "\n".join(
        [key_table.START, "| Where | Keys |", "| Jobs | `r` Refresh |", key_table.END]
    )
    rewritten = key_table.update(readme, table)
    assert rewritten == f"### Keys\n\nBefore.\n\n{table}\n\nAfter.\n\n## Next\n"
    assert key_table.block(rewritten) == table
