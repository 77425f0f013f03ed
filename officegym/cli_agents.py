"""How the `officegym` commands that play episodes (run, rollout, export-sft) take an
agent: its name and, for ``openai``, the model server to ask."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from officegym.gym.agents import Agent

__all__ = ["agent_choice", "agent_options", "agent_settings", "build_agent"]

F = TypeVar("F", bound=Callable[..., Any])


def agent_choice(
    help: str = "The agent that plays: oracle, random or openai.",
    choices: tuple[str, ...] = ("oracle", "random", "openai"),
) -> Callable[[F], F]:
    """The ``--agent`` option (passed as ``agent_name``) of a command that plays episodes."""
    return click.option(
        "--agent",
        "agent_name",
        type=click.Choice(choices),
        default="oracle",
        show_default=True,
        help=help,
    )


def agent_options(fn: F) -> F:
    """The ``--model``, ``--base-url`` and ``--max-turns`` options of the LLM agent."""
    fn = click.option(
        "--max-turns",
        default=30,
        show_default=True,
        type=click.IntRange(min=1),
        help="openai agent: how many times to ask the model per episode.",
    )(fn)
    fn = click.option(
        "--base-url",
        default=None,
        help="openai agent: an OpenAI-compatible server, e.g. http://127.0.0.1:8001/v1 "
        "(vLLM, SGLang); the key is $OPENAI_API_KEY.",
    )(fn)
    return click.option("--model", default=None, help="openai agent: the model name.")(fn)


def agent_settings(
    name: str, model: str | None, base_url: str | None, max_turns: int
) -> dict[str, Any]:
    """The keyword options of agent `name` (none but for ``openai``, which needs a model)."""
    if name != "openai":
        return {}
    if not model:
        raise click.BadParameter("the openai agent needs --model NAME", param_hint="--model")
    return {"model": model, "base_url": base_url, "max_turns": max_turns}


def build_agent(
    name: str, seed: int, model: str | None, base_url: str | None, max_turns: int
) -> Agent:
    """The agent the options describe, or a click error naming the option at fault."""
    from officegym.gym.agents import make_agent

    options = agent_settings(name, model, base_url, max_turns)
    try:
        return make_agent(name, seed=seed, **options)
    except ImportError as exc:
        raise click.ClickException(str(exc)) from None
