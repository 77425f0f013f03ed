"""`officegym task show`: a task's card (goal, persona, doors, tools) for agents outside
Python, as text or JSON (`officegym.task_card`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from officegym.cli_worlds import not_fresh_note
from officegym.errors import OfficeGymError

__all__ = ["task"]


@click.group()
def task() -> None:
    """One task instance, for agents that work against a served world."""


@task.command("show")
@click.option("--task", "task_id", required=True, help="Task template id, e.g. slack.post-channel.")
@click.option("--seed", default=0, show_default=True, help="Task seed.")
@click.option("--scenario", default="default", show_default=True, help="Scenario of the world.")
@click.option("--world-seed", default=0, show_default=True, help="Seed of the world.")
@click.option(
    "--url", default="http://127.0.0.1:8000", show_default=True, help="Where the world is served."
)
@click.option("--db", default="officegym.sqlite", show_default=True, help="The served world file.")
@click.option("--json", "as_json", is_flag=True, help="Print the card as JSON (tools included).")
def show(
    task_id: str, seed: int, scenario: str, world_seed: int, url: str, db: str, as_json: bool
) -> None:
    """Print the goal, the persona, the URLs and tools to use, and how to get graded."""
    from officegym.task_card import task_card

    try:
        card = task_card(
            task_id, seed, scenario=scenario, world_seed=world_seed, base_url=url, db=db
        )
    except OfficeGymError as exc:
        raise click.BadParameter(exc.message, param_hint="--task") from None
    note = not_fresh_note(Path(db))
    if note is not None:  # on stderr: stdout may be the JSON card
        Console(stderr=True).print(f"[yellow]warning:[/] {note}", highlight=False, soft_wrap=True)
    if as_json:
        click.echo(json.dumps(card, indent=2, ensure_ascii=False))
        return
    _print_card(Console(), card)


def _print_card(console: Console, card: dict[str, Any]) -> None:
    p, urls = card["persona"], card["urls"]
    console.print(
        f"[bold]{card['task']}[/] seed {card['seed']} ({card['split']}, {card['difficulty']})"
    )
    console.print(f"Goal: {card['goal']}", highlight=False)
    console.print(
        f"You are @{p['handle']} ({p['name']}, {p['title']}, {p['team']})", highlight=False
    )
    if card["answer_expected"]:
        console.print("The task asks a question: give your answer to the grader.")
    console.print(f"Step limit in the gym: {card['step_limit']} calls (3x the reference's)")
    console.print(f"Browser: sign in at {urls['login']}", soft_wrap=True, highlight=False)
    console.print(
        f"Slack Web API: {urls['slack_api']} with token {urls['slack_api_token']}",
        soft_wrap=True,
        highlight=False,
    )
    mcp = ", ".join(urls["mcp_apps"].values())
    console.print(
        f"MCP (streamable HTTP): {mcp} (bearer {urls['slack_api_token']})", soft_wrap=True
    )
    console.print("Tools: " + ", ".join(t["name"] for t in card["tools"]), soft_wrap=True)
    console.print(f"When done: {card['grade_command']}", soft_wrap=True, highlight=False)
