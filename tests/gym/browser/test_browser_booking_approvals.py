"""Over-policy stays in real Chromium, as a travel desk runs them: reserving one sends the
manager an approval request (the simulated manager answers by the policy after the
request), a held stay's page says whose approval it awaits, and a manager approves or
declines their reports' requests on the Approvals page with plain POST forms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Reservation
from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.gym.browser_env import BrowserEnv
from tests.apps.booking.helpers import over_stay
from tests.gym.browser.helpers import open_page

pytestmark = pytest.mark.browser
TRAVELLER = {"task": "booking.cheapest-stay", "task_seed": 0}  # @tgrimes, who has a manager
MANAGER = {"task": "booking.cheapest-stay", "task_seed": 4}  # @wsullivan, who has reports


def env_as(
    env_for: Callable[..., BrowserEnv], options: dict[str, Any]
) -> tuple[BrowserEnv, Person]:
    """A booking env reset on `options`, and the person its task plays (detached)."""
    env = env_for("booking")
    env.reset(options=options)
    with env.world.session() as s:
        me = org.find_person(s, env.task.persona)  # type: ignore[union-attr]
        s.expunge(me)
    return env, me


def hold(env: BrowserEnv, traveller: str, *, far: bool) -> str:
    """Book an over-policy stay for `traveller` through the service (no simulated manager
    runs): its code, held for their manager."""
    with env.world.session() as s:
        me = org.find_person(s, traveller)
        listing, ci, co = over_stay(s, far=far)
        r = booking.book_stay(s, me, listing, check_in=ci, check_out=co, guests=1)
        s.commit()
        assert r.status == "pending"
        return r.code


def stay(env: BrowserEnv, code: str) -> Reservation:
    with env.world.session() as s:
        r = s.scalars(select(Reservation).where(Reservation.code == code)).one()
        s.expunge(r)
        return r


def test_reserving_over_the_cap_asks_the_manager_who_answers_by_policy(
    env_for: Callable[..., BrowserEnv],
) -> None:
    env, me = env_as(env_for, TRAVELLER)
    with env.world.session() as s:
        boss = s.get_one(Person, me.manager_id)
        listing, ci, co = over_stay(s, far=False)
        lid, boss_handle = listing.id, boss.handle
    text = open_page(env, f"/booking/listings/{lid}?check_in={ci}&check_out={co}")
    assert '[book-submit] button "Request approval ·' in text
    assert f"@{boss_handle}" in text[text.index("[listing-over-policy]") :]
    obs, *_ = env.step("click('book-submit')")
    assert "/booking/trips/HM" in obs["url"], obs["error"]
    code = obs["url"].rsplit("/", 1)[-1]
    r = stay(env, code)  # the simulated manager approved it within the margin
    assert (r.status, r.approver_id, r.over_policy) == ("confirmed", boss.id, True)
    assert "[trip-approval]" in obs["axtree"] and f"approved by @{boss_handle}" in obs["axtree"]
    with env.world.session() as s:
        me, boss = s.get_one(Person, me.id), s.get_one(Person, boss.id)
        texts = [m.text for m in chat.history(s, me, chat.find_dm(s, me, [boss]), mark_read=False)]
    assert texts[0].startswith("Approved") and texts[1].startswith("Approval request")


def test_a_held_stay_says_whose_approval_it_awaits_and_offers_no_change(
    env_for: Callable[..., BrowserEnv],
) -> None:
    env, me = env_as(env_for, TRAVELLER)
    code = hold(env, me.handle, far=True)
    with env.world.session() as s:
        boss = org.profile(s, me.id).manager
    text = open_page(env, f"/booking/trips/{code}")
    assert f"Awaiting approval by @{boss}" in text
    assert "[change-submit]" not in text and "[cancel-submit]" in text
    assert "nothing is charged until they decide" in text
    trips = open_page(env, "/booking/trips")
    assert code in trips and "pending" in trips


def test_a_manager_approves_and_declines_on_the_approvals_page(
    env_for: Callable[..., BrowserEnv],
) -> None:
    env, manager = env_as(env_for, MANAGER)
    with env.world.session() as s:
        stmt = select(Person.handle).where(Person.manager_id == manager.id)
        reports = list(s.scalars(stmt.order_by(Person.id)))
    assert reports, "the manager persona has reports"
    yes = hold(env, reports[0], far=True)
    no = hold(env, reports[1], far=True)
    text = open_page(env, "/booking/approvals")
    assert f"[approval-{yes.lower()}]" in text and f"[approval-{no.lower()}]" in text
    env.step(f"fill('approval-note-{yes.lower()}', 'Go ahead, the customer is worth it.')")
    obs, *_ = env.step(f"click('approval-approve-{yes.lower()}')")
    assert obs["url"].endswith("/booking/approvals") and obs["error"] == ""
    r = stay(env, yes)
    assert (r.status, r.approver_id) == ("confirmed", manager.id)
    obs, *_ = env.step(f"click('approval-decline-{no.lower()}')")
    r = stay(env, no)
    assert r.status == "declined" and r.approver_id is None
    decided = [f"[approval-{code.lower()}]" in obs["axtree"] for code in (yes, no)]
    assert decided == [False, False]  # off the page; requests seeded before stay listed
    with env.world.session() as s:
        assert booking.payments(s, s.get_one(Reservation, r.id)) == []
