"""`officegym serve` on a database server (PostgreSQL) with several worker processes:
the command's side of `officegym.serve_workers`."""

from __future__ import annotations

import click
from rich.console import Console

from officegym.errors import OfficeGymError

__all__ = ["serve_server_db"]


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
