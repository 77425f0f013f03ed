"""A plain wheel install imports every sub-package and installs no top-level
`gym`, `apps` or `tasks` package (only `officegym` and the verifiers taskset plugin
`officegym_verifiers`, which verifiers imports by its id)."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"officegym": "officegym", "apps": "officegym.apps", "gym": "officegym.gym",
           "seed_data": "officegym.seed_data", "tasks": "officegym.tasks",
           "mcp_wrappers": "officegym.mcp_wrappers",
           "officegym_verifiers": "officegym_verifiers"}  # fmt: skip


def source_packages() -> set[str]:
    """Every import package the source tree defines (folders with __init__.py)."""
    out = set()
    for folder, dotted in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            out.add(".".join((dotted, *rel)))
    return out


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A virtualenv with officegym installed from its wheel (not editable): (venv, its
    python). Its dependencies come from the interpreter running the tests."""
    tmp = tmp_path_factory.mktemp("wheel")
    # Built from a copy: setuptools builds in the source's build/, and another worker (or
    # the verifiers package's test) building the same tree at once removes files under it.
    source = tmp / "source"
    skip = shutil.ignore_patterns(".venv*", ".git", "build", "*.egg-info", "__pycache__", ".*cache")
    shutil.copytree(ROOT, source, ignore=skip)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp), str(source)],
        check=True,
    )
    wheel = next(tmp.glob("officegym-*.whl"))
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"officegym", "officegym_verifiers"}
    assert any(
        n.endswith("apps/slack/templates/slack/channel.html")
        for n in zipfile.ZipFile(wheel).namelist()
    )

    env = tmp / "venv"
    venv.create(env, with_pip=True)
    py = env / "bin" / "python"
    # The dependencies come from the interpreter running the tests (its own venv on
    # CI), appended after the new venv's site-packages so the wheel's copy wins.
    target = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(target, "test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    return env, py


def test_wheel_installs_and_imports_every_subpackage(
    wheel_venv: tuple[Path, Path], tmp_path: Path
) -> None:
    env, py = wheel_venv
    packages = sorted(source_packages())
    code = (
        "import importlib, officegym, sys\n"
        f"names = {packages!r}\n"
        "mods = [importlib.import_module(n) for n in names]\n"
        "print('\\n'.join(m.__file__ for m in mods))\n"
    )
    out = subprocess.run([py, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    files = out.stdout.split()
    assert len(files) == len(packages)
    outside = [f for f in files if not f.startswith(str(env))]
    assert not outside, outside  # every module must come from the wheel, not the source tree


MAKE = (
    "import gymnasium, officegym\n"
    "env = gymnasium.make('officegym/slack-v0')\n"
    "obs, info = env.reset(seed=0)\n"
    "print(type(env.unwrapped).__module__, bool(obs))\n"
)


@pytest.mark.parametrize("install", ["wheel", "editable"])
def test_gymnasium_make_works_from_the_checkout_root(
    install: str, request: pytest.FixtureRequest
) -> None:
    """Run from the repository folder, the source folder `officegym/` comes first on the
    path; its sub-packages must still resolve (to the sibling folders pyproject maps)."""
    wheel = install == "wheel"
    py = request.getfixturevalue("wheel_venv")[1] if wheel else Path(sys.executable)
    out = subprocess.run([py, "-c", MAKE], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["officegym.gym.tools_env", "True"]
