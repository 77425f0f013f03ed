"""Browser-mode envs are isolated from each other in one Chromium: a page of one env's
browser that opens another env's app URL is refused (403: it never opened that env's
login URL, so it lacks that episode's key), while each env's own pages work, their
inline scripts included under the content security policy."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page
from sqlalchemy import func, select

from officegym.apps.sheets.models import Workbook
from officegym.apps.slack.models import Message
from officegym.gym.browser_env import BrowserEnv

POST = {"task": "slack.post-channel", "task_seed": 3}


def test_one_envs_browser_cannot_act_in_another_envs_world(
    browser_env: BrowserEnv, env_for: Callable[[str], BrowserEnv]
) -> None:
    browser_env.reset(options=POST)
    other = env_for("crm")
    other.reset(options={"task_seed": 0})
    with other.world.session() as s:
        before = s.scalar(select(func.count()).select_from(Message))

    def trespass(page: Page) -> tuple[int, str]:
        answer = page.goto(f"{other.app_url}/slack/c/general")
        assert answer is not None
        status, text = answer.status, page.inner_text("body")
        page.goto(f"{browser_env.app_url}/slack/c/general")  # back home for the next tests
        return status, text

    status, text = browser_env.manager.call(trespass, browser_env.page)
    assert status == 403 and "login URL" in text
    with other.world.session() as s:
        assert s.scalar(select(func.count()).select_from(Message)) == before
    own = browser_env.manager.call(lambda p: p.goto(f"{browser_env.app_url}/slack/people"),
                                   browser_env.page)  # fmt: skip
    assert own is not None and own.status == 200


def test_pages_carry_a_content_security_policy_and_their_scripts_still_run(
    browser_env: BrowserEnv,
) -> None:
    browser_env.reset(options=POST)
    with browser_env.world.session() as s:
        wb = s.scalars(select(Workbook.id).order_by(Workbook.id)).first()

    def click_a_cell(page: Page) -> tuple[dict[str, str], str, str]:
        answer = page.goto(f"{browser_env.app_url}/sheets/{wb}")
        assert answer is not None
        before = page.input_value("[data-og-id=name-box]")
        page.click("[data-og-id=c4]")
        page.wait_for_function(
            "document.querySelector('[data-og-id=name-box]').value === 'C4'", timeout=5000
        )
        return answer.headers, before, page.input_value("[data-og-id=name-box]")

    headers, before, name_box = browser_env.manager.call(click_a_cell, browser_env.page)
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert before != "C4" and name_box == "C4"  # the grid's script (a 'self' file) ran
