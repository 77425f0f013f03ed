"""The chat's people picker in real Chromium, as a person uses Slack's "To:" field: type
part of a name, send, and the DM with that person opens; a part several people share
is refused on the page, naming them, and opens nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from officegym.apps.org import service as org
from officegym.apps.slack.models import Channel
from officegym.gym.browser_env import BrowserEnv
from tests.gym.browser.helpers import changes

pytestmark = pytest.mark.browser

POST = {"task": "slack.post-channel", "task_seed": 0}


def act(env: BrowserEnv, action: str) -> dict:
    obs, *_ = env.step(action)
    assert obs["error"] == "", obs["error"]
    return obs


def _people(env: BrowserEnv) -> list:
    with env.world.session() as s:
        me = env.task.persona if env.task else ""
        return [p for p in org.list_people(s, limit=1000) if p.handle != me]


def _own_part(people: list, person) -> str:
    """Part of the person's name that no one else's name or handle holds."""
    names = [f"{p.name} {p.handle}".casefold() for p in people]
    for size in range(4, len(person.name) + 1):
        for at in range(len(person.name) - size + 1):
            part = person.name[at : at + size]
            if part.strip() == part and sum(part.casefold() in n for n in names) == 1:
                return part
    raise AssertionError(person.name)


def test_typing_part_of_a_name_opens_the_dm(browser_env: BrowserEnv) -> None:
    browser_env.reset(options=POST)
    people = _people(browser_env)
    other = people[5]
    page = act(browser_env, "goto('/slack/dm/new')")["axtree"]
    assert "[new-dm-people] textbox" in page and "listbox" not in page
    act(browser_env, f"fill('new-dm-people', {_own_part(people, other)!r})")
    opened = act(browser_env, "click('new-dm-submit')")
    assert "/slack/c/" in opened["url"]
    made = [c for c in changes(browser_env) if c.table == Channel.__tablename__]
    assert len(made) == 1 and made[0].row["kind"] == "dm"
    assert other.name in opened["axtree"]


def test_a_shared_part_is_refused_naming_everyone_it_fits(browser_env: BrowserEnv) -> None:
    browser_env.reset(options=POST)
    people = _people(browser_env)
    firsts = Counter(p.name.split()[0] for p in people)
    shared = next(n for n, k in firsts.most_common() if 2 <= k <= 8)  # all named on the page
    act(browser_env, "goto('/slack/dm/new')")
    act(browser_env, f"fill('new-dm-people', {shared!r})")
    shown = act(browser_env, "click('new-dm-submit')")["axtree"]
    assert f"fits {firsts[shared]} people" in shown
    assert all(f"@{p.handle}" in shown for p in people if p.name.split()[0] == shared)
    assert [c for c in changes(browser_env) if c.table == Channel.__tablename__] == []
