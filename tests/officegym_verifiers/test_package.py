"""The verifiers environment package `officegym-verifiers` (environments/officegym_verifiers):
it builds as a distribution with its README and metadata that installs officegym with the
verifiers extra, and its id, bare or as a Hub id, loads the taskset and env it names."""

from __future__ import annotations

import email
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "environments" / "officegym_verifiers"


def test_the_environment_package_builds_with_its_readme_and_metadata(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
         str(PACKAGE)],
        check=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("officegym_verifiers-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        meta = email.message_from_bytes(archive.read(metadata))
        # Metadata only: the code is officegym's `officegym_verifiers`, installed with it.
        assert all(".dist-info/" in n for n in archive.namelist())
    assert meta["Name"] == "officegym-verifiers"
    assert meta.get_all("Requires-Dist") == ["officegym[verifiers]>=0.1"]
    readme = (PACKAGE / "README.md").read_text()
    assert meta.get_payload().strip() == readme.strip()
    assert "vf-eval officegym-verifiers" in readme


def test_the_id_and_a_hub_id_load_the_taskset_and_env() -> None:
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    import officegym_verifiers

    for ident in ("officegym-verifiers", "someone/officegym-verifiers@0.1.0"):
        assert taskset_class(ident) is officegym_verifiers.OfficeTaskset
        assert environment_class(ident) is officegym_verifiers.OfficeEnv
