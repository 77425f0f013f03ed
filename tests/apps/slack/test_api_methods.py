"""Which of Slack's published Web API methods the clone answers, family by family.

`PUBLISHED` is Slack's method list for the families the clone covers (from Slack's
method reference, docs.slack.dev/reference/methods); `NOT_ANSWERED` the ones it
leaves out, with why. Every published method is called over HTTP through slack_sdk:
those answered never say ``unknown_method``, the others always do.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from officegym.apps.slack.api import METHODS

PUBLISHED: dict[str, list[str]] = {
    "apps.manifest": ["create", "delete", "export", "update", "validate"],
    "auth": ["revoke", "teams.list", "test"],
    "bookmarks": ["add", "edit", "list", "remove"],
    "chat": ["delete", "deleteScheduledMessage", "getPermalink", "meMessage", "postEphemeral",
             "postMessage", "scheduleMessage", "scheduledMessages.list", "unfurl", "update"],
    "conversations": ["acceptSharedInvite", "approveSharedInvite", "archive", "close", "create",
                      "declineSharedInvite", "history", "info", "invite", "inviteShared", "join",
                      "kick", "leave", "list", "listConnectInvites", "mark", "members", "open",
                      "rename", "replies", "setPurpose", "setTopic", "unarchive"],
    "emoji": ["list"],
    "files": ["completeUploadExternal", "delete", "getUploadURLExternal", "info", "list",
              "revokePublicURL", "sharedPublicURL", "upload", "remote.add", "remote.info",
              "remote.list", "remote.remove", "remote.share", "remote.update"],
    "pins": ["add", "list", "remove"],
    "reactions": ["add", "get", "list", "remove"],
    "search": ["all", "files", "messages"],
    "team": ["accessLogs", "billableInfo", "billing.info", "info", "integrationLogs",
             "preferences.list", "profile.get"],
    "users": ["conversations", "deletePhoto", "getPresence", "identity", "info", "list",
              "lookupByEmail", "profile.get", "profile.set", "setPhoto", "setPresence"],
}  # fmt: skip
NOT_ANSWERED: dict[str, str] = {
    "apps.manifest.export": "manifests are not kept, only the subscription",
    "apps.manifest.validate": "apps.manifest.create validates",
    "auth.revoke": "tokens name people; there is nothing to revoke",
    "auth.teams.list": "one workspace",
    "chat.unfurl": "no link previews",
    "conversations.acceptSharedInvite": "no Slack Connect",
    "conversations.approveSharedInvite": "no Slack Connect",
    "conversations.declineSharedInvite": "no Slack Connect",
    "conversations.inviteShared": "no Slack Connect",
    "conversations.listConnectInvites": "no Slack Connect",
    "files.revokePublicURL": "no public file links",
    "files.sharedPublicURL": "no public file links",
    "files.upload": "retired by Slack; files_upload_v2 uses the external upload",
    "files.remote.add": "no remote files",
    "files.remote.info": "no remote files",
    "files.remote.list": "no remote files",
    "files.remote.remove": "no remote files",
    "files.remote.share": "no remote files",
    "files.remote.update": "no remote files",
    "search.all": "messages only",
    "search.files": "messages only",
    "team.accessLogs": "admin logs",
    "team.billableInfo": "no billing",
    "team.billing.info": "no billing",
    "team.integrationLogs": "admin logs",
    "team.preferences.list": "no workspace preferences",
    "users.deletePhoto": "no photos",
    "users.identity": "Sign in with Slack only",
    "users.setPhoto": "no photos",
    "users.setPresence": "everyone is at work",
}
ALL = sorted(f"{family}.{name}" for family, names in PUBLISHED.items() for name in names)


def test_the_clone_answers_nothing_outside_slacks_list() -> None:
    assert set(METHODS) <= set(ALL) and set(NOT_ANSWERED) <= set(ALL)
    assert set(METHODS) == set(ALL) - set(NOT_ANSWERED)


def answer_of(call: Callable[[], object]) -> str:
    """'ok', or the error code of the call."""
    try:
        call()
    except SlackApiError as exc:
        return str(exc.response["error"])
    return "ok"


@pytest.mark.parametrize("name", ALL)
def test_each_published_method_answers_or_is_unknown(
    name: str, client_of: Callable[[str], WebClient]
) -> None:
    client = client_of("kturner")
    result = answer_of(lambda: client.api_call(name, params={}))
    if name in NOT_ANSWERED:
        assert result == "unknown_method"
    else:
        assert result != "unknown_method", name
