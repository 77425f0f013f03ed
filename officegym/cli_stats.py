"""`officegym tasks --stats`: per template, the distinct instances over task seeds and
worlds, the reference solution's length and the difficulty spread, with totals; a Rich
table or `--json` (`officegym.tasks.stats` counts)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from officegym.cli_tables import print_table
from officegym.errors import OfficeGymError

__all__ = ["parse_scenarios", "print_stats"]


def parse_scenarios(text: str) -> list[str]:
    """``a,b`` as scenario names, each checked (a click error names the bad one)."""
    from officegym.seed_data.scenario import load_scenario

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise click.BadParameter("name at least one scenario", param_hint="--scenarios")
    for name in names:
        try:
            load_scenario(name)
        except OfficeGymError as exc:
            raise click.BadParameter(str(exc), param_hint="--scenarios") from None
    return list(dict.fromkeys(names))


def print_stats(
    template_ids: Sequence[str],
    seeds: int,
    scenarios: Sequence[str],
    world_seeds: int,
    as_json: bool,
) -> None:
    """Count the instances of `template_ids` over seeds 0..seeds-1 on every scenario with
    world seeds 0..world_seeds-1, and print them."""
    from officegym.tasks.stats import template_stats, totals

    worlds = [(sc, ws) for sc in scenarios for ws in range(world_seeds)]
    stats = [template_stats(tid, range(seeds), worlds) for tid in template_ids]
    report: dict[str, Any] = {
        "seeds": seeds,
        "worlds": [list(w) for w in worlds],
        "counted": "distinct (goal, reference solution calls, answer) per template",
        "templates": {s.template_id: s.to_dict() for s in stats},
        "total": totals(stats),
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    world_names = ", ".join(f"{sc}/{ws}" for sc, ws in worlds)
    table = Table(title=f"task supply: {seeds} seed(s) on {world_names}")
    table.add_column("template", no_wrap=True)
    for column in ("instances", "tried", "unbuildable", "oracle calls (min/med/max)"):
        table.add_column(column, justify="right")
    table.add_column("difficulty", no_wrap=True)
    rows = [*report["templates"].items(), ("total", report["total"])]
    for i, (name, row) in enumerate(rows):
        if i == len(rows) - 1:
            table.add_section()
        calls = row["oracle_calls"]
        spread = "-" if calls["min"] is None else "{min}/{median:g}/{max}".format(**calls)
        mix = ", ".join(f"{k} {v}" for k, v in row["difficulty"].items())
        table.add_row(
            name, str(row["instances"]), str(row["tried"]), str(row["unbuildable"]), spread, mix
        )
    console = Console()
    print_table(console, table)
    console.print(
        f"{report['total']['instances']} distinct instances ({report['counted']}); "
        "not validated here: bench/instances.py replays each reference solution.",
        highlight=False,
    )
