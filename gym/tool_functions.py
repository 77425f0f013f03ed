"""Tools as typed Python functions, for stacks that read a tool's contract from a
function (TRL's environment methods, FastMCP servers in OpenEnv).

`typed_function(spec, call)` turns a tool spec (name, description, JSON schema: what the
Gym and MCP show) into a function of that name whose signature has one keyword argument
per property, typed from the schema (``Literal`` for enums, unions for ``anyOf``,
``list[...]`` for arrays; optional ones default to the schema's default or None), and a
Google-style docstring with one line per argument — what transformers'
`get_json_schema` and pydantic read back. Calling it passes the keywords given, as a
dict, to `call`.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal

__all__ = ["typed_function"]

_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
    "object": dict,
}


def typed_function(
    spec: Mapping[str, Any], call: Callable[..., str], *, method: bool = False
) -> Callable[..., str]:
    """A function named and typed as tool `spec`, calling ``call(arguments)`` (or, with
    `method`, ``call(self, arguments)``: the function is then a method)."""
    params_schema = spec.get("parameters", {})
    props: Mapping[str, Mapping[str, Any]] = params_schema.get("properties", {})
    required = set(params_schema.get("required", ()))

    if method:

        def tool(self: Any, **arguments: Any) -> str:
            return call(self, arguments)

    else:

        def tool(**arguments: Any) -> str:  # type: ignore[misc]
            return call(arguments)

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] if method else []
    hints = {arg: _hint(schema) for arg, schema in props.items()}
    for arg, schema in props.items():
        default = inspect.Parameter.empty if arg in required else schema.get("default")
        params.append(
            inspect.Parameter(arg, inspect.Parameter.KEYWORD_ONLY, default=default,
                              annotation=hints[arg])
        )  # fmt: skip
    tool.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    tool.__annotations__ = {**hints, "return": str}
    tool.__name__ = tool.__qualname__ = spec["name"]
    tool.__doc__ = _docstring(spec.get("description", ""), props)
    return tool


def _hint(schema: Mapping[str, Any]) -> Any:
    """The Python type hint a JSON schema stands for."""
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]  # type: ignore[valid-type]
    if "anyOf" in schema:
        return typing.Union[tuple(_hint(s) for s in schema["anyOf"])]  # noqa: UP007
    kind = schema.get("type")
    if kind == "array":
        return list[_hint(schema["items"])] if "items" in schema else list
    return _SCALARS.get(kind, str)


def _docstring(description: str, props: Mapping[str, Mapping[str, Any]]) -> str:
    """A Google-style docstring: the tool's description, then one line per argument."""
    lines = [_one_line(description) or "A tool.", "", "Args:"]
    lines += [
        f"    {arg}: {_one_line(s.get('description', '')) or arg}" for arg, s in props.items()
    ]
    return "\n".join(lines) if props else lines[0]


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
