"""The seeded booking site: thousands of listings with sparse calendars, same-name cities,
flights between the cities with airports, and trips consistent with the chat and the
CRM; a tiny company with an empty CRM still seeds it."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Block, City, Listing, Reservation, Route
from officegym.apps.crm.models import Account, Activity
from officegym.apps.slack.models import Message
from officegym.seed_data import build_image
from officegym.seed_data.booking_text import dates
from officegym.world import World

GOOD = (Path(__file__).parents[2] / "seed_data" / "scenarios" / "default.toml").read_text()


def n(s: Session, stmt) -> int:
    return s.scalar(stmt) or 0


def test_the_catalog_is_large_and_its_calendars_sparse(world: World) -> None:
    with world.session() as s:
        listings = n(s, select(func.count()).select_from(Listing))
        blocks = n(s, select(func.count()).select_from(Block))
        assert listings >= 3000 and blocks < listings * 5  # ranges, not nights
        names = s.execute(select(City.name, func.count()).group_by(City.name)).all()
        assert len([name for name, k in names if k > 1]) >= 5  # Portland, Paris, London...
        assert n(s, select(func.count()).select_from(Route)) > 500
        titles = n(s, select(func.count(Listing.title.distinct())))
        assert titles == listings


def test_announced_trips_match_reservations(world: World) -> None:
    pattern = re.compile(r"I'm in (?P<city>.+?) (?P<dates>\w+ \d+ to \w+ \d+) for")
    with world.session() as s:
        posts = s.scalars(select(Message).where(Message.text.like("Heads up: I'm in %"))).all()
        assert len(posts) >= 3
        for post in posts:
            found = pattern.search(post.text)
            assert found, post.text
            stays = booking.list_stays(s, s.get_one(type(post.user), post.user_id))
            assert any(
                dates(r.check_in, r.check_out) == found["dates"]
                and r.listing.city.label == found["city"]
                for r in stays
            ), post.text


def test_customer_visits_are_meetings_on_the_account_on_the_check_in_day(world: World) -> None:
    with world.session() as s:
        visits = s.scalars(select(Activity).where(Activity.subject.like("On-site visit: %"))).all()
        assert visits
        for v in visits:
            account = s.get_one(Account, v.record_id)
            stays = s.scalars(select(Reservation).where(
                Reservation.guest_id == v.owner_id,
                Reservation.purpose == f"a visit to {account.name}"))  # fmt: skip
            assert any(r.check_in == v.due_date for r in stays), v.subject


def test_a_tiny_company_without_a_crm_gets_a_booking_site(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    text = GOOD.replace("people = 60", "people = 12").replace("accounts = 200", "accounts = 0")
    path.write_text(text.replace("listings = 3000", "listings = 400"))
    world = World(build_image(str(path), 0))
    with world.session() as s:
        assert n(s, select(func.count()).select_from(Listing)) == 400
        assert n(s, select(func.count()).select_from(Reservation)) > 0
        assert n(s, select(func.count()).select_from(Account)) == 0
        assert booking.today(s) == dt.date(2026, 3, 2)
    world.close()
