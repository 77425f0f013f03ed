"""`officegym serve`'s helpers: what it prints about its doors and grading, and serving
on a database server (PostgreSQL) with several worker processes (the command's side of
`officegym.serve_workers`)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from officegym.errors import OfficeGymError

__all__ = ["print_doors", "print_grading", "serve_server_db", "warn_exposed"]


def serve_server_db(
    url: str, workers: int, port: int, fresh: bool, scenario: str | None, seed: int | None,
    host: str, allowed_hosts: tuple[str, ...], persona: str | None, allow_switch: bool,
    expose_grading: bool,
) -> None:  # fmt: skip
    """`serve` on a database server: load (or keep) the world there, then serve it with
    `workers` processes (`officegym.serve_workers`)."""
    from sqlalchemy.exc import SQLAlchemyError

    from officegym.serve_workers import ServeConfig, serve_database

    config = ServeConfig(
        url, scenario or "default", seed or 0, host, allowed_hosts, persona,
        persona is not None and not allow_switch, expose_grading,
    )  # fmt: skip
    console = Console()
    console.print(f"officegym: world {config.scenario} seed {config.seed} on {url} "
                  f"({workers} worker(s))", soft_wrap=True, highlight=False)  # fmt: skip
    console.print(f"Open http://{host}:{port}/ · Slack API /api/ · MCP /mcp", soft_wrap=True)
    try:
        serve_database(config, fresh=fresh, port=port, workers=workers)
    except OfficeGymError as exc:
        raise click.ClickException(exc.message) from None
    except SQLAlchemyError as exc:
        raise click.BadParameter(
            f"cannot use {url}: {exc.orig or exc}", param_hint="--db"
        ) from None


def print_doors(
    console: Console, base: str, persona: str | None, locked: bool, handles: list[str]
) -> None:
    """Where to sign in, the Slack API and the MCP endpoints, and whom they act as."""
    from officegym.mcp_wrappers.asgi import mcp_paths

    console.print(f"Open [bold]{base}/[/]" + (f" (signed in as @{persona})" if persona else ""))
    if locked:
        console.print("Signing in as anyone else is refused (--allow-switch to permit it).")
    else:
        console.print(f"Choose a person: {base}/login   or sign in directly:")
        for handle in handles:
            console.print(f"  {base}/login/{handle}?next=/", soft_wrap=True, highlight=False)
    console.print(f"Slack Web API: {base}/api/  (token: xoxp-<handle>)", soft_wrap=True)
    paths = ", ".join(f"{base}{path}" for path in mcp_paths())
    acting = f"as @{persona}" if locked else "as the bearer token xoxp-<handle> names"
    if persona and not locked:
        acting += f", else @{persona}"
    console.print(f"MCP (streamable HTTP, {acting}): {paths}", soft_wrap=True)


def print_grading(console: Console, base: str, db: Path, exposed: bool, per_task: bool) -> None:
    """How to grade, and how each task gets a fresh world (a grade counts every change)."""
    if exposed:
        console.print(
            f"Grading is exposed: POST {base}/grade and the MCP tool officegym_grade "
            "(any client can read its grade).",
            soft_wrap=True,
        )
        again = "after every POST /grade" if per_task else f"on POST {base}/reset"
        console.print(f"The seeded world is restored {again}.", soft_wrap=True)
    else:
        console.print(
            f"Grade with: officegym grade --task <id> --seed <n> --db {db}", soft_wrap=True
        )
        console.print(
            "A grade counts every change since the world was seeded: restart serve (or use "
            "--expose-grading --fresh-per-task) before the next task.",
            soft_wrap=True,
        )


def warn_exposed(host: str, port: int, grading: bool) -> None:
    """Warn on stderr: a non-loopback bind serves every door to the network, unauthenticated."""
    grades = ", and grades (--expose-grading)" if grading else ""
    Console(stderr=True).print(
        f"[bold red]WARNING:[/] {host}:{port} is not a loopback address. Anyone who can reach "
        f"it can use the web UI, the Slack API and MCP{grades} without authentication: tokens "
        "only name people, and only a --persona lock limits whom they can act as. Bind "
        "127.0.0.1 unless this network is trusted. MCP only accepts Host headers naming this "
        "machine (add others with --allow-host).",
        soft_wrap=True,
        highlight=False,
    )
