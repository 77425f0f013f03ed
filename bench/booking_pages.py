"""Size of what an agent reads of the booking site's pages: the browser env's observation
text (`read_page`) and Playwright's ``locator('body').aria_snapshot()``, in characters,
for the start page (the stay search, as a reset opens it) and a few others.

Issue 22 asks that the start page's tree grow no longer; this prints the figures.

    python bench/booking_pages.py
"""

from __future__ import annotations

from page_sizes import sizes

from officegym.gym.browser_env import BrowserEnv

TASK = {"task": "booking.cheapest-stay", "task_seed": 0}
PAGES = (
    "/booking/",
    "/booking/?city=austin-tx",
    "/booking/trips",
    "/booking/flights",
    "/booking/policy",
)


def main() -> None:
    env = BrowserEnv(app="booking", max_steps=10)
    env.reset(options=TASK)
    print("booking pages: characters an agent reads (env text, aria_snapshot)")
    for path in (None, *PAGES):
        text, aria = sizes(env, path)
        print(f"  {path or 'start page':<26} env text {text:6d}   aria_snapshot {aria:6d}")
    env.close()


if __name__ == "__main__":
    main()
