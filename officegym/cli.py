"""The `officegym` command: serve the clones, list task templates, run agents.

Thin click commands over the core: the world and the web app come from
`officegym.world` and `officegym.web`, episodes from `officegym.gym`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.table import Table

from officegym.cli_tables import print_table
from officegym.cli_validate import validate
from officegym.cli_worlds import NOT_FRESH_ADVICE, file_world, memory_world, sign_in_handles
from officegym.errors import OfficeGymError

if TYPE_CHECKING:
    from officegym.gym.rollout import EpisodeResult

__all__ = ["main"]


def _console() -> Console:
    """A console for this command (made per call, so COLUMNS and redirected output apply)."""
    return Console()


@click.group()
@click.version_option(package_name="officegym")
def main() -> None:
    """officegym: office-app clones on one database, as Gymnasium environments."""


_SCENARIO_HELP = "Seed scenario name (default: a kept file's, else default)."
_SEED_HELP = "World seed (default: a kept file's, else 0)."


@main.command()
@click.option("--scenario", default=None, help=_SCENARIO_HELP)
@click.option("--seed", type=int, default=None, help=_SEED_HELP)
@click.option(
    "--db",
    default="officegym.sqlite",
    show_default=True,
    help="SQLite file to serve the world from, or a PostgreSQL URL "
    "(postgresql+psycopg://user@host/db) for several --workers.",
)
@click.option(
    "--workers", default=1, show_default=True, type=click.IntRange(min=1),
    help="Worker processes (more than one needs a PostgreSQL --db).",
)  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--allow-host",
    "allowed_hosts",
    multiple=True,
    help="Another Host name clients may reach the server by (repeatable).",
)
@click.option("--persona", default=None, help="Handle of the person to act as by default.")
@click.option(
    "--allow-switch",
    is_flag=True,
    help="With --persona, still let visitors sign in as anyone (by default they cannot).",
)
@click.option(
    "--fresh/--keep",
    default=True,
    show_default=True,
    help="Rewrite the file from the seeded world, or keep an existing file's state.",
)
@click.option(
    "--expose-grading",
    is_flag=True,
    help="Serve POST /grade and the MCP officegym_grade tool (never to an agent under test).",
)
@click.option(
    "--fresh-per-task",
    is_flag=True,
    help="With --expose-grading: restore the seeded world after every POST /grade, so each "
    "task starts fresh (POST /reset does it on demand).",
)
def serve(
    scenario: str | None,
    seed: int | None,
    db: str,
    workers: int,
    host: str,
    port: int,
    allowed_hosts: tuple[str, ...],
    persona: str | None,
    allow_switch: bool,
    fresh: bool,
    expose_grading: bool,
    fresh_per_task: bool,
) -> None:
    """Serve the web clones, the Slack API and MCP over a seeded world in a SQLite file
    (or a PostgreSQL database, with several worker processes)."""
    from officegym.cli_serve import print_doors, print_grading, warn_exposed
    from officegym.grading_api import FRESH_PER_TASK
    from officegym.hosts import host_names, is_loopback
    from officegym.mcp_wrappers.asgi import build_asgi_app
    from officegym.mcp_wrappers.asgi import serve as serve_asgi
    from officegym.serve_workers import is_server_url
    from officegym.web import create_app

    if fresh_per_task and (not expose_grading or is_server_url(db)):
        raise click.BadParameter(
            "needs --expose-grading (a grade ends a task) and a SQLite --db",
            param_hint="--fresh-per-task",
        )
    if is_server_url(db):
        options = (scenario, seed, host, allowed_hosts, persona, allow_switch, expose_grading)
        from officegym.cli_serve import serve_server_db

        return serve_server_db(db, workers, port, fresh, *options)
    if workers > 1:
        raise click.BadParameter(
            "several workers need a PostgreSQL --db URL", param_hint="--workers"
        )
    db = Path(db)
    world = file_world(scenario, seed, db, fresh, seed_option="--seed")
    handles = sign_in_handles(world, persona)
    locked = persona is not None and not allow_switch
    app = create_app(
        world,
        persona=persona,
        lock_persona=locked,
        expose_grading=expose_grading,
        hosts=host_names(host, allowed_hosts),
        config={FRESH_PER_TASK: fresh_per_task},
    )
    base = f"http://{host}:{port}"
    console = _console()
    console.print(
        f"officegym: world [bold]{world.image.scenario}[/] seed {world.image.seed} "
        f"in {db.resolve()}"
    )
    print_doors(console, base, persona, locked, handles)
    print_grading(console, base, db, expose_grading, fresh_per_task)
    if not is_loopback(host):
        warn_exposed(host, port, expose_grading)
    asgi = build_asgi_app(world, app, host=host, allowed_hosts=allowed_hosts)
    serve_asgi(asgi, host, port, access_log=True)  # one line per request


@main.command("mcp")
@click.option(
    "--app", "app_name", default="all", show_default=True, help="App (e.g. slack) or all."
)
@click.option("--scenario", default=None, help=_SCENARIO_HELP.replace("kept file", "--db file"))
@click.option("--seed", type=int, default=None, help=_SEED_HELP.replace("kept file", "--db file"))
@click.option("--persona", required=True, help="Handle of the person the tools act as.")
@click.option(
    "--db",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="SQLite file shared with `officegym serve` (default: a private in-memory world).",
)
@click.option("--expose-grading", is_flag=True, help="Add the officegym_grade tool (graders only).")
def mcp(
    app_name: str,
    scenario: str | None,
    seed: int | None,
    persona: str,
    db: Path | None,
    expose_grading: bool,
) -> None:
    """Serve the tools as an MCP server over stdio."""
    from officegym.mcp_wrappers.stdio import run_stdio
    from officegym.tools import tools_for

    known = sorted({t.app for t in tools_for(None)})
    if app_name != "all" and app_name not in known:
        raise click.BadParameter(f"choose one of {', '.join([*known, 'all'])}", param_hint="--app")
    if db is not None:
        world = file_world(scenario, seed, db, fresh=False, seed_option="--seed")
    else:
        world = memory_world(scenario or "default", seed or 0)
    sign_in_handles(world, persona, n=0)
    apps = None if app_name == "all" else [app_name]
    run_stdio(world, persona, apps, expose_grading=expose_grading)


@main.command()
@click.option("--task", "task_id", required=True, help="Task template id, e.g. slack.post-channel.")
@click.option("--seed", default=0, show_default=True, help="Task seed.")
@click.option(
    "--scenario", default=None, help="Scenario of the world (default: the one --db records)."
)
@click.option(
    "--world-seed",
    type=int,
    default=None,
    help="Seed of the world (default: the one --db records).",
)
@click.option(
    "--db",
    default="officegym.sqlite",
    show_default=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The served world's SQLite file.",
)
@click.option("--answer", default=None, help="The agent's final answer, if the task needs one.")
@click.option("--json", "as_json", is_flag=True, help="Print the grade as JSON.")
def grade(
    task_id: str,
    seed: int,
    scenario: str | None,
    world_seed: int | None,
    db: Path,
    answer: str | None,
    as_json: bool,
) -> None:
    """Grade the current state of a served world file against a task."""
    import json

    from officegym.grading_api import grade_report

    world = file_world(scenario, world_seed, db, fresh=False, seed_option="--world-seed")
    world_name = f"{world.image.scenario} seed {world.image.seed}"
    try:
        report = grade_report(world, task_id, seed, answer)
    except OfficeGymError as exc:
        raise click.BadParameter(exc.message, param_hint="--task") from None
    finally:
        world.close()
    if report["collateral"]:  # on stderr: stdout may be JSON
        Console(stderr=True).print(
            f"[yellow]note:[/] changes beyond the task count as collateral damage; if {db} "
            f"served other tasks since it was seeded, theirs count too: {NOT_FRESH_ADVICE}.",
            highlight=False,
            soft_wrap=True,
        )
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    table = Table(title=f"{task_id} seed {seed} on {db} (world {world_name})")
    for column in ("check", "passed", "weight", "detail"):
        table.add_column(column, overflow="fold")
    for c in report["checks"]:
        table.add_row(c["name"], "yes" if c["passed"] else "no", f"{c['weight']:g}", c["detail"])
    console = _console()
    print_table(console, table)
    for damage in report["collateral"]:
        console.print(f"collateral damage: {damage}", highlight=False)
    console.print(f"reward {report['reward']:.3f}  passed {report['passed']}")


@main.command()
@click.argument("template_ids", nargs=-1)
@click.option("--app", default=None, help="Only templates of this app (e.g. slack).")
@click.option("--stats", is_flag=True, help="Count instances, oracle lengths, difficulty.")
@click.option("--seeds", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--scenarios", default="default", show_default=True, help="With --stats: a,b.")
@click.option("--world-seeds", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print the list (or --stats) as JSON.")
def tasks(
    template_ids: tuple[str, ...],
    app: str | None,
    stats: bool,
    seeds: int,
    scenarios: str,
    world_seeds: int,
    as_json: bool,
) -> None:
    """List the task templates (all, or those named) and their environment ids (with
    --stats: how many distinct instances each gives over --seeds task seeds on
    --world-seeds worlds of each of --scenarios)."""
    from officegym.gym import env_id
    from officegym.tasks import load_templates

    unknown = [t for t in template_ids if t not in load_templates()]
    if unknown:
        raise click.BadParameter(f"unknown template(s): {', '.join(unknown)}")
    rows = [
        t
        for _, t in sorted(load_templates().items())
        if app in (None, t.app, *t.apps) and (not template_ids or t.id in template_ids)
    ]
    if stats:
        from officegym.cli_stats import parse_scenarios, print_stats

        ids = [t.id for t in rows]
        print_stats(ids, seeds, parse_scenarios(scenarios), world_seeds, as_json)
        return
    console = _console()
    table = Table(title="officegym task templates")
    for column in ("id", "difficulty", "apps", "summary", "env id"):
        table.add_column(column, overflow="fold")
    for t in rows:
        level = f"{t.difficulty} (knobs: {', '.join(t.knobs)})" if t.knobs else t.difficulty
        summary = f"{t.summary} [dim](needs {t.needs})[/]" if t.needs else t.summary
        table.add_row(t.id, level, ", ".join(t.apps), summary, env_id(t.id))
    print_table(console, table, as_json=as_json)
    if not as_json:
        console.print(f"{len(rows)} template(s)")


def _rewards_table(title: str, results: list[EpisodeResult]) -> Table:
    """Episodes, mean reward and pass rate per template, then the total."""
    from officegym.gym import summarize

    rows, total = summarize(results)
    table = Table(title=title)
    for column, justify in (("template", "left"), ("episodes", "right")):
        table.add_column(column, justify=justify)
    table.add_column("mean reward", justify="right")
    table.add_column("pass rate", justify="right")
    for s in rows:
        table.add_row(s.name, str(s.episodes), f"{s.mean_reward:.3f}", f"{s.pass_rate:.0%}")
    table.add_section()
    table.add_row(
        "total",
        str(total.episodes),
        f"{total.mean_reward:.3f}",
        f"{total.pass_rate:.0%}",
        style="bold",
    )
    return table


main.add_command(validate)


def _add_commands() -> None:
    """Commands kept in modules of their own (so this file stays short)."""
    from officegym.cli_calibrate import calibrate
    from officegym.cli_instances import instances
    from officegym.cli_rollout import rollout
    from officegym.cli_run import run
    from officegym.cli_sft import export_sft
    from officegym.cli_task import task
    from officegym.cli_view import view

    main.add_command(task)
    main.add_command(run)
    main.add_command(rollout)
    main.add_command(export_sft)
    main.add_command(calibrate)
    main.add_command(view)
    main.add_command(instances)


_add_commands()
