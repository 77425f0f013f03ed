"""What the page-size scripts share: how long an agent's two views of one page are.
Scripts run as ``python bench/<name>.py``, so this module imports as ``page_sizes``."""

from __future__ import annotations

from officegym.gym.browser.observe import read_page
from officegym.gym.browser_env import BrowserEnv


def sizes(env: BrowserEnv, path: str | None) -> tuple[int, int]:
    """(env text, aria snapshot) lengths of `path` (None: the page the reset opened)."""
    page = env.page
    assert page is not None
    call = env.manager.call
    if path is not None:
        call(page.goto, env.server.url + path)
    text = call(read_page, page).text
    aria = call(call(page.locator, "body").aria_snapshot)
    return len(text), len(aria)
