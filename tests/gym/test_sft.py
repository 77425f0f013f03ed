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
        convo = conversation(record, metadata=True)
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
    assert export_sft([*randoms, *oracle], out, min_reward=1.0, metadata=True) == 2
    assert all(c["metadata"]["agent"] == "oracle" for c in _lines(out))
    export_sft(oracle, out)
    assert all(set(c) == {"messages", "tools"} for c in _lines(out))  # OpenAI's keys only
    assert export_sft([*randoms, *oracle], out, min_reward=0.0) == 8


def _with_refused_calls() -> dict[str, Any]:
    """A recorded reference episode with an unreadable action and an unknown tool first."""
    lines: list[dict[str, Any]] = []
    env = RecordEpisodes(gymnasium.make("officegym/slack.set-status-v0"), sink=lines.append)
    env.reset(seed=1)
    env.step("not json at all")
    env.step({"tool": "slack_nope", "arguments": {}})
    for call in env.unwrapped.task.solution:
        env.step({"tool": call.name, "arguments": dict(call.arguments)})
    env.step({"tool": "submit", "arguments": {}})
    env.close()
    assert lines[0]["reward"] == 1.0
    return lines[0]


def test_refused_calls_are_dropped_weighted_zero_or_kept() -> None:
    record = _with_refused_calls()
    dropped = conversation(record)["messages"]
    assert all("nope" not in json.dumps(m) and "not json" not in json.dumps(m) for m in dropped)
    assert [m["role"] for m in dropped[:3]] == ["user", "assistant", "tool"]
    weighted = conversation(record, failed="weight0")["messages"]
    assert weighted[1] == {"role": "assistant", "content": "not json at all", "weight": 0}
    assert weighted[2]["role"] == "user" and weighted[2]["content"].startswith(
        "Error: action is not"
    )
    assert weighted[3]["weight"] == 0 and weighted[3]["tool_calls"][0]["function"]["name"] == (
        "slack_nope"
    )
    assert sum(1 for m in weighted if m.get("weight") == 0) == 2
    kept = conversation(record, failed="keep")["messages"]
    assert kept[1] == {"role": "assistant", "content": "not json at all"}


def test_tools_used_lists_only_what_the_reference_and_the_episode_call() -> None:
    record = _with_refused_calls()
    everything = conversation(record)["tools"]
    used = conversation(record, tools="used")["tools"]
    names = {t["function"]["name"] for t in used}
    assert names == {"slack_set_status", "submit"} and len(everything) > 10 * len(used)
