"""BrowserEnv against real Chromium: the Gymnasium contract, what an observation shows,
what each action does, how episodes end and are graded, isolation between episodes and
recovery from a crashed page or browser."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
import warnings
from collections.abc import Callable
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import Case
from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person
from officegym.gym.browser.manager import BrowserManager, cdp_wanted
from officegym.gym.browser_env import BrowserEnv, default_action_timeout
from officegym.gym.registration import env_specs
from officegym.gym.tools_env import OfficeEnv
from tests.gym.browser.helpers import changes, playwright_drivers

pytestmark = pytest.mark.browser

POST = {"task": "slack.post-channel", "task_seed": 0}
COUNT = {"task": "slack.count-members", "task_seed": 0}


SUITES = sorted(i for i in env_specs() if "." not in i.removeprefix("officegym/"))


def test_the_suites_are_the_apps() -> None:
    assert SUITES == [
        "officegym/booking-v0",
        "officegym/crm-v0",
        "officegym/cross-v0",
        "officegym/sheets-v0",
        "officegym/slack-v0",
    ]


@pytest.mark.parametrize("env_id", SUITES)
def test_check_env_passes_without_warnings(chromium: BrowserManager, env_id: str) -> None:
    """Every suite id, in the session's browser, with screenshots and rgb_array rendering,
    so pixels must be deterministic too."""
    env = gymnasium.make(env_id, mode="browser", screenshot=True, render_mode="rgb_array")
    assert env.unwrapped.manager is chromium  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


def test_every_registered_id_has_a_browser_mode_and_tools_stays_the_default() -> None:
    for env_id in env_specs():
        env = gymnasium.make(env_id, mode="browser")
        assert isinstance(env.unwrapped, BrowserEnv)
        env.close()
    tools = gymnasium.make("officegym/slack-v0")
    assert isinstance(tools.unwrapped, OfficeEnv)
    tools.close()
    with pytest.raises(ValueError, match="unknown mode"):
        gymnasium.make("officegym/slack-v0", mode="telepathy")


def test_reset_signs_in_as_the_persona_and_shows_the_app_with_element_ids(
    browser_env: BrowserEnv,
) -> None:
    obs, info = browser_env.reset(options=POST)
    task = browser_env.task
    assert task is not None and obs["goal"] == task.goal
    assert obs["url"] == f"{info['app_url']}/slack/c/general"
    assert obs["persona"].startswith(f"@{task.persona} (")
    assert f"(@{task.persona})" in obs["axtree"]
    for line in ('[composer-text] textbox "Message #general"', '[composer-send] button "Send"',
                 '[sidebar-people] link "People"'):  # fmt: skip
        assert line in obs["axtree"]
    assert obs["error"] == "" and obs["last_action"] == ""
    login = f"{info['app_url']}/login/{task.persona}?next=/slack/&og_key="
    assert info["login_url"].startswith(login) and len(info["login_url"]) > len(login) + 20
    assert info["cdp_url"] is None  # CDP is opt-in
    assert obs in browser_env.observation_space


def step(env: BrowserEnv, action: str) -> dict:
    obs, reward, terminated, truncated, _ = env.step(action)
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert obs["error"] == "", obs["error"]
    assert obs["last_action"] == action
    return obs


def test_click_fill_press_select_and_history(browser_env: BrowserEnv) -> None:
    _, info = browser_env.reset(options=POST)
    base = info["app_url"]
    assert step(browser_env, "click('sidebar-people')")["url"] == f"{base}/slack/people"
    obs = step(browser_env, "fill('people-query', 'an')")
    assert '[people-query] searchbox "Name, title or handle", value="an"' in obs["axtree"]
    obs = step(browser_env, "select_option('people-team', 'Engineering')")
    assert '[people-team] combobox "Team", value="Engineering"' in obs["axtree"]
    obs = step(browser_env, "press('people-query', 'Enter')")
    assert obs["url"] == f"{base}/slack/people?q=an&team=engineering"
    assert step(browser_env, "go_back()")["url"] == f"{base}/slack/people"
    assert step(browser_env, "go_forward()")["url"].endswith("q=an&team=engineering")


def test_check_uncheck_and_goto(browser_env: BrowserEnv) -> None:
    _, info = browser_env.reset(options=POST)
    obs = step(browser_env, "goto('/slack/new')")
    assert obs["url"] == f"{info['app_url']}/slack/new"
    assert "[create-channel-private] checkbox" in obs["axtree"]
    assert "checked=true" in step(browser_env, "check('create-channel-private')")["axtree"]
    assert "checked=false" in step(browser_env, "uncheck('create-channel-private')")["axtree"]
    assert step(browser_env, f"goto('{info['app_url']}/slack/browse')")["url"].endswith("/browse")
    for action in ("hover('sidebar-people')", "focus('browse-query')", "scroll(0, 300)",
                   "noop(0)", "clear('browse-query')", "dblclick('browse-query')"):  # fmt: skip
        step(browser_env, action)


def test_several_actions_in_one_step_are_done_in_order(browser_env: BrowserEnv) -> None:
    browser_env.reset(options=POST)
    action = "fill('composer-text', 'two at once')\nclick('composer-send')  # post it"
    obs, reward, terminated, _, info = browser_env.step(action)
    assert obs["error"] == "" and (reward, terminated) == (0.0, False)
    assert info["actions"] == ["fill", "click"] and info["action"] == "click"
    assert "two at once" in obs["axtree"]
    assert [c.table for c in changes(browser_env)].count("slack_message") == 1
    obs, *_, info = browser_env.step("click('sidebar-people')\nfill('people-query', 'an')")
    assert obs["error"] == "" and obs["url"].endswith("/slack/people")
    assert 'value="an"' in obs["axtree"]


def test_the_first_failing_action_stops_the_rest(browser_env: BrowserEnv) -> None:
    browser_env.reset(options=POST)
    obs, reward, terminated, _, info = browser_env.step(
        "click('sidebar-people')\nclick('no-such-element')\nsend_msg_to_user('Done.')"
    )
    assert obs["error"].startswith("action 2 of 2 failed; the 1 before it were done: ")
    assert "no element with id 'no-such-element'" in obs["error"]
    assert (reward, terminated, info["error_code"]) == (0.0, False, "action_failed")
    assert obs["url"].endswith("/slack/people")  # the first one was done


def test_an_ending_action_after_others_ends_the_episode(browser_env: BrowserEnv) -> None:
    browser_env.reset(options=POST)
    post = browser_env.task.solution[-1].arguments  # type: ignore[union-attr]
    _, reward, terminated, _, info = browser_env.step(
        f"goto('/slack/c/{post['channel']}')\nfill('composer-text', {post['text']!r})\n"
        "click('composer-send')\nsend_msg_to_user('Done.')"
    )
    assert (reward, terminated, info["grade"]["passed"]) == (1.0, True, True)


def test_noop_waits_a_second_by_default_as_in_browsergym(browser_env: BrowserEnv) -> None:
    browser_env.reset(options=POST)
    began = time.perf_counter()
    step(browser_env, "noop()")
    waited = time.perf_counter() - began
    began = time.perf_counter()
    step(browser_env, "noop(0)")
    assert waited >= 1.0 > time.perf_counter() - began


@pytest.mark.parametrize(
    ("action", "needle", "code"),
    [
        ("click('no-such-element')", "no element with id 'no-such-element'", "action_failed"),
        ("goto('https://example.com/')", "goto only opens pages of this site", "action_failed"),
        ("goto('//example.com/x')", "goto only opens pages of this site", "action_failed"),
        ("fill('sidebar-people', 'x')", "Locator.fill", "action_failed"),
        ("click(", "not a valid action call", "invalid_action"),
        ("__import__('os').system('id')", "a call such as", "invalid_action"),
    ],
)
def test_bad_or_failing_actions_are_errors_that_change_nothing(
    browser_env: BrowserEnv, action: str, needle: str, code: str
) -> None:
    obs, _ = browser_env.reset(options=POST)
    url = obs["url"]
    obs, reward, terminated, truncated, info = browser_env.step(action)
    assert needle in obs["error"] and info["error_code"] == code
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert obs["url"] == url and "[composer-send]" in obs["axtree"]
    assert changes(browser_env) == []


def test_the_agent_cannot_sign_in_as_someone_else(browser_env: BrowserEnv) -> None:
    browser_env.reset(options=POST)
    persona = browser_env.task.persona  # type: ignore[union-attr]
    with browser_env.world.session() as s:
        other = s.scalars(select(Person.handle).where(Person.handle != persona)).first()
    obs, *_ = browser_env.step(f"goto('/login/{other}?next=/slack/')")
    assert f"this server acts only as @{persona}" in obs["axtree"]
    assert obs["error"] == f"the page answered HTTP 403 Forbidden (/login/{other}?next=/slack/)"
    assert f"(@{persona})" in step(browser_env, "goto('/slack/')")["axtree"]
    api = step(browser_env, f"goto('/api/auth.test?token=xoxp-{other}')")["axtree"]
    assert "persona_locked" in api


def test_send_msg_to_user_ends_the_episode_and_grades_the_answer(
    browser_env: BrowserEnv,
) -> None:
    browser_env.reset(options=COUNT)
    answer = browser_env.task.answer  # type: ignore[union-attr]
    obs, reward, terminated, truncated, info = browser_env.step(f"send_msg_to_user('{answer}')")
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["grade"]["passed"] is True
    obs, reward, terminated, _, info = browser_env.step("noop()")
    assert "episode has ended" in obs["error"] and info["error_code"] == "no_episode"
    browser_env.reset(options=COUNT)
    _, reward, terminated, _, info = browser_env.step("send_msg_to_user('a thousand')")
    assert (reward, terminated, info["grade"]["passed"]) == (0.0, True, False)


def test_report_infeasible_ends_the_episode_and_grades_the_state(
    browser_env: BrowserEnv,
) -> None:
    browser_env.reset(options=POST)
    _, reward, terminated, truncated, info = browser_env.step("report_infeasible('no idea')")
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["infeasible"] == "no idea" and info["grade"]["passed"] is False


def test_max_steps_truncates_and_grades(chromium: BrowserManager) -> None:
    env = BrowserEnv(task="slack.post-channel", max_steps=2)
    env.reset(seed=1)
    assert env.step("noop(0)")[3] is False
    _, reward, terminated, truncated, info = env.step("click('sidebar-people')")
    assert (terminated, truncated, reward) == (False, True, 0.0) and "grade" in info
    env.close()


def test_step_before_reset_is_an_error(chromium: BrowserManager) -> None:
    env = BrowserEnv(task="slack.post-channel")
    obs, reward, terminated, truncated, info = env.step("noop()")
    assert "call reset()" in obs["error"] and info["error_code"] == "no_episode"
    assert (reward, terminated, truncated) == (0.0, False, False)
    env.close()


def test_reset_restores_the_database_and_clears_history(browser_env: BrowserEnv) -> None:
    obs, _ = browser_env.reset(options=POST)
    start = obs["url"]
    step(browser_env, "fill('composer-text', 'a message from a previous episode')")
    obs = step(browser_env, "click('composer-send')")
    assert "a message from a previous episode" in obs["axtree"]
    assert [c.table for c in changes(browser_env)].count("slack_message") == 1
    step(browser_env, "click('sidebar-people')")
    obs, _ = browser_env.reset(options=POST)
    assert "a message from a previous episode" not in obs["axtree"]
    assert changes(browser_env) == []
    assert step(browser_env, "go_back()")["url"] == start  # nothing to go back to


def test_screenshots_and_rendering(chromium: BrowserManager) -> None:
    env = BrowserEnv(task="slack.post-channel", screenshot=True, viewport=(800, 600),
                     render_mode="rgb_array")  # fmt: skip
    obs, _ = env.reset(seed=0)
    shot = obs["screenshot"]
    assert shot.shape == (600, 800, 3) and shot.dtype == np.uint8 and shot.std() > 10
    assert obs in env.observation_space
    assert env.render().shape == (600, 800, 3)  # type: ignore[union-attr]
    env.close()
    text = BrowserEnv(task="slack.post-channel", render_mode="ansi")
    text.reset(seed=0)
    text.step("click('no-such-element')")
    shown = text.render()
    assert isinstance(shown, str) and "no element with id" in shown and "goal:" in shown
    text.close()


def browser_pids(manager: BrowserManager, kind: str) -> list[int]:
    """Process ids of the browser's processes of one kind (browser, renderer, ...)."""

    def ask() -> list[int]:
        session = manager.browser().new_browser_cdp_session()
        info = session.send("SystemInfo.getProcessInfo")["processInfo"]
        return [p["id"] for p in info if p["type"] == kind]

    return manager.call(ask)


def listens_for_cdp(manager: BrowserManager) -> bool:
    """Whether the manager's Chromium was started with a DevTools port."""
    [pid] = browser_pids(manager, "browser")
    return b"--remote-debugging-port=" in Path(f"/proc/{pid}/cmdline").read_bytes()


def test_cdp_is_opt_in_per_env(
    browser_env: BrowserEnv, cdp_env: BrowserEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OFFICEGYM_CDP", raising=False)
    _, info = browser_env.reset(options=POST)
    assert info["cdp_url"] is None and browser_env.cdp_url is None
    assert not listens_for_cdp(browser_env.manager)
    made = gymnasium.make("officegym/slack-v0", mode="browser", cdp=True)
    assert made.unwrapped.manager is cdp_env.manager is not browser_env.manager
    made.close()
    _, info = cdp_env.reset(options=POST)
    assert info["cdp_url"].startswith("http://127.0.0.1:") and listens_for_cdp(cdp_env.manager)
    with urllib.request.urlopen(f"{info['cdp_url']}/json/version", timeout=10) as answer:
        assert "webSocketDebuggerUrl" in json.load(answer)


@pytest.mark.parametrize(
    ("switch", "asked", "wanted"),
    [("", False, False), ("", True, True), ("on", False, True), ("off", True, False),
     (" ON ", False, True), ("0", True, False)],
)  # fmt: skip
def test_officegym_cdp_overrides_what_envs_ask_for(
    monkeypatch: pytest.MonkeyPatch, switch: str, asked: bool, wanted: bool
) -> None:
    monkeypatch.setenv("OFFICEGYM_CDP", switch)
    assert cdp_wanted(asked) is wanted
    monkeypatch.setenv("OFFICEGYM_CDP", "maybe")
    with pytest.raises(ValueError, match="OFFICEGYM_CDP"):
        cdp_wanted(asked)


def test_officegym_action_timeout_ms_sets_the_default_of_every_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OFFICEGYM_ACTION_TIMEOUT_MS")
    assert default_action_timeout() == 3_000
    monkeypatch.setenv("OFFICEGYM_ACTION_TIMEOUT_MS", " 250 ")
    assert default_action_timeout() == 250
    for bad in ("3s", "-1", "1.5"):
        monkeypatch.setenv("OFFICEGYM_ACTION_TIMEOUT_MS", bad)
        with pytest.raises(ValueError, match="OFFICEGYM_ACTION_TIMEOUT_MS"):
            default_action_timeout()
    monkeypatch.setenv("OFFICEGYM_ACTION_TIMEOUT_MS", "50")
    with pytest.raises(ValueError, match="100-60000"):
        BrowserEnv(task="slack.post-channel")  # refused before anything is started


def test_a_crashed_page_is_an_error_then_recovered_by_reset(
    browser_env: BrowserEnv, chromium: BrowserManager
) -> None:
    browser_env.reset(options=POST)
    for pid in browser_pids(chromium, "renderer"):
        os.kill(pid, signal.SIGKILL)
    obs, reward, terminated, _, _ = browser_env.step("click('sidebar-people')")
    assert obs["error"] and obs["axtree"] == "" and (reward, terminated) == (0.0, False)
    obs, _ = browser_env.reset(options=POST)
    assert obs["error"] == "" and "[composer-send]" in obs["axtree"]


def test_a_killed_browser_is_relaunched_by_reset(
    browser_env: BrowserEnv, chromium: BrowserManager
) -> None:
    browser_env.reset(options=POST)
    launches = chromium.launches
    os.kill(browser_pids(chromium, "browser")[0], signal.SIGKILL)
    obs, *_ = browser_env.step("click('sidebar-people')")
    assert obs["error"]
    obs, _ = browser_env.reset(options=POST)
    assert obs["error"] == "" and "[composer-send]" in obs["axtree"]
    assert chromium.launches == launches + 1
    assert step(browser_env, "click('sidebar-people')")["url"].endswith("/slack/people")


def test_a_killed_driver_is_replaced_by_the_next_reset(
    browser_env: BrowserEnv, chromium: BrowserManager
) -> None:
    """After the driver dies the browser still says it is connected; the next reset of
    any env, old or new, starts a new driver and browser."""
    browser_env.reset(options=POST)
    launches, drivers = chromium.launches, playwright_drivers()
    assert drivers
    for pid in drivers:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while set(drivers) & set(playwright_drivers()) and time.monotonic() < deadline:
        time.sleep(0.05)
    obs, *_ = browser_env.step("click('sidebar-people')")
    assert obs["error"]
    newcomer = BrowserEnv(task="slack.post-channel")
    obs, _ = newcomer.reset(seed=0)
    assert obs["error"] == "" and "[composer-send]" in obs["axtree"]
    newcomer.close()
    obs, _ = browser_env.reset(options=POST)
    assert obs["error"] == "" and "[composer-send]" in obs["axtree"]
    assert chromium.launches == launches + 1
    assert step(browser_env, "click('sidebar-people')")["url"].endswith("/slack/people")


def test_a_fresh_context_per_reset_also_works(chromium: BrowserManager) -> None:
    env = BrowserEnv(task="slack.post-channel", fresh_context=True)
    env.reset(seed=0)
    first = env._tab.context
    obs, _ = env.reset(seed=0)
    assert env._tab.context is not first and "[composer-send]" in obs["axtree"]
    env.close()


HOSTILE = st.sampled_from([
    "__import__('os').system('touch /tmp/og-canary')", "click(open('/etc/passwd').read())",
    "goto('javascript:alert(1)')", "goto('file:///etc/passwd')", "goto('http://127.0.0.2/')",
    "fill('composer-text', 'x' * 10**9)", "press('composer-text', 'Control+w')",
    "select_option('composer-text', ['a'])", "check('sidebar-people')", "scroll(1e9, 0)",
    "noop(10**6)", "click('sidebar-people', modifiers=['Control'])",
])  # fmt: skip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=HOSTILE | st.text(max_size=80))
def test_hostile_actions_through_step_never_raise_or_change_the_world(
    browser_env: BrowserEnv, action: str
) -> None:
    if browser_env.task is None or browser_env.episode.done:
        browser_env.reset(options=POST)
    obs, reward, terminated, _, info = browser_env.step(action)
    assert obs in browser_env.observation_space
    assert (reward, terminated) == (0.0, False) or info.get("action") == "send_msg_to_user"
    assert not Path("/tmp/og-canary").exists()
    assert changes(browser_env) == []


def test_an_http_error_page_is_an_error_in_the_observation(
    env_for: Callable[[str], BrowserEnv],
) -> None:
    env = env_for("crm")
    env.reset(options={"task": "crm.escalate-case", "task_seed": 0})
    persona = env.task.persona  # type: ignore[union-attr]
    with env.world.session() as s:
        me = find_person(s, persona)
        case = next(c for c in s.scalars(select(Case)) if not crm.can_edit(s, me, c.owner_id))
    obs, reward, terminated, _, info = env.step(f"goto('/crm/cases/{case.id}/edit')")
    assert "Error 403" in obs["axtree"] and (reward, terminated) == (0.0, False)
    assert obs["error"] == f"the page answered HTTP 403 Forbidden (/crm/cases/{case.id}/edit)"
    assert info["ok"]  # the action itself worked; the page says no
    obs, *_ = env.step("goto('/crm/nowhere?x=1')")
    assert obs["error"] == "the page answered HTTP 404 Not Found (/crm/nowhere?x=1)"
    assert step(env, "goto('/crm/cases')")["error"] == ""
    obs, *_ = env.step("go_back()\nclick('no-such-element')")
    assert obs["error"].startswith("action 2 of 2 failed")
    assert obs["error"].endswith("the page answered HTTP 404 Not Found (/crm/nowhere?x=1)")


def test_crm_pages_spell_their_plurals(env_for: Callable[[str], BrowserEnv]) -> None:
    env = env_for("crm")
    obs, _ = env.reset(options={"task": "crm.escalate-case", "task_seed": 0})
    assert '[crm-nav-opportunities] link "Opportunities"' in obs["axtree"]
    for kind in ("accounts", "contacts", "leads", "opportunities", "cases"):
        text = step(env, f"goto('/crm/{kind}')")["axtree"]
        plural = kind.capitalize()
        assert text.startswith(f'RootWebArea "{plural} · officegym"')
        assert f'heading "{plural}", level=1' in text and f" {kind} · page 1 of " in text
