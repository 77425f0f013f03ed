"""A task as an outside agent needs it, without Python: `officegym task show`.

The card says who to act as, what to do, and every door to a served world
(`officegym serve`): the sign-in URL for a browser, the Slack API with the persona's
token, the MCP endpoints, and the tools with their JSON schemas. When the agent is
done, `officegym grade --task ID --seed N` (the card's ``grade_command``) grades the
served world's final state, so an agent written in any language is graded as a Gym
episode is.
"""

from __future__ import annotations

from typing import Any

from officegym.apps.org import service as org
from officegym.tasks import make_task
from officegym.tasks.base import get_template
from officegym.tasks.splits import split_of
from officegym.tools import tools_for
from officegym.world import World, world_image

__all__ = ["task_card"]


def task_card(
    task_id: str,
    seed: int,
    *,
    scenario: str = "default",
    world_seed: int = 0,
    base_url: str = "http://127.0.0.1:8000",
    db: str = "officegym.sqlite",
) -> dict[str, Any]:
    """Everything an outside agent needs for task (`task_id`, `seed`) on a world served at
    `base_url`; `NotFound` for an unknown template."""
    get_template(task_id)
    task = make_task(task_id, seed, scenario, world_seed)
    base = base_url.rstrip("/")
    app = task.app if task.app in task.apps else task.apps[0]
    grade = f"officegym grade --task {task.id} --seed {task.seed} --db {db}"
    return {
        "task": task.id,
        "seed": task.seed,
        "split": split_of(task),
        "difficulty": task.difficulty,
        "world": {"scenario": scenario, "seed": world_seed},
        "goal": task.goal,
        "persona": _persona(scenario, world_seed, task.persona),
        "answer_expected": task.answer is not None,
        "step_limit": task.step_limit,
        "apps": list(task.apps),
        "urls": {
            "login": f"{base}/login/{task.persona}?next=/{app}/",
            "slack_api": f"{base}/api/",
            "slack_api_token": f"xoxp-{task.persona}",
            "mcp": f"{base}/mcp",
            "mcp_apps": {a: f"{base}/mcp/{a}" for a in task.apps},
        },
        "tools": [t.spec() for t in tools_for(task.apps)],
        "grade_command": grade + (' --answer "<your answer>"' if task.answer is not None else ""),
    }


def _persona(scenario: str, world_seed: int, handle: str) -> dict[str, Any]:
    """The persona's directory card: handle, name, title, team, manager's handle."""
    world = World(world_image(scenario, world_seed))
    try:
        with world.session() as s:
            card = org.profile(s, org.find_person(s, handle).id)
    finally:
        world.close()
    fields = ("handle", "name", "title", "team", "manager", "timezone")
    return {f: getattr(card, f) for f in fields}
