"""A person's mouse and keyboard gestures on the grid, in real Chromium at 1366x768, each
checked through the service for what it must change and for every other cell staying
as it was: a drag selects a range and moves no text; clicking a cell while typing a
formula puts its reference in; Ctrl+Z and Ctrl+Y undo and redo committed edits, not the
text box; the fill handle continues a series without overwriting it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.gym.browser.test_browser_grid import ORDERS, Sheet, settled, type_in
from tests.gym.browser.test_browser_grid import sheet as sheet

pytestmark = pytest.mark.browser
BLOCK = "Orders!A1:P30"


def snapshot(sheet: Sheet) -> list[list[Any]]:
    from officegym.apps.sheets import service as sheets

    with sheet.world.session() as s:
        return sheets.read_range(
            s, s.merge(sheet.me), s.merge(sheet.wb), BLOCK, mode="formulas"
        ).rows


def changed(before: list[list[Any]], after: list[list[Any]]) -> dict[str, Any]:
    """The cells of the block that differ, by address, with what they hold now."""
    out = {}
    for r, (old, new) in enumerate(zip(before, after, strict=False)):
        for c in range(max(len(old), len(new))):
            a = old[c] if c < len(old) else ""
            b = new[c] if c < len(new) else ""
            if a != b:
                out[f"{chr(65 + c)}{r + 1}"] = b
    return out


def drag(page: Page, start: str, end: str) -> None:
    """Press on one cell, move to another with the button down, release there."""
    one, two = page.locator(f"#{start}").bounding_box(), page.locator(f"#{end}").bounding_box()
    assert one and two
    page.mouse.move(one["x"] + one["width"] / 2, one["y"] + one["height"] / 2)
    page.mouse.down()
    page.mouse.move(two["x"] + two["width"] / 2, two["y"] + two["height"] / 2, steps=8)
    page.mouse.up()


def test_dragging_selects_a_range_and_moves_no_text(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=J1&sel=J1")
    type_in_all = {"m2": "m2", "n3": "n3"}

    def steps(page: Page) -> tuple[str, str]:
        for cell, text in type_in_all.items():
            type_in(page, cell, text)
        settled(page)
        start = snapshot(sheet)
        drag(page, "m2", "n4")  # from an unselected cell
        box = page.input_value("#name-box")
        page.click("#m2")
        drag(page, "m2", "n4")  # from the selected cell, whose text is selected
        settled(page)
        assert changed(start, snapshot(sheet)) == {}
        return box, page.input_value("#name-box")

    assert sheet.run(steps) == ("M2:N4", "M2:N4")


def test_clicking_cells_while_typing_a_formula_puts_their_references_in(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=A1&sel=D14")

    def steps(page: Page) -> tuple[dict[str, Any], dict[str, Any]]:
        start = snapshot(sheet)
        page.click("#d14")
        page.keyboard.type("=")
        page.click("#g2")
        page.keyboard.type("*2")
        page.keyboard.press("Enter")
        settled(page)
        one = changed(start, snapshot(sheet))
        page.click("#d15")
        page.keyboard.type("=SUM(")
        drag(page, "g2", "h4")
        page.keyboard.type(")")
        page.keyboard.press("Enter")
        settled(page)
        return one, changed(start, snapshot(sheet))

    one, two = sheet.run(steps)
    assert one == {"D14": "=G2*2"}
    assert two == {"D14": "=G2*2", "D15": "=SUM(G2:H4)"}


def test_ctrl_z_undoes_committed_edits_and_ctrl_y_redoes_them(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=J1&sel=K2")

    def steps(page: Page) -> list[dict[str, Any]]:
        start = snapshot(sheet)
        type_in(page, "k2", "oops")
        page.click("#k2")
        page.keyboard.type("oopsie")
        page.keyboard.press("Control+z")  # the text box's own undo while typing
        page.keyboard.press("Escape")
        page.click("#k3")
        page.keyboard.press("Control+d")  # fill down K2 into K3 (select K2:K3 first)
        settled(page)
        seen = [changed(start, snapshot(sheet))]
        page.click("#k2")
        page.click("#k3", modifiers=["Shift"])
        page.keyboard.press("Control+d")
        settled(page)
        seen.append(changed(start, snapshot(sheet)))
        page.keyboard.press("Delete")  # clear K2:K3
        settled(page)
        seen.append(changed(start, snapshot(sheet)))
        for key in ("Control+z", "Control+z", "Control+y", "Control+Shift+z", "Control+z"):
            page.keyboard.press(key)
            settled(page)
            seen.append(changed(start, snapshot(sheet)))
        page.click("#undo")
        settled(page)
        seen.append(changed(start, snapshot(sheet)))
        return seen

    seen = sheet.run(steps)
    typed, filled, cleared = {"K2": "oops"}, {"K2": "oops", "K3": "oops"}, {}
    assert seen == [typed, filled, cleared, filled, typed, filled, cleared, filled, typed]


def test_the_fill_handle_continues_a_series_below_its_source(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=J1&sel=K2")

    def steps(page: Page) -> dict[str, Any]:
        type_in(page, "k2", "1")
        type_in(page, "k3", "2")
        type_in(page, "l2", "Mon")
        type_in(page, "l3", "Tue")
        settled(page)
        start = snapshot(sheet)
        page.click("#k2")
        page.click("#l3", modifiers=["Shift"])
        handle = page.locator("#fill-handle").bounding_box()
        target = page.locator("#l6").bounding_box()
        assert handle and target
        page.mouse.move(handle["x"] + 3, handle["y"] + 3)
        page.mouse.down()
        page.mouse.move(target["x"] + 10, target["y"] + 10, steps=8)
        page.mouse.up()
        settled(page)
        return changed(start, snapshot(sheet))

    assert sheet.run(steps) == {
        "K4": "3", "K5": "4", "K6": "5", "L4": "Wed", "L5": "Thu", "L6": "Fri",
    }  # fmt: skip


def test_an_agents_drag_and_drop_action_selects_a_range(sheet: Sheet) -> None:
    from officegym.gym.browser.actions import parse_action
    from officegym.gym.browser.perform import perform

    sheet.open(ORDERS, "?sheet=Orders&at=A1&sel=A1")

    def steps(page: Page) -> tuple[str | None, str, str | None]:
        start = snapshot(sheet)
        action = parse_action("drag_and_drop('b2', 'd5')")
        origin = sheet.server.url
        error = perform(page, action, origin=origin, known_ids=frozenset(), timeout_ms=5000)
        missing = perform(
            page, parse_action("drag_and_drop('b2', 'nowhere')"),
            origin=origin, known_ids=frozenset(), timeout_ms=5000,
        )  # fmt: skip
        assert changed(start, snapshot(sheet)) == {}
        return error, page.input_value("#name-box"), missing

    error, box, missing = sheet.run(steps)
    assert (error, box) == (None, "B2:D5")
    assert missing and "no element with id 'nowhere'" in missing


def test_ctrl_z_with_no_field_focused_undoes_the_workbooks_last_edit(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=J1&sel=K2")

    def steps(page: Page) -> tuple[dict[str, Any], dict[str, Any]]:
        start = snapshot(sheet)
        type_in(page, "k2", "typed")
        settled(page)
        typed = changed(start, snapshot(sheet))
        page.click("#status-bar", force=True)  # the page, not a field
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("Control+z")
        settled(page)
        return typed, changed(start, snapshot(sheet))

    assert sheet.run(steps) == ({"K2": "typed"}, {})
