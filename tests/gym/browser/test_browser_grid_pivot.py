"""The pivot editor's Order lines in Chromium, as a person fills them: each group its own
order and sort by; a refused pivot keeps every line; the made pivot follows them."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.gym.browser.test_browser_grid import ORDERS, Sheet, sheet

__all__ = ["sheet"]


def test_each_group_ordered_on_its_own_line_and_kept_when_refused(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, str, str, str]:
        page.click("#workbook-pivots")
        page.fill("#pivot-source", "Orders!A:I")
        page.fill("#pivot-anchor", "Pivot!A1")
        page.fill("#pivot-rows", "Region, Category")
        page.fill("#pivot-value-field", "Units")
        page.fill("#pivot-order-field-1", "Region")
        page.select_option("#pivot-order-1", "DESCENDING")
        page.fill("#pivot-order-field-2", "Categroy")  # a slip: refused, nothing lost
        page.select_option("#pivot-order-2", "DESCENDING")
        page.select_option("#pivot-order-by-2", "0")
        page.click("#pivot-create")
        page.wait_for_selector(".flash-error")
        kept = (
            page.input_value("#pivot-order-field-2"),
            page.input_value("#pivot-order-2"),
            page.input_value("#pivot-order-by-2"),
        )
        page.fill("#pivot-order-field-2", "Category")
        page.click("#pivot-create")
        page.wait_for_selector("#grid[data-ready='1']")
        return *kept, page.input_value("#name-box")

    *kept, box = sheet.run(steps)
    assert kept == ["Categroy", "DESCENDING", "0"] and box == "A1"
    got = [r for r in sheet.values("Pivot!A2:C40") if r[0] and r[0] != "Grand Total"]
    regions = list(dict.fromkeys(r[0] for r in got))
    assert len(regions) > 2 and regions == sorted(regions, reverse=True)
    for region in regions:
        units = [r[2] for r in got if r[0] == region]
        assert units == sorted(units, reverse=True)  # its categories, most units first
