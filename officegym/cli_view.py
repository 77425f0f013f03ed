"""`officegym view`: recorded trajectories as one HTML page (`officegym.gym.viewer`)."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["view"]


@click.command("view")
@click.argument("inputs", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))  # fmt: skip
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The HTML file to write (default: the first input with .html).",
)
def view(inputs: tuple[Path, ...], out: Path | None) -> None:
    """Show recorded episodes (run --record, rollout) as a page: steps, checks, damage."""
    from officegym.gym.trajectory_files import read_jsonl
    from officegym.gym.viewer import write_page

    records = []
    for path in inputs:
        try:
            records.extend(read_jsonl(path))
        except ValueError as exc:
            raise click.BadParameter(f"{path}: not JSONL ({exc})", param_hint="INPUTS") from None
    target = write_page(records, out or inputs[0].with_suffix(".html"), title=inputs[0].name)
    click.echo(f"{len(records)} episode(s): {target.resolve().as_uri()}")
