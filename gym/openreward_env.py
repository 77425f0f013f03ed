"""officegym in the Open Reward Standard (the `openreward` package, extra ``openreward``):
tools, tasks, splits and rewards over HTTP/SSE, served by the package's own `Server`.

`openreward_environment(env)` builds an `openreward.environments.Environment` class for
one app env (``slack``, ``crm``, ``sheets``, ``booking``, ``cross``: the templates of
`officegym/<env>-v0`):

- splits are officegym's ``train`` and ``test``; `list_tasks(split)` lists, per template,
  its first `per_template` instances of the split (``{"template", "seed", "split"}``),
  in a fixed order (`officegym.tasks.splits.split_seeds`);
- a session is one episode: `setup` resets a tools-mode env on the task, `get_prompt` is
  the persona and the goal;
- every tool of the env's apps is a tool of the environment, taking the registry's own
  argument model (so its input schema is the one the Gym and MCP show), each call one
  env step whose output is the result's JSON text or ``Error: ...``;
- ``submit`` is the terminal tool: the harness routes the model's last plain message to
  it as ``answer``, and its output carries the grade as ``reward`` with ``finished``.

Serve with ``openreward.environments.Server([openreward_environment("crm")]).run(port=…)``
or `create_openreward_app`, and reach it with the package's client
(``OpenReward().environments.get(name, base_url=URL)``).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import gymnasium
from openreward.environments import Environment, Server, TextBlock, ToolOutput, terminal, tool
from pydantic import BaseModel, Field

from officegym.gym import chat
from officegym.gym.spaces import SUBMIT
from officegym.tools import tools_for

__all__ = ["SubmitArgs", "create_openreward_app", "openreward_environment"]


class SubmitArgs(BaseModel):
    """What ends the episode: the answer, when the task asks a question."""

    answer: str = Field(default="", description="Your answer, if the task asks a question.")


class _OfficeEnvironment(Environment):
    """One officegym episode per session (subclasses name the env and add the tools)."""

    env_name = "slack"
    per_template = 20
    max_steps: int | None = None  # None: each task's own step limit

    def __init__(self, task_spec: dict[str, Any] | None = None, secrets: Any = None) -> None:
        super().__init__(task_spec or {}, secrets or {})
        self._env: gymnasium.Env | None = None
        self._obs: dict[str, Any] = {}

    @classmethod
    def list_splits(cls) -> list[str]:
        return ["train", "test"]

    @classmethod
    def list_tasks(cls, split: str) -> list[dict[str, Any]]:
        from officegym.gym.episodes import select_templates
        from officegym.tasks.splits import split_seeds

        return [
            {"template": t, "seed": seed, "split": split}
            for t in select_templates(cls.env_name, None)
            for seed in itertools.islice(split_seeds(t, split), cls.per_template)  # type: ignore[arg-type]
        ]

    def setup(self) -> None:
        self._env = gymnasium.make(f"officegym/{self.env_name}-v0", max_steps=self.max_steps)
        spec = self.task_spec
        options = {"task": spec["template"], "task_seed": int(spec["seed"])}
        self._obs, _ = self._env.reset(options={**options, "split": spec.get("split", "train")})

    def teardown(self) -> None:
        if self._env is not None:
            self._env.close()

    def get_prompt(self) -> list[TextBlock]:
        if self._env is None:
            self.setup()
        return [TextBlock(text=chat.opening_message(self._obs)["content"])]

    def _step(self, name: str, arguments: dict[str, Any]) -> ToolOutput:
        """One env step; the grade comes back only on the step that ends the episode."""
        assert self._env is not None, "setup() runs before any tool"
        obs, reward, terminated, truncated, _ = self._env.step(
            {"tool": name, "arguments": arguments}
        )
        if terminated or truncated:
            done = "Submitted." if terminated else "The step limit is reached."
            return ToolOutput(blocks=[TextBlock(text=done)], reward=float(reward), finished=True)
        return ToolOutput(blocks=[TextBlock(text=chat.tool_result_text(obs))])

    @terminal
    @tool
    async def submit(self, args: SubmitArgs) -> ToolOutput:
        """Finish the task; the answer is read when the task asks a question."""
        return self._step(SUBMIT, {"answer": args.answer} if args.answer else {})


def _tool(name: str, model: type[BaseModel], description: str) -> Any:
    """A tool method of the environment: `model`'s fields, validated, as the call's arguments."""

    async def call(self: _OfficeEnvironment, args: BaseModel) -> ToolOutput:
        return self._step(name, args.model_dump(exclude_unset=True))

    call.__name__ = call.__qualname__ = name
    call.__doc__ = description
    call.__annotations__ = {"args": model, "return": ToolOutput}
    return tool(call)


@functools.cache
def openreward_environment(env: str = "slack", *, per_template: int = 20) -> type[Environment]:
    """The Open Reward environment class of app env `env` (named ``officegym-<env>``)."""
    from officegym.gym.episodes import select_templates
    from officegym.tasks import load_templates

    templates = load_templates()
    apps = sorted({a for t in select_templates(env, None) for a in templates[t].apps})
    methods = {t.name: _tool(t.name, t.args_model, t.description) for t in tools_for(apps)}
    attrs: dict[str, Any] = {"env_name": env, "per_template": per_template, **methods}
    cls = type(f"officegym-{env}", (_OfficeEnvironment,), attrs)
    return cls


def create_openreward_app(envs: tuple[str, ...] = ("slack",), *, per_template: int = 20) -> Any:
    """The Open Reward server's ASGI app for app envs `envs`, each reached by its name
    (``officegym-<env>``; a client naming no environment gets the first)."""
    from officegym.gym.openreward_routing import RouteByName

    classes = [openreward_environment(e, per_template=per_template) for e in envs]
    return RouteByName(Server(classes).app, [c.name() for c in classes])
