"""Task templates and scenarios that live in an author's own package, outside officegym.

A package registers itself with an entry point in its ``pyproject.toml``::

    [project.entry-points."officegym.tasks"]
    acme = "acme_office.tasks"        # a module or package declaring @template(...)s

    [project.entry-points."officegym.scenarios"]
    acme = "acme_office.scenarios"    # a package whose folder holds <name>.toml files

and once it is installed, its templates are listed, validated, registered as env ids
and served exactly like the shipped ones, and its scenarios are found by name. Nothing
of it is imported to list it: the template index reads the files, as it does ours.

Standard library only (`officegym.template_index` imports this on ``import officegym``).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

__all__ = ["SCENARIOS_GROUP", "TASKS_GROUP", "external_modules", "external_scenario_dirs"]

TASKS_GROUP = "officegym.tasks"
SCENARIOS_GROUP = "officegym.scenarios"


def _located(module: str) -> tuple[Path | None, list[Path]]:
    """The file of `module` and, for a package, its folders; nothing if it is not found
    (an entry point naming a missing module is reported when the module is imported)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None, []
    if spec is None:
        return None, []
    folders = [Path(p) for p in spec.submodule_search_locations or ()]
    origin = Path(spec.origin) if spec.origin and spec.origin != "namespace" else None
    return origin, folders


@functools.cache
def external_modules() -> tuple[tuple[str, Path], ...]:
    """(module name, file) of every module the ``officegym.tasks`` entry points name: the
    module itself, or a package with its modules and its sub-packages' (one level deep,
    as ``officegym.tasks`` is laid out)."""
    from importlib.metadata import entry_points  # only when templates are looked up

    found: dict[str, Path] = {}
    for point in entry_points(group=TASKS_GROUP):
        origin, folders = _located(point.value)
        if origin is not None:
            found[point.value] = origin
        for folder in folders:
            for path in sorted([*folder.glob("*.py"), *folder.glob("*/*.py")]):
                parts = path.relative_to(folder).with_suffix("").parts
                parts = parts[:-1] if parts[-1] == "__init__" else parts
                if parts:
                    found[".".join((point.value, *parts))] = path
    return tuple(sorted(found.items()))


@functools.cache
def external_scenario_dirs() -> tuple[Path, ...]:
    """The folders of the packages the ``officegym.scenarios`` entry points name."""
    from importlib.metadata import entry_points

    dirs: list[Path] = []
    for point in entry_points(group=SCENARIOS_GROUP):
        dirs.extend(_located(point.value)[1])
    return tuple(dirs)
