"""Files through slack_sdk's own files_upload_v2 (the two-step external upload), sync and
async: the file is a row a grader can read, shared with a message in the channel, and
readable back through files.info, files.list and its content URL."""

from __future__ import annotations

import asyncio
import urllib.request
from collections.abc import Callable

import pytest
from slack_sdk import WebClient
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy import select

from officegym.apps.slack.models import File, Message
from officegym.world import World
from tests.apps.slack.conftest import error_of

ME = "kturner"


def test_files_upload_v2_stores_a_file_graders_can_read(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    channel = me.conversations_info(channel="engineering")["channel"]["id"]
    done = me.files_upload_v2(channel=channel, content="rollout: 10%, 50%, 100%\n",
                              filename="rollout.txt", title="Rollout plan",
                              initial_comment="Plan attached")  # fmt: skip
    file_id = done["file"]["id"]
    with api_world.session() as s:
        row = s.get_one(File, int(file_id[1:]))
        shared = s.get_one(Message, row.message_id)
        assert (row.name, row.title, row.size, row.content) == (
            "rollout.txt",
            "Rollout plan",
            24,
            "rollout: 10%, 50%, 100%\n",
        )
        assert (shared.text, shared.channel_id) == ("Plan attached", int(channel[1:]))
    info = me.files_info(file=file_id)["file"]
    assert info["channels"] == [channel] and info["content"] == "rollout: 10%, 50%, 100%\n"
    newest = me.conversations_history(channel=channel, limit=1)["messages"][0]
    assert [f["id"] for f in newest["files"]] == [file_id]
    request = urllib.request.Request(
        info["url_private"], headers={"Authorization": f"Bearer xoxp-{ME}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.read() == b"rollout: 10%, 50%, 100%\n"


def test_a_binary_upload_keeps_its_bytes_and_lists_by_channel(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    data = bytes(range(256)) * 4
    done = me.files_upload_v2(channel="C0000001", file=data, filename="blob.bin")
    with api_world.session() as s:
        row = s.get_one(File, int(done["file"]["id"][1:]))
        assert (row.data, row.content, row.size) == (data, None, 1024)
    listed = [f["id"] for f in me.files_list(channel="C0000001")["files"]]
    assert done["file"]["id"] in listed


def test_files_are_private_to_where_they_were_shared(
    client_of: Callable[[str], WebClient],
) -> None:
    me = client_of(ME)
    hiring = me.conversations_info(channel="hiring-committee")["channel"]["id"]
    secret = me.files_upload_v2(channel=hiring, content="offer letter", filename="offer.txt")
    members = set(me.conversations_members(channel=hiring)["members"])
    handle = next(u["name"] for u in me.users_list(limit=200)["members"] if u["id"] not in members)
    outsider = client_of(handle)
    assert error_of(lambda: outsider.files_info(file=secret["file"]["id"])) == "file_not_found"
    assert error_of(lambda: outsider.files_delete(file=secret["file"]["id"])) == "file_not_found"
    assert me.files_delete(file=secret["file"]["id"])["ok"]
    assert error_of(lambda: me.files_info(file=secret["file"]["id"])) == "file_not_found"


def test_an_upload_whose_bytes_never_came_cannot_complete(
    client_of: Callable[[str], WebClient],
) -> None:
    me = client_of(ME)
    slot = me.files_getUploadURLExternal(filename="ghost.txt", length=5)
    complete = lambda: me.files_completeUploadExternal(  # noqa: E731
        files=[{"id": slot["file_id"], "title": "Ghost"}], channel_id="C0000001"
    )
    assert error_of(complete) == "file_not_uploaded"
    forged = slot["upload_url"].rsplit("/", 1)[0] + "/wrong-key"
    request = urllib.request.Request(forged, data=b"hello", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400


def test_the_async_client_uploads_too(api_world: World, api_url: str) -> None:
    async def go() -> str:
        client = AsyncWebClient(token=f"xoxp-{ME}", base_url=api_url)
        done = await client.files_upload_v2(channel="C0000001", content="async bytes",
                                            filename="async.txt")  # fmt: skip
        return done["file"]["id"]

    file_id = asyncio.run(go())
    with api_world.session() as s:
        assert s.scalars(select(File.content).where(File.id == int(file_id[1:]))).one() == (
            "async bytes"
        )
