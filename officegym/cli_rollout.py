"""`officegym rollout`: many episodes over Ray actors (or in this process with
``--local``), trajectories streamed to JSONL (and Parquet with pyarrow) as they finish."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from officegym.cli_agents import agent_choice, agent_options, agent_settings

__all__ = ["rollout"]


@click.command()
@click.option("--episodes", default=100, show_default=True, type=click.IntRange(min=1))
@agent_choice("oracle plays reference solutions (in browser mode, the browser ones).")
@agent_options
@click.option("--env", "env_ids", multiple=True, help="Env id(s) (default officegym/slack-v0).")
@click.option("--templates", default="", help="Comma-separated template ids (instead of --env).")
@click.option("--split", type=click.Choice(["train", "test"]), default="train", show_default=True)
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "medium", "hard"]),
    default=None,
    help="Build every task at this level (only templates that have it).",
)
@click.option("--seed", default=0, show_default=True, help="Episode i resets with seed + i.")
@click.option("--mode", type=click.Choice(["tools", "browser"]), default="tools", show_default=True)
@click.option(
    "--max-steps",
    default=None,
    type=click.IntRange(min=1),
    help="Steps per episode (default: each task's own, 3x its reference solution, at least 30).",
)
@click.option("--faults", default=0.0, show_default=True, help="Share of tool calls that fail.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1))
@click.option("--envs-per-worker", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--address", default=None, help="An existing Ray cluster (default: a local Ray).")
@click.option("--local", is_flag=True, help="No Ray: play every episode in this process.")
@click.option(
    "--out",
    default="rollout.jsonl",
    show_default=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSONL file the trajectories are appended to (a .parquet beside it with pyarrow).",
)
@click.option("--parquet/--no-parquet", default=True, show_default=True)
def rollout(
    episodes: int,
    agent_name: str,
    model: str | None,
    base_url: str | None,
    max_turns: int,
    env_ids: tuple[str, ...],
    templates: str,
    split: str,
    difficulty: str | None,
    seed: int,
    mode: str,
    max_steps: int | None,
    faults: float,
    workers: int,
    envs_per_worker: int,
    address: str | None,
    local: bool,
    out: Path,
    parquet: bool,
) -> None:
    """Run episodes over Ray actors and stream their trajectories to a file."""
    from officegym.gym.worker import RolloutSettings, plan_episodes

    chosen = _templates(templates)
    plan = plan_episodes(
        episodes, env_ids=env_ids or ("officegym/slack-v0",), templates=chosen, seed=seed,
        split=split, difficulty=difficulty,
    )  # fmt: skip
    name = "browser-oracle" if (agent_name, mode) == ("oracle", "browser") else agent_name
    options = agent_settings(agent_name, model, base_url, max_turns)
    try:
        settings = RolloutSettings(name, options, mode, max_steps, faults)
        settings.env_kwargs()
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--faults/--mode") from None
    parquet_path = out.with_suffix(".parquet") if parquet and _has("pyarrow") else None
    records = _play(plan, settings, local, address, workers, envs_per_worker, out, parquet_path)
    _report(records, out, parquet_path)


def _templates(option: str) -> list[str]:
    """The template ids of ``--templates``, each known, or a usage error naming the rest."""
    from officegym.tasks import load_templates

    chosen = [t.strip() for t in option.split(",") if t.strip()]
    unknown = [t for t in chosen if t not in load_templates()]
    if unknown:
        raise click.BadParameter(
            f"unknown template(s): {', '.join(unknown)}", param_hint="--templates"
        )
    return chosen


def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _play(
    plan: list[Any], settings: Any, local: bool, address: str | None, workers: int,
    envs_per_worker: int, out: Path, parquet: Path | None,
) -> list[dict[str, Any]]:  # fmt: skip
    """Play the plan with a progress bar, writing each record as it finishes."""
    from officegym.gym.trajectory_files import TrajectoryWriter
    from officegym.gym.worker import run_local

    if not local and not _has("ray"):
        raise click.ClickException("rollout needs Ray: pip install 'officegym[ray]' (or --local)")
    console, records = Console(), []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    where = "this process" if local else f"{workers} Ray worker(s)"
    with (
        TrajectoryWriter(out, parquet) as writer,
        Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as bar,
    ):
        job = bar.add_task(f"{settings.agent} on {where}", total=len(plan))

        def done(record: dict[str, Any]) -> None:
            writer.write(record)
            bar.advance(job)
            if record.get("model_error"):  # every later episode would meet the same
                raise click.ClickException(
                    f"episode {record['index']}: {record['model_error']} (rollout stopped; "
                    f"the episodes played so far are in {out})"
                )

        if local:
            records = list(run_local(plan, settings, on_result=done))
        else:
            from officegym.gym.distributed import RayRollout, WorkersFailed, init_ray

            init_ray(address, num_cpus=None if address else max(workers, 1))
            try:
                runner = RayRollout(settings, workers=workers, envs_per_worker=envs_per_worker)
                try:
                    records = list(runner.run(plan, on_result=done))
                finally:
                    runner.close()
            except WorkersFailed as exc:
                raise click.ClickException(str(exc)) from None
    return records


def _report(records: list[dict[str, Any]], out: Path, parquet: Path | None) -> None:
    """The rewards of the episodes the policy played to their end; episodes that failed
    for another reason (the env, the agent's model) are counted apart, their causes
    summed up in a line, and make the command exit 1 once the report is printed."""
    from officegym.cli import _rewards_table
    from officegym.gym.rollout import EpisodeResult, summarize
    from officegym.gym.viewer import failure

    broken = [r for r in records if r.get("ended") in ("agent_failure", "env_fault")]
    played = [r for r in records if r not in broken]
    results = [
        EpisodeResult(
            (r.get("task") or {}).get("id", "(failed)"), (r.get("task") or {}).get("seed", -1),
            float(r["reward"]), bool(r["passed"]), int(r["n_steps"]),
        )
        for r in sorted(played, key=lambda r: r["index"])
    ]  # fmt: skip
    console = Console()
    console.print(_rewards_table(f"rollout of {len(played)} episode(s)", results))
    _, total = summarize(results)
    console.print(f"mean reward {total.mean_reward:.3f} over {total.episodes} episode(s)")
    if broken:
        causes = Counter(failure(r).split("\n")[0][:160] for r in broken)
        listed = "; ".join(f"{n} x {cause}" for cause, n in causes.most_common(5))
        console.print(
            f"{len(broken)} episode(s) failed, not by the policy, and are left out of the "
            f"rewards: {listed}",
            soft_wrap=True,
            highlight=False,
        )
    files = str(out) + (f" and {parquet}" if parquet else "")
    console.print(f"trajectories: {files}", soft_wrap=True, highlight=False)
    if broken:
        raise SystemExit(1)
