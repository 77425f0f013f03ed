"""Keystroke-to-saved latency of an edit in the spreadsheet grid, in real Chromium.

A person clicks a cell of the seeded "Orders 2025" workbook (200 orders, a formula
column would recalculate through the same path), types a number and presses Enter;
the time measured runs from the Enter key to the moment the grid has saved the cell
and shown the server's answer (the grid is ``aria-busy`` meanwhile), which includes
the fetch POST, the service's write and recalculation (on the workbook the world keeps
loaded, `apps/sheets/shelf.py`), the window the server answers with and copying its
cells into the page. Then Ctrl+Z on each edit (where the grid has undo): from the key
to the cell shown as it was. Prints each run, the medians, and the CPU time this
process (server and Playwright's client) spent per edit; with ``--peer`` the same
script runs against another checkout (say main's, ``git worktree add``) in the same
run, one after the other, and both are printed side by side.

    python bench/grid_latency.py [--runs 7] [--peer /path/to/other/checkout]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import Page
from rich.console import Console
from sqlalchemy import select

from officegym.apps.org import service as org
from officegym.apps.sheets.models import Workbook
from officegym.gym.browser.manager import shared_manager
from officegym.gym.browser.server import AppServer
from officegym.world import World, world_image

IDLE = "() => !document.querySelector('#grid[aria-busy=\"true\"]')"


def _target(world: World) -> tuple[int, str]:
    """The workbook's id and its owner's handle."""
    with world.session() as s:
        wb = s.scalars(select(Workbook).where(Workbook.name == "Orders 2025")).one()
        return wb.id, org.profile(s, wb.owner_id).handle


def _edit(page: Page, row: int, value: int) -> float:
    """Type `value` into K`row` and press Enter; seconds from the key to saved and shown."""
    page.click(f"#k{row}")
    page.keyboard.type(str(value))
    began = time.perf_counter()
    page.keyboard.press("Enter")
    page.wait_for_function(IDLE)
    page.wait_for_function(f"() => document.getElementById('k{row}').dataset.input === '{value}'")
    return time.perf_counter() - began


def _undo(page: Page, row: int, before: str) -> float:
    """Ctrl+Z on K`row` just typed; seconds from the key to the cell shown as `before`."""
    page.click(f"#k{row}")
    page.wait_for_function(IDLE)
    began = time.perf_counter()
    page.keyboard.press("Control+z")
    page.wait_for_function(IDLE)
    page.wait_for_function(f"() => document.getElementById('k{row}').dataset.input === '{before}'")
    return time.perf_counter() - began


def server_cpu(runs: int) -> float:
    """CPU seconds the server alone spends per saved edit: the grid's own POST (a cell of
    the window, answered with the window) through Flask's test client, no browser."""
    from officegym.web import create_app

    world = World(world_image("default", 0))
    wb_id, handle = _target(world)
    client = create_app(world, config={"TESTING": True, "SECRET_KEY": "bench"}).test_client()
    client.get(f"/login/{handle}")
    form = {"sheet": "Orders", "at": "K1", "sel": "K2"}

    def save(i: int) -> None:
        data = {**form, "k2": str(i)}
        client.post(f"/sheets/{wb_id}/cells", data=data, headers={"X-Grid-Window": "1"})

    for i in range(5):
        save(i)  # warm-up
    began = time.process_time()
    for i in range(runs * 5):
        save(100 + i)
    return (time.process_time() - began) / (runs * 5)


def measure(runs: int) -> dict[str, list[float]]:
    """Edit times, undo times (empty without undo), CPU seconds per edit of this process
    (server and Playwright's client) and of the server alone, here."""
    world = World(world_image("default", 0))
    server = AppServer(world)
    wb_id, handle = _target(world)
    manager = shared_manager()
    target = quote(f"/sheets/{wb_id}?sheet=Orders&at=K1&sel=K1", safe="/")

    def run() -> list[float]:
        context = manager.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        page.goto(f"{server.url}/login/{handle}?next={target}&{server.login_query}")
        page.wait_for_selector("#grid[data-ready='1']")
        _edit(page, 2, 1)  # warm-up: first request, caches
        cpu = time.process_time()
        times = [_edit(page, 3 + i, 100 + i) for i in range(runs)]
        cpu = (time.process_time() - cpu) / runs
        undos = []
        if page.query_selector("#undo"):
            undos = [_undo(page, 3 + i, "") for i in reversed(range(runs))]
        context.close()
        return {"edit": times, "undo": undos, "cpu": [cpu]}

    found = manager.call(run)
    server.close()
    found["server"] = [server_cpu(runs)]
    from officegym.apps.sheets import service as sheets

    if hasattr(sheets, "track_undo"):  # the same saves with undo's tracking switched off
        kept, sheets.track_undo = sheets.track_undo, lambda *a, **k: contextlib.nullcontext()
        found["untracked"] = [server_cpu(runs)]
        sheets.track_undo = kept
    return found


def _peer(path: str, runs: int) -> dict[str, list[float]]:
    """The same measure run by the checkout at `path` (its own officegym imported)."""
    env = {**os.environ, "PYTHONPATH": path}
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--runs", str(runs), "--json"],
        cwd=path, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:.1f} ms" if xs else "(no undo)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--peer", help="another checkout to measure in the same run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.runs)))
        return
    found = {"this checkout": measure(args.runs)}
    if args.peer:
        found[f"peer {args.peer}"] = _peer(args.peer, args.runs)
    console = Console()
    for name, got in found.items():
        console.print(
            f"{name}: keystroke-to-saved median {_ms(got['edit'])}, Ctrl+Z median "
            f"{_ms(got['undo'])}, CPU per edit {got['cpu'][0] * 1000:.1f} ms "
            f"(server alone {got['server'][0] * 1000:.1f} ms"
            + (f", {got['untracked'][0] * 1000:.1f} ms untracked" if "untracked" in got else "")
            + ") "
            f"(runs: {', '.join(f'{t * 1000:.0f}' for t in got['edit'])} ms)"
        )


if __name__ == "__main__":
    main()
