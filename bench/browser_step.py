"""Benchmark of browser mode against raw Playwright on the same page, in one run.

Prints medians of:
- env step = an action then the observation, for a click that opens another page and
  for a fill, next to raw Playwright doing the same on the env's own page
  (``page.click`` / ``page.fill``, then ``page.content()``), and their ratio;
- env reset (restore the database, clear the context, sign in, open the app, observe),
  next to raw Playwright's part of it (clear cookies, open the sign-in URL, read the page);
- reading a page three ways: the env's text (`read_page`), ``page.content()``, and
  ``locator('body').aria_snapshot()``.

Env and raw samples come in alternating short blocks, so a busy machine slows both alike.
Targets: step <= 1.5x raw Playwright, reset <= 300 ms.

    python bench/browser_step.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from playwright.sync_api import Page

from officegym.gym.browser.observe import read_page
from officegym.gym.browser_env import BrowserEnv

TASK = {"task": "slack.post-channel", "task_seed": 0}
BLOCK = 3  # counted calls per block of env steps or raw calls


def ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def sel(bid: str) -> str:
    return f'[data-og-id="{bid}"]'


def steps(env: BrowserEnv, rounds: int) -> dict[str, list[float]]:
    """Clicks (each opens the other of two pages), then fills on one page: blocks of env
    steps and of raw Playwright calls in turn. The first call of a block is not counted,
    since it finishes what the other kind left (a page still loading), so each kind is
    measured after its own kind."""
    page: Page = env.page  # type: ignore[assignment]
    call = env.manager.call  # Playwright objects live in the manager's thread
    out: dict[str, list[float]] = {k: [] for k in ("click", "raw click", "fill", "raw fill")}
    links = ("sidebar-people", "sidebar-browse")
    for _ in range(rounds):
        for i in range(BLOCK + 1):
            t = ms(partial(env.step, f"click('{links[i % 2]}')"))
            out["click"] += [t] if i else []
        for i in range(BLOCK + 1):
            t = ms(partial(call, raw, page, page.click, sel(links[i % 2])))
            out["raw click"] += [t] if i else []
    env.step("click('sidebar-people')")
    for r in range(rounds):
        for i in range(BLOCK + 1):
            t = ms(partial(env.step, f"fill('people-query', 'env {r} {i}')"))
            out["fill"] += [t] if i else []
        for i in range(BLOCK + 1):
            t = ms(partial(call, raw, page, page.fill, sel("people-query"), f"raw {r} {i}"))
            out["raw fill"] += [t] if i else []
    return out


def raw(page: Page, act: Callable[..., object], *args: str) -> None:
    """A raw Playwright action, then the page's content."""
    act(*args)
    page.content()


def raw_reset(page: Page, login_url: str) -> None:
    """Raw Playwright's share of a reset: clear cookies, sign in, read the page."""
    page.context.clear_cookies()
    page.goto(login_url)
    page.content()


def resets(env: BrowserEnv, rounds: int) -> dict[str, list[float]]:
    """Env resets next to raw Playwright's share of one (cookies, sign-in, read)."""
    out: dict[str, list[float]] = {"reset": [], "raw reset": []}
    for _ in range(rounds):
        out["reset"].append(ms(partial(env.reset, options=TASK)))
        assert env.page is not None
        out["raw reset"].append(ms(partial(env.manager.call, raw_reset, env.page, env.login_url)))
    return out


def readers(env: BrowserEnv, rounds: int) -> dict[str, list[float]]:
    """The three ways of reading the current page."""
    page = env.page
    assert page is not None
    call = env.manager.call
    body = call(page.locator, "body")
    out: dict[str, list[float]] = {"env text": [], "content()": [], "aria_snapshot()": []}
    for _ in range(rounds):
        out["env text"].append(ms(partial(call, read_page, page)))
        out["content()"].append(ms(partial(call, page.content)))
        out["aria_snapshot()"].append(ms(partial(call, body.aria_snapshot)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    rounds = parser.parse_args().rounds
    env = BrowserEnv(app="slack", max_steps=10**6)
    env.reset(options=TASK)
    env.step("click('sidebar-people')")
    med = {k: statistics.median(v) for k, v in steps(env, rounds).items()}
    med.update({k: statistics.median(v) for k, v in resets(env, rounds * BLOCK).items()})
    env.reset(options=TASK)
    med.update({k: statistics.median(v) for k, v in readers(env, rounds * BLOCK).items()})
    env.close()
    print(f"browser mode vs raw Playwright, medians of {rounds * BLOCK} samples (ms)")
    for op, target in (("click", 1.5), ("fill", 1.5)):
        ratio = med[op] / med[f"raw {op}"]
        print(f"  step {op:<6} env {med[op]:7.1f}   raw {med[f'raw {op}']:7.1f}   "
              f"ratio {ratio:4.2f} (target <= {target})")  # fmt: skip
    print(f"  reset        env {med['reset']:7.1f}   raw {med['raw reset']:7.1f}   "
          "(target: env <= 300 ms)")  # fmt: skip
    print("  read a page: " + ", ".join(
        f"{k} {med[k]:.1f}" for k in ("env text", "content()", "aria_snapshot()")))  # fmt: skip


if __name__ == "__main__":
    main()
