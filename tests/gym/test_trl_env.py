"""TRL's environment_factory: the class GRPOTrainer instantiates, tested through the code
TRL uses without torch — transformers' `get_json_schema` on every tool method and a
tools-aware chat template — and driven as TRL's tool loop drives it (`reset(**row)`,
``getattr(env, name)(**arguments)``, `get_reward()`)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from officegym.gym.tools_env import tool_specs
from officegym.gym.trl_env import OfficeToolEnv, environment_factory, trl_dataset
from officegym.tasks import load_templates, make_task

CASES = ["slack.pin-message", "crm.close-case", "booking.cancel-flight", "sheets.share-workbook"]


def _tools(env: OfficeToolEnv) -> dict[str, Any]:
    """The methods TRL exposes as tools: public functions of the class but reset/get_reward."""
    return {
        name: getattr(env, name)
        for name, _ in inspect.getmembers(type(env), predicate=inspect.isfunction)
        if not name.startswith("_") and name not in ("reset", "get_reward")
    }


@pytest.mark.parametrize("env_name", ["slack", "crm", "sheets", "booking", "cross"])
def test_every_tool_method_reads_back_as_the_registrys_schema(env_name: str) -> None:
    from transformers.utils import get_json_schema

    env = environment_factory(env_name)()
    specs = {s["name"]: s for s in tool_specs(_apps(env_name))}
    methods = _tools(env)
    assert set(methods) == set(specs)  # one method per tool, submit included
    for name, method in methods.items():
        schema, spec = get_json_schema(method)["function"], specs[name]
        params = spec["parameters"]
        assert schema["name"] == name
        assert set(schema["parameters"]["properties"]) == set(params.get("properties", {}))
        assert set(schema["parameters"].get("required", [])) == set(params.get("required", []))
        for arg, prop in params.get("properties", {}).items():
            enum = prop.get("enum")
            if enum is not None:
                assert schema["parameters"]["properties"][arg]["enum"] == enum
    env._close()


def _apps(env_name: str) -> tuple[str, ...]:
    templates = load_templates()
    return tuple(sorted({a for t in templates.values() if t.app == env_name for a in t.apps}))


@pytest.mark.parametrize("template", CASES)
def test_reference_episodes_earn_1_and_the_grade_never_reaches_the_model(template: str) -> None:
    (row,) = trl_dataset([template], per_template=1)
    env = environment_factory(row["environment"])()
    task = make_task(template, row["seed"])
    opening = env.reset(**row)
    prompt = row["prompt"][-1]["content"] + opening  # as TRL extends the row's prompt
    assert f"with the tools you have.\n\nYou are @{task.persona} (" in prompt
    assert task.goal in opening
    tools = _tools(env)
    said = [tools[c.name](**dict(c.arguments)) for c in task.solution]
    answer = {} if task.answer is None else {"answer": task.answer}
    said.append(tools["submit"](**answer))
    assert not any(s.startswith("Error") for s in said), said
    assert said[-1] == "Submitted." and not any("reward" in s for s in said)
    assert env.get_reward() == 1.0
    assert tools["slack_list_channels"]().startswith("Error: the task is finished")
    env._close()


def test_a_policy_that_does_nothing_earns_0_even_without_submitting() -> None:
    (row,) = trl_dataset(["crm.close-case"], per_template=1)
    env = environment_factory("crm")()
    env.reset(**row)
    assert _tools(env)["crm_close_case"](case="nope", resolution="x").startswith("Error:")
    assert env.get_reward() == 0.0  # graded as it stands: nothing was done
    env.reset(**row)  # the same instance again starts afresh
    assert env.get_reward() == 0.0
    env._close()


def test_the_tools_render_in_a_chat_template_as_trl_renders_them() -> None:
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast

    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    )
    template = "{% for t in tools %}{{ t.function.name }}|{% endfor %}"
    env = environment_factory("slack")()
    text = tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}], tools=list(_tools(env).values()),
        chat_template=template, tokenize=False,
    )  # fmt: skip
    assert set(text.strip("|").split("|")) == set(_tools(env))
    env._close()


def test_the_dataset_lists_split_seeds_of_each_template() -> None:
    from officegym.tasks.splits import split_of

    rows = trl_dataset(["slack.pin-message", "crm.close-case"], split="test", per_template=3)
    assert len(rows) == 6 and len({(r["template"], r["seed"]) for r in rows}) == 6
    assert all(split_of(make_task(r["template"], r["seed"])) == "test" for r in rows)
    assert {r["environment"] for r in rows} == {"slack", "crm"}
