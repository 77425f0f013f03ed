"""officegym.gym.browser: what browser mode is made of, under `browser_env.BrowserEnv`.

- `actions`: the BrowserGym-style action language, parsed safely (never evaluated);
- `manager`: one Chromium per process, relaunched after a crash; a context per env;
- `server`: an env's world served on 127.0.0.1 at an ephemeral port, one request at a time;
- `observe`: the page as accessibility-tree text with element ids, and screenshots;
- `perform`: carrying out an action on a page, errors returned as text;
- `space`: the action space of action strings;
- `solutions`: a task's reference solution as browser actions, from each app's ``browser`` module.

Only `officegym.gym` imports Playwright.
"""

from officegym.gym.browser.actions import (
    ACTION_HELP,
    Action,
    ActionError,
    format_action,
    parse_action,
)
from officegym.gym.browser.manager import BrowserManager, BrowserUnavailable, shared_manager
from officegym.gym.browser.server import AppServer
from officegym.gym.browser.space import BrowserActionSpace

__all__ = [
    "ACTION_HELP",
    "Action",
    "ActionError",
    "AppServer",
    "BrowserActionSpace",
    "BrowserManager",
    "BrowserUnavailable",
    "format_action",
    "parse_action",
    "shared_manager",
]
