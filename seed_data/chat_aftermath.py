"""What happens to a chat after the fact: channels archived when their work ended, and
posts their authors edited or deleted later — state agents must read around (an
archived channel is read-only, a deleted post is gone, an edited one says so) and
graders can see.

It runs last (after the CRM's chat), with a random stream of its own, so the rest of
the world is the same with or without it. Posts in the channels where the CRM's
requests live (the CRM teams' channels, #sales and #customer-support in the default world)
are left alone, and so are DMs.
"""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Membership, Message
from officegym.apps.slack.queries import LIVE_POST
from officegym.clock import SimClock
from officegym.errors import ConfigError
from officegym.seed_data.context import SeedContext
from officegym.seed_data.org import slugify
from officegym.seed_data.scenario import Scenario

ORDER = 30


def kept_channels(scenario: Scenario) -> tuple[str, ...]:
    """The channels of the CRM's teams, where its requests are posted (left alone)."""
    crm = scenario.crm
    return tuple(slugify(t) for t in (crm.sales_team, crm.support_team))


AFTERTHOUGHTS = [
    " (edit: fixed the link)",
    " (edit: typo)",
    " (edit: updated the numbers)",
    " (edit: wrong day earlier, this is right)",
    " (edit: added the doc)",
]


def seed(s: Session, ctx: SeedContext) -> None:
    """Edit and delete a share of the posts, then archive the scenario's channels."""
    rng = random.Random(f"{ctx.scenario.name}:{ctx.seed}:aftermath")
    params = ctx.scenario.slack
    posts = _posts(s, kept_channels(ctx.scenario))
    chosen = rng.sample(posts, k=round(len(posts) * (params.edited_ratio + params.deleted_ratio)))
    cut = round(len(posts) * params.edited_ratio)
    clock: SimClock = s.info["clock"]
    for msg in chosen[:cut]:
        clock.set(msg.created_at + dt.timedelta(minutes=rng.randint(1, 90)))
        author = s.get_one(Person, msg.user_id)
        chat.edit_message(s, author, msg, msg.text + rng.choice(AFTERTHOUGHTS))
    for msg in chosen[cut:]:
        chat.delete_message(s, s.get_one(Person, msg.user_id), msg)
    clock.set(ctx.scenario.date - dt.timedelta(minutes=5))
    for name in params.archived:
        _archive(s, ctx, name)


def _posts(s: Session, kept: tuple[str, ...]) -> list[Message]:
    """Live top-level posts in named, active channels other than the CRM's, oldest first."""
    stmt = (
        select(Message)
        .join(Channel, Channel.id == Message.channel_id)
        .where(*LIVE_POST, Channel.name.not_in(kept))
        .order_by(Message.id)
    )
    return list(s.scalars(stmt))


def _archive(s: Session, ctx: SeedContext, name: str) -> None:
    """Archive channel `name`, as one of its members."""
    channel = s.scalar(select(Channel).where(Channel.name == name))
    if channel is None or channel.kind not in ("public", "private"):
        reason = f"no channel #{name} to archive"
        raise ConfigError(ctx.scenario.source, "slack.archived", reason)
    first = s.scalar(
        select(Membership.person_id)
        .where(Membership.channel_id == channel.id)
        .order_by(Membership.person_id)
    )
    chat.archive_channel(s, s.get_one(Person, first), channel)
