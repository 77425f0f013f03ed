"""Read steps of the browser reference solutions open the page that shows what the tool
reads: a CRM search opens its list narrowed by every filter the call gives (the count line
reads the tool's total, an opportunity list's total amount the sum of every match), a
pipeline report for one owner opens that owner's board, and a DM read opens the
conversation from the chat's sidebar."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.slack import service as chat
from officegym.gym.browser.actions import parse_action
from officegym.gym.browser.solutions import _initial_world, browser_steps
from officegym.gym.browser_env import BrowserEnv
from officegym.tasks import Task, load_templates, make_task
from officegym.tools import ToolCall, ToolContext, call_tool, load_tools
from officegym.web import create_app
from officegym.world import World

COUNT = re.compile(r'data-og-id="list-[a-z]+-count">(\d+) ')
TOTAL = re.compile(r'data-og-id="list-opportunities-total">[^<]*: (\$[\d,]+)</p>')


def _search_calls() -> list[tuple[Task, ToolCall]]:
    """Every CRM search the templates' reference solutions make, over six seeds."""
    out = []
    for template_id in sorted(load_templates()):
        for seed in range(6):
            task = make_task(template_id, seed)
            out += [(task, c) for c in task.solution if c.name.startswith("crm_search_")]
    return out


SEARCHES = _search_calls()


def _signed_in(world: World, handle: str) -> FlaskClient:
    client = create_app(world, config={"TESTING": True, "SECRET_KEY": "t"}).test_client()
    assert client.get(f"/login/{handle}").status_code == 302
    return client


def _opened(task: Task, call: ToolCall) -> str:
    """The path the call's browser steps open (a read is one goto)."""
    with Session(_initial_world(task.scenario, task.world_seed)) as world:
        [step] = [parse_action(a) for a in browser_steps(call, world, task.persona)]
    assert step.name == "goto"
    return step.args["url"]


def _tool(world: World, handle: str, call: ToolCall, **more: object) -> dict:
    load_tools()
    with world.session() as s:
        ctx = ToolContext(s, org.find_person(s, handle).id)
        return call_tool(ctx, call.name, {**call.arguments, **more})


def test_the_searches_cover_the_filters_the_audit_found_dropped() -> None:
    given = {arg for _, call in SEARCHES for arg in call.arguments}
    assert {"query", "account", "open_only", "owner", "close_before"} <= given


@pytest.mark.parametrize(
    ("task", "call"), SEARCHES, ids=[f"{t.id}-{t.seed}-{c.name}" for t, c in SEARCHES]
)
def test_a_search_step_opens_the_list_narrowed_as_the_search_is(
    module_world: World, task: Task, call: ToolCall
) -> None:
    assert task.world_seed == 0 and task.scenario == "default"
    page = _signed_in(module_world, task.persona).get(_opened(task, call))
    html = page.get_data(as_text=True)
    assert page.status_code == 200, html[:500]
    found = _tool(module_world, task.persona, call, limit=100, offset=0)
    assert int(COUNT.search(html).group(1)) == found["total"]  # type: ignore[union-attr]
    if call.name == "crm_search_opportunities":
        assert found["total"] <= 100
        amount = sum(r["amount"] or 0 for r in found["results"])
        assert TOTAL.search(html).group(1) == f"${amount:,}"  # type: ignore[union-attr]


def test_a_pipeline_report_for_one_owner_opens_that_owners_board(
    module_world: World,
) -> None:
    task = make_task("crm.pipeline-amount", 0)
    [call] = task.solution
    path = _opened(task, call)
    assert path == f"/crm/pipeline?owner={call.arguments['owner']}"
    html = _signed_in(module_world, task.persona).get(path).get_data(as_text=True)
    report = _tool(module_world, task.persona, call)
    for row in report["rows"][:5]:  # the open stages: one board column each
        heading = f'{row["stage"]} <span class="muted">({row["count"]} · ${row["amount"]:,})'
        assert heading in html


@pytest.mark.browser
def test_dm_reads_open_the_conversation_from_the_sidebar(browser_env: BrowserEnv) -> None:
    browser_env.reset(options={"task": "slack.post-channel", "task_seed": 0})
    task = browser_env.task
    assert task is not None
    with browser_env.world.session() as s:
        me = org.find_person(s, task.persona)
        dm = next(c for c in chat.list_conversations_of(s, me) if chat.history(s, me, c, limit=1))
        people = [p.handle for p in chat.members(s, me, dm) if p.id != me.id]
        names = [p.name for p in chat.members(s, me, dm) if p.id != me.id]
        latest = chat.history(s, me, dm, limit=1)[0].text
    with Session(_initial_world(task.scenario, task.world_seed)) as world:
        listed = browser_steps(ToolCall("slack_list_dms", {}), world, task.persona)
        read = browser_steps(ToolCall("slack_read_dm", {"people": people}), world, task.persona)
    for action in listed:
        obs, *_ = browser_env.step(action)
    assert all(name in obs["axtree"] for name in names)
    for action in read:
        obs, *_ = browser_env.step(action)
        assert obs["error"] == "", (action, obs["error"])
    assert latest.splitlines()[0] in obs["axtree"]
