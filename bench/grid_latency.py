"""Keystroke-to-saved latency of an edit in the spreadsheet grid, in real Chromium.

A person clicks a cell of the seeded "Orders 2025" workbook (200 orders, a formula
column would recalculate through the same path), types a number and presses Enter;
the time measured runs from the Enter key to the moment the grid has saved the cell
and shown the server's answer (the grid is ``aria-busy`` meanwhile), which includes
the fetch POST, the service's write and recalculation (on the workbook the world keeps
loaded, `apps/sheets/shelf.py`), the window the server answers with and copying its
cells into the page. Prints each run and the median.

    python bench/grid_latency.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
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
        times = [_edit(page, 3 + i, 100 + i) for i in range(args.runs)]
        context.close()
        return times

    times = manager.call(run)
    server.close()
    console = Console()
    for i, t in enumerate(times, 1):
        console.print(f"run {i}: {t * 1000:.1f} ms")
    console.print(
        f"keystroke-to-saved, median of {len(times)}: {statistics.median(times) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
