"""The discovery documents of the APIs served here, where Google's client looks for
them: ``/gsheets/$discovery/rest?version=v4`` (Sheets; ``v3`` is Drive) and
``/gsheets/discovery/v1/apis/<api>/<version>/rest``. They are the subsets of Google's
own documents (``discovery/*.json``, methods and parameters as Google documents them)
with the root URL pointed at this server, so ``build(..., static_discovery=False,
discoveryServiceUrl=...)`` finds every method the clone answers and no other."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from flask import Response, jsonify, request

from officegym.apps.sheets.api_base import bp, not_found

__all__ = ["document"]

_BY_VERSION = {"v4": "sheets.v4", "v3": "drive.v3"}


@functools.cache
def _stored(name: str) -> dict[str, Any]:
    text = resources.files("officegym.apps.sheets").joinpath(f"discovery/{name}.json").read_text()
    return json.loads(text)


def document(name: str, root: str) -> dict[str, Any]:
    """A discovery document with its URLs under `root` (``http://host/gsheets/``)."""
    doc = dict(_stored(name))
    doc.update(rootUrl=root, mtlsRootUrl=root, baseUrl=root + doc.get("servicePath", ""))
    return doc


def _root() -> str:
    return f"{request.host_url}gsheets/"


@bp.get("/$discovery/rest")
def discovery_v2() -> Response:
    """The document of ``?version=v4`` (Sheets) or ``v3`` (Drive)."""
    name = _BY_VERSION.get(request.args.get("version", ""))
    if name is None:
        raise not_found("discovery document (version v4 for Sheets, v3 for Drive)")
    return jsonify(document(name, _root()))


@bp.get("/discovery/v1/apis/<api>/<version>/rest")
def discovery_v1(api: str, version: str) -> Response:
    """The document of ``sheets/v4`` or ``drive/v3``."""
    name = f"{api}.{version}"
    if name not in _BY_VERSION.values():
        raise not_found(f"discovery document {api}/{version}")
    return jsonify(document(name, _root()))
