"""officegym.gym: Gymnasium environments over the office clones (tools mode here,
browser mode in `browser_env`), their registration, spaces, agents (reference ones and
`ChatAgent` for OpenAI-compatible models) and episode recording. Scale-out and the
training stacks build on the same env: `worker` and `distributed` (Ray rollouts),
`openenv_server` (OpenEnv), `sft` (chat-format data); verifiers' taskset is the
top-level package `officegym_verifiers`.

The only part of officegym that imports Gymnasium; Playwright is imported only when
a browser-mode env is made.
"""

import importlib as _importlib
from typing import Any as _Any

# Public name -> the module defining it. Imported on first use (PEP 562), so importing
# `officegym.gym.registration` (done by ``import officegym``) loads no env, agent or app.
_HOMES = {
    "AGENTS": "agents",
    "OracleAgent": "agents",
    "RandomAgent": "agents",
    "make_agent": "agents",
    "ChatAgent": "llm",
    "RecordEpisodes": "recording",
    "env_id": "registration",
    "register_envs": "registration",
    "EpisodeResult": "rollout",
    "make_env": "rollout",
    "run_episode": "rollout",
    "summarize": "rollout",
    "ToolCallSpace": "spaces",
    "UnicodeText": "spaces",
    "OfficeEnv": "tools_env",
}


def __getattr__(name: str) -> _Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "AGENTS",
    "ChatAgent",
    "EpisodeResult",
    "OfficeEnv",
    "OracleAgent",
    "RandomAgent",
    "RecordEpisodes",
    "ToolCallSpace",
    "UnicodeText",
    "env_id",
    "make_agent",
    "make_env",
    "register_envs",
    "run_episode",
    "summarize",
]
