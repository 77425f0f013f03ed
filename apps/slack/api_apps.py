"""apps.manifest.create / delete of the Slack Web API subset: an app with an Events API
subscription. The caller's person becomes the app's bot user (an agent on a locked
server cannot make a bot that acts as anyone else); the answer carries the bot token
and signing secret, as Slack's does. The request URL must first pass Slack's
url_verification handshake (`delivery.verify_url`)."""

from __future__ import annotations

from typing import Any

from flask import g

from officegym.apps.slack import delivery
from officegym.apps.slack import events as apps
from officegym.apps.slack.api_objects import Params, method
from officegym.errors import Invalid

__all__: list[str] = []


def _manifest(p: Params) -> tuple[str, str, list[str]]:
    """(name, request URL, bot event types) of the `manifest` parameter."""
    manifest = p.json("manifest")
    if not isinstance(manifest, dict):
        raise Invalid("manifest must be a JSON object", code="invalid_manifest")
    info = manifest.get("display_information")
    name = info.get("name") if isinstance(info, dict) else None
    settings = manifest.get("settings")
    subscription = settings.get("event_subscriptions") if isinstance(settings, dict) else None
    subscription = subscription if isinstance(subscription, dict) else {}
    url, kinds = subscription.get("request_url", ""), subscription.get("bot_events", [])
    if not isinstance(name, str) or not isinstance(url, str) or not isinstance(kinds, list):
        raise Invalid("the manifest needs display_information.name", code="invalid_manifest")
    return name, url, [str(k) for k in kinds]


def _verify(app: Any) -> None:
    """Slack's handshake with a new request URL; the call fails if it is not answered."""
    url = app.request_url
    if url and not delivery.verify_url(url, app.signing_secret, app.verification_token):
        raise Invalid(f"{url} did not answer the url_verification challenge",
                      code="invalid_manifest")  # fmt: skip


@method("apps.manifest.update", write=True)
def apps_manifest_update(p: Params) -> dict[str, Any]:
    """Change an app's name and Events API subscription (its request URL is verified)."""
    app = apps.get_app(g.db, g.actor, p.text("app_id", missing="invalid_app_id"))
    name, url, kinds = _manifest(p)
    apps.update_app(g.db, g.actor, app, name=name, request_url=url, events=kinds)
    _verify(app)
    return {"app_id": app.slack_id, "permissions_updated": False}


@method("apps.manifest.create", write=True)
def apps_manifest_create(p: Params) -> dict[str, Any]:
    """Create an app (its bot user is the caller) and its Events API subscription."""
    name, url, kinds = _manifest(p)
    app = apps.create_app(g.db, g.actor, name=name, request_url=url, events=kinds)
    _verify(app)
    credentials = {
        "client_id": f"{app.id}.{app.id}",
        "client_secret": app.verification_token,
        "verification_token": app.verification_token,
        "signing_secret": app.signing_secret,
    }
    return {"app_id": app.slack_id, "credentials": credentials,
            "oauth_authorize_url": "", "bot_token": app.bot_token}  # fmt: skip


@method("apps.manifest.delete", write=True)
def apps_manifest_delete(p: Params) -> dict[str, Any]:
    app = apps.get_app(g.db, g.actor, p.text("app_id", missing="invalid_app_id"))
    apps.delete_app(g.db, g.actor, app)
    return {}
