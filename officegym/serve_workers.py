"""`officegym serve --db postgresql+psycopg://... --workers N`: one live world on
PostgreSQL served by several worker processes, for many agents at once.

The parent process loads the seeded world into the database (or, with ``--keep``,
checks that the database holds this world) and then runs uvicorn's process
supervisor with `asgi_app` as the factory: every worker opens the same database as a
kept `World`, builds the same web app, Slack API and MCP endpoints over it, and
serves requests on the shared socket. The workers share one session secret (made by
the parent), so a browser signed in through one worker stays signed in on the next
connection, whichever worker takes it. PostgreSQL's transactions keep the workers
consistent; a request's changes are committed before its response is sent, so a
write a client saw acknowledged survives a worker killed right after (uvicorn starts
a new worker in its place). MCP runs stateless, so any worker answers any request.

Each worker keeps its own simulated clock, started after the latest time the
database holds, so timestamps stay after the seeded history.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

__all__ = ["CONFIG_ENV", "ServeConfig", "asgi_app", "is_server_url", "serve_database"]

CONFIG_ENV = "OFFICEGYM_SERVE_CONFIG"
HEALTHCHECK_SECONDS = 60


@dataclass(frozen=True)
class ServeConfig:
    """What every worker needs to build the same application (passed by environment)."""

    url: str
    scenario: str
    seed: int
    host: str
    allowed_hosts: tuple[str, ...] = ()
    persona: str | None = None
    lock_persona: bool = False
    expose_grading: bool = False
    secret_key: str = ""  # one for all workers, or a sign-in made by one fails on another


def is_server_url(db: str) -> bool:
    """Whether `--db` names a database server (a URL) rather than a SQLite file."""
    return "://" in db and not db.startswith("sqlite")


def prepare(config: ServeConfig, fresh: bool) -> None:
    """Load the seeded world into the database (or check the kept one), once, here."""
    from officegym.world import World, world_image

    World(world_image(config.scenario, config.seed), url=config.url, fresh=fresh).close()


def serve_database(config: ServeConfig, *, fresh: bool, port: int, workers: int) -> None:
    """Prepare the database, then serve it with `workers` processes until interrupted."""
    import uvicorn

    from officegym.mcp_wrappers.asgi import KEEP_ALIVE_SECONDS, MAX_CONCURRENCY

    prepare(config, fresh)
    if not config.secret_key:
        config = replace(config, secret_key=secrets.token_hex(32))
    os.environ[CONFIG_ENV] = json.dumps(asdict(config))
    uvicorn.run(
        "officegym.serve_workers:asgi_app",
        factory=True,
        host=config.host,
        port=port,
        workers=workers,
        log_level="info",  # one access-log line per request, as a one-process serve
        lifespan="on",
        # The supervisor kills a worker that does not answer its ping in time; a worker
        # busy with many requests on a loaded machine is slow, not hung (5 s by default).
        timeout_worker_healthcheck=HEALTHCHECK_SECONDS,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=MAX_CONCURRENCY,
    )


def asgi_app() -> Any:
    """The application of one worker process (uvicorn calls it in each worker)."""
    from officegym.hosts import host_names
    from officegym.mcp_wrappers.asgi import build_asgi_app
    from officegym.web import create_app
    from officegym.world import World, world_image

    config = _config()
    world = World(world_image(config.scenario, config.seed), url=config.url, fresh=False)
    app = create_app(
        world,
        persona=config.persona,
        lock_persona=config.lock_persona,
        expose_grading=config.expose_grading,
        hosts=host_names(config.host, config.allowed_hosts),
        config={"SECRET_KEY": config.secret_key} if config.secret_key else None,
    )
    return build_asgi_app(
        world, app, host=config.host, allowed_hosts=config.allowed_hosts, stateless=True
    )


def _config() -> ServeConfig:
    raw = os.environ.get(CONFIG_ENV)
    if not raw:
        raise RuntimeError(f"${CONFIG_ENV} is not set: start workers with serve_database")
    data: dict[str, Any] = json.loads(raw)
    hosts: Sequence[str] = data.pop("allowed_hosts", ())
    return ServeConfig(**data, allowed_hosts=tuple(hosts))
