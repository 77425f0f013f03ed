"""The Slack Web API subset, under ``/api/<method>``, so existing Slack client code
(``slack_sdk.WebClient(token=..., base_url="http://127.0.0.1:<port>/api/")``, its
``AsyncWebClient``, a ``slack_bolt`` app) runs against the clone unmodified.

It answers as Slack does: form, query or JSON parameters; ``{"ok": true, ...}`` or
``{"ok": false, "error": "<code>"}`` with HTTP 200; cursor pagination through
``response_metadata.next_cursor`` (``search.messages`` pages by number, as
Slack's does). Ids are Slack's: channels ``C``/``G``/``D`` + 7 digits
(`Channel.slack_id`), people ``U`` + the zero-padded person id, messages by
`Message.ts` (the row id is its fractional part), files ``F``, apps ``A``. Text
goes in and out in Slack's markup (``<@U…>``, ``<#C…|name>``, ``<!here>``,
``&lt;``): `officegym.apps.slack.markup`.

No other site may drive it through a browser: methods that change state
(`WRITE_METHODS`) are accepted only by POST (``invalid_request``, HTTP 405,
otherwise), and a request whose ``Origin`` is not this server's or that carries
``Sec-Fetch-Site: cross-site`` is ``access_denied`` (HTTP 403), whatever the method.
Malformed input (bad JSON, a JSON object where a string belongs, a deeply nested
body) is ``invalid_json`` / ``invalid_arguments``, never a server error.

Authentication: every person of the world has the token ``xoxp-<handle>``
(`officegym.personas.token_for`), sent as ``Authorization: Bearer xoxp-<handle>``
or as the ``token`` parameter, and who acts follows the rule of every door
(`officegym.personas.who_acts`): a missing token is ``not_authed`` (unless the
server was started with ``--persona``: that persona acts), a token naming nobody by
the directory's handle ``invalid_auth``, and a person the server's persona policy
refuses (a server locked to an agent's persona) ``persona_locked``. An app's bot token
(``xoxb-…``, from apps.manifest.create or `events.create_app`) acts as the app's
bot user, a person of the world. Every call goes through the chat and directory
services and their access rules; their error codes (``not_in_channel``,
``channel_not_found``, ``is_archived`` ...) are the Slack error codes returned.

Methods (`METHODS`, one module per family): auth.test; conversations.* (list,
history, replies, info, members, create, invite, archive, unarchive, open, close,
join, leave, kick, rename, setTopic, setPurpose, mark); chat.* (postMessage with
thread_ts / reply_broadcast / blocks / attachments, update, delete,
getPermalink, postEphemeral, scheduleMessage, scheduledMessages.list,
deleteScheduledMessage); users.* (list, info, lookupByEmail, conversations,
getPresence, profile.get, profile.set), team.info, team.profile.get, emoji.list;
reactions.* (add, remove, get, list), pins.* (add, remove, list), bookmarks.*
(add, edit, list, remove), search.messages; files.* (getUploadURLExternal,
completeUploadExternal, info, list, delete) and the upload URL they hand out;
apps.manifest.create / delete (Events API subscriptions, `api_apps`).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, current_app, g, jsonify, request
from werkzeug.exceptions import InternalServerError
from werkzeug.wrappers import Response

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import (  # noqa: F401  (each registers its methods)
    api_apps,
    api_chat,
    api_conversations,
    api_files,
    api_items,
    api_users,
)
from officegym.apps.slack import events as apps
from officegym.apps.slack.api_objects import (
    METHODS,
    TEAM_ID,
    TEAM_NAME,
    WRITE_METHODS,
    Params,
    method,
    user_id,
)
from officegym.errors import Busy, Invalid, OfficeGymError
from officegym.inputs import has_lone_surrogate
from officegym.personas import bearer_token, who_acts
from officegym.web import persona_policy
from officegym.web_guards import cross_site_reason

__all__ = ["METHODS", "WRITE_METHODS", "bp", "user_id"]

bp = Blueprint("slack_api", __name__)
api_files.register_routes(bp)

# Service codes that Slack spells differently for one method.
RENAMED: dict[tuple[str, str], str] = {
    ("conversations.archive", "is_archived"): "already_archived",
    ("conversations.unarchive", "not_archived"): "not_archived",
    ("chat.postMessage", "message_not_found"): "thread_not_found",
    ("chat.scheduleMessage", "message_not_found"): "thread_not_found",
    ("pins.add", "invalid_arguments"): "not_pinnable",  # the service pins top-level messages only
    ("conversations.rename", "invalid_name"): "invalid_name_specials",
}


# ---------------------------------------------------------------- dispatch


@bp.route("/<name>", methods=["GET", "POST"])
def dispatch(name: str) -> tuple[Response, int]:
    """Refuse cross-site callers, authenticate by token, run one method, answer in Slack's
    envelope."""
    refused = _refuse_cross_site() or _refuse_method(name)
    if refused is not None:
        return refused
    handler = METHODS.get(name)
    if handler is None:
        return _fail("unknown_method", f"no API method {name!r}")
    try:
        params = Params(_parameters())
        g.actor = _authenticate(params)
        body = handler(params)
    except OfficeGymError as exc:
        return _domain_failure(exc, name)
    except Exception:  # a bug answers like Slack's fatal_error; the web layer rolls back
        current_app.logger.exception("Slack API method %s failed", name)
        return _fail("internal_error", "internal error", status=500)
    return jsonify({"ok": True, **body}), 200


@bp.errorhandler(OfficeGymError)
def _domain_failure(exc: OfficeGymError, name: str | None = None) -> tuple[Response, int]:
    """A domain error in Slack's envelope (HTTP 200, as Slack answers them), raised by a
    method or by the request's hooks and commit; a database busy past its lock wait is a
    503 with ``Retry-After`` (nothing changed, retry)."""
    g.db.rollback()
    if isinstance(exc, Busy):
        answer, status = _fail(exc.code, exc.message, status=exc.http_status)
        answer.headers.update(exc.headers)
        return answer, status
    method_name = name if name is not None else (request.view_args or {}).get("name", "")
    return _fail(RENAMED.get((method_name, exc.code), exc.code), exc.message)


@bp.errorhandler(InternalServerError)
def _internal_error(_exc: InternalServerError) -> tuple[Response, int]:
    """A bug outside a method's own code (a hook, the commit) answers as one inside it."""
    return _fail("internal_error", "internal error", status=500)


def _fail(code: str, detail: str, *, status: int = 200) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": code, "detail": detail}), status


def _refuse_cross_site() -> tuple[Response, int] | None:
    """Another site's page (an <img>, a form, a fetch) may not call the API: a browser
    marks such a request with an `Origin` or `Referer` other than ours or
    `Sec-Fetch-Site: cross-site` (`officegym.web_guards.cross_site_reason`, the web forms' rule).
    Clients outside a browser (slack_sdk, curl) send none of them."""
    reason = cross_site_reason()
    return _fail("access_denied", reason, status=403) if reason is not None else None


def _refuse_method(name: str) -> tuple[Response, int] | None:
    """Methods that change state are accepted only by POST (slack_sdk posts every call)."""
    if name not in WRITE_METHODS or request.method == "POST":
        return None
    answer, status = _fail("invalid_request", f"{name} changes state: send it by POST", status=405)
    answer.headers["Allow"] = "POST"
    return answer, status


def _parameters() -> dict[str, Any]:
    """Query, form and JSON body parameters merged (a JSON body wins); a body that is not
    JSON an API can read is ``invalid_json``."""
    merged: dict[str, Any] = {**request.args.to_dict(), **request.form.to_dict()}
    if request.is_json:
        try:
            body = json.loads(request.get_data(cache=True) or b"{}")
        except (ValueError, RecursionError):
            raise Invalid("the body is not JSON this API can read", code="invalid_json") from None
        if not isinstance(body, dict):
            raise Invalid("the JSON body must be an object", code="invalid_json")
        merged.update(body)
    if has_lone_surrogate(merged):
        raise Invalid("the text holds a lone UTF-16 surrogate", code="invalid_arguments")
    return merged


def _authenticate(params: Params) -> Person:
    """Who acts: an app's bot token acts as its bot user; any other token, or none, goes
    through the rule every door follows (`officegym.personas.who_acts`). The token is
    read from the Bearer header first, then the ``token`` parameter."""
    token = bearer_token(request.headers.get("Authorization")) or params.text("token") or None
    app = apps.app_of_token(g.db, token) if token else None
    if app is not None:  # a secret only the app's creator holds: it acts as its bot user
        g.app = app
        return org.get_person(g.db, app.bot_user_id)
    return who_acts(g.db, persona_policy(current_app), token)


# ---------------------------------------------------------------- auth


@method("auth.test")
def auth_test(p: Params) -> dict[str, Any]:
    me = g.actor
    answer = {
        "url": request.host_url,
        "team": TEAM_NAME,
        "user": me.handle,
        "team_id": TEAM_ID,
        "user_id": user_id(me.id),
        "is_enterprise_install": False,
    }
    app = g.get("app")
    if app is not None:  # a bot token: Bolt learns its bot user (and ignores its own events)
        answer |= {"bot_id": f"B{app.id:07d}", "app_id": app.slack_id}
    return answer
