"""Tables on an 80-column terminal: drawn when every id, header and word fits whole,
else listed row by row; never a header cut to `ins…` or a word folded to `resu lt`."""

from __future__ import annotations

import io
import json
import re

from click.testing import CliRunner
from rich.console import Console
from rich.table import Table

from officegym import cli
from officegym.cli_tables import needed_width, print_table
from officegym.gym import env_id
from officegym.tasks import load_templates

TERMINAL_80 = {"COLUMNS": "80", "TTY_COMPATIBLE": "1", "NO_COLOR": "1"}


def table(*rows: tuple[str, ...], headers: tuple[str, ...]) -> Table:
    t = Table(title="t")
    for h in headers:
        t.add_column(h)
    for row in rows:
        t.add_row(*row)
    return t


def printed(t: Table, width: int, **kwargs: bool) -> str:
    out = io.StringIO()
    print_table(Console(file=out, force_terminal=True, width=width, no_color=True), t, **kwargs)
    return visible(out.getvalue())


def visible(text: str) -> str:
    """What a terminal shows: styles' escape sequences dropped."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_a_table_that_fits_is_drawn_with_its_headers_whole() -> None:
    t = table(("slack.pin", "3", "passed"), headers=("template", "instances", "result"))
    text = printed(t, 80)
    assert "┃" in text and "instances" in text and "result" in text
    assert needed_width(t) <= 80


def test_a_table_too_wide_for_the_window_becomes_a_list_of_whole_words() -> None:
    long = "the quick brown fox jumps over " * 6
    t = table(("cross.escalate-and-tell-manager", "medium", long.strip(), "officegym/x-v0"),
              headers=("id", "difficulty", "summary", "env id"))  # fmt: skip
    text = printed(t, 40)
    lines = text.splitlines()
    assert all(len(line) <= 40 for line in lines)
    assert lines[1] == "cross.escalate-and-tell-manager"
    start = next(i for i, line in enumerate(lines) if line.startswith("  summary"))
    end = next(i for i, line in enumerate(lines) if line.startswith("  env id"))
    summary = [line.removeprefix("  summary") for line in lines[start:end]]
    assert " ".join(" ".join(summary).split()) == long.strip()


def test_json_gives_the_rows_as_objects_keyed_by_header() -> None:
    t = table(("slack.pin", "[bold]3[/]"), headers=("template", "instances"))
    assert json.loads(printed(t, 80, as_json=True)) == [{"template": "slack.pin", "instances": "3"}]


def test_the_task_list_fits_80_columns_and_keeps_every_id_whole() -> None:
    result = CliRunner().invoke(cli.main, ["tasks"], env=TERMINAL_80)
    assert result.exit_code == 0, result.output
    lines = visible(result.output).splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    stripped = {line.strip() for line in lines}
    for tid in load_templates():
        assert tid in stripped
        assert any(line.endswith(env_id(tid)) for line in stripped)


def test_the_task_list_as_json_names_every_template() -> None:
    result = CliRunner().invoke(cli.main, ["tasks", "--json"], env=TERMINAL_80)
    rows = json.loads(result.output)
    assert [r["id"] for r in rows] == sorted(load_templates())
    assert all(r["env id"] == env_id(r["id"]) for r in rows)
