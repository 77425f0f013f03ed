"""Carrying out a parsed browser action on a page: each action is one or two Playwright
calls on the element whose ``data-og-id`` is the action's element id.

`perform` never raises: a missing element, a timeout, a crashed page or a URL
off the env's own site comes back as the error text the agent reads next.
An action that opens a page returns once the new document is there; reading the
page (`observe.read_page`) waits for it to finish loading.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin, urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from officegym.gym.browser.actions import ENDING_ACTIONS, Action

__all__ = ["element", "explain", "perform", "resolve_url"]

ElementAct = Callable[[Locator, dict[str, Any], float], None]
PageAct = Callable[[Page, dict[str, Any], float], None]


def element(page: Page, bid: str) -> Locator:
    """The element whose ``data-og-id`` is `bid` (already checked against BID_RE)."""
    return page.locator(f'[data-og-id="{bid}"]')


ELEMENT_ACTS: dict[str, ElementAct] = {
    "click": lambda loc, a, t: loc.click(
        button=a["button"], modifiers=list(a["modifiers"]), timeout=t
    ),
    "dblclick": lambda loc, a, t: loc.dblclick(
        button=a["button"], modifiers=list(a["modifiers"]), timeout=t
    ),
    "hover": lambda loc, a, t: loc.hover(timeout=t),
    "fill": lambda loc, a, t: loc.fill(a["value"], timeout=t),
    "clear": lambda loc, a, t: loc.clear(timeout=t),
    "select_option": lambda loc, a, t: loc.select_option(a["options"], timeout=t),
    "check": lambda loc, a, t: loc.check(timeout=t),
    "uncheck": lambda loc, a, t: loc.uncheck(timeout=t),
    "press": lambda loc, a, t: loc.press(a["key_comb"], timeout=t),
    "focus": lambda loc, a, t: loc.focus(timeout=t),
}


def _scroll(page: Page, args: dict[str, Any], _timeout: float) -> None:
    """Wheel-scroll whatever is under the centre of the viewport."""
    size = page.viewport_size or {"width": 1280, "height": 720}
    page.mouse.move(size["width"] / 2, size["height"] / 2)
    page.mouse.wheel(args["delta_x"], args["delta_y"])


PAGE_ACTS: dict[str, PageAct] = {
    "scroll": _scroll,
    "go_back": lambda page, a, t: page.go_back(timeout=t),
    "go_forward": lambda page, a, t: page.go_forward(timeout=t),
    "noop": lambda page, a, t: page.wait_for_timeout(a["wait_ms"]) if a["wait_ms"] else None,
}


def _drag(
    page: Page, start: str, end: str, known_ids: frozenset[str], timeout_ms: float
) -> str | None:
    """Press the mouse on `start`, move it to `end` and release it there (a drag-select
    in the grid, or a drag and drop where a page has one)."""
    here, there = element(page, start), element(page, end)
    for bid, loc in ((start, here), (end, there)):
        if bid not in known_ids and loc.count() == 0:
            return f"no element with id {bid!r} on this page; use an [id] shown in the page text"
    here.drag_to(there, timeout=timeout_ms)
    return None


def resolve_url(url: str, current: str, origin: str) -> str | None:
    """`url` made absolute against the current page, if it stays on `origin`; else None."""
    base = current if _same_origin(current, origin) else origin + "/"
    absolute = urljoin(base, url.strip())
    return absolute if _same_origin(absolute, origin) else None


def _same_origin(url: str, origin: str) -> bool:
    a, b = urlsplit(url), urlsplit(origin)
    return a.scheme in ("http", "https") and (a.scheme, a.netloc) == (b.scheme, b.netloc)


def perform(
    page: Page,
    action: Action,
    *,
    origin: str,
    known_ids: frozenset[str],
    timeout_ms: float,
) -> str | None:
    """Run `action` on `page`; None when it worked, else the error message for the agent."""
    if action.name in ENDING_ACTIONS:
        return None
    try:
        return _dispatch(page, action, origin, known_ids, timeout_ms)
    except PlaywrightError as exc:
        return explain(exc)
    except Exception as exc:  # a driver bug must not end the episode
        return f"the browser could not do that ({type(exc).__name__})"


def _dispatch(
    page: Page, action: Action, origin: str, known_ids: frozenset[str], timeout_ms: float
) -> str | None:
    name, args = action.name, action.args
    if name == "goto":
        url = resolve_url(args["url"], page.url, origin)
        if url is None:
            return f"goto only opens pages of this site ({origin}); use a path such as '/slack/'"
        page.goto(url, timeout=timeout_ms * 3)
        return None
    if name in PAGE_ACTS:
        PAGE_ACTS[name](page, args, timeout_ms)
        return None
    if name == "drag_and_drop":
        return _drag(page, args["from_bid"], args["to_bid"], known_ids, timeout_ms)
    bid = args["bid"]
    loc = element(page, bid)
    if bid not in known_ids and loc.count() == 0:
        return f"no element with id {bid!r} on this page; use an [id] shown in the page text"
    ELEMENT_ACTS[name](loc, args, timeout_ms)
    return None


def explain(exc: PlaywrightError) -> str:
    """Playwright's message, first line plus the last steps of its call log."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    if not lines:
        return f"the browser could not do that ({type(exc).__name__})"
    head = lines[0]
    log = [ln.lstrip("- ").strip() for ln in lines[1:] if ln.startswith("-")]
    detail = f" ({'; '.join(log[-3:])})" if log else ""
    return (head + detail)[:2_000]
