"""SFT export of an LLM agent's episodes: the model's own conversation (its text, its
parallel calls in one message), refused calls dropped, and output that OpenAI's
fine-tuning format and a Hugging Face chat template (what TRL's SFT trainer applies) take."""

from __future__ import annotations

import json
from typing import Any

import gymnasium
import pytest

from officegym.gym.llm import ChatAgent
from officegym.gym.recording import RecordEpisodes
from officegym.gym.rollout import run_episode
from officegym.gym.sft import conversation
from tests.gym.openai_stub import ScriptedModel

ENV = "officegym/crm.close-case-v0"  # a reference of two writes


def _llm_record(model: ScriptedModel, behaviour: str, seed: int) -> tuple[dict, ChatAgent]:
    lines: list[dict[str, Any]] = []
    env = RecordEpisodes(gymnasium.make(ENV), sink=lines.append)
    env.reset(seed=seed)
    model.learn(env.unwrapped.task)
    agent = ChatAgent(behaviour, base_url=model.base_url, timeout=10.0)
    result = run_episode(env, agent, seed=seed)
    env.close()
    assert result.passed, lines
    return lines[-1], agent


def test_parallel_calls_and_the_assistants_text_are_kept_as_the_model_gave_them(
    scripted_model: ScriptedModel,
) -> None:
    record, agent = _llm_record(scripted_model, "parallel", seed=21)
    messages = conversation(record)["messages"]
    assert messages == agent.messages  # the model's conversation, not a rebuilt one
    first = messages[1]
    assert (
        first["content"] == "On it."
        and len(first["tool_calls"])
        == len([s for s in record["steps"] if s["action"]["tool"] != "submit"])
        > 1
    )


def test_an_llm_episodes_refused_calls_are_dropped(scripted_model: ScriptedModel) -> None:
    record, agent = _llm_record(scripted_model, "malformed", seed=22)
    assert any(s["observation"].get("error") for s in record["steps"])
    dropped = conversation(record)["messages"]
    names = [c["function"]["name"] for m in dropped for c in m.get("tool_calls") or ()]
    assert "nope" not in names and "slack_post_message" not in names
    assert not any(m["content"].startswith("Error") for m in dropped if m["role"] == "tool")
    assert len(dropped) == len(agent.messages) - 3  # the bad reply and its two errors
    assert conversation(record, failed="keep")["messages"] == agent.messages


def _openai_problems(example: dict[str, Any]) -> list[str]:
    """What OpenAI's chat fine-tuning format (with tools) would refuse in one example."""
    problems = [f"unknown key {k}" for k in example if k not in ("messages", "tools")]
    open_calls: set[str] = set()
    for i, m in enumerate(example["messages"]):
        role = m.get("role")
        if role not in ("system", "user", "assistant", "tool"):
            problems.append(f"{i}: role {role!r}")
        if "weight" in m and (role != "assistant" or m["weight"] not in (0, 1)):
            problems.append(f"{i}: weight on {role}")
        for call in m.get("tool_calls") or ():
            fn = call.get("function", {})
            if call.get("type") != "function" or not isinstance(fn.get("arguments"), str):
                problems.append(f"{i}: call {call}")
            elif m.get("weight") != 0 and not isinstance(json.loads(fn["arguments"]), dict):
                problems.append(f"{i}: arguments not an object")  # kept only untrained
            open_calls.add(call["id"])
        if role == "tool" and m.get("tool_call_id") not in open_calls:
            problems.append(f"{i}: tool message answers no call")
        if role == "assistant" and not (m.get("content") or m.get("tool_calls")):
            problems.append(f"{i}: empty assistant message")
    names = {t["function"]["name"] for t in example["tools"]}
    used = {c["function"]["name"] for m in example["messages"] if m.get("weight") != 0
            for c in m.get("tool_calls") or ()}  # fmt: skip
    return problems + [f"calls unknown tool {n}" for n in used - names]


TOOL_TEMPLATE = (
    "{% for t in tools %}TOOL {{ t.function.name }}\n{% endfor %}"
    "{% for m in messages %}<{{ m.role }}>{{ m.content or '' }}"
    "{% for c in m.tool_calls or [] %}CALL {{ c.function.name }} "
    "{{ c.function.arguments | tojson }}{% endfor %}\n{% endfor %}"
)


def _render(example: dict[str, Any]) -> str:
    """`example` through a tools-aware chat template, as TRL's SFT trainer applies one."""
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast

    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    )
    return tokenizer.apply_chat_template(
        example["messages"], tools=example["tools"], chat_template=TOOL_TEMPLATE, tokenize=False
    )


@pytest.mark.parametrize("behaviour", ["parallel", "malformed"])
def test_exports_fit_openais_format_and_render_in_a_chat_template(
    scripted_model: ScriptedModel, behaviour: str
) -> None:
    record, _ = _llm_record(scripted_model, behaviour, seed=23)
    for failed in ("drop", "weight0"):
        assert _openai_problems(conversation(record, failed=failed)) == []  # type: ignore[arg-type]
    trl = conversation(record, style="trl")
    text = _render(trl)
    first_call = trl["messages"][1]["tool_calls"][0]["function"]
    assert isinstance(first_call["arguments"], dict)
    assert f"CALL {first_call['name']} {json.dumps(first_call['arguments'])}" in text
    assert text.count("CALL ") == sum(len(m.get("tool_calls") or ()) for m in trl["messages"])
