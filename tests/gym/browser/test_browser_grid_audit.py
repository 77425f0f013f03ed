"""Issue 19's list clicked through in Chromium, for what the other grid tests leave out:
typing goes on after Enter scrolls the window (the active cell keeps the keys); the
number format menu; inserting and deleting rows and columns where the selection is; and
the History page saying all of it in words."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.gym.browser.test_browser_grid import ORDERS, Sheet, settled, sheet
from tests.gym.browser.test_browser_grid_filter import moving

__all__ = ["sheet"]


def test_typing_goes_on_after_enter_scrolls_the_window(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K24")

    def steps(page: Page) -> tuple[str, str, str]:
        page.click("#k24")
        for figure in ("1", "2"):
            page.keyboard.type(figure)
            if figure == "2":
                moving(page, "Enter")  # K26 is below the window: the next one loads
            else:
                page.keyboard.press("Enter")
        page.keyboard.type("3")  # as a person goes on typing, without clicking
        page.keyboard.press("Tab")
        settled(page)
        return (
            page.get_attribute("#grid", "data-top") or "",
            page.input_value("#name-box"),
            (page.evaluate("document.activeElement.id")),
        )

    top, box, active = sheet.run(steps)
    assert sheet.values("Orders!K24:K26") == [[1], [2], [3]]
    assert top == "2" and (box, active) == ("L26", "l26")


def test_format_menu_rows_and_columns_and_history_in_words(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, str, str, str, str, str]:
        page.click("#g2")
        page.click("#g4", modifiers=["Shift"])
        page.select_option("#format-select", "currency")
        page.click("#format-apply")
        settled(page)
        formatted, box = page.input_value("#g3"), page.input_value("#name-box")
        order = page.input_value("#a5")
        page.click("#a5")
        page.click("#insert-rows")
        settled(page)
        moved = page.input_value("#a6")
        page.click("#b1")
        page.click("#insert-cols")
        settled(page)
        page.click("#delete-cols")
        settled(page)
        page.click("#a5")
        page.click("#delete-rows")
        settled(page)
        back = page.input_value("#a5") + "|" + page.input_value("#b1")
        page.click("#workbook-history")
        return formatted, box, order, moved, back, page.inner_text("main")

    formatted, box, order, moved, back, history = sheet.run(steps)
    assert formatted.startswith("$") and box == "G2:G4" and moved == order
    assert back == f"{order}|Order Date"
    for said in (
        "Formatted Orders!G2:G4 as $#,##0.00",
        "Inserted rows Orders!5:5",
        "Inserted columns Orders!B:B",
        "Deleted columns Orders!B:B",
        "Deleted rows Orders!5:5",
    ):
        assert said in history


def test_a_match_on_finds_second_page_opens_with_column_a_still_in_view(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, str, str, str]:
        page.click("#workbook-find")
        page.fill("#find-query", "Services")
        page.fill("#find-sheet", "Orders")
        page.click("#find-submit")
        page.click("#find-next")
        page.wait_for_selector("#find-previous")
        link = page.locator("main ul li a").first
        where = link.inner_text()
        link.click()
        page.wait_for_selector("#grid[data-ready='1']")
        first_col = page.locator("#grid thead th[scope='col']").first.inner_text()
        active = page.evaluate("document.activeElement.id")
        return where, page.input_value("#name-box"), first_col, active

    where, box, first_col, active = sheet.run(steps)
    cell = where.split("!")[1]
    assert where.startswith("Orders!E") and int(cell[1:]) > 25  # a later page: far down
    assert box == cell and active == cell.lower() and first_col == "A"
