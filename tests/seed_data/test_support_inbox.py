"""#support-inbox: a week of customer requests (a customer account, one of its contacts,
an urgency the triage rule reads) among posts that ask for nothing, all dated before the
scenario's day so the CRM's "today" and the morning's requests stay as they were."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import Account, Contact
from officegym.apps.slack.models import Channel, Message
from officegym.seed_data.support_inbox import CHANNEL, DAYS
from officegym.tasks.base import catalog_session
from officegym.tasks.crm.common import crm_index
from officegym.tasks.cross.longhaul_support import inbox


@pytest.fixture(scope="module")
def w() -> Session:
    return catalog_session("default", 0)


def test_the_inbox_holds_a_week_of_requests_and_some_chatter(w: Session) -> None:
    posts = inbox(w)
    requests = [p for p in posts if p.account is not None]
    assert len({p.day for p in posts}) == DAYS
    assert all(p.day.weekday() < 5 for p in posts)
    assert 15 <= len(requests) < len(posts)  # some posts ask for nothing
    assert len({p.account.id for p in requests}) == len(requests)  # each customer asks once
    assert {p.priority for p in requests} == {"Critical", "High", "Medium", "Low"}


def test_each_request_names_a_customer_and_one_of_its_contacts(w: Session) -> None:
    for p in inbox(w):
        if p.account is None:
            continue
        assert w.get_one(Account, p.account.id).type == "Customer"
        assert w.get_one(Contact, p.contact_id).account_id == p.account.id


def test_the_inbox_is_dated_before_today(w: Session) -> None:
    last = w.scalar(
        select(func.max(Message.created_at))
        .join(Channel, Channel.id == Message.channel_id)
        .where(Channel.name == CHANNEL)
    )
    idx = crm_index(w)
    assert last is not None and last.date() < idx.today
    assert idx.messages and all(m.channel != CHANNEL for m in idx.messages)
