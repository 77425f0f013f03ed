"""One Chromium per process: launched on first use, shared by every browser env of the
process (each env gets its own context), and relaunched when it crashed or disconnected,
or when the Playwright driver behind it died (`BrowserManager.recover`).

Playwright's sync API is bound to the thread that started it and keeps an asyncio
loop marked as running there, which would break ``asyncio.run`` in the caller's
thread (async LLM clients, MCP, browser-use). So the manager runs Playwright in a
thread of its own and every browser operation goes through `call`; the caller's
threads stay free for asyncio and for an external agent's own Playwright.

Which Chromium: the `executable_path` argument, else ``$OFFICEGYM_CHROMIUM`` (a path,
or ``bundled`` for Playwright's own build), else Debian's ``/usr/bin/chromium`` when
present, else Playwright's own build (``python -m playwright install chromium``).
A browser listens for the Chrome DevTools Protocol (`cdp_url`, a free port of
127.0.0.1) only when asked (``cdp=True``), since any local process could then drive
every context in it: envs that ask get a CDP-enabled browser of their own, shared
only with other envs that asked. ``OFFICEGYM_CDP=on`` (or ``off``) overrides what envs
ask for, for the whole process.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import socket
import threading
import urllib.request
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

__all__ = [
    "CHROMIUM_ARGS",
    "BrowserManager",
    "BrowserUnavailable",
    "LaunchSettings",
    "cdp_wanted",
    "chromium_executable",
    "shared_manager",
]

T = TypeVar("T")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    # Same page, same pixels: partial re-raster and runtime-tuned Skia made anti-aliased
    # edges differ between identical resets now and then.
    "--disable-partial-raster",
    "--disable-skia-runtime-opts",
    "--force-color-profile=srgb",
)
DEBIAN_CHROMIUM = "/usr/bin/chromium"


class BrowserUnavailable(RuntimeError):
    """No Chromium could be launched; the message says how to get one."""


def chromium_executable(explicit: str | None = None) -> str | None:
    """The Chromium binary to launch, or None for Playwright's own build."""
    choice = explicit or os.environ.get("OFFICEGYM_CHROMIUM", "").strip()
    if choice == "bundled":
        return None
    if choice:
        return choice
    return DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).exists() else None


CDP_SWITCH = {"on": True, "1": True, "yes": True, "true": True,
              "off": False, "0": False, "no": False, "false": False}  # fmt: skip


def cdp_wanted(asked: bool) -> bool:
    """Whether a browser gets a DevTools endpoint: `asked`, unless ``$OFFICEGYM_CDP`` says
    ``on`` or ``off``."""
    switch = os.environ.get("OFFICEGYM_CDP", "").strip().lower()
    if not switch:
        return asked
    if switch not in CDP_SWITCH:
        raise ValueError(f"OFFICEGYM_CDP={switch!r}: use 'on' or 'off' (or leave it unset)")
    return CDP_SWITCH[switch]


def _devtools_answers(port: int) -> bool:
    """Whether a Chromium DevTools endpoint answers on `port` (its /json/version)."""
    try:
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy
        with direct.open(f"http://127.0.0.1:{port}/json/version", timeout=5) as r:
            return "Browser" in json.loads(r.read())
    except (OSError, ValueError):
        return False


def _free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class LaunchSettings:
    """What a manager launches: which binary, headless or not, with a CDP port or not."""

    executable: str | None
    headless: bool = True
    cdp: bool = False


class BrowserManager:
    """Owns one Playwright driver and one Chromium, in a thread of their own."""

    def __init__(self, settings: LaunchSettings) -> None:
        self.settings = settings
        self.launches = 0
        self.cdp_port: int | None = None
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="officegym-chromium", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ the browser thread

    def _serve(self) -> None:
        while True:
            job, future = self._jobs.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(job())
                except BaseException as exc:  # handed to the caller, who re-raises it
                    self.recover(exc)
                    future.set_exception(exc)

    def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run `fn(*args, **kwargs)` in the browser thread and return (or raise) its result;
        every use of a Playwright object must go through here."""
        if threading.current_thread() is self._thread:
            return fn(*args, **kwargs)
        future: Future[T] = Future()
        self._jobs.put((lambda: fn(*args, **kwargs), future))
        return future.result()

    # ------------------------------------------------------------ in the browser thread

    def browser(self) -> Browser:
        """The running browser, launched now if there is none or it went away."""
        if self._browser is None or not self._browser.is_connected():
            self._launch()
        assert self._browser is not None
        return self._browser

    def _answering_browser(self) -> Browser:
        """`browser`, launched again if its DevTools endpoint stopped answering: a browser
        whose driver died still says it is connected, and an external client handed its
        endpoint would find nothing there."""
        browser = self.browser()
        if self.cdp_port is None or _devtools_answers(self.cdp_port):
            return browser
        self.recover(PlaywrightError("the DevTools endpoint stopped answering"))
        self._launch()
        assert self._browser is not None
        return self._browser

    def new_context(self, **options: Any) -> BrowserContext:
        """A new, isolated browser context (cookies, storage, cache) in the shared browser."""
        return self.browser().new_context(**options)

    def recover(self, exc: BaseException) -> None:
        """After `exc` from a Playwright call: if the driver is gone, forget the browser and
        the driver, so that the next use launches both again. (A dead driver takes its
        Chromium with it, yet ``browser.is_connected()`` still says True, and every call
        fails with ``TargetClosedError``.) Every failing `call` comes here."""
        if not isinstance(exc, PlaywrightError) or self._playwright is None:
            return
        if not self._driver_answers():
            self._browser = None  # nothing to close it through
            self._stop_driver()

    def _driver_answers(self) -> bool:
        """Whether the Playwright driver still answers (one round trip, on failures only)."""
        assert self._playwright is not None
        try:
            self._playwright.request.new_context().dispose()
        except Exception:  # a dead driver fails in several ways
            return False
        return True

    def owns(self, context: BrowserContext | None) -> bool:
        """Whether `context` lives in the current, connected browser."""
        browser = self._browser
        return (
            context is not None
            and browser is not None
            and context.browser is browser
            and browser.is_connected()
        )

    def _launch(self) -> None:
        """Launch Chromium; if the driver died too, restart it once and try again."""
        self._drop_browser()
        try:
            self._browser = self._start_browser()
        except PlaywrightError:
            self._stop_driver()
            try:
                self._browser = self._start_browser()
            except PlaywrightError as exc:
                raise BrowserUnavailable(_launch_hint(self.settings, exc)) from None
        self.launches += 1

    def _start_browser(self) -> Browser:
        """Launch Chromium; with `cdp`, on a free port that its DevTools endpoint answers
        on (another process may take the port between choosing and binding it: then
        the browser is launched again on another)."""
        if self._playwright is None:
            self._playwright = sync_playwright().start()
        for _ in range(3):
            args = list(CHROMIUM_ARGS)
            self.cdp_port = _free_port() if self.settings.cdp else None
            if self.cdp_port:
                args.append(f"--remote-debugging-port={self.cdp_port}")
            browser = self._playwright.chromium.launch(
                executable_path=self.settings.executable, headless=self.settings.headless,
                args=args,
            )  # fmt: skip
            if self.cdp_port is None or _devtools_answers(self.cdp_port):
                return browser
            browser.close()
        raise PlaywrightError(f"Chromium's DevTools endpoint never answered on {self.cdp_port}")

    def _drop_browser(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(PlaywrightError):
                self._browser.close()
            self._browser = None

    def _stop_driver(self) -> None:
        if self._playwright is not None:
            with contextlib.suppress(Exception):  # a dead driver cannot stop cleanly
                self._playwright.stop()
            self._playwright = None

    def _close(self) -> None:
        self._drop_browser()
        self._stop_driver()

    # ------------------------------------------------------------ from any thread

    @property
    def cdp_url(self) -> str | None:
        """``http://127.0.0.1:<port>`` of the browser's DevTools endpoint (None if off)."""
        if not self.settings.cdp:
            return None
        self.call(self._answering_browser)
        return f"http://127.0.0.1:{self.cdp_port}" if self.cdp_port else None

    def close(self) -> None:
        """Close the browser and stop the driver (the next use launches again)."""
        self.call(self._close)


def _launch_hint(settings: LaunchSettings, exc: Exception) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    where = settings.executable or "Playwright's bundled Chromium"
    return (
        f"could not launch Chromium ({where}): {first}. Install Debian's chromium, set "
        "OFFICEGYM_CHROMIUM to a Chromium binary, or run `python -m playwright install chromium`."
    )


_MANAGERS: dict[tuple[int, LaunchSettings], BrowserManager] = {}
_LOCK = threading.Lock()


def shared_manager(
    executable_path: str | None = None, *, headless: bool = True, cdp: bool = False
) -> BrowserManager:
    """The manager of this process for these settings (created on first use; a forked
    child gets its own); `cdp`: a browser with a DevTools endpoint (see `cdp_wanted`)."""
    settings = LaunchSettings(chromium_executable(executable_path), headless, cdp_wanted(cdp))
    key = (os.getpid(), settings)
    with _LOCK:
        if key not in _MANAGERS:
            _MANAGERS[key] = BrowserManager(settings)
        return _MANAGERS[key]


@atexit.register
def _close_all() -> None:
    """Close this process's browsers at exit."""
    for (owner, _), manager in list(_MANAGERS.items()):
        if owner == os.getpid():
            with contextlib.suppress(Exception):  # exiting anyway
                manager.close()
