"""officegym.gym: Gymnasium environments over the office clones (tools mode here,
browser mode in `browser_env`), their registration, spaces, agents (reference ones and
`ChatAgent` for OpenAI-compatible models) and episode recording. Scale-out and the
training stacks build on the same env: `worker` and `distributed` (Ray rollouts),
`openenv_server` (OpenEnv), `sft` (chat-format data); verifiers' taskset is the
top-level package `officegym_verifiers`.

The only part of officegym that imports Gymnasium; Playwright is imported only when
a browser-mode env is made.
"""

from officegym.gym.agents import AGENTS, OracleAgent, RandomAgent, make_agent
from officegym.gym.llm import ChatAgent
from officegym.gym.recording import RecordEpisodes
from officegym.gym.registration import env_id, register_envs
from officegym.gym.rollout import EpisodeResult, make_env, run_episode, summarize
from officegym.gym.spaces import ToolCallSpace, UnicodeText
from officegym.gym.tools_env import OfficeEnv

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
