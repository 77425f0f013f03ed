"""Google's HTTP batch endpoint, ``POST /gsheets/batch`` (the ``batchPath`` of the served
discovery document), which Google's client uses for ``new_batch_http_request()``: a
multipart/mixed body of up to 100 HTTP requests, each answered in its own part, in
order, with its Content-ID. Each part runs as its own request through the whole server
(who acts, validation, commit), as Google runs them: independently, not all or nothing."""

from __future__ import annotations

from email.parser import BytesParser, Parser
from email.policy import HTTP

from flask import Response, current_app, g, request

from officegym.apps.sheets.api_base import URL_PREFIX, bp
from officegym.errors import Invalid

__all__ = ["batch"]

MAX_PARTS = 100


def _parts(data: bytes, content_type: str) -> list[tuple[str, str]]:
    """(Content-ID, embedded HTTP request text) of each part of a multipart body."""
    if not content_type.startswith("multipart/mixed"):
        raise Invalid("Invalid batch: the body must be multipart/mixed")
    message = BytesParser().parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + data
    )
    if not message.is_multipart():
        raise Invalid("Invalid batch: no parts found")
    parts = message.get_payload()
    if len(parts) > MAX_PARTS:
        raise Invalid(f"Invalid batch: at most {MAX_PARTS} requests")
    out = []
    for part in parts:
        payload = part.get_payload(decode=True) or b""
        out.append((part.get("Content-ID", ""), payload.decode("utf-8", errors="replace")))
    return out


def _run(embedded: str) -> tuple[int, str, dict[str, str], bytes]:
    """One embedded request sent through the whole application."""
    line, _, rest = embedded.lstrip().partition("\n")
    pieces = line.strip().split(" ")
    if len(pieces) < 2 or not pieces[1].startswith(URL_PREFIX + "/"):
        bad = b'{"error":{"code":400,"message":"Invalid batch part","status":"INVALID_ARGUMENT"}}'
        return 400, "Bad Request", {"Content-Type": "application/json"}, bad
    head = Parser(policy=HTTP).parsestr(rest)
    body = head.get_payload()
    headers = {k: v for k, v in head.items() if k.lower() not in ("host", "content-length")}
    with current_app.test_client() as client:
        answer = client.open(
            pieces[1],
            method=pieces[0],
            headers=headers,
            data=body.encode() if isinstance(body, str) else body,
        )
    kept = {"Content-Type": answer.headers.get("Content-Type", "application/json")}
    return answer.status_code, answer.status.partition(" ")[2], kept, answer.get_data()


@bp.post("/batch")
def batch() -> Response:
    """The batch: each part's answer as an ``application/http`` part."""
    db = g.pop("db", None)
    if db is not None:
        db.close()  # each part opens its own session
    parts = _parts(request.get_data(), request.headers.get("Content-Type", ""))
    boundary = "batch_officegym"
    chunks: list[str] = []
    for cid, embedded in parts:
        status, reason, headers, body = _run(embedded)
        lines = [f"HTTP/1.1 {status} {reason}", *(f"{k}: {v}" for k, v in headers.items())]
        chunks.append(
            f"--{boundary}\r\nContent-Type: application/http\r\n"
            f"Content-ID: {_response_id(cid)}\r\n\r\n"
            + "\r\n".join(lines)
            + "\r\n\r\n"
            + body.decode("utf-8", errors="replace")
            + "\r\n"
        )
    text = "".join(chunks) + f"--{boundary}--\r\n"
    return Response(text, content_type=f"multipart/mixed; boundary={boundary}")


def _response_id(cid: str) -> str:
    """Google answers a part's ``<x+1>`` as ``<response-x+1>``."""
    inner = cid.strip().removeprefix("<").removesuffix(">")
    return f"<response-{inner}>"
