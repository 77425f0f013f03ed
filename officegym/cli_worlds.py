"""How the `officegym` commands open worlds: a seeded SQLite file (written fresh, or kept
and checked against the world it records) or a private in-memory copy. Bad options
become click errors that name the option."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from officegym.errors import OfficeGymError

if TYPE_CHECKING:  # imported when a command runs, so `officegym --help` stays quick
    from officegym.world import World, WorldImage

__all__ = [
    "NOT_FRESH_ADVICE",
    "file_world",
    "memory_world",
    "not_fresh_note",
    "shown_world_image",
    "sign_in_handles",
]

NOT_FRESH_ADVICE = (
    "a grade counts every change since the world was seeded, so give each task a freshly "
    "seeded world: restart `officegym serve` (it rewrites the file), or serve with "
    "--expose-grading --fresh-per-task (or POST /reset between tasks)"
)


def not_fresh_note(db: Path) -> str | None:
    """What to say when the world served from `db` has changed since it was seeded (None
    when it is fresh, or when `db` holds no world this version can read)."""
    from officegym.world import World, world_image
    from officegym.world_identity import stored_identity

    try:
        found = stored_identity(f"sqlite:///{db.resolve()}") if db.exists() else None
        if found is None:
            return None
        world = World(world_image(found.scenario, found.seed), url=f"sqlite:///{db.resolve()}",
                      fresh=False)  # fmt: skip
    except (OfficeGymError, OSError):
        return None
    try:
        changed = world.changed_rows()
    finally:
        world.close()
    if not changed:
        return None
    return f"{db} is not fresh: {changed} row(s) changed since it was seeded; {NOT_FRESH_ADVICE}."


def shown_world_image(scenario: str, seed: int) -> WorldImage:
    """`officegym.world.world_image`, with a progress bar on stderr while the world is
    built (a first build takes minutes on a loaded machine; a cached one shows nothing).
    On stderr because stdout may be JSON (grade) or the MCP stream (mcp)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
    )

    from officegym.world import world_image

    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    bar = Progress(*columns, TimeElapsedColumn(), console=console, transient=True)
    task: TaskID | None = None

    def told(step: str, done: int, total: int) -> None:
        nonlocal task
        if task is None:
            console.print(f"Building world {scenario} seed {seed} (first use; cached after)")
            bar.start()
            task = bar.add_task(step, total=total)
        bar.update(task, description=step, completed=done)

    try:
        return world_image(scenario, seed, progress=told)
    finally:
        bar.stop()


def file_world(
    scenario: str | None, seed: int | None, db: Path, fresh: bool, *, seed_option: str
) -> World:
    """The seeded world written to (or kept in) the SQLite file `db`; a kept file's recorded
    world is the default of `scenario` and `seed`, and contradicting it is refused."""
    from officegym.world import World

    if not fresh and db.exists():
        scenario, seed = _kept_world(db, scenario, seed, seed_option)
    scenario, seed = scenario or "default", seed or 0
    try:
        image = shown_world_image(scenario, seed)
    except (OfficeGymError, FileNotFoundError) as exc:
        raise click.BadParameter(str(exc), param_hint="--scenario") from None
    db.parent.mkdir(parents=True, exist_ok=True)
    try:
        return World(image, url=f"sqlite:///{db.resolve()}", fresh=fresh)
    except OfficeGymError as exc:
        raise click.ClickException(exc.message) from None


def _kept_world(
    db: Path, scenario: str | None, seed: int | None, seed_option: str
) -> tuple[str | None, int | None]:
    """(scenario, seed) of the world recorded in `db`, checked against the options given."""
    from officegym.world_identity import stored_identity

    try:
        found = stored_identity(f"sqlite:///{db.resolve()}")
    except OfficeGymError as exc:
        raise click.BadParameter(exc.message, param_hint="--db") from None
    if found is None:  # on stderr: stdout may be JSON (grade) or the MCP stream (mcp)
        Console(stderr=True).print(
            f"[yellow]{db} records no world (written by an older officegym): taking it for "
            f"scenario {scenario or 'default'!r} seed {seed or 0}, as the options say.[/]",
            highlight=False,
            soft_wrap=True,
        )
        return scenario, seed
    if seed is not None and seed != found.seed:
        raise click.BadParameter(
            f"{db} holds the world of seed {found.seed}, not {seed} "
            f"(leave {seed_option} out to use the file's)",
            param_hint=seed_option,
        )
    if scenario is not None and _scenario_name(scenario) != found.scenario:
        raise click.BadParameter(
            f"{db} holds the world of scenario {found.scenario!r}, not {scenario!r} "
            "(leave --scenario out to use the file's)",
            param_hint="--scenario",
        )
    return scenario or found.scenario, found.seed


def _scenario_name(scenario: str) -> str:
    """The name a scenario (given by name or path) records in its worlds."""
    from officegym.seed_data.scenario import load_scenario

    try:
        return load_scenario(scenario).name
    except (OfficeGymError, FileNotFoundError) as exc:
        raise click.BadParameter(str(exc), param_hint="--scenario") from None


def sign_in_handles(world: World, persona: str | None, n: int = 8) -> list[str]:
    """Some handles to print sign-in links for; checks that `persona` exists."""
    from officegym.apps.org import service as org

    with world.session() as s:
        if persona is not None:
            try:
                org.find_person(s, persona)
            except OfficeGymError as exc:
                raise click.BadParameter(exc.message, param_hint="--persona") from None
        return [p.handle for p in org.list_people(s, limit=n)]


def memory_world(scenario: str, seed: int) -> World:
    """A private in-memory copy of the seeded world."""
    from officegym.world import World

    try:
        return World(shown_world_image(scenario, seed))
    except (OfficeGymError, FileNotFoundError) as exc:
        raise click.BadParameter(str(exc), param_hint="--scenario") from None
