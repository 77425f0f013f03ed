"""Every officegym id is registered, passes Gymnasium's env checker, and can be made
after `import officegym` or, with no import, through the ``officegym:`` prefix."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import officegym
from officegym.gym.registration import env_id, env_specs, register_envs
from officegym.tasks import load_templates

ALL_IDS = sorted(env_specs())


def test_every_template_and_every_app_with_templates_has_an_id() -> None:
    templates = load_templates()
    expected = {env_id(t) for t in templates} | {env_id(t.app) for t in templates.values()}
    assert set(ALL_IDS) == expected
    assert "officegym/slack-v0" in ALL_IDS
    assert all(i in gymnasium.registry for i in ALL_IDS)


def test_registering_again_changes_nothing_and_does_not_warn() -> None:
    specs = {i: gymnasium.registry[i] for i in ALL_IDS}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sorted(register_envs()) == ALL_IDS
        assert sorted(officegym.register_envs()) == ALL_IDS
    assert all(gymnasium.registry[i] is specs[i] for i in ALL_IDS)


@pytest.mark.parametrize("name", ALL_IDS)
def test_check_env_passes_without_warnings(name: str) -> None:
    env = gymnasium.make(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


def test_vector_envs_batch_text_observations_as_tuples() -> None:
    envs = gymnasium.make_vec("officegym/slack-v0", num_envs=2, vectorization_mode="sync")
    obs, _ = envs.reset(seed=0)
    assert isinstance(obs["goal"], tuple) and len(obs["goal"]) == 2
    _, reward, terminated, _, _ = envs.step([{"tool": "submit"}, "not json"])
    assert list(terminated) == [True, False] and list(reward) == [0.0, 0.0]
    envs.close()


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )


EPISODE = """
obs, info = env.reset(seed=0)
obs, reward, terminated, truncated, info = env.step({"tool": "submit"})
assert terminated and "grade" in info, info
print("OK", env.spec.id)
"""


def test_make_after_import_officegym_in_a_fresh_interpreter() -> None:
    code = "import gymnasium, officegym\nenv = gymnasium.make('officegym/slack-v0')" + EPISODE
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert "OK officegym/slack-v0" in out.stdout


def test_make_with_module_prefix_and_no_import_in_a_fresh_interpreter() -> None:
    code = (
        "import sys, gymnasium\nassert 'officegym' not in sys.modules\n"
        "env = gymnasium.make('officegym:officegym/slack-v0')" + EPISODE
    )
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert "OK officegym/slack-v0" in out.stdout


def test_without_import_the_ids_are_unknown_in_a_fresh_interpreter() -> None:
    out = _run("import gymnasium\ngymnasium.make('officegym/slack-v0')")
    assert out.returncode != 0 and "officegym" in out.stderr


def test_the_index_read_from_the_sources_matches_the_imported_templates() -> None:
    from officegym.template_index import template_ids

    declared = {tid: tpl.build.__module__ for tid, tpl in load_templates().items()}
    assert template_ids() == dict(sorted(declared.items()))
