"""A random run of a person's gestures over the grid in real Chromium (typing, formulas by
click-to-reference, drag-select and Delete, copy and paste, cut and paste, Ctrl+D, the
fill handle), then Ctrl+Z until there is nothing left to undo: the workbook's values and
formulas are exactly what they were."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from tests.gym.browser.test_browser_grid import ORDERS, Sheet, settled
from tests.gym.browser.test_browser_grid import sheet as sheet
from tests.gym.browser.test_browser_grid_gestures import drag, snapshot

pytestmark = pytest.mark.browser
COLS = "jklmn"  # columns J..N of the window, rows 2..12 (beside the orders' data)
GESTURES = 40


def _cell(rng: random.Random) -> str:
    return f"{rng.choice(COLS)}{rng.randint(2, 12)}"


def gesture(page: Page, rng: random.Random) -> None:
    """One gesture a person makes, chosen by `rng`."""
    kind = rng.choice(["type", "type", "formula", "clear", "copy", "cut", "ctrl_d", "handle"])
    one, two = _cell(rng), _cell(rng)
    while two == one:  # a press on the cell being edited places the caret instead
        two = _cell(rng)
    if kind == "type":
        page.click(f"#{one}")
        page.keyboard.type(rng.choice(["7", "12.5", "x", "Mon", "2025-03-01"]))
        page.keyboard.press("Enter")
    elif kind == "formula":
        page.click(f"#{one}")
        page.keyboard.type("=SUM(")
        drag(page, two, _cell(rng))
        page.keyboard.type(")+1")
        page.keyboard.press("Enter")
    elif kind == "clear":
        drag(page, one, two)
        page.keyboard.press("Delete")
    elif kind in ("copy", "cut"):
        drag(page, one, two)
        page.keyboard.press("Control+c" if kind == "copy" else "Control+x")
        page.click(f"#{_cell(rng)}")
        page.keyboard.press("Control+v")
    elif kind == "ctrl_d":
        drag(page, one, two)
        page.keyboard.press("Control+d")
    else:
        drag(page, one, two)
        handle = page.locator("#fill-handle").bounding_box()
        target = page.locator(f"#{rng.choice(COLS)}{rng.randint(13, 16)}").bounding_box()
        assert handle and target
        page.mouse.move(handle["x"] + 3, handle["y"] + 3)
        page.mouse.down()
        page.mouse.move(target["x"] + 10, target["y"] + 10, steps=4)
        page.mouse.up()
    settled(page)


def test_random_gestures_undone_to_the_end_leave_the_workbook_as_it_was(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=J1&sel=J2")

    def steps(page: Page) -> tuple[int, str]:
        rng = random.Random(30)
        for _ in range(GESTURES):
            gesture(page, rng)
        page.click("#j2")
        undone = 0
        while undone < 2 * GESTURES:
            page.keyboard.press("Control+z")
            settled(page)
            error = page.query_selector(".flash-error")
            if error:
                return undone, error.inner_text()
            undone += 1
        return undone, ""

    start = snapshot(sheet)
    undone, last = sheet.run(steps)
    assert "nothing to undo" in last and undone > GESTURES / 2
    assert snapshot(sheet) == start
