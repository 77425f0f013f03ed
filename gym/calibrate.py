"""Measuring difficulty: pass rates of an agent per (template, level), played with the
rollout machinery (`officegym.gym.worker`), into a `Calibration` (`officegym.gym.calibration`).

Episode ``i`` of every (template, level) resets with seed ``seed + i``, so two agents are
measured on the same instances. An entry at 0% is checked once more with the oracle on
the same instances: if the reference solution fails too the template is ``impossible``
(broken), else only hard (``zero``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from officegym.gym.agents import NoisyOracleAgent
from officegym.gym.calibration import Calibration, Entry
from officegym.gym.registration import env_id
from officegym.gym.rollout import EpisodeResult
from officegym.gym.worker import EpisodeSpec, RolloutSettings, run_local
from officegym.tasks import load_templates
from officegym.tasks.base import task_level
from officegym.tasks.difficulty import LEVELS

__all__ = ["arms", "calibrate"]


def arms(templates: Sequence[str], levels: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """The (template, level) pairs to measure: every level each template has, or only the
    `levels` asked for (a template without knobs is measured at its own level only if it
    is among them)."""
    registry = load_templates()
    unknown = [t for t in templates if t not in registry]
    if unknown:
        raise ValueError(f"unknown template(s): {', '.join(unknown)}")
    wanted = tuple(levels or LEVELS)
    return [(t, lv) for t in templates for lv in registry[t].levels if lv in wanted]


def calibrate(
    agent: str,
    pairs: Iterable[tuple[str, str]],
    rollouts: int,
    *,
    agent_options: Mapping[str, Any] | None = None,
    seed: int = 0,
    split: str = "train",
    max_steps: int | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    attack: str = "none",
    paired: list[tuple[EpisodeResult, EpisodeResult]] | None = None,
) -> Calibration:
    """`rollouts` episodes of `agent` (``oracle``, ``random``, ``noisy``, ``obey``,
    ``openai``) per (template, level); the label written to the file is `agent` plus its
    ``p``, if any. With `attack` ("mixed" or a goal id) the same episodes are played again
    with instructions planted: each entry gets utility under attack and attack success, and
    `paired` receives every (benign, attacked) pair of episodes."""
    options = dict(agent_options or {})
    settings = RolloutSettings(agent, options, "tools", max_steps)
    entries = []
    for template, level in pairs:
        task_level(load_templates()[template], level)
        records = _play(settings, template, level, rollouts, seed, split, on_result)
        entry = Entry.measure(
            template, level, [float(r["reward"]) for r in records], [r["passed"] for r in records]
        )
        if entry.passed == 0:
            oracle = RolloutSettings("oracle", {}, "tools", max_steps)
            ref = _play(oracle, template, level, rollouts, seed, split, None)
            ok = all(r["passed"] for r in ref)
            entry = entry.model_copy(
                update={"reference_passes": ok, "flag": "zero" if ok else "impossible"}
            )
        if attack != "none":
            hit = RolloutSettings(agent, options, "tools", max_steps, attack=attack)
            attacked = _play(hit, template, level, rollouts, seed, split, on_result)
            entry = _with_attack(entry, records, attacked, paired)
        entries.append(entry)
    label = _label(agent, options)
    return Calibration(
        agent=label, rollouts=rollouts, split=split, seed=seed, entries=entries,  # type: ignore[arg-type]
        attack=None if attack == "none" else attack,
    )  # fmt: skip


def _with_attack(
    entry: Entry,
    benign: list[dict[str, Any]],
    attacked: list[dict[str, Any]],
    paired: list[tuple[EpisodeResult, EpisodeResult]] | None,
) -> Entry:
    """The entry with the attacked episodes' utility and attack success (over those where
    an attack was planted)."""
    planted = [r["attack"] for r in attacked if r.get("attack")]
    n = len(planted)
    if paired is not None:
        paired.extend((_result(b), _result(a)) for b, a in zip(benign, attacked, strict=True))
    return entry.model_copy(
        update={
            "attacked": n,
            "utility_under_attack": round(sum(p["utility"] for p in planted) / n, 6) if n else None,
            "attack_success": round(sum(bool(p["succeeded"]) for p in planted) / n, 6)
            if n
            else None,
        }
    )


def _result(record: dict[str, Any]) -> EpisodeResult:
    task = record.get("task") or {}
    return EpisodeResult(
        task.get("id", "(failed)"), task.get("seed", -1), float(record["reward"]),
        bool(record["passed"]), int(record["n_steps"]), record.get("attack"),
    )  # fmt: skip


def _label(agent: str, options: Mapping[str, Any]) -> str:
    """How the file names the agent: ``noisy:0.2``, ``openai:<model>`` or the name."""
    if agent == "noisy":
        return f"noisy:{options.get('p', NoisyOracleAgent().p)}"
    if agent == "openai":
        return f"openai:{options.get('model')}"
    return agent


def _play(
    settings: RolloutSettings,
    template: str,
    level: str,
    rollouts: int,
    seed: int,
    split: str,
    on_result: Callable[[dict[str, Any]], None] | None,
) -> list[dict[str, Any]]:
    options = {"split": split, "difficulty": level}
    plan = [EpisodeSpec(i, env_id(template), seed + i, options) for i in range(rollouts)]
    return list(run_local(plan, settings, on_result=on_result))
