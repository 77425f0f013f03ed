"""users.*, team.* and emoji.list through slack_sdk: finding people by email, the profile
fields bots read (title, team, manager, status, time zone), setting one's status, and
slack_sdk's own pagination iterator over users.list."""

from __future__ import annotations

from collections.abc import Callable

from slack_sdk import WebClient
from sqlalchemy import func, select

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Status
from officegym.world import World
from tests.apps.slack.conftest import error_of, uid_of

ME = "kturner"


def test_lookup_by_email_and_the_profile_fields_bots_read(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of("mchang")
    with api_world.session() as s:
        card = org.profile(s, org.find_person_id(s, ME))
    assert card.manager is not None
    boss = uid_of(api_world, card.manager)
    user = me.users_lookupByEmail(email=card.email.upper())["user"]
    assert user["name"] == ME and user["tz"] == card.timezone
    profile = user["profile"]
    assert (profile["title"], profile["email"]) == (card.title, card.email)
    assert profile["fields"]["Xf0000TEAM"]["value"] == card.team
    assert profile["fields"]["Xf00MANAGR"]["value"] == boss
    labels = {f["id"]: f["label"] for f in me.team_profile_get()["profile"]["fields"]}
    assert labels == {"Xf0000TEAM": "Team", "Xf00MANAGR": "Manager"}
    assert isinstance(user["tz_offset"], int) and user["tz_offset"] != 0
    assert error_of(lambda: me.users_lookupByEmail(email="no@where.test")) == "users_not_found"


def test_setting_ones_status_through_users_profile_set(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    answer = me.users_profile_set(
        profile={"status_text": "Heads down", "status_emoji": ":headphones:"}
    )
    assert answer["profile"]["status_text"] == "Heads down"
    assert me.users_profile_get()["profile"]["status_emoji"] == ":headphones:"
    with api_world.session() as s:
        me_id = int(uid_of(api_world, ME)[1:])
        row = s.scalars(select(Status).where(Status.person_id == me_id)).one()
        assert (row.text, row.emoji) == ("Heads down", "headphones")
    bad = lambda: me.users_profile_set(profile={"title": "CEO"})  # noqa: E731
    assert error_of(bad) == "invalid_profile"


def test_the_sdks_iterator_pages_users_list_once_each(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    ids = [u["id"] for page in client_of(ME).users_list(limit=9) for u in page["members"]]
    with api_world.session() as s:
        assert len(ids) == len(set(ids)) == s.scalar(select(func.count()).select_from(Person))


def test_team_info_and_emoji(client_of: Callable[[str], WebClient]) -> None:
    me = client_of(ME)
    team = me.team_info()["team"]
    assert team["id"] == me.auth_test()["team_id"] and team["email_domain"] == "northwind.test"
    assert "party" in me.emoji_list()["emoji"]
    assert me.users_getPresence(user=me.auth_test()["user_id"])["presence"] == "active"
