"""`officegym run`: play an agent for some episodes and print the rewards per template;
with ``--attack``, the same episodes again with instructions planted, and the attack
report (`officegym.cli_attack`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from officegym.cli_agents import agent_choice, agent_options, build_agent
from officegym.cli_attack import attack_options, check_attack, print_attack_report
from officegym.cli_tables import print_table
from officegym.errors import OfficeGymError

if TYPE_CHECKING:  # the gym (and Gymnasium) load only when a command runs
    from officegym.gym.rollout import EpisodeResult

__all__ = ["run"]


@click.command()
@agent_choice(
    "The agent that plays: oracle, random, openai, or obey: the reference, then whatever "
    "a planted instruction asks (with --attack).",
    choices=("oracle", "random", "obey", "openai"),
)
@agent_options
@click.option("--env", "env_name", default="officegym/slack-v0", show_default=True)
@click.option("--episodes", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, help="Seed of the first reset.")
@click.option("--split", type=click.Choice(["train", "test"]), default="train", show_default=True)
@click.option(
    "--max-steps",
    default=None,
    type=click.IntRange(min=1),
    help="Steps per episode (default: each task's own, 3x its reference solution, at least 30).",
)
@click.option(
    "--record",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append every episode to this JSONL file.",
)
@click.option("--faults", default=0.0, show_default=True, help="Share of tool calls that fail.")
@attack_options
def run(
    agent_name: str,
    model: str | None,
    base_url: str | None,
    max_turns: int,
    env_name: str,
    episodes: int,
    seed: int,
    split: str,
    max_steps: int | None,
    record: Path | None,
    faults: float,
    attack: str,
    attack_penalty: float,
) -> None:
    """Run an agent for some episodes and print the rewards per template (with --attack,
    the same episodes again with instructions planted, and the attack report)."""
    from officegym.cli import _console, _rewards_table
    from officegym.gym import summarize

    agent = build_agent(agent_name, seed, model, base_url, max_turns)
    settings = {"split": split, "max_steps": max_steps, "faults": faults}
    results = _run(agent, agent_name, env_name, episodes, seed, record=record, **settings)
    console = _console()
    print_table(
        console, _rewards_table(f"{agent_name} agent on {env_name} ({split} split)", results)
    )
    _, total = summarize(results)
    console.print(f"mean reward {total.mean_reward:.3f} over {total.episodes} episode(s)")
    if check_attack(attack) != "none":
        settings |= {"attack": attack, "attack_penalty": attack_penalty}
        attacked = _run(agent, agent_name, env_name, episodes, seed, record=None, **settings)
        print_attack_report(console, results, attacked)


def _run(
    agent: Any, agent_name: str, env_name: str, episodes: int, seed: int, **kwargs: Any
) -> list[EpisodeResult]:
    """Play `episodes` episodes (the first reset seeded) with a progress bar."""
    from officegym.cli import _console
    from officegym.gym import make_env, run_episode

    try:
        env = make_env(env_name, **kwargs)
    except OfficeGymError as exc:
        raise click.BadParameter(exc.message, param_hint="--env") from None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--faults") from None
    console = _console()
    results = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as bar:
        job = bar.add_task(f"{agent_name} on {env_name}", total=episodes)
        for i in range(episodes):
            first = seed if i == 0 else None
            results.append(run_episode(env, agent, seed=first, agent_name=agent_name))
            bar.advance(job)
            if getattr(agent, "model_error", None):
                env.close()
                raise click.ClickException(f"episode {i}: {agent.model_error}")  # type: ignore[attr-defined]
    env.close()
    return results
