"""Size of what an agent reads of each app's start page, as a reset opens it: the browser
env's observation text (``axtree``) and Playwright's ``aria_snapshot``, in characters.

Issue 22 asks that no app's start page read longer than before its pages were reworked;
this prints the four figures side by side (the CRM's and booking's other pages:
``bench/crm_pages.py``, ``bench/booking_pages.py``).

    python bench/start_pages.py
"""

from __future__ import annotations

from urllib.parse import urlsplit

from page_sizes import sizes

from officegym.gym.browser_env import BrowserEnv

APPS = ("slack", "crm", "sheets", "booking")


def main() -> None:
    print("start pages: characters an agent reads (env text, aria_snapshot)")
    for app in APPS:
        env = BrowserEnv(app=app, max_steps=10)
        env.reset(seed=0)
        text, aria = sizes(env, None)
        path = env.manager.call(lambda e=env: urlsplit(e.page.url).path if e.page else "")
        print(f"  {app:<8} {path:<22} env text {text:6d}   aria_snapshot {aria:6d}")
        env.close()


if __name__ == "__main__":
    main()
