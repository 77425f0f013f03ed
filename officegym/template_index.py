"""Which task templates exist and which module declares each, read from the template
sources without importing them.

A template is declared once, by its decorator ``@template("<app>.<slug>", ...)`` (or
``@judgment("<app>.<slug>")``, `officegym.tasks.judgment`'s form of it) in a module
under ``officegym/tasks/<folder>/``. Registering env ids needs only those ids,
so this module finds them with a regular expression over the source text (a few
milliseconds) instead of importing 100 modules, the spreadsheet engine and the world
builder (over a second). `officegym.tasks.load_templates` imports the modules when a
template is actually needed; a test checks that this index and the imported registry
agree, so an id declared in any other way fails the suite rather than going missing.

Standard library only: ``import officegym`` and ``import officegym.errors`` load this.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

from officegym.plugins import external_modules

__all__ = ["TASKS_PACKAGE", "template_ids", "template_modules"]

TASKS_PACKAGE = "officegym.tasks"

# The decorators with the id as the first, literal argument (the only forms templates use).
_DECLARATION = re.compile(
    r"""^@(?:template|judgment)\(\s*["']([a-z0-9]+\.[a-z0-9-]+)["']""", re.MULTILINE
)


def _package_dirs() -> list[Path]:
    """The folders of ``officegym.tasks``, found without executing its ``__init__``."""
    spec = importlib.util.find_spec(TASKS_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def template_modules() -> list[str]:
    """Every module that may declare templates: ``officegym.tasks.<folder>.<module>``
    (a folder is a sub-package of ``officegym.tasks`` holding an ``__init__.py``) and the
    modules of authors' packages registered as plugins (`officegym.plugins`), sorted."""
    names: set[str] = {module for module, _ in external_modules()}
    for root in _package_dirs():
        for init in root.glob("*/__init__.py"):
            package = f"{TASKS_PACKAGE}.{init.parent.name}"
            names.add(package)
            names.update(
                f"{package}.{f.stem}" for f in init.parent.glob("*.py") if f.stem != "__init__"
            )
    return sorted(names)


@functools.cache
def template_ids() -> dict[str, str]:
    """Every declared template id with the module declaring it, sorted by id. A file that
    cannot be read is skipped here; importing it later reports why."""
    found: dict[str, str] = {}
    for root in _package_dirs():
        for path in sorted(root.glob("*/*.py")):
            module = f"{TASKS_PACKAGE}.{path.parent.name}" + (
                "" if path.stem == "__init__" else f".{path.stem}"
            )
            for template_id in _declared(path):
                found.setdefault(template_id, module)
    for module, path in external_modules():  # the shipped templates win a clash of ids
        for template_id in _declared(path):  # (registering both then raises, naming it)
            found.setdefault(template_id, module)
    return dict(sorted(found.items()))


def _declared(path: Path) -> list[str]:
    """The template ids declared in one file; none if it cannot be read."""
    try:
        return _DECLARATION.findall(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return []
