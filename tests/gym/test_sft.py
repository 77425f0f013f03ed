"""SFT export: one OpenAI-format conversation per episode, deterministic, filtered by
reward, never showing the reward, and faithful: replaying its tool calls in the env
earns the reward it was kept for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium
import pytest

from officegym.gym import OfficeEnv
from officegym.gym.recording import RecordEpisodes
from officegym.gym.sft import conversation, export_sft, gold_records
from officegym.gym.worker import RolloutSettings, plan_episodes, run_local

TEMPLATES = ["slack.pin-message", "crm.pipeline-amount", "slack.set-status"]


@pytest.fixture(scope="module")
def gold() -> list[dict[str, Any]]:
    return list(gold_records(TEMPLATES, 3, seed=4))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_gold_export_is_deterministic(gold: list[dict[str, Any]], tmp_path: Path) -> None:
    again = list(gold_records(TEMPLATES, 3, seed=4))
    assert export_sft(gold, tmp_path / "a.jsonl") == 3
    export_sft(list(reversed(again)), tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_conversations_pair_every_call_with_its_result(gold: list[dict[str, Any]]) -> None:
    for record in gold:
        convo = conversation(record)
        messages = convo["messages"]
        assert messages[0]["role"] == "user" and record["task"]["goal"] in messages[0]["content"]
        calls = [m for m in messages if m["role"] == "assistant"]
        results = [m for m in messages if m["role"] == "tool"]
        assert len(calls) == len(record["steps"]) == len(results) + 1
        assert [r["tool_call_id"] for r in results] == [
            c["tool_calls"][0]["id"] for c in calls[:-1]
        ]
        last = calls[-1]["tool_calls"][0]["function"]
        assert last["name"] == "submit"
        answer = json.loads(last["arguments"]).get("answer")
        assert answer == gold_answer(record)
        assert not any("reward" in (m.get("content") or "") for m in messages)
        names = {t["function"]["name"] for t in convo["tools"]}
        assert {c["tool_calls"][0]["function"]["name"] for c in calls} <= names


def gold_answer(record: dict[str, Any]) -> str | None:
    from officegym.tasks import make_task

    return make_task(record["task"]["id"], record["task"]["seed"]).answer


def test_replaying_an_exported_conversation_earns_its_reward(
    gold: list[dict[str, Any]],
) -> None:
    for record in gold:
        convo = conversation(record)
        meta = convo["metadata"]
        env = OfficeEnv(task=meta["task"])
        env.reset(options={"task_seed": meta["task_seed"]})
        for message in convo["messages"]:
            for call in message.get("tool_calls", []):
                fn = call["function"]
                _, reward, *_ = env.step(
                    {"tool": fn["name"], "arguments": json.loads(fn["arguments"])}
                )
        assert reward == meta["reward"] == 1.0
        env.close()


def test_only_rewarded_complete_episodes_are_kept(tmp_path: Path) -> None:
    plan = plan_episodes(6, templates=TEMPLATES[:1], seed=0)
    randoms = list(run_local(plan, RolloutSettings("random", max_steps=3)))
    oracle = list(run_local(plan[:2], RolloutSettings("oracle")))
    out = tmp_path / "sft.jsonl"
    assert export_sft([*randoms, *oracle], out, min_reward=1.0) == 2
    assert all(c["metadata"]["agent"] == "oracle" for c in _lines(out))
    assert export_sft([*randoms, *oracle], out, min_reward=0.0) == 8


def test_an_unreadable_action_is_kept_as_text_with_its_error(tmp_path: Path) -> None:
    lines: list[dict[str, Any]] = []
    env = RecordEpisodes(gymnasium.make("officegym/slack.set-status-v0"), sink=lines.append)
    env.reset(seed=1)
    env.step("not json at all")
    env.step({"tool": "submit", "arguments": {}})
    env.close()
    messages = conversation(lines[0])["messages"]
    assert messages[1] == {"role": "assistant", "content": "not json at all"}
    assert messages[2]["role"] == "user" and messages[2]["content"].startswith(
        "Error: action is not"
    )
