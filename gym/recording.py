"""Recording trajectories: each episode as one JSON line (actions, observations,
rewards, the task and its grade), for people who want to study or train on them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import gymnasium

__all__ = ["RecordEpisodes", "recorder_of"]


class RecordEpisodes(gymnasium.Wrapper):
    """Append every episode of the wrapped env to `path` as a JSON line.

    A line holds ``env_id``, ``task``, the reset ``observation``, ``steps`` (action,
    observation, reward, terminated, truncated, info without the tool list),
    ``reward`` (the sum), ``grade``, ``complete`` (false when the episode was cut
    short by a reset or close before it ended) and ``ended``, why it ended: ``submit``,
    ``truncated`` (the step limit), ``interrupted`` (cut short) or, set by the agent's
    extras, ``agent_failure`` (its model's server failed; ``cause`` says how), which is
    no policy's reward and is left out of training exports.

    Give `sink` instead of `path` to receive each episode as a dict (rollout workers
    send them to a driver that writes them). `extras`, when set, is called as an episode
    is written and its fields join the line: `run_episode` sets it to keep an LLM agent's
    own conversation (``conversation``: its messages as the model produced them).
    """

    def __init__(
        self,
        env: gymnasium.Env,
        path: str | Path | None = None,
        *,
        sink: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        if (path is None) == (sink is None):
            raise ValueError("give exactly one of path and sink")
        super().__init__(env)
        self.path = Path(path) if path is not None else None
        self.sink = sink
        self._file: TextIO | None = None
        self._episode: dict[str, Any] | None = None
        self.extras: Callable[[], dict[str, Any]] | None = None

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Write any unfinished episode, then start recording a new one."""
        self._flush(complete=False)
        obs, info = self.env.reset(**kwargs)
        self._episode = {
            "env_id": self.spec.id if self.spec is not None else None,
            "task": info.get("task"),
            "observation": dict(obs),
            "steps": [],
            "reward": 0.0,
            "grade": None,
        }
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step and record; write the episode when it ends."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        if self._episode is not None:
            self._episode["steps"].append(
                {
                    "action": _jsonable(action),
                    "observation": dict(obs),
                    "reward": float(reward),
                    "terminated": bool(terminated),
                    "truncated": bool(truncated),
                    "info": {k: v for k, v in info.items() if k != "grade"},
                }
            )
            self._episode["reward"] += float(reward)
            if terminated or truncated:
                self._episode["grade"] = info.get("grade")
                self._flush(complete=True)
        return obs, reward, terminated, truncated, info

    def _flush(self, *, complete: bool) -> None:
        """Write the current episode, if any, as one line."""
        if self._episode is None:
            return
        last = self._episode["steps"][-1] if self._episode["steps"] else {}
        ended = "truncated" if last.get("truncated") and not last.get("terminated") else "submit"
        line = {
            **self._episode,
            "complete": complete,
            "ended": ended if complete else "interrupted",
        }
        if self.extras is not None:
            line.update(self.extras())
        self._episode = None
        if self.sink is not None:
            self.sink(line)
            return
        assert self.path is not None
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(json.dumps(line, ensure_ascii=False, default=repr) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Write any unfinished episode and close the file."""
        self._flush(complete=False)
        if self._file is not None:
            self._file.close()
            self._file = None
        super().close()


def recorder_of(env: gymnasium.Env) -> RecordEpisodes | None:
    """The `RecordEpisodes` wrapper in `env`'s chain of wrappers, if there is one."""
    while isinstance(env, gymnasium.Wrapper):
        if isinstance(env, RecordEpisodes):
            return env
        env = env.env
    return None


def _jsonable(action: Any) -> Any:
    """The action as given if it is text, a copy if it is JSON data, else its repr."""
    if isinstance(action, str):
        return action
    try:
        return json.loads(json.dumps(action, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        return repr(action)
