"""Files: uploaded in two steps (reserve, send the bytes, complete and share), as
Slack's external upload (files.getUploadURLExternal + files.completeUploadExternal)
that ``files_upload_v2`` uses. A file is a row a grader can read: name, title, size,
type, and for text files the text itself. Completing shares it in a conversation with
a message (its initial comment, or the file's title)."""

from __future__ import annotations

import mimetypes
import secrets
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack.access import can_read, check_length, require_active, require_member
from officegym.apps.slack.models import Channel, File, Message
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.writes import delete_row, insert_row, update_row

__all__ = [
    "MAX_BYTES",
    "complete_upload",
    "delete_file",
    "file_message",
    "files_of",
    "get_file",
    "list_files",
    "reserve_upload",
    "write_upload",
]

MAX_BYTES = 5_000_000  # the clone keeps files in its database: a few MB at most
TEXT_TYPES = {"text", "txt", "csv", "md", "json", "py", "html", "xml", "yaml", "log"}


def reserve_upload(s: Session, actor: Person, *, filename: str, length: int) -> File:
    """Reserve a file of `length` bytes; its bytes arrive with `write_upload`."""
    name = check_length(filename.strip(), 255, "file name", code="invalid_arguments")
    if not name or "/" in name or "\\" in name:
        raise Invalid(f"invalid file name {filename!r}", code="invalid_arguments")
    if not 0 < length <= MAX_BYTES:
        raise Invalid(f"length must be 1..{MAX_BYTES} bytes", code="invalid_arguments")
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else "binary"
    return insert_row(
        s, File, user_id=actor.id, name=name, title=name, mimetype=mimetype,
        filetype="text" if ext == "txt" else ext, size=length,
        upload_key=secrets.token_urlsafe(24), created_at=now(s),
    )  # fmt: skip


def write_upload(s: Session, file_id: int, key: str, data: bytes) -> File:
    """Store the bytes of a reserved file; `key` is the secret of its upload URL."""
    f = get(s, File, file_id)
    if f is None or not key or not secrets.compare_digest(f.upload_key, key):
        raise NotFound("no such upload", code="file_not_found")
    if f.is_complete:
        raise Conflict("the file is already complete", code="file_already_complete")
    if len(data) != f.size:
        raise Invalid(f"expected {f.size} bytes, got {len(data)}", code="invalid_length")
    update_row(s, f, data=data, content=_text_of(f, data))
    return f


def _text_of(f: File, data: bytes) -> str | None:
    """The text of a text file (graders read it), else None."""
    if not (f.mimetype.startswith("text/") or f.filetype in TEXT_TYPES):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def complete_upload(
    s: Session,
    actor: Person,
    uploads: Sequence[tuple[File, str]],
    *,
    channel: Channel | None,
    comment: str = "",
    thread_parent: Message | None = None,
) -> list[File]:
    """Complete the actor's uploads (file, title); with `channel`, share them there in one
    message (the comment, else the titles)."""
    for f, _ in uploads:
        if f.user_id != actor.id or f.is_complete:
            raise NotFound(f"no pending upload F{f.id:07d} of yours", code="file_not_found")
        if f.data is None:
            raise Invalid(f"the bytes of {f.name} were never sent", code="file_not_uploaded")
    message = None
    if channel is not None:
        from officegym.apps.slack.service import post_message

        require_member(s, actor, channel)
        require_active(channel)
        text = comment.strip() or ", ".join((t or f.name) for f, t in uploads)
        message = post_message(s, actor, channel, text, thread_parent=thread_parent)
    for f, title in uploads:
        update_row(s, f, title=check_length(title or f.name, 255, "title"), is_complete=True,
                   channel_id=channel.id if channel else None,
                   message_id=message.id if message else None)  # fmt: skip
    return [f for f, _ in uploads]


def get_file(s: Session, actor: Person, file_id: int) -> File:
    """A complete file the actor may see: their own, or shared where they can read."""
    f = get(s, File, file_id)
    if f is None or not f.is_complete or not _visible(s, actor, f):
        raise NotFound(f"no file F{file_id:07d} that you can see", code="file_not_found")
    return f


def _visible(s: Session, actor: Person, f: File) -> bool:
    if f.user_id == actor.id:
        return True
    channel = get(s, Channel, f.channel_id) if f.channel_id else None
    return channel is not None and can_read(s, actor, channel)


def list_files(
    s: Session, actor: Person, *, channel: Channel | None = None, user: Person | None = None
) -> list[File]:
    """Complete files the actor can see, newest first, optionally of one conversation or
    one uploader."""
    stmt = select(File).where(File.is_complete.is_(True)).order_by(File.id.desc())
    if channel is not None:
        if not can_read(s, actor, channel):
            raise NotFound("no such channel", code="channel_not_found")
        stmt = stmt.where(File.channel_id == channel.id)
    if user is not None:
        stmt = stmt.where(File.user_id == user.id)
    return [f for f in s.scalars(stmt) if _visible(s, actor, f)]


def files_of(s: Session, message_ids: Sequence[int]) -> dict[int, list[File]]:
    """Files shared with these messages: message id -> files."""
    out: dict[int, list[File]] = {}
    if message_ids:
        stmt = select(File).where(File.message_id.in_(list(message_ids))).order_by(File.id)
        for f in s.scalars(stmt):
            out.setdefault(f.message_id or 0, []).append(f)
    return out


def file_message(s: Session, f: File) -> Message | None:
    return get(s, Message, f.message_id) if f.message_id else None


def delete_file(s: Session, actor: Person, f: File) -> None:
    """Delete one of the actor's own files."""
    if f.user_id != actor.id:
        raise Forbidden("you can only delete your own files", code="cant_delete_file")
    delete_row(s, f)
