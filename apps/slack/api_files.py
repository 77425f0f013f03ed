"""The files.* methods of the Slack Web API subset: Slack's two-step external upload
(files.getUploadURLExternal hands out an upload URL, the client POSTs the bytes there,
files.completeUploadExternal shares the file), as ``slack_sdk``'s ``files_upload_v2``
does it, and reading, listing and deleting files. The upload URL carries a secret of
its file, so it needs no token; the file's content URL needs the caller's."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request, url_for

from officegym.apps.slack import service as chat
from officegym.apps.slack.api_objects import (
    Params,
    find_channel,
    find_message,
    find_person,
    method,
    page,
    row_id,
)
from officegym.apps.slack.api_views import file_obj
from officegym.apps.slack.models import Channel, File
from officegym.db import get
from officegym.errors import Invalid, NotFound, OfficeGymError
from officegym.personas import bearer_token, who_acts
from officegym.web import persona_policy
from officegym.web_guards import attachment

__all__ = ["register_routes"]


def _file_id(ref: Any) -> int:
    return row_id(ref, "F", "file", "file_not_found")


@method("files.getUploadURLExternal", write=True)
def files_get_upload_url_external(p: Params) -> dict[str, Any]:
    length = p.number("length", 0, 0, 10**12)
    f = chat.reserve_upload(g.db, g.actor, filename=p.text("filename", missing="invalid_arguments"),
                            length=length)  # fmt: skip
    url = url_for("slack_api.upload", file_id=f.id, key=f.upload_key, _external=True)
    return {"upload_url": url, "file_id": f"F{f.id:07d}"}


@method("files.completeUploadExternal", write=True)
def files_complete_upload_external(p: Params) -> dict[str, Any]:
    """Complete uploads (``files``: a JSON list of ``{"id", "title"}``) and share them in
    ``channel_id`` (or the first of ``channels``), with `initial_comment`, in `thread_ts`."""
    listed = p.json("files")
    if not isinstance(listed, list) or not listed or not all(isinstance(x, dict) for x in listed):
        raise Invalid("files must be a JSON list of {id, title}", code="invalid_arguments")
    uploads = []
    for item in listed[:10]:
        f = _pending(_file_id(item.get("id")))
        title = item.get("title")
        uploads.append((f, title if isinstance(title, str) else ""))
    channel = _share_target(p)
    parent = find_message(p, channel, "thread_ts") if channel and p.text("thread_ts") else None
    comment = p.text("initial_comment")
    done = chat.complete_upload(
        g.db, g.actor, uploads, channel=channel, comment=comment, thread_parent=parent
    )
    return {"files": [{"id": f"F{f.id:07d}", "title": f.title} for f in done]}


def _pending(file_id: int) -> File:
    f = get(g.db, File, file_id)
    if f is None or f.user_id != g.actor.id or f.is_complete:
        raise NotFound(f"no pending upload F{file_id:07d} of yours", code="file_not_found")
    return f


def _share_target(p: Params) -> Channel | None:
    if p.text("channel_id"):
        return find_channel(p, "channel_id")
    first = p.text("channels").split(",")[0].strip()
    return chat.get_channel(g.db, g.actor, first) if first else None


@method("files.info")
def files_info(p: Params) -> dict[str, Any]:
    f = chat.get_file(g.db, g.actor, _file_id(p.text("file", missing="file_not_found")))
    obj = file_obj(f)
    if f.content is not None:
        obj["content"] = f.content
    return {"file": obj, "comments": [], "response_metadata": {"next_cursor": ""}}


@method("files.list")
def files_list(p: Params) -> dict[str, Any]:
    channel = find_channel(p) if p.text("channel") else None
    user = find_person(p.text("user")) if p.text("user") else None
    found = chat.list_files(g.db, g.actor, channel=channel, user=user)
    count, number = p.number("count", 100, 1, 1000), p.number("page", 1, 1, 1000)
    if p.text("cursor") or p.text("limit"):
        chunk, meta = page(found, p, 100, 1000)
        return {"files": [file_obj(f) for f in chunk], "response_metadata": meta}
    chunk = found[(number - 1) * count : number * count]
    pages = max(1, -(-len(found) // count))
    paging = {"count": count, "total": len(found), "page": number, "pages": pages}
    return {"files": [file_obj(f) for f in chunk], "paging": paging}


@method("files.delete", write=True)
def files_delete(p: Params) -> dict[str, Any]:
    f = chat.get_file(g.db, g.actor, _file_id(p.text("file", missing="file_not_found")))
    chat.delete_file(g.db, g.actor, f)
    return {}


def register_routes(bp: Blueprint) -> None:
    """The upload URL (the bytes of a reserved file) and a file's content URL."""

    @bp.post("/_upload/<int:file_id>/<key>", endpoint="upload")
    def upload(file_id: int, key: str) -> tuple[Response, int]:
        """Store the bytes of a reserved file: the raw body, or a multipart ``file``."""
        sent = request.files.get("file") if request.mimetype == "multipart/form-data" else None
        data = sent.read() if sent is not None else request.get_data(parse_form_data=False)
        try:
            chat.write_upload(g.db, file_id, key, data)
        except OfficeGymError as exc:
            return jsonify({"ok": False, "error": exc.code, "detail": exc.message}), 400
        return jsonify({"ok": True}), 200

    @bp.get("/_files/<int:file_id>", endpoint="file_content")
    def file_content(file_id: int) -> Response | tuple[Response, int]:
        """A file's bytes, for its uploader and whoever can read where it was shared."""
        token = bearer_token(request.headers.get("Authorization"))
        actor = g.get("actor")  # the page sign-in, when a browser fetches the file
        if token is not None:
            try:
                actor = who_acts(g.db, persona_policy(current_app), token)
            except OfficeGymError:
                actor = None
        if actor is None:
            return jsonify({"ok": False, "error": "not_authed"}), 401
        try:
            f = chat.get_file(g.db, actor, file_id)
        except OfficeGymError as exc:
            return jsonify({"ok": False, "error": exc.code}), 404
        headers = {"Content-Disposition": attachment(f.name)}
        return Response(f.data or b"", mimetype=f.mimetype, headers=headers)
