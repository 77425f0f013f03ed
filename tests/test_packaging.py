"""A plain wheel install imports every sub-package and installs no top-level
`gym`, `apps` or `tasks` package (only `officegym` and the verifiers taskset plugin
`officegym_verifiers`, which verifiers imports by its id)."""

from __future__ import annotations

import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

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


def test_wheel_installs_and_imports_every_subpackage(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    wheel = next(tmp_path.glob("officegym-*.whl"))
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"officegym", "officegym_verifiers"}
    assert any(
        n.endswith("apps/slack/templates/slack/channel.html")
        for n in zipfile.ZipFile(wheel).namelist()
    )

    env = tmp_path / "venv"
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
