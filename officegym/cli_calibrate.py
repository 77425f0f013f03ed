"""`officegym calibrate`: pass rate per template and level with Wilson 95% intervals, as a
Rich table and a calibration file (`officegym.gym.calibration`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from officegym.cli_agents import agent_options, agent_settings
from officegym.cli_attack import attack_options, check_attack, print_attack_report

__all__ = ["calibrate"]

FLAG_TEXT = {
    "impossible": "[red]0%: reference fails too (broken)[/]",
    "zero": "[yellow]0%: hard (reference passes)[/]",
    "too-easy": "[yellow]above 70%[/]",
}


@click.command()
@click.option(
    "--agent",
    "agent_spec",
    default="oracle",
    show_default=True,
    help="oracle, random, noisy:P (the reference solver erring with probability P per "
    "step) or openai (with --model and --base-url).",
)
@agent_options
@click.option("--rollouts", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--templates", default="", help="Comma-separated template ids (default: all).")
@click.option(
    "--difficulty",
    "levels",
    default="all",
    show_default=True,
    help="Comma-separated levels (easy, medium, hard) or all.",
)
@click.option("--split", type=click.Choice(["train", "test"]), default="train", show_default=True)
@click.option("--seed", default=0, show_default=True, help="Episode i resets with seed + i.")
@click.option(
    "--max-steps",
    default=None,
    type=click.IntRange(min=1),
    help="Steps per episode (default: each task's own, 3x its reference solution, at least 30).",
)
@click.option(
    "--out",
    default="calibration.json",
    show_default=True,
    type=click.Path(dir_okay=False, path_type=Path),
)
@attack_options
def calibrate(
    agent_spec: str,
    model: str | None,
    base_url: str | None,
    max_turns: int,
    rollouts: int,
    templates: str,
    levels: str,
    split: str,
    seed: int,
    max_steps: int | None,
    out: Path,
    attack: str,
    attack_penalty: float,
) -> None:
    """Measure an agent's pass rate per template and difficulty level (K rollouts each),
    flag templates at 0% (telling broken from hard by replaying the reference) and above
    70%, and write the calibration file. With --attack, play every episode again with an
    instruction planted and add utility under attack and attack success (per template and
    per vector)."""
    from officegym.gym.agents import parse_agent
    from officegym.gym.calibrate import arms
    from officegym.gym.calibrate import calibrate as run
    from officegym.tasks import load_templates

    try:
        name, options = parse_agent(agent_spec)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--agent") from None
    if name not in ("oracle", "random", "noisy", "obey", "openai"):
        raise click.BadParameter(
            f"unknown agent {name!r}; use oracle, random, noisy:P, obey or openai",
            param_hint="--agent",
        )
    attack = check_attack(attack)
    options |= agent_settings(name, model, base_url, max_turns)
    chosen = [t.strip() for t in templates.split(",") if t.strip()] or sorted(load_templates())
    wanted = None if levels == "all" else [lv.strip() for lv in levels.split(",")]
    bad = [lv for lv in wanted or [] if lv not in ("easy", "medium", "hard")]
    if bad:
        raise click.BadParameter(f"unknown level(s) {bad}; use easy, medium, hard or all",
                                 param_hint="--difficulty")  # fmt: skip
    try:
        pairs = arms(chosen, wanted)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--templates") from None
    if not pairs:
        raise click.BadParameter(
            "no template can be built at those levels", param_hint="--difficulty"
        )
    console = Console()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    paired: list[Any] = []
    with Progress(*columns, console=console, transient=True) as bar:
        total = len(pairs) * rollouts * (1 if attack == "none" else 2)
        job = bar.add_task(f"{agent_spec}: {len(pairs)} template level(s)", total=total)
        result = run(name, pairs, rollouts, agent_options=options, seed=seed, split=split,
                     max_steps=max_steps, on_result=lambda _r: bar.advance(job),
                     attack=attack, paired=paired)  # fmt: skip
    result.save(out)
    _print(console, result)
    if result.attack:
        print_attack_report(console, [b for b, _ in paired], [a for _, a in paired])
    console.print(f"calibration file: {out}", highlight=False, soft_wrap=True)


def _print(console: Console, result: Any) -> None:
    from rich.table import Table

    from officegym.cli_tables import print_table

    table = Table(title=f"pass rate of {result.agent} over {result.rollouts} rollout(s) each")
    columns = ["template", "level", "passed", "rate", "95% CI", "mean reward", "flag"]
    if result.attack:
        columns[-1:-1] = ["attacked", "utility under attack", "attack success"]
    for column in columns:
        table.add_column(column, no_wrap=column == "template")
    for e in result.entries:
        flag = FLAG_TEXT.get(e.flag or "", "")
        cells = [e.template, e.difficulty, f"{e.passed}/{e.episodes}", f"{e.pass_rate:.0%}",
                 f"{e.ci_low:.0%}–{e.ci_high:.0%}", f"{e.mean_reward:.3f}"]  # fmt: skip
        if result.attack:
            cells += [str(e.attacked), _share(e.utility_under_attack, ".3f"),
                      _share(e.attack_success, ".0%")]  # fmt: skip
        table.add_row(*cells, flag)
    print_table(console, table)


def _share(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)
