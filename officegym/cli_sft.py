"""`officegym export-sft`: recorded trajectories (or gold ones from the reference
solutions) as chat-format JSONL for supervised fine-tuning (`officegym.gym.sft`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console

__all__ = ["export_sft"]


@click.command("export-sft")
@click.argument("inputs", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The JSONL file to write (replaced): one conversation per episode.",
)
@click.option("--min-reward", default=1.0, show_default=True, help="Keep episodes with this much.")
@click.option("--gold", is_flag=True, help="Add reference-solution episodes of --templates.")
@click.option("--templates", default="", help="Comma-separated template ids for --gold.")
@click.option("--episodes", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--mode", type=click.Choice(["tools", "browser"]), default="tools", show_default=True)
@click.option("--split", type=click.Choice(["train", "test"]), default="train", show_default=True)
@click.option("--seed", default=0, show_default=True, help="First reset seed of --gold episodes.")
@click.option(
    "--failed-calls",
    type=click.Choice(["drop", "weight0", "keep"]),
    default="drop",
    show_default=True,
    help="Calls the env refused: dropped with their replies, kept with weight 0, or kept.",
)
@click.option(
    "--tools",
    "tool_set",
    type=click.Choice(["template", "used"]),
    default="template",
    show_default=True,
    help="Every tool of the template's apps, or only those its reference or the episode uses.",
)
@click.option("--metadata", is_flag=True, help="Add a metadata key (not in OpenAI's format).")
@click.option(
    "--format",
    "style",
    type=click.Choice(["openai", "trl"]),
    default="openai",
    show_default=True,
    help="Call arguments as JSON text (OpenAI fine-tuning) or as objects (TRL's SFT trainer).",
)
def export_sft(
    inputs: tuple[Path, ...],
    out: Path,
    min_reward: float,
    gold: bool,
    templates: str,
    episodes: int,
    mode: str,
    split: str,
    seed: int,
    failed_calls: str,
    tool_set: str,
    metadata: bool,
    style: str,
) -> None:
    """Turn trajectory files (officegym run --record, officegym rollout) into SFT data."""
    from officegym.gym.sft import export_sft as write
    from officegym.gym.sft import gold_records
    from officegym.gym.trajectory_files import read_jsonl
    from officegym.tasks import load_templates

    if not inputs and not gold:
        raise click.UsageError("give trajectory files, or --gold --templates ...")
    records: list[dict[str, Any]] = []
    for path in inputs:
        try:
            records.extend(read_jsonl(path))
        except ValueError as exc:
            raise click.BadParameter(f"{path}: not JSONL ({exc})", param_hint="INPUTS") from None
    if gold:
        chosen = [t.strip() for t in templates.split(",") if t.strip()]
        unknown = [t for t in chosen if t not in load_templates()]
        if not chosen or unknown:
            raise click.BadParameter(
                f"--gold needs known template ids; unknown: {', '.join(unknown) or 'none given'}",
                param_hint="--templates",
            )
        records.extend(gold_records(chosen, episodes, mode=mode, split=split, seed=seed))
    n = write(
        records, out, min_reward=min_reward, failed=failed_calls,  # type: ignore[arg-type]
        tools=tool_set, metadata=metadata, style=style,  # type: ignore[arg-type]
    )  # fmt: skip
    Console().print(
        f"{n} conversation(s) of {len(records)} episode(s) written to {out}", highlight=False
    )
