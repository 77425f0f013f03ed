"""Long-horizon sales templates (20-50 calls): a quarter-end review of the team's overdue
deals, a departing rep's territory split between two colleagues, and a renewal campaign
over customer accounts without an open deal. Each deal, account or owner is its own
sub-goal (see `longhaul.py`)."""

from __future__ import annotations

import datetime as dt
import itertools
import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Same
from officegym.tasks.common import call, dm_step, pick, post_step
from officegym.tasks.crm.common import CrmIndex, crm_index
from officegym.tasks.crm.steps import create_step, reassign_step, update_step
from officegym.tasks.cross.common import handover_steps
from officegym.tasks.cross.longhaul import day, listing, short_day
from officegym.tasks.cross.reporting import channel_id_of
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

APPS = ["crm", "slack"]


def _by_owner(rows: list[Any]) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = {}
    for r in rows:
        out.setdefault(r.owner_id, []).append(r)
    return dict(sorted(out.items()))


@template(
    "cross.quarter-end-review",
    difficulty="hard",
    apps=APPS,
    needs="a sales team with overdue deals spread over several reps",
)
def quarter_end_review(w: Session, rng: random.Random) -> Spec:
    """Push the sales team's overdue deals to a date, DM each owner, post the total.

    Each deal moved, each owner's DM and the summary in #sales are sub-goals."""
    idx = crm_index(w)
    me = pick(rng, idx.with_role("manager", idx.sales), "sales managers")
    team = {p.id for p in idx.with_role("rep", idx.sales)}
    floor = rng.choice([0, 0, 5_000, 10_000, 20_000])
    deals = [
        o
        for o in idx.open_opps()
        if o.owner_id in team and o.close_date < idx.today and (o.amount or 0) >= floor
    ]
    if len(deals) < 8:
        raise LookupError("the world has too few overdue deals for a quarter-end review")
    new_date = idx.today + dt.timedelta(days=rng.randint(14, 80))
    owners = _by_owner(deals)
    total = sum(o.amount or 0 for o in deals)
    names = [o.name for o in deals]
    which = "open opportunity" if not floor else f"open opportunity of ${floor:,} or more"
    channel_id = channel_id_of(w, idx.sales)
    search = call(
        "crm_search_opportunities",
        open_only=True,
        close_before=(idx.today - dt.timedelta(days=1)).isoformat(),
        limit=100,
    )
    steps = [
        Step(calls=[search]),
        *[
            update_step(
                "opportunity", o.id, {"close_date": new_date}, name=f"{o.name} moved to {new_date}"
            )
            for o in deals
        ],
    ]
    for oid, mine in owners.items():
        text = (
            f"Quarter-end review: I moved the close date of "
            f"{listing(o.name for o in mine)} to {short_day(new_date)}."
        )
        says = Says(
            all_of=[[o.name] for o in mine],
            none_of=[n for n in names if n not in {o.name for o in mine}],
            date=new_date,
            ignoring=[o.name for o in mine],
            act="report",
            max_chars=_room_for(text),
        )
        name = f"DM to {idx.people[oid].name} naming their deals"
        steps.append(dm_step(w, me, idx.people[oid], text, says, name=name))
    summary = Says(
        amount=total, amounts_besides=[o.amount or 0 for o in deals], date=new_date, act="report"
    )
    steps.append(
        post_step(
            me,
            channel_id,
            f"Quarter-end review done: ${total:,} of overdue pipeline now closes on "
            f"{short_day(new_date)}.",
            summary,
            name=f"summary with the total in #{idx.sales}",
            channel=idx.sales,
        )
    )
    return Spec(
        goal=f"Quarter-end pipeline review. Every {which} owned by a sales rep whose close "
        f"date has already passed must move to {day(new_date)}: change each one's close date. "
        "Then send each owner concerned a direct message naming their deals you moved and the "
        f"new date, and post a summary in #{idx.sales} with the new date and the total amount of "
        "the deals you moved. Leave closed deals and deals still ahead of their date alone.",
        persona=me.handle,
        steps=steps,
    )


REGIONS = {
    "the United States": ("United States",),
    "Europe (the United Kingdom and Germany)": ("United Kingdom", "Germany"),
    "the Americas (the United States and Canada)": ("United States", "Canada"),
}


@template(
    "cross.territory-handover",
    difficulty="hard",
    apps=APPS,
    needs="a rep whose accounts span regions, and two reps to take them",
)
def territory_handover(w: Session, rng: random.Random) -> Spec:
    """Split a departing rep's accounts by region between two reps; DM both; announce it.

    Each account reassigned, each DM and the announcement in #sales are sub-goals."""
    idx = crm_index(w)
    me = pick(rng, idx.with_role("manager", idx.sales), "sales managers")
    reps = idx.with_role("rep", idx.sales)
    options = [
        (rep, region) for rep in reps for region in REGIONS if _handover_size(idx, rep.id, region)
    ]
    src, region = pick(rng, options, "reps with a territory to hand over")
    a, b = rng.sample([r for r in reps if r.id != src.id], 2)
    inside = [x for x in idx.accounts if x.owner_id == src.id and _in(x, region)]
    rest = [x for x in idx.accounts if x.owner_id == src.id and not _in(x, region)]
    target = {x.id: a for x in inside} | {x.id: b for x in rest}
    accounts = sorted(inside + rest, key=lambda x: x.id)
    channel_id = channel_id_of(w, idx.sales)
    steps = [
        Step(calls=[call("crm_search_accounts", owner=src.handle, limit=50)]),
        *[
            reassign_step(
                "account", x.id, target[x.id], name=f"{x.name} now owned by {target[x.id].name}"
            )
            for x in accounts
        ],
    ]
    steps += handover_steps(
        w,
        me,
        src,
        [(a, len(inside)), (b, len(rest))],
        unit="accounts",
        received=f"accounts from {src.name}'s territory",
        handed="the accounts",
        channel_id=channel_id,
        channel=idx.sales,
    )
    return Spec(
        goal=f"{src.name} is leaving the company. Hand over every CRM account they own: the "
        f"accounts billed in {region} go to {a.name}, all their other accounts to {b.name}. "
        f"Then tell {a.name.split()[0]} and {b.name.split()[0]} by direct message how many "
        f"accounts each of them received, and announce in #{idx.sales} who took over "
        f"{src.name.split()[0]}'s accounts.",
        persona=me.handle,
        steps=steps,
    )


def _in(account: Any, region: str) -> bool:
    return account.billing_country in REGIONS[region]


def _handover_size(idx: CrmIndex, rep_id: int, region: str) -> bool:
    """Whether the rep's accounts split into two non-empty parts in 20-50 calls."""
    mine = [x for x in idx.accounts if x.owner_id == rep_id]
    inside = sum(_in(x, region) for x in mine)
    return 0 < inside < len(mine) and 16 <= len(mine) <= 45


COUNTRIES = ("United States", "United Kingdom", "Germany", "Australia", "Canada")


@template(
    "cross.renewal-campaign",
    difficulty="hard",
    apps=APPS,
    needs="countries with several customer accounts that have no open deal",
)
def renewal_campaign(w: Session, rng: random.Random) -> Spec:
    """Open a renewal deal on each idle customer account of some countries; DM the owners.

    Idle: no open deal. Each renewal (owned by the account's owner) and each DM count."""
    idx = crm_index(w)
    me = pick(rng, idx.with_role("manager", idx.sales), "sales managers")
    options = [c for c in _country_sets(idx) if 20 <= _renewal_calls(idx, c) <= 50]
    reps: tuple[int, ...] = ()
    if options:
        countries = pick(rng, options, "country sets with renewals to open")
    else:  # a big world: a country's idle customers are too many, so some reps' only
        countries, reps = pick(rng, _rep_sets(idx), "country sets with renewals to open")
    close = idx.today + dt.timedelta(days=rng.randint(30, 120))
    accounts = [x for x in _renewals(idx, countries) if not reps or x.owner_id in reps]
    owners = _by_owner(accounts)
    name = {x.id: f"{x.name} - Renewal" for x in accounts}
    everything = [name[x.id] for x in accounts]
    searches = [
        call("crm_search_accounts", type="Customer", limit=100),
        *[
            call("crm_search_opportunities", account=x.id, open_only=True, limit=20)
            for x in accounts
        ],
    ]
    steps = [Step(calls=searches)]
    for x in accounts:
        made = call(
            "crm_create_opportunity",
            name=name[x.id],
            account=x.id,
            close_date=close.isoformat(),
            stage="Prospecting",
            type="Existing Business",
            owner=idx.people[x.owner_id].handle,
        )
        where = _renewal_where(x, name[x.id], close)
        steps.append(
            create_step(
                "opportunity",
                made,
                where,
                name=f"renewal opened on {x.name}",
                allow={"account_id": x.id},
            )
        )
    for oid, mine in owners.items():
        text = f"I opened renewal deals for you on {listing(x.name for x in mine)}."
        says = Says(
            all_of=[[x.name] for x in mine],
            none_of=[n for n in everything if n not in {name[x.id] for x in mine}],
            ignoring=[x.name for x in mine],
            act="report",
            max_chars=_room_for(text),
        )
        label = f"DM to {idx.people[oid].name} naming their renewals"
        steps.append(dm_step(w, me, idx.people[oid], text, says, name=label))
    where = listing(countries)
    if reps:
        owned = listing(f"{idx.people[r].name} (@{idx.people[r].handle})" for r in reps)
        where = f"{where} owned by {owned}"
    return Spec(
        goal=f"Renewal campaign for customers in {where}: for every account of type Customer "
        f"billed in {where} that has no open opportunity, create an opportunity named "
        f'"<account name> - Renewal" (type Existing Business, stage Prospecting, close date '
        f"{day(close)}), owned by the account's owner. Then send each of those owners a "
        "direct message naming the accounts you opened renewals on for them.",
        persona=me.handle,
        steps=steps,
    )


def _room_for(text: str) -> int:
    """A DM's length limit: the usual 400 characters, or room beyond the reference's own
    text when its list of names alone runs longer (a big world's rep owns many deals)."""
    return max(400, len(text) + 100)


def _renewal_where(x: Any, name: str, close: dt.date) -> dict[str, Any]:
    return {
        "account_id": x.id,
        "name": Same(name),
        "owner_id": x.owner_id,
        "close_date": close,
        "stage": "Prospecting",
        "type": "Existing Business",
    }


def _renewals(idx: CrmIndex, countries: tuple[str, ...]) -> list[Any]:
    busy = {o.account_id for o in idx.open_opps()}
    team = {p.id for p in idx.with_role("rep", idx.sales)}
    return [
        x
        for x in idx.accounts
        if x.type == "Customer"
        and x.id not in busy
        and x.billing_country in countries
        and x.owner_id in team
    ]


def _renewal_calls(idx: CrmIndex, countries: tuple[str, ...]) -> int:
    accounts = _renewals(idx, countries)
    return 1 + 2 * len(accounts) + len({x.owner_id for x in accounts})


def _country_sets(idx: CrmIndex) -> list[tuple[str, ...]]:
    present = [c for c in COUNTRIES if any(x.billing_country == c for x in idx.accounts)]
    return [s for n in (1, 2, 3) for s in itertools.combinations(present, n)]


def _rep_sets(idx: CrmIndex) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """A country and two or three of the reps owning its idle customers, with 20 to 50
    calls of renewals between them (for a world whose countries hold too many)."""
    out = []
    for country in COUNTRIES:
        owners = _by_owner(_renewals(idx, (country,)))
        for n in (2, 3):
            for reps in itertools.combinations(owners, n):
                calls = 1 + sum(2 * len(owners[r]) + 1 for r in reps)
                if 20 <= calls <= 50:
                    out.append(((country,), reps))
    return out
