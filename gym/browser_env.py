"""The browser-mode Gymnasium environment: an agent does an office task in a real browser.

One episode is one task instance, chosen and graded exactly as in tools mode
(`officegym.gym.episodes`). The env serves the clones from its own world
database on 127.0.0.1 (an ephemeral port) and drives its own context of the
process's shared Chromium. `reset` restores the database, clears the context
(cookies, open tabs, history; ``fresh_context=True`` opens a new context
instead), signs in as the task's persona and opens the app's start page.

Action: an action string of the BrowserGym-style language (`ACTION_HELP`),
e.g. ``fill('composer-text', 'Hi')``, or several calls, one per line, done in order
(BrowserGym's multi-action default); element ids are the ``[ids]`` of the page
text. Observation: ``goal``, ``persona``, ``url``, ``axtree`` (the page as an
accessibility-tree text with element ids), ``last_action``, ``error`` (""
or why the last action failed, including an HTTP error status of the page it loaded),
and with ``screenshot=True`` a ``screenshot``
(HxWx3 uint8).

Ending: `send_msg_to_user(text)` ends the episode with `text` as the answer, and
`report_infeasible(reason)` ends it with no answer; either way the final database
state is graded. Reaching `max_steps` (or a Gymnasium step limit, through the
`GradeOnTruncation` wrapper: `officegym.gym.episode`, the episode state machine both
envs share) truncates and grades too. The reward is the
grade at the end, 0 before. A bad or failing action is an error in the next
observation and counts as a step; `step` never raises on what an agent sends. A
crashed page, browser or Playwright driver shows up as errors and is recovered by the
next `reset`.

External agents (their own Playwright, browser-use, ...) get ``app_url`` and
``login_url`` in the reset info (and ``cdp_url``, the DevTools endpoint of the env's
Chromium, when the env was made with ``cdp=True``; None otherwise), act on their own,
and end the episode with `finish(answer)`, which grades the same way.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any, ClassVar
from urllib.parse import urlsplit

import gymnasium
import numpy as np
from gymnasium import spaces
from playwright.sync_api import Page

from officegym.gym.browser.actions import ACTION_HELP, ENDING_ACTIONS, ActionError, parse_actions
from officegym.gym.browser.manager import shared_manager
from officegym.gym.browser.server import AppServer
from officegym.gym.browser.space import BrowserActionSpace
from officegym.gym.browser.tab import EMPTY, Tab
from officegym.gym.colleagues import answering_hook
from officegym.gym.env_core import EpisodeEnv, EpisodeSettings
from officegym.gym.episode import NO_EPISODE
from officegym.gym.episodes import (
    ERROR_CHARS,
    GOAL_CHARS,
    PERSONA_CHARS,
    clip,
    task_info,
)
from officegym.gym.spaces import UnicodeText
from officegym.tasks import Task
from officegym.tasks.responders import colleague_for

__all__ = ["ACTION_HELP", "BrowserEnv", "default_action_timeout"]

URL_CHARS = 2_000
DEFAULT_ACTION_TIMEOUT_MS = 3_000
TIMEOUT_VARIABLE = "OFFICEGYM_ACTION_TIMEOUT_MS"
LAST_ACTION_CHARS = 1_000
PAGE_NOTE = "\n…[page text truncated: {n} more characters]"
Step = tuple[dict[str, Any], float, bool, bool, dict[str, Any]]


class BrowserEnv(EpisodeEnv[dict[str, Any], str]):
    """Office tasks in browser mode: actions are action strings, observations page text."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        settings: EpisodeSettings | None = None,
        *,
        render_mode: str | None = None,
        screenshot: bool = False,
        viewport: tuple[int, int] = (1280, 720),
        max_page_chars: int = 100_000,
        action_timeout_ms: int | None = None,
        fresh_context: bool = False,
        headless: bool = True,
        executable_path: str | None = None,
        cdp: bool = False,
        **options: Any,
    ) -> None:
        if action_timeout_ms is None:
            action_timeout_ms = default_action_timeout()
        _check_settings(render_mode, viewport, max_page_chars, action_timeout_ms)
        self._setup(EpisodeSettings.of(settings, options))
        self.max_page_chars = max_page_chars
        self.render_mode, self.screenshot = render_mode, screenshot
        self.viewport = {"width": int(viewport[0]), "height": int(viewport[1])}
        self.action_timeout_ms, self.fresh_context = action_timeout_ms, fresh_context
        self.action_space = BrowserActionSpace()
        self.observation_space = self._observation_space()
        self.manager = shared_manager(executable_path, headless=headless, cdp=cdp)
        self.server = AppServer(self.world)
        self._tab = Tab(self.manager, self.viewport, action_timeout_ms)
        self._view = EMPTY  # what the agent last saw
        self._start(None)

    def _start(self, task: Task | None) -> None:
        """Episode state for `task` (None: no episode yet)."""
        if task is not None:
            self.episode.begin(task, self._step_limit(task))
        self._goal = clip(task.goal, GOAL_CHARS) if task else ""
        self._persona = self._persona_text(task.persona) if task else ""
        self._last: tuple[str, str] = ("", "")

    def _observation_space(self) -> spaces.Dict:
        note = len(PAGE_NOTE.format(n=10**12))
        fields: dict[str, gymnasium.Space[Any]] = {
            "goal": UnicodeText(GOAL_CHARS),
            "persona": UnicodeText(PERSONA_CHARS),
            "url": UnicodeText(URL_CHARS),
            "axtree": UnicodeText(self.max_page_chars + note),
            "last_action": UnicodeText(LAST_ACTION_CHARS),
            "error": UnicodeText(ERROR_CHARS),
        }
        if self.screenshot:
            shape = (self.viewport["height"], self.viewport["width"], 3)
            fields["screenshot"] = spaces.Box(0, 255, shape, np.uint8)
        return spaces.Dict(fields)

    # ------------------------------------------------------------ episode

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Restore the world, start a task (``options``: ``task``, ``task_seed``, ``split``,
        ``difficulty``, ``scenario``, ``world_seed``, as in tools mode), sign in as its persona
        in a cleared context and open the app."""
        super().reset(seed=seed)
        task, split = self._draw(options)
        self.server.new_episode(task.persona, self.world)
        with self.server.exclusive(), self.world.session() as s:
            self.last_attack = self.attacks.start(self.world, task)  # planted before any page
            colleague = colleague_for(task, s, self.responder)
        self.server.after_write(answering_hook(self.world, colleague))
        self._start(task)
        self._tab.http = None
        self.manager.call(self._tab.open, self.login_url, fresh=self.fresh_context)
        info = {
            "task": task_info(task, split),
            "app_url": self.app_url,
            "login_url": self.login_url,
            "cdp_url": self.manager.cdp_url,
            "action_help": ACTION_HELP,
        } | ({"attack": self.last_attack} if self.attacks.on else {})
        return self._observe("", ""), info

    def step(self, action: str) -> Step:
        """Perform one action; `send_msg_to_user`/`report_infeasible` end and grade."""
        refusal = self.episode.refusal() or (NO_EPISODE if self._tab.page is None else None)
        if refusal is not None:
            return self._stray(refusal)
        self.episode.steps += 1
        self._tab.http = None
        error, info = self._act(action)
        reward, terminated, truncated, graded = self.episode.settle(self._grade, self.curriculum)
        if graded is not None:
            info["grade"] = graded.to_dict()
            info |= {"attack": self.last_attack} if self.attacks.on else {}
        shown = clip(action, LAST_ACTION_CHARS) if isinstance(action, str) else repr(type(action))
        obs = self._observe(shown, error)
        return obs, reward, terminated, truncated, info

    def _act(self, action: Any) -> tuple[str, dict[str, Any]]:
        """Parse and perform `action` (one or more calls, in order; the first failure stops
        the rest, an ending call comes last): (error text, step info)."""
        info: dict[str, Any] = {"step": self.episode.steps, "action": "", "ok": False}
        info["error_code"] = ""
        try:
            actions = parse_actions(action)
        except ActionError as exc:
            info["error_code"] = "invalid_action"
            return clip(str(exc), ERROR_CHARS), info
        last = actions[-1]
        info["action"] = last.name
        if len(actions) > 1:
            info["actions"] = [a.name for a in actions]
        moves = actions[:-1] if last.name in ENDING_ACTIONS else actions
        error = None
        if moves:
            origin, seen = self.server.url, self._view.ids
            error = self.manager.call(self._tab.perform, moves, origin=origin, known_ids=seen)
        if error is not None:
            info["error_code"] = "action_failed"
            return clip(error, ERROR_CHARS), info
        if last.name == "send_msg_to_user":
            self.episode.submit(last.args["text"])
        elif last.name == "report_infeasible":
            self.episode.submit(None)
            info["infeasible"] = last.args["reason"]
        info["ok"] = True
        return "", info

    def _exclusive(self) -> contextlib.AbstractContextManager[Any]:
        """No request touches the database while the env grades or reads people."""
        return self.server.exclusive()

    def _stray(self, message: str) -> Step:
        """The answer to a step outside an episode: an error, no reward, nothing changed."""
        info = {"step": self.episode.steps, "action": "", "ok": False, "error_code": "no_episode"}
        return self._observe("", message), 0.0, *self.episode.ended, info

    # ------------------------------------------------------------ what the agent sees

    @property
    def app_url(self) -> str:
        """Where the env serves the clones (``http://127.0.0.1:<port>``)."""
        return self.server.url

    @property
    def login_url(self) -> str:
        """The URL that signs in as the current task's persona and opens its app; it carries
        the episode's key, without which the env's server refuses a browser."""
        if self.task is None:
            return f"{self.server.url}/login?{self.server.login_query}"
        app = self.task.app if self.task.app in self.task.apps else self.task.apps[0]
        return f"{self.server.url}/login/{self.task.persona}?next=/{app}/&{self.server.login_query}"

    @property
    def cdp_url(self) -> str | None:
        """The DevTools endpoint of the env's Chromium (``cdp=True``; shared by the process's
        envs that asked for one), else None."""
        return self.manager.cdp_url

    @property
    def page(self) -> Page | None:
        """The env's Playwright page, for inspection through ``env.manager.call(fn, page)``
        (Playwright objects live in the browser thread); agents act through `step`."""
        return self._tab.page

    def _observe(self, last_action: str, error: str) -> dict[str, Any]:
        """The observation of the page as it is now (its text cut to `max_page_chars`)."""
        view, problem, url = self.manager.call(self._tab.read)
        self._view = view
        text = view.text
        if len(text) > self.max_page_chars:
            cut = len(text) - self.max_page_chars
            text = text[: self.max_page_chars] + PAGE_NOTE.format(n=cut)
        if problem:
            error = f"{error}\n{problem}".strip()
        http = self._tab.http
        if http is not None and http[0] >= 400:
            error = f"{error}\n{_http_error(*http)}".strip()
        obs: dict[str, Any] = {
            "goal": self._goal,
            "persona": self._persona,
            "url": clip(url, URL_CHARS),
            "axtree": text,
            "last_action": last_action,
            "error": clip(error, ERROR_CHARS),
        }
        if self.screenshot:
            obs["screenshot"] = self.manager.call(self._tab.screenshot)
        self._last = (last_action, obs["error"])
        return obs

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the task, the last action and its outcome as text; ``rgb_array``: the
        viewport."""
        if self.render_mode == "rgb_array":
            return self.manager.call(self._tab.screenshot)
        if self.render_mode != "ansi":
            return None
        if self.task is None:
            return "(no episode; call reset())"
        lines = [*self._render_head(), f"url: {self._tab.url}"]
        action, error = self._last
        if action:
            lines.append(f"action: {clip(action, 500)}")
        if error:
            lines.append(f"error: {clip(error, 1_000)}")
        if (g := self.last_grade) is not None:
            lines.append(f"graded: reward {g.reward:.3f}, passed {g.passed}")
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        """Close the env's context, server and world; the shared browser stays (idempotent)."""
        if getattr(self, "_tab", None) is not None:
            self.manager.call(self._tab.close)
        if getattr(self, "server", None) is not None:
            self.server.close()
        if getattr(self, "worlds", None) is not None:
            self.worlds.close()


def _http_error(status: int, reason: str, url: str) -> str:
    """``the page answered HTTP 403 Forbidden (/crm/cases/1/edit)``."""
    with contextlib.suppress(ValueError):
        reason = HTTPStatus(status).phrase
    where = urlsplit(url)
    path = where.path + (f"?{where.query}" if where.query else "")
    return f"the page answered HTTP {status} {reason} ({path})"


def default_action_timeout() -> int:
    """An action's time limit when the env is not given one: ``$OFFICEGYM_ACTION_TIMEOUT_MS``
    (for a whole process, e.g. on a loaded machine), else 3,000 ms."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_ACTION_TIMEOUT_MS
    if not text.isdigit():
        raise ValueError(f"{TIMEOUT_VARIABLE}={text!r}: a whole number of milliseconds, 100-60000")
    return int(text)


def _check_settings(
    render_mode: str | None, viewport: tuple[int, int], max_page_chars: int, timeout_ms: int
) -> None:
    """Fail at construction, with the allowed values, on settings the env cannot honour."""
    if render_mode not in (None, *BrowserEnv.metadata["render_modes"]):
        raise ValueError(f"render_mode {render_mode!r}: use None, 'ansi' or 'rgb_array'")
    if len(viewport) != 2 or not all(isinstance(v, int) and 200 <= v <= 4000 for v in viewport):
        raise ValueError(f"viewport must be (width, height) in pixels, 200-4000, not {viewport!r}")
    if not isinstance(max_page_chars, int) or max_page_chars < 1_000:
        raise ValueError(f"max_page_chars must be an int >= 1000, not {max_page_chars!r}")
    if not isinstance(timeout_ms, int) or not 100 <= timeout_ms <= 60_000:
        raise ValueError(f"action_timeout_ms must be an int in 100-60000, not {timeout_ms!r}")
