"""Who acts through the Sheets API is every door's rule (`officegym.personas.who_acts`):
Google's token transports (Bearer header, ``?access_token=``) carry ``xoxp-<handle>``
and nothing else names a person; no token is the server's --persona or a 401; other
sites' pages are refused by the web layer's cross-site rule, Referer included."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.sheets.models import Workbook
from officegym.web import create_app
from officegym.world import World


def _owner_and_workbook(world: World) -> tuple[Person, int]:
    with world.session() as s:
        wb = s.scalars(select(Workbook).where(Workbook.name == "Orders 2025")).one()
        owner = s.get_one(Person, wb.owner_id)
        s.expunge(owner)
        return owner, wb.id


def test_the_token_rides_in_a_bearer_header_or_access_token(world: World) -> None:
    owner, wid = _owner_and_workbook(world)
    client = create_app(world).test_client()
    url = f"/gsheets/v4/spreadsheets/{wid}"
    by_header = client.get(url, headers={"Authorization": f"Bearer xoxp-{owner.handle}"})
    by_query = client.get(f"{url}?access_token=xoxp-{owner.handle}")
    assert by_header.status_code == by_query.status_code == 200
    assert by_query.get_json()["properties"]["title"] == "Orders 2025"


@pytest.mark.parametrize("spelling", ["email", "name"])
def test_a_token_naming_a_person_by_email_or_full_name_is_refused(
    world: World, spelling: str
) -> None:
    owner, wid = _owner_and_workbook(world)
    client = create_app(world).test_client()
    answer = client.get(
        f"/gsheets/v4/spreadsheets/{wid}?access_token=xoxp-{getattr(owner, spelling)}"
    )
    assert answer.status_code == 401
    assert answer.get_json()["error"]["status"] == "UNAUTHENTICATED"


def test_no_token_is_a_401_unless_the_server_was_started_with_a_persona(world: World) -> None:
    owner, wid = _owner_and_workbook(world)
    url = f"/gsheets/v4/spreadsheets/{wid}"
    assert create_app(world).test_client().get(url).status_code == 401
    assert create_app(world, persona=owner.handle).test_client().get(url).status_code == 200


def test_a_locked_server_refuses_a_colleagues_token(world: World) -> None:
    owner, wid = _owner_and_workbook(world)
    with world.session() as s:
        other = s.scalars(select(Person.handle).where(Person.id != owner.id)).first()
    client = create_app(world, persona=owner.handle, lock_persona=True).test_client()
    answer = client.get(f"/gsheets/v4/spreadsheets/{wid}?access_token=xoxp-{other}")
    assert answer.status_code == 403
    assert answer.get_json()["error"]["status"] == "PERMISSION_DENIED"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Referer": "http://evil.example/page"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_other_sites_pages_are_refused(world: World, headers: dict[str, str]) -> None:
    owner, wid = _owner_and_workbook(world)
    client = create_app(world).test_client()
    answer = client.get(
        f"/gsheets/v4/spreadsheets/{wid}?access_token=xoxp-{owner.handle}", headers=headers
    )
    assert answer.status_code == 403
    assert answer.get_json()["error"]["status"] == "PERMISSION_DENIED"
