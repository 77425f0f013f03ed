"""`officegym instances build`: task instances built ahead for a world, so envs made with
``instance_pool=True`` draw fresh instances without building them
(`officegym.tasks.instances`)."""

from __future__ import annotations

import click
from rich.console import Console

__all__ = ["instances"]


@click.group()
def instances() -> None:
    """Task instances built ahead (instance stores)."""


@instances.command("build")
@click.option("--app", "apps", multiple=True, help="Every template of this app (repeatable).")
@click.option("--task", "tasks", multiple=True, help="One template id (repeatable).")
@click.option("--seeds", default=100, show_default=True, help="Task seeds 0..N-1 per level.")
@click.option("--scenario", default="default", show_default=True, help="Scenario of the world.")
@click.option("--world-seed", default=0, show_default=True, help="Seed of the world.")
def build(apps: tuple[str, ...], tasks: tuple[str, ...], seeds: int, scenario: str,
          world_seed: int) -> None:  # fmt: skip
    """Build seeds 0..N-1 of every level of the templates named (all with neither --app
    nor --task) into the world's instance store; instances already kept are not built
    again."""
    from officegym.cli_worlds import shown_world_image
    from officegym.errors import NotFound
    from officegym.tasks import load_templates
    from officegym.tasks.base import get_template
    from officegym.tasks.instances import build_store

    if seeds < 1:
        raise click.BadParameter(f"must be at least 1, not {seeds}", param_hint="--seeds")
    templates = load_templates()
    known = sorted({t.app for t in templates.values()})
    for app in apps:
        if app not in known:
            raise click.BadParameter(
                f"no app {app!r}; apps: {', '.join(known)}", param_hint="--app"
            )
    for tid in tasks:
        try:
            get_template(tid)
        except NotFound as exc:
            raise click.BadParameter(exc.message, param_hint="--task") from None
    ids = [t for t, tpl in sorted(templates.items()) if tpl.app in apps or t in tasks]
    shown_world_image(scenario, world_seed)
    with _bar() as bar:
        job = bar.add_task("building instances", total=None)

        def told(template_id: str, done: int, total: int) -> None:
            bar.update(job, completed=done, total=total, description=template_id)

        path, built = build_store(ids or sorted(templates), seeds, scenario, world_seed,
                                  progress=told)  # fmt: skip
    Console().print(f"{built} instance(s) built into {path}", highlight=False, soft_wrap=True)


def _bar():
    """A progress bar on stderr (a build takes minutes on a loaded machine)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    return Progress(*columns, console=Console(stderr=True), transient=True)
