"""officegym.gym: Gymnasium environments over the office clones (tools mode here,
browser mode in `browser_env`), their registration, spaces, reference agents and
episode recording.

The only part of officegym that imports Gymnasium; Playwright is imported only when
a browser-mode env is made.
"""

from officegym.gym.agents import AGENTS, OracleAgent, RandomAgent
from officegym.gym.recording import RecordEpisodes
from officegym.gym.registration import env_id, register_envs
from officegym.gym.rollout import EpisodeResult, make_env, run_episode, summarize
from officegym.gym.spaces import ToolCallSpace, UnicodeText
from officegym.gym.tools_env import OfficeEnv

__all__ = [
    "AGENTS",
    "EpisodeResult",
    "OfficeEnv",
    "OracleAgent",
    "RandomAgent",
    "RecordEpisodes",
    "ToolCallSpace",
    "UnicodeText",
    "env_id",
    "make_env",
    "register_envs",
    "run_episode",
    "summarize",
]
