"""Where the grid follows Sheets in the details, clicked and typed as a person does: a
spilled cell's formula bar shows its anchor's formula greyed; a blocked spill's anchor
explains itself on hover; a filter view keeps an edited row until the filter changes;
a paste selects the pasted range."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.gym.browser.test_browser_grid import ORDERS, Sheet, settled, sheet, type_in

__all__ = ["sheet"]  # the fixture, shared with the grid's other tests


def formula_bar(page: Page) -> tuple[str, str | None]:
    """The formula bar's text and its greyed placeholder."""
    return page.input_value("#formula-bar"), page.get_attribute("#formula-bar", "placeholder")


def test_a_spilled_cell_shows_its_anchors_formula_greyed(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K1")

    def steps(page: Page) -> tuple[str, str | None, str, str | None]:
        type_in(page, "k2", "=SEQUENCE(3)")
        settled(page)
        page.click("#k3")
        spilled = formula_bar(page)
        page.click("#k2")
        return *spilled, *formula_bar(page)

    bar, greyed, anchor_bar, anchor_greyed = sheet.run(steps)
    assert (bar, greyed) == ("", "=SEQUENCE(3)")  # a placeholder: shown, not typed there
    assert (anchor_bar, anchor_greyed) == ("=SEQUENCE(3)", "")
    assert sheet.values("Orders!K2:K4") == [[1], [2], [3]]


def test_a_blocked_spill_says_why_on_its_anchor(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K1")

    def steps(page: Page) -> tuple[str, str | None]:
        type_in(page, "k4", "in the way")
        type_in(page, "k2", "=SEQUENCE(3)")
        settled(page)
        return page.input_value("#k2"), page.get_attribute("#k2", "title")

    shown, title = sheet.run(steps)
    assert shown == "#REF!"
    assert title == "Array result was not expanded because it would overwrite data in K4."


def test_an_edited_row_stays_in_the_filter_view_until_the_filter_changes(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, bool, bool]:
        page.click("#c3")
        page.fill("#filter-condition", "EMEA")
        page.press("#filter-condition", "Enter")
        page.wait_for_selector("#filter-matched")
        first = page.locator("#grid tbody tr").nth(1).get_attribute("data-row") or ""
        type_in(page, f"c{first}", "APAC")
        settled(page)
        page.reload()  # the view as it stands, as Sheets keeps it
        page.wait_for_selector("#grid[data-ready='1']")
        kept = page.locator(f"#grid tr[data-row='{first}']").count() == 1
        page.press("#filter-condition", "Enter")  # the filter applied again
        page.wait_for_selector("#grid[data-ready='1']")
        gone = page.locator(f"#grid tr[data-row='{first}']").count() == 0
        return first, kept, gone

    first, kept, gone = sheet.run(steps)
    assert (kept, gone) == (True, True)
    assert sheet.values(f"Orders!C{first}") == [["APAC"]]


def test_a_paste_selects_the_pasted_range(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=F1&sel=F1")

    def steps(page: Page) -> tuple[str, str]:
        page.click("#g2")
        page.click("#h3", modifiers=["Shift"])
        page.keyboard.press("Control+c")
        page.click("#k5")
        page.keyboard.press("Control+v")
        settled(page)
        return page.input_value("#name-box"), page.inner_text("#status-bar")

    box, status = sheet.run(steps)
    assert box == "K5:L6"
    assert sheet.values("Orders!K5:L6") == sheet.values("Orders!G2:H3")
    assert "Selection K5:L6" in status
