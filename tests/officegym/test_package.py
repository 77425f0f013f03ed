"""The package's public surface is exactly its __all__ (and officegym.gym's too)."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import types

import pytest

import officegym
import officegym.gym


def public_names(module: types.ModuleType) -> set[str]:
    """Non-underscore attributes that are not sub-modules."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }


@pytest.mark.parametrize("module", [officegym, officegym.gym])
def test_all_lists_exactly_the_public_names(module: types.ModuleType) -> None:
    assert all(hasattr(module, name) for name in module.__all__)  # resolves lazy names too
    declared = set(module.__all__) - {"__version__"}
    assert declared == public_names(module)


def test_version_matches_the_installed_distribution() -> None:
    assert officegym.__version__ == importlib.metadata.version("officegym")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )


HEAVY = "('gymnasium', 'sqlalchemy', 'officegym.tasks', 'officegym.apps', 'officegym.world')"


@pytest.mark.parametrize("module", ["officegym", "officegym.errors", "officegym.cli"])
def test_importing_the_package_loads_neither_gymnasium_nor_any_template(module: str) -> None:
    out = _python(
        f"import sys, {module}\nprint(sorted(m for m in sys.modules if m.startswith({HEAVY})))"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_ids_are_registered_when_gymnasium_is_imported_after_officegym() -> None:
    out = _python(
        "import sys, officegym\nimport gymnasium\n"
        "assert 'officegym/slack.invite-team-v0' in gymnasium.registry\n"
        "assert not any(m.startswith('officegym.tasks.') for m in sys.modules)\n"
        "env = gymnasium.make('officegym/slack.invite-team-v0')\n"
        "print(env.reset(seed=0)[0]['goal'][:12])"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Make sure")


BROKEN = """
import pathlib, sys, tempfile, warnings
root = pathlib.Path(tempfile.mkdtemp())
(root / "broken").mkdir()
(root / "broken" / "__init__.py").write_text("")
(root / "broken" / "bad.py").write_text('@template("broken.never-loads")\\ndef f(:\\n')
import officegym.tasks as tasks
tasks.__path__.append(str(root))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    templates = tasks.load_templates()
print(len(templates), "broken.never-loads" in templates)
print([str(w.message) for w in caught if w.category is tasks.BrokenTemplateWarning])
"""


def test_a_broken_template_module_is_reported_and_left_out() -> None:
    out = _python(BROKEN)
    assert out.returncode == 0, out.stderr
    count, messages = out.stdout.splitlines()
    assert int(count.split()[0]) >= 100 and count.split()[1] == "False"
    assert "officegym.tasks.broken.bad" in messages and "SyntaxError" in messages


@pytest.mark.parametrize(
    "first", ["import officegym.gym.registration", "from officegym.gym import env_id"]
)
def test_importing_the_registration_first_registers_the_ids(first: str) -> None:
    """The registration module imports Gymnasium itself, under the import hook."""
    out = _python(f"{first}\nimport gymnasium\nprint('officegym/slack-v0' in gymnasium.registry)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"
