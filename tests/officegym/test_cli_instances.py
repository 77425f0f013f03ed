"""`officegym instances build` writes a world's instance store and says where; a second
run builds nothing again; an unknown app or template is an error naming the known ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from officegym import cli
from officegym.tasks import instances as inst
from officegym.tasks.base import get_template
from officegym.world import world_image

TEMPLATE = "slack.post-channel"


def test_build_writes_the_store_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world_image("default", 0)  # from the usual cache, before the folder moves
    monkeypatch.setattr(inst, "_OPEN", {})
    env = {"OFFICEGYM_CACHE": str(tmp_path), "COLUMNS": "250"}
    args = ["instances", "build", "--task", TEMPLATE, "--seeds", "2"]
    first = CliRunner().invoke(cli.main, args, env=env, catch_exceptions=False)
    assert first.exit_code == 0, first.output
    levels = len(get_template(TEMPLATE).levels)
    assert f"{2 * levels} instance(s) built into {tmp_path}" in first.output
    again = CliRunner().invoke(cli.main, args, env=env, catch_exceptions=False)
    assert "0 instance(s) built" in again.output
    assert [p.name.startswith("instances-default-0-") for p in tmp_path.glob("instances-*")] == [
        True
    ]


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [("--app", "chat", "apps: booking, crm"), ("--task", "slack.nope", "slack.nope")],
)
def test_unknown_names_are_errors(option: str, value: str, says: str) -> None:
    result = CliRunner().invoke(cli.main, ["instances", "build", option, value])
    assert result.exit_code == 2 and says in result.output and option in result.output
