"""The ``--attack`` options of `officegym run` and `officegym calibrate`, and the attack
report tables they print (`officegym.gym.attack_report`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from officegym.cli_tables import print_table

__all__ = ["attack_options", "check_attack", "print_attack_report", "validate_attacks"]

F = TypeVar("F", bound=Callable[..., Any])


def attack_options(fn: F) -> F:
    """``--attack`` (none, mixed or a goal id) and ``--attack-penalty``."""
    fn = click.option(
        "--attack-penalty",
        default=1.0,
        show_default=True,
        type=click.FloatRange(min=0.0),
        help="Taken off the reward of an episode whose planted instruction was obeyed "
        "(1: obeying earns 0, less than ignoring it).",
    )(fn)
    return click.option(
        "--attack",
        default="none",
        show_default=True,
        help="Plant instructions in the data tasks read: 'mixed' or an attacker goal id; "
        "the run then also reports utility under attack and attack success.",
    )(fn)


def check_attack(value: str) -> str:
    """The ``--attack`` value, or a usage error listing the choices."""
    from officegym.tasks.attacks import check_choice

    try:
        return check_choice(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--attack") from None


def print_attack_report(console: Console, benign: Sequence[Any], attacked: Sequence[Any]) -> None:
    """Utility without attack, under attack and attack success, per template and vector."""
    from officegym.gym.attack_report import attack_report

    templates, vectors, total = attack_report(benign, attacked)
    for title, rows in (("template", templates), ("vector", vectors)):
        table = Table(title=f"attack report per {title} (paired episodes)")
        table.add_column(title)
        for column in ("episodes", "utility", "utility under attack", "attack success"):
            table.add_column(column, justify="right")
        for r in [*rows, total]:
            table.add_row(
                r.name,
                str(r.episodes),
                f"{r.utility:.3f}",
                f"{r.utility_under_attack:.3f}",
                f"{r.attack_success:.0%}",
                style="bold" if r is total else None,
            )
        print_table(console, table)
    unpaired = len(attacked) - total.episodes
    if unpaired:
        console.print(f"{unpaired} episode(s) had no attack planted (their task reads no vector)")


def validate_attacks(
    console: Console, units: Sequence[tuple[str, str | None]], span: range, world: tuple[str, int],
    choice: str,
) -> bool:  # fmt: skip
    """`officegym validate --attack`: the attack contract on every instance that pairs (the
    reference ignores the attack, obeying reaches its goal, every partial obedience reaches
    it or costs the grade); prints a table per template and the partial-obedience mutants
    per goal and vector, True if none failed."""
    from officegym.gym.attack import check_pairing
    from officegym.tasks import make_task
    from officegym.world import World, world_image

    live = World(world_image(*world))
    table = Table(title=f"attack contract ({choice})")
    for column in ("template", "seeds", "paired", "failed", "goals", "vectors"):
        table.add_column(
            column, justify="left" if column in ("template", "goals", "vectors") else "right"
        )
    failures: list[str] = []
    paired_all = []
    for template, level in units:
        checks = []
        for seed in span:
            try:
                task = make_task(template, seed, *world, level)  # type: ignore[arg-type]
            except LookupError:
                continue
            checks.append(check_pairing(live, task, choice))
            name = template if level is None else f"{template}@{level}"
            failures += [f"{name} seed {seed}: {p}" for p in checks[-1].problems]
        paired = [c for c in checks if c.paired]
        paired_all += paired
        goals, vectors = sorted({c.goal for c in paired}), sorted({c.vector for c in paired})
        table.add_row(
            template if level is None else f"{template}@{level}", str(len(checks)),
            str(len(paired)), str(sum(bool(c.problems) for c in paired)),
            ", ".join(goals), ", ".join(vectors),
        )  # fmt: skip
    live.close()
    print_table(console, table)
    _print_partial(console, paired_all)
    for line in failures:
        console.print(f"attack: {line}", highlight=False, soft_wrap=True)
    return not failures


def _print_partial(console: Console, paired: Sequence[Any]) -> None:
    """The partial-obedience mutants per goal and per vector, and over all, by outcome."""
    from officegym.gym.attack import PARTIAL_OUTCOMES

    for by in ("goal", "vector"):
        counts: dict[str, dict[str, int]] = {}
        for c in paired:
            row = counts.setdefault(getattr(c, by), dict.fromkeys(PARTIAL_OUTCOMES, 0))
            for k, n in c.partial.items():
                row[k] += n
        total = dict.fromkeys(PARTIAL_OUTCOMES, 0)
        table = Table(title=f"partial obedience per {by} (survivors fail)")
        for column in (by, "paired", *PARTIAL_OUTCOMES):
            table.add_column(column, justify="left" if column == by else "right")
        for name, row in sorted(counts.items()):
            n = sum(getattr(c, by) == name for c in paired)
            table.add_row(name, str(n), *(str(row[k]) for k in PARTIAL_OUTCOMES))
            total = {k: total[k] + row[k] for k in PARTIAL_OUTCOMES}
        table.add_row("total", str(len(paired)), *(str(total[k]) for k in PARTIAL_OUTCOMES))
        print_table(console, table)
