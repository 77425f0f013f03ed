"""Registering officegym's environments with Gymnasium 1.x (which no longer reads
entry points): ``officegym/<app>-v0`` for every app that has task templates and
``officegym/<template-id>-v0`` for every template. Ids come from
`officegym.template_index` (the templates' declarations, read without importing them)
and each id is registered with an entry-point string, so registering imports nothing
but Gymnasium; a template's module is imported when its env is made. ``import
officegym`` calls `register_envs()` as soon as Gymnasium is imported (see
`officegym/__init__.py`), and ``gymnasium.make("officegym:officegym/slack-v0")`` works
with no import at all.

Every id makes its env through `make_office_env`, which picks the mode:
``gymnasium.make(id)`` is tools mode, ``gymnasium.make(id, mode="browser")`` browser mode.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium
from gymnasium.envs.registration import WrapperSpec, register, registry

from officegym.template_index import template_ids

__all__ = [
    "ENTRY_POINT",
    "MODES",
    "NAMESPACE",
    "env_id",
    "env_specs",
    "make_office_env",
    "register_envs",
]

NAMESPACE = "officegym"
ENTRY_POINT = "officegym.gym.registration:make_office_env"
# Outermost on every id: a Gymnasium step limit (``max_episode_steps=``) truncates
# outside the env, and this wrapper grades that step (`officegym.gym.episode`).
GRADE_ON_TRUNCATION = WrapperSpec(
    "GradeOnTruncation", "officegym.gym.episode:GradeOnTruncation", kwargs={}
)
MODES = ("tools", "browser")


def env_id(name: str) -> str:
    """The Gymnasium id of an app (``slack``) or a template (``slack.post-channel``)."""
    return f"{NAMESPACE}/{name}-v0"


def env_specs() -> dict[str, dict[str, Any]]:
    """Every officegym env id with the constructor kwargs it stands for: the templates of
    the index and any registered at run time (by an author's own module, or a test),
    which exist only once the task registry is imported."""
    loaded = sys.modules.get("officegym.tasks.base")
    templates = sorted({*template_ids(), *(loaded.TEMPLATES if loaded is not None else ())})
    apps = sorted({tid.split(".", 1)[0] for tid in templates})
    specs: dict[str, dict[str, Any]] = {env_id(app): {"app": app} for app in apps}
    specs.update({env_id(tid): {"task": tid} for tid in templates})
    return specs


def register_envs() -> list[str]:
    """Register every env id not yet registered (idempotent); returns all officegym ids."""
    specs = env_specs()
    for id_, kwargs in specs.items():
        if id_ not in registry:
            register(
                id=id_,
                entry_point=ENTRY_POINT,
                kwargs=kwargs,
                additional_wrappers=(GRADE_ON_TRUNCATION,),
            )
    return list(specs)


def make_office_env(*, mode: str = "tools", **kwargs: Any) -> gymnasium.Env:
    """The env of `mode`: ``tools`` (the default, `OfficeEnv`) or ``browser`` (`BrowserEnv`)."""
    if mode == "browser":
        try:
            from officegym.gym.browser_env import BrowserEnv  # Playwright is imported only here
        except ModuleNotFoundError as exc:
            if exc.name not in ("playwright", "PIL"):
                raise
            raise ImportError(
                "browser mode needs Playwright: pip install 'officegym[browser]'"
            ) from exc

        return BrowserEnv(**kwargs)
    if mode != "tools":
        raise ValueError(f"unknown mode {mode!r}; use one of {', '.join(map(repr, MODES))}")
    from officegym.gym.tools_env import OfficeEnv

    return OfficeEnv(mode=mode, **kwargs)


register_envs()  # importing this module (Gymnasium's import hook or anyone) registers the ids
