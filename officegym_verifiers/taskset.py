"""officegym tasks in verifiers 0.4 (``verifiers.v1``): a `Taskset` whose tasks are
(template, task seed) instances of a split, and an `Env` that plays each as an episode
of officegym's own Gymnasium env, with the grade as the reward.

Three action forms (``--env.taskset.actions``):

- ``tools`` (the default): native tool calling stepped in process
  (`officegym_verifiers.gated`). The task's prompt is the episode's opening; the episode
  lives in the eval's process and each call the model proposes is stepped there through
  verifiers' tool gate; the harness lists the tools from one MCP server for the whole eval
  (`officegym_verifiers.listing`) and runs once per episode. Needs a harness that asks the
  gate (``null``, the default).
- ``mcp``: native tool calling through a tool server per rollout
  (`officegym_verifiers.native`): its tools are one `OfficeToolset` MCP server per
  rollout holding that rollout's episode, for any harness that speaks MCP; the rewards
  read the grade from the rollout's state.
- ``text`` (JSON in the model's text, the package's first form): `OfficeEnv.run` resets
  ``gymnasium.make("officegym/<template>-v0")`` on the task's seed in process and opens
  the player's interaction with the persona, the goal, the tools (their JSON schemas) and
  the action form; each reply is one action, JSON text ``{"tool": ..., "arguments":
  {...}}`` (a fenced block is unwrapped), stepped as is, so a malformed reply is the env's
  error observation, sent back as the next user turn; the episode ends on ``submit``, on
  the env's step limit, when the player's run ends or it replies with nothing (then
  ``submit`` is sent for it). The harness runs once per step (each turn relaunches it).

What was checked (verifiers 0.4.0, openenv-core 0.3.0): verifiers' built-in ``openenv``
taskset pointed at officegym's OpenEnv server (`officegym.gym.openenv_server`) does not
run: its env reads ``GenericEnvClient._base_url``, which openenv-core 0.3.0's client no
longer has, so every episode ends in an ``EnvError`` before the model is asked.

Both forms are scored ``officegym`` (the grade) and ``officegym_passed`` (weight 0). The
player runs verifiers' ``null`` harness (a plain chat program) in the ``subprocess``
runtime by default, so an eval needs no sandbox service: ``vf-eval
officegym-verifiers -m MODEL --client.base_url URL``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import Field
from verifiers.v1.harnesses.null import NullHarnessConfig

from officegym.gym import chat
from officegym.tasks import load_templates, make_task
from officegym.tasks.splits import split_seeds
from officegym_verifiers.gated import OfficeGatedTask
from officegym_verifiers.native import OfficeData, OfficeTask, open_episode, opening_prompts

__all__ = [
    "OfficeData",
    "OfficeEnv",
    "OfficeEnvConfig",
    "OfficeGatedTask",
    "OfficeTask",
    "OfficeTaskset",
    "OfficeTasksetConfig",
    "OfficeTextTask",
]

ACTION_FORM = (
    'Reply with exactly one action as JSON: {"tool": "<tool name>", "arguments": {...}}. '
    'When you are done, reply {"tool": "submit", "arguments": {}} (with "answer" if the task '
    "asks a question)."
)


class OfficeTasksetConfig(vf.TasksetConfig):
    """Which instances (templates, all if empty; split; seeds per template), the step
    limit and the action form: native tool calls stepped in process (``tools``) or by a
    tool server per rollout (``mcp``), or JSON text (``text``)."""

    templates: list[str] = Field(default_factory=list)
    split: Literal["train", "test"] = "train"
    per_template: int = Field(5, ge=1)
    scenario: str = "default"
    world_seed: int = 0
    max_steps: int | None = Field(None, ge=1)  # None: each task's own limit
    actions: Literal["tools", "mcp", "text"] = "tools"


class OfficeTextTask(OfficeTask):
    """An instance played with JSON actions in text: `OfficeEnv` steps the episode and
    records the grade itself (no tool server, no task rewards)."""

    @classmethod
    def toolsets(cls, config: vf.TaskConfig) -> list[vf.Toolset]:
        return []

    # Undecorated overrides: the env ends the episode and records the grade itself.
    def episode_over(self, trace: vf.Trace) -> bool:
        raise NotImplementedError

    async def officegym(self, trace: vf.Trace) -> float:
        raise NotImplementedError

    async def officegym_passed(self, trace: vf.Trace) -> float:
        raise NotImplementedError


TASK_KINDS: dict[str, type[OfficeTask]] = {
    "tools": OfficeGatedTask,
    "mcp": OfficeTask,
    "text": OfficeTextTask,
}


class OfficeTaskset(vf.Taskset[OfficeTask, OfficeTasksetConfig]):
    """officegym's task instances of one split, in a fixed order."""

    def load(self) -> Iterator[OfficeTask]:
        config = self.config
        known = load_templates()
        templates = config.templates or sorted(known)
        unknown = [t for t in templates if t not in known]
        if unknown:
            raise ValueError(f"unknown officegym template(s): {unknown}")
        for template in templates:
            seeds = list(
                split_seeds(template, config.split, config.per_template,
                            scenario=config.scenario, world_seed=config.world_seed)
            )  # fmt: skip
            prompts: list[str | None] = [None] * len(seeds)
            if config.actions != "text":
                prompts = opening_prompts(template, seeds, scenario=config.scenario,
                                          world_seed=config.world_seed)  # fmt: skip
            for seed, prompt in zip(seeds, prompts, strict=True):
                task = make_task(template, seed, config.scenario, config.world_seed)
                data = OfficeData(
                    id=f"{template}#{seed}", name=f"{template}#{seed}", description=task.goal,
                    template=template, task_seed=seed, scenario=config.scenario,
                    world_seed=config.world_seed, max_steps=config.max_steps, prompt=prompt,
                )  # fmt: skip
                yield TASK_KINDS[config.actions](data, config.task)

    @classmethod
    def toolsets(cls, config: OfficeTasksetConfig) -> list[vf.Toolset]:
        """The in-process form's one tool listing for the whole eval (imported here:
        verifiers runs that module as the server's main program)."""
        if config.actions != "tools":
            return []
        from officegym_verifiers.listing import OfficeToolList, OfficeToolListConfig

        return [OfficeToolList(OfficeToolListConfig())]


class OfficeEnvConfig(vf.EnvConfig):
    """One seat, the player: verifiers' null harness in a local subprocess by default."""

    player: vf.AgentConfig = vf.AgentConfig(
        harness=NullHarnessConfig(id="null"), runtime=vf.SubprocessConfig()
    )


class OfficeEnv(vf.Env[OfficeEnvConfig]):
    """Plays one officegym task per episode; the grade is the reward."""

    async def run(self, task: OfficeTask, agents: vf.Agents) -> None:
        if not isinstance(task, OfficeTextTask):
            harness = agents.player.harness
            if isinstance(task, OfficeGatedTask) and not harness.SUPPORTS_TOOL_INTERCEPTION:
                raise ValueError(
                    f"harness {harness.config.id!r} does not ask verifiers' tool gate, which "
                    "officegym's in-process steps need: use --env.taskset.actions mcp"
                )
            await agents.player.run(task)  # native tools: the harness plays the episode
            return
        env, obs, info = await asyncio.to_thread(open_episode, task.data)
        try:
            info, trace = await self._play(env, task, agents, _opening(obs, info["tools"]))
            grade = info.get("grade") or {}
            trace.record_reward("officegym", float(grade.get("reward", 0.0)))
            trace.record_reward("officegym_passed", float(bool(grade.get("passed"))), weight=0.0)
        finally:
            env.close()

    async def _play(
        self, env: Any, task: OfficeTask, agents: vf.Agents, opening: str
    ) -> tuple[dict[str, Any], Any]:
        """The exchange: each reply stepped as an action until the episode ends; the last
        step's info and the interaction's trace."""
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn(opening)
            while not segment.terminated:
                reply = _unfence(segment.last_reply)
                if not reply:
                    interaction.trace.stop("empty_action")
                    break
                obs, _, terminated, truncated, info = await asyncio.to_thread(env.step, reply)
                if terminated or truncated:
                    return info, interaction.trace
                segment = await interaction.turn(chat.tool_result_text(obs))
        submit = {"tool": "submit", "arguments": {}}
        *_, info = await asyncio.to_thread(env.step, submit)
        return info, interaction.trace


def _opening(observation: dict[str, Any], tools: list[dict[str, Any]]) -> str:
    """The first user turn: persona, goal, the tools' schemas and the action form."""
    listed = json.dumps(tools, ensure_ascii=False)
    text = chat.opening_message(observation)["content"]
    return f"{text}\n\nTools (JSON schemas):\n{listed}\n\n{ACTION_FORM}"


def _unfence(reply: str) -> str:
    """A reply without surrounding whitespace and a Markdown code fence, if it has one."""
    text = reply.strip()
    if text.startswith("```") and text.endswith("```"):
        text = "\n".join(text.splitlines()[1:-1]).strip()
    return text
