"""What a new user or an agent finds without reading the source: `leadtui --spec` (every
command, option, exit code and JSON shape), shell completion, an example in every command's
--help, and the request bodies' members where a command takes one."""

from __future__ import annotations

import io
import json

import pytest

from leadtui.api.contract import LEAD_COLUMNS
from leadtui.api.models import (
    SEARCH_ITEM_LOCALISATION_IDS_MAX,
    SEARCH_ITEM_NAME_MAX,
    SEARCH_ITEM_QUERY_NAMES_MAX,
    SEARCH_SECTION_MAX,
    SEARCH_SECTION_MIN,
    ExtractionRequest,
    SearchItem,
    SearchRequest,
)
from leadtui.cli.commands_tree import walk
from leadtui.cli.exit_codes import Exit
from leadtui.cli.main import build_parser, main
from leadtui.cli.runtime import CliDeps

LEAVES = [c for c in walk(build_parser()) if c.path and not c.subcommands]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), CliDeps(stdout=out, stderr=io.StringIO()))
    return code, out.getvalue()


def help_of(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([*path, "--help"])
    return capsys.readouterr().out


def test_spec_is_one_json_document_of_every_command_code_and_shape() -> None:
    code, out = run("--spec")
    assert code == 0
    spec = json.loads(out)
    assert [c["command"] for c in spec["commands"]] == [c.name for c in LEAVES]
    assert [e["code"] for e in spec["exit_codes"]] == [int(code) for code in Exit]
    download = next(c for c in spec["commands"] if c["command"] == "exports download")
    output = next(o for o in download["options"] if o["flags"] == ["-o", "--output"])
    assert output["takes_value"] is True
    assert download["output"] == "saved archive"
    assert download["example"].startswith("leadtui exports download")
    shapes = spec["shapes"]
    for command in spec["commands"]:
        named = command["output"]
        if named is not None:  # every shape named is described
            words = named.split(" (")[0].removeprefix("page of ").split(" or ")
            assert all(word in shapes for word in words), named
    assert "credits" in shapes["Identity"]["properties"]
    assert shapes["error"]["required"] == ["error"]
    assert {"--json", "--jsonl", "--spec"} <= {
        flag for option in spec["global_options"] for flag in option["flags"]
    }


@pytest.mark.parametrize("command", LEAVES, ids=lambda c: c.name)
def test_every_command_s_help_has_an_example(
    command: object, capsys: pytest.CaptureFixture[str]
) -> None:
    path = command.path  # type: ignore[attr-defined]
    text = help_of(path, capsys)
    example = text.split("example:\n", 1)[1].strip().splitlines()[0]
    assert " ".join(("leadtui", *path)) in example


def test_the_search_request_is_shown_where_one_is_written(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_of(("searches", "create"), capsys)
    for member in SearchRequest.model_fields:
        assert f"  {member}" in text
    for member in SearchItem.model_fields:
        assert member in text
    bounds = f"{SEARCH_SECTION_MIN} to {SEARCH_SECTION_MAX} items"
    assert bounds in text
    assert f"at most {SEARCH_ITEM_NAME_MAX} characters" in text
    assert f"at most {SEARCH_ITEM_QUERY_NAMES_MAX})" in text
    assert f"at most {SEARCH_ITEM_LOCALISATION_IDS_MAX})" in text


@pytest.mark.parametrize("verb", ["create", "draft", "update"])
def test_the_extraction_request_is_shown_where_one_is_written(
    verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = help_of(("extractions", verb), capsys).splitlines()
    for name, member in ExtractionRequest.model_fields.items():
        (line,) = [line for line in lines if line.startswith(f"  {name} ")]
        assert ("(required)" in line) == member.is_required(), line


def test_the_custom_download_columns_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(help_of(("exports", "custom-download"), capsys).split())
    assert ", ".join(LEAD_COLUMNS) in text
