"""One browser env's tab: its context and page in the process's shared Chromium.

A `Tab` opens (or clears and reuses) its context, signs in by loading a URL,
performs parsed actions, reads the page and shoots the viewport. It remembers
what the env must report: a crashed page (the next `open` starts a new context)
and the HTTP status of the last page a navigation loaded. Every method runs in
the browser thread (`BrowserManager.call`), as Playwright requires.
"""

from __future__ import annotations

import contextlib

import numpy as np
from playwright.sync_api import BrowserContext, CDPSession, Page, Response
from playwright.sync_api import Error as PlaywrightError

from officegym.gym.browser.actions import Action
from officegym.gym.browser.manager import BrowserManager
from officegym.gym.browser.observe import PageView, read_page, screenshot
from officegym.gym.browser.perform import explain, perform

__all__ = ["EMPTY", "Tab"]

EMPTY = PageView("", frozenset())
QUIET = "() => !document.querySelector('[aria-busy=\"true\"]')"


class Tab:
    """The env's context and page, opened in `manager`'s browser with these settings."""

    def __init__(self, manager: BrowserManager, viewport: dict[str, int], timeout_ms: int) -> None:
        self.manager, self.viewport, self.timeout_ms = manager, viewport, timeout_ms
        self.context: BrowserContext | None = None
        self.page: Page | None = None
        self._cdp: CDPSession | None = None
        self.crashed = False
        self.url = ""
        self.http: tuple[int, str, str] | None = None  # the last page load: status, reason, URL

    def open(self, url: str, *, fresh: bool) -> None:
        """Load `url` (a sign-in link) in a cleared or new context, with no history behind
        it; one fresh retry if broken (in a new browser and driver, if the driver died)."""
        for attempt in (1, 2):
            try:
                self._prepare(fresh=fresh or attempt == 2)
                assert self.page is not None and self._cdp is not None
                self.page.goto(url, timeout=self.timeout_ms * 10)
                self._cdp.send("Page.resetNavigationHistory")
                return
            except PlaywrightError as exc:
                if attempt == 2:
                    raise
                self.manager.recover(exc)

    def _prepare(self, *, fresh: bool) -> None:
        """Reuse the page in a cleared context, or open a new context and page."""
        page = self.page
        broken = page is None or page.is_closed() or self.crashed
        if fresh or broken or not self.manager.owns(self.context):
            self.close()
            self.context = self.manager.new_context(viewport=self.viewport)
            self.context.set_default_timeout(self.timeout_ms)
            self.page = self.context.new_page()
            self.page.on("crash", self._on_crash)
            self.page.on("response", self._on_response)
            self._cdp = self.context.new_cdp_session(self.page)
            return
        assert self.context is not None
        self.context.clear_cookies()
        for other in self.context.pages:
            if other is not page:
                other.close()

    def _on_crash(self, _page: Page) -> None:
        self.crashed = True

    def _on_response(self, response: Response) -> None:
        """Remember the status of the page a navigation loaded (the last one, after
        redirects), for the observation's error."""
        request, page = response.request, self.page
        main = page is not None and request.frame == page.main_frame
        if main and request.is_navigation_request():
            self.http = (response.status, response.status_text, response.url)

    def perform(
        self, actions: list[Action], *, origin: str, known_ids: frozenset[str]
    ) -> str | None:
        """Do `actions` in order; the first one's error stops the rest (None: all done).
        `known_ids` are the element ids of the page the agent saw before the first."""
        assert self.page is not None
        for i, action in enumerate(actions):
            error = self._settled() if i else None  # act on the page the last action opened
            error = error or perform(
                self.page,
                action,
                origin=origin,
                known_ids=known_ids if i == 0 else frozenset(),
                timeout_ms=self.timeout_ms,
            )
            if error is not None:
                if len(actions) == 1:
                    return error
                done = f"; the {i} before it were done" if i else ""
                return f"action {i + 1} of {len(actions)} failed{done}: {error}"
        return None

    def _settled(self) -> str | None:
        """Wait for the page to load and finish what its own script sends (no element
        ``aria-busy``, as the spreadsheet grid while it saves); why it did not, if so."""
        assert self.page is not None
        try:
            self.page.wait_for_load_state(timeout=self.timeout_ms * 3)
            self.page.wait_for_function(QUIET, timeout=self.timeout_ms * 3)
        except PlaywrightError as exc:
            return explain(exc)
        return None

    def read(self) -> tuple[PageView, str, str]:
        """The page's text, why it could not be read if so, and its URL."""
        if self.page is None:
            return EMPTY, "", ""
        self._settled()
        self.url = self.page.url
        try:
            return read_page(self.page), "", self.url
        except PlaywrightError as exc:
            lines = str(exc).strip().splitlines()
            reason = lines[0] if lines else type(exc).__name__
            return EMPTY, f"the page could not be read ({reason}); reset()", self.url

    def screenshot(self) -> np.ndarray:
        """The viewport, or a black image if the page cannot be shot."""
        shape = (self.viewport["height"], self.viewport["width"], 3)
        if self.page is not None:
            try:
                shot = screenshot(self.page)
                if shot.shape == shape:
                    return shot
            except PlaywrightError:
                pass
        return np.zeros(shape, dtype=np.uint8)

    def close(self) -> None:
        """Drop the context, closing it if its browser still runs (idempotent)."""
        context, self.context, self.page, self._cdp = self.context, None, None, None
        self.crashed = False
        if context is not None and self.manager.owns(context):
            with contextlib.suppress(PlaywrightError):
                context.close()
