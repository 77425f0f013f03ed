"""Seed the CRM: roles from the org chart, then accounts, contacts, opportunities
with their stage history, leads (some converted), cases (some escalated or
closed) and activities, all written through the CRM service at past simulated
times; `crm_chat` then posts chat messages about real records."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, get_args

from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import (
    STAGES,
    Account,
    Case,
    Contact,
    Industry,
    Lead,
    LeadSource,
    LossReason,
    Opportunity,
)
from officegym.apps.org.models import Person
from officegym.clock import SimClock
from officegym.seed_data import crm_chat, crm_notes
from officegym.seed_data import crm_text as T
from officegym.seed_data.context import SeedContext
from officegym.seed_data.crm_crew import Crew, Made, crew
from officegym.seed_data.crm_facts import close_date, domain
from officegym.seed_data.work_hours import is_working, pick, within

ORDER = 20
DAY = dt.timedelta(days=1)
# Share of opportunities that end at each stage (Closed Won, Closed Lost last).
STAGE_WEIGHTS = [12, 10, 9, 8, 6, 33, 22]
INDUSTRIES: list[str] = list(get_args(Industry))
LEAD_SOURCES: list[str] = list(get_args(LeadSource))
LOSS_REASONS: list[str] = list(get_args(LossReason))


def seed(s: Session, ctx: SeedContext) -> None:
    """Roles, accounts, contacts, opportunities, leads, cases, activities and chat."""
    if ctx.scenario.crm.accounts == 0:
        return
    seeder = Seeder(s, ctx, crew(s, ctx))
    made = seeder.run()
    crm_chat.post(s, ctx, seeder.crew, made)
    ctx.made["crm"] = made


class Seeder:
    """Creates the records at past simulated times, each by its owner."""

    def __init__(self, s: Session, ctx: SeedContext, crew: Crew) -> None:
        self.s, self.ctx, self.crew = s, ctx, crew
        self.p = ctx.scenario.crm
        self.rng, self.fake = ctx.rng, ctx.fake
        self.words = random.Random(f"{ctx.scenario.name}:{ctx.seed}:crm-text")  # free text
        self.clock: SimClock = s.info["clock"]
        self.end = ctx.scenario.date - dt.timedelta(hours=2)
        self.made = Made()
        self.names: dict[str, bool] = {}
        self.emails: dict[str, bool] = {}

    def run(self) -> Made:
        n_converted = self.p.leads * 15 // 100
        self.accounts(self.p.accounts)
        self.contacts(max(0, self.p.contacts - n_converted))
        self.opportunities(max(0, self.p.opportunities - n_converted // 2))
        self.leads(self.p.leads, n_converted)
        self.cases(self.p.cases)
        self.activities(self.p.activities)
        return self.made

    # ------------------------------------------------------------ helpers

    def at(self, when: dt.datetime) -> dt.datetime:
        """Move the simulated clock (records get this time as created/changed time)."""
        when = min(when, self.end)
        self.clock.set(when)
        return when

    def ago(self, lo_days: float, hi_days: float) -> dt.datetime:
        seconds = self.rng.uniform(lo_days, hi_days) * 86_400
        return self.ctx.scenario.date - dt.timedelta(seconds=int(seconds))

    def between(self, start: dt.datetime, end: dt.datetime) -> dt.datetime:
        span = max(0, int((min(end, self.end) - start).total_seconds()))
        return start + dt.timedelta(seconds=self.rng.randint(0, span))

    def owner(self, team: list[Person]) -> Person:
        """A team member, the head (team[0]) less often than the others."""
        return self.rng.choices(team, weights=[0.3] + [1.0] * (len(team) - 1))[0]

    def company(self) -> str:
        while True:
            name = self.fake.company()
            if name.lower() not in self.names:
                self.names[name.lower()] = True
                return name

    def email(self, first: str, last: str, domain: str) -> str:
        base = re.sub(r"[^a-z.]", "", f"{first}.{last}".lower())
        email, n = f"{base}@{domain}", 2
        while email in self.emails:
            email, n = f"{base}{n}@{domain}", n + 1
        self.emails[email] = True
        return email

    def phone(self) -> str:
        return f"+1-{self.rng.randint(201, 989)}-555-{self.rng.randint(0, 9999):04d}"

    # ------------------------------------------------------------ records

    def accounts(self, n: int) -> None:
        kinds = ["Customer", "Prospect", "Partner", "Other"]
        for _ in range(n):
            name = self.company()
            employees = self.rng.choice([12, 40, 85, 150, 320, 800, 2500, 9000]) + self.rng.randint(
                0, 9
            )
            values = {
                "name": name,
                "industry": self.rng.choice(INDUSTRIES),
                "type": self.rng.choices(kinds, weights=[45, 40, 10, 5])[0],
                "website": f"www.{domain(name)}",
                "phone": self.phone(),
                "billing_city": self.fake.city(),  # drawn, then replaced: names stay
                "billing_country": self.rng.choice(T.COUNTRIES),
                "employees": employees,
                "annual_revenue": employees * self.rng.randint(80, 300) * 1000,
            }
            values["billing_city"] = self.words.choice(T.CITIES[values["billing_country"]])
            values["description"] = crm_notes.account(
                self.words, values, self.ctx.scenario.date.year
            )
            owner = self.owner(self.crew.sales)
            self.at(self.ago(60, self.p.history_days))
            self.made.accounts.append(crm.create_record(self.s, owner, "account", values))

    def contacts(self, n: int) -> None:
        accounts = self.made.accounts
        picks = list(accounts) + self.rng.choices(accounts, k=max(0, n - len(accounts)))
        for account in picks[:n]:
            self.contact(account, self.between(account.created_at, account.created_at + 90 * DAY))

    def contact(self, account: Account, when: dt.datetime, **given: Any) -> Contact:
        first = given.pop("first_name", None) or self.fake.first_name()
        last = given.pop("last_name", None) or self.fake.last_name()
        values = {
            "account_id": account.id,
            "first_name": first,
            "last_name": last,
            "title": self.rng.choice(T.CONTACT_TITLES),
            "email": self.email(first, last, domain(account.name)),
            "phone": self.phone(),
        } | given
        self.at(when)
        owner = self.s.get_one(Person, account.owner_id)
        contact = crm.create_record(self.s, owner, "contact", values)
        self.made.contacts.setdefault(account.id, []).append(contact)
        return contact

    def opportunities(self, n: int) -> None:
        for _ in range(n):
            account = self.rng.choice(self.made.accounts)
            owner = self.s.get_one(Person, account.owner_id)
            if self.rng.random() < 0.2:
                owner = self.owner(self.crew.sales)
            target = self.rng.choices(STAGES, weights=STAGE_WEIGHTS)[0]
            self.opportunity(account, owner, target)

    def opportunity(self, account: Account, owner: Person, target: str) -> Opportunity:
        closed = target.startswith("Closed")
        created = self.ago(40, 400) if closed else self.ago(3, 150)
        created = max(created, account.created_at + DAY)
        today = self.ctx.scenario.date.date()
        contacts = self.made.contacts.get(account.id) or [None]
        contact = self.rng.choice(contacts)
        values = {
            "name": self.opp_name(account),
            "account_id": account.id,
            "contact_id": contact.id if contact else None,
            "amount": self.rng.choice([5, 8, 12, 20, 35, 50, 75, 120, 200, 350]) * 1000
            + self.rng.randint(0, 19) * 500,
            "close_date": close_date(target, created, today, self.rng.randint(-20, 150)),
            "next_step": self.next_step(closed),
            "type": "Existing Business" if account.type == "Customer" else "New Business",
            "lead_source": self.rng.choice(LEAD_SOURCES),
        }
        values["description"] = crm_notes.opportunity(self.words, values, account, contact)
        self.at(created)
        opp = crm.create_record(self.s, owner, "opportunity", values)
        self.advance(opp, owner, target, created)
        self.made.opportunities.append(opp)
        return opp

    def next_step(self, closed: bool) -> str:
        """A next step for an open deal; none for a closed one (drawn all the same, so the
        records after it stay as they were)."""
        step = self.rng.choice(T.NEXT_STEPS)
        return "" if closed else step

    def advance(self, opp: Opportunity, owner: Person, target: str, start: dt.datetime) -> None:
        """Walk the opportunity through the stages up to `target`, at increasing times."""
        if target == "Closed Won":
            path = [*STAGES[1 : self.rng.randint(2, 5)], target]
        elif target == "Closed Lost":
            path = [*STAGES[1 : self.rng.randint(1, 4)], target]
        else:
            path = list(STAGES[1 : STAGES.index(target) + 1])
        finish = (
            start + self.rng.randint(10, 120) * DAY if target.startswith("Closed") else self.end
        )
        times = sorted(self.between(start, finish) for _ in path)
        for stage, when in zip(path, times, strict=True):
            self.at(when)
            reason = self.rng.choice(LOSS_REASONS) if stage == "Closed Lost" else None
            crm.change_stage(self.s, owner, opp, stage, loss_reason=reason)

    def opp_name(self, account: Account) -> str:
        for product in self.rng.sample(T.PRODUCTS, k=len(T.PRODUCTS)):
            name = f"{account.name} - {product}"
            if name.lower() not in self.names:
                self.names[name.lower()] = True
                return name
        n = 2
        while f"{account.name} - deal {n}".lower() in self.names:
            n += 1
        self.names[f"{account.name} - deal {n}".lower()] = True
        return f"{account.name} - deal {n}"

    def leads(self, n: int, n_converted: int) -> None:
        """Leads; the first `n_converted` are converted onto existing accounts, a few more
        name an existing account's company without being converted (duplicates to catch)."""
        sdrs = [p for p in self.crew.sales if "Development" in p.title] or self.crew.sales
        k = min(len(self.made.accounts), n_converted + n // 12)
        taken = self.rng.sample(self.made.accounts, k=k)
        for i in range(n):
            account = taken[i] if i < len(taken) else None
            owner = self.rng.choice(sdrs)
            lead = self.lead(owner, account.name if account else self.company())
            if i < n_converted and account is not None:
                self.convert(lead, owner, account, with_opportunity=i % 2 == 0)
            self.made.leads.append(lead)

    def convert(self, lead: Lead, owner: Person, account: Account, with_opportunity: bool) -> None:
        self.at(self.between(lead.created_at, self.end))
        amount = self.rng.randint(10, 90) * 1000
        close = self.ctx.scenario.date.date() + self.words.randint(14, 90) * DAY  # ahead
        done = crm.convert_lead(self.s, owner, lead, account=account, amount=amount,
                                create_opportunity=with_opportunity, close_date=close)  # fmt: skip
        self.made.contacts.setdefault(account.id, []).append(done.contact)
        if done.opportunity is not None:
            self.made.opportunities.append(done.opportunity)

    def lead(self, owner: Person, company: str) -> Lead:
        first, last = self.fake.first_name(), self.fake.last_name()
        status = self.rng.choices(["New", "Working", "Nurturing", "Unqualified"], [35, 35, 15, 15])[
            0
        ]
        values = {
            "first_name": first,
            "last_name": last,
            "company": company,
            "title": self.rng.choice(T.CONTACT_TITLES),
            "email": self.email(first, last, domain(company)),
            "phone": self.phone(),
            "industry": self.rng.choice(INDUSTRIES),
            "status": status,
            "source": self.rng.choice(LEAD_SOURCES),
            "rating": self.rng.choice(["Hot", "Warm", "Cold"]),
        }
        self.at(self.ago(2, 120))
        return crm.create_record(self.s, owner, "lead", values)

    def cases(self, n: int) -> None:
        customers = [a for a in self.made.accounts if a.type == "Customer"] or self.made.accounts
        statuses = ["New", "Working", "Escalated", "Closed"]
        for _ in range(n):
            account = self.rng.choice(customers)
            contact = self.rng.choice(self.made.contacts.get(account.id) or [None])
            owner = self.owner(self.crew.support)
            template, feature = self.rng.choice(T.CASE_SUBJECTS), self.rng.choice(T.FEATURES)
            subject = template.format(feature=feature)
            values = {
                "subject": subject,
                "account_id": account.id,
                "contact_id": contact.id if contact else None,
                "priority": self.rng.choices(
                    ["Low", "Medium", "High", "Critical"], [25, 45, 22, 8]
                )[0],
                "origin": self.rng.choice(["Email", "Phone", "Web", "Chat"]),
            }
            values["description"] = crm_notes.case(self.words, values, contact, feature)
            target = self.rng.choices(statuses, weights=[20, 30, 10, 40])[0]
            created = self.at(self.ago(1, 60) if target != "Closed" else self.ago(20, 300))
            case = crm.create_record(self.s, owner, "case", values)
            self.case_progress(case, owner, target, created)
            self.made.cases.append(case)

    def case_progress(self, case: Case, owner: Person, target: str, created: dt.datetime) -> None:
        if target == "New":
            return
        tz = owner.timezone  # the case moves on in its owner's working hours
        self.at(within(self.between(created, created + 3 * DAY), tz, created, self.end))
        crm.update_record(self.s, owner, "case", case, {"status": "Working"})
        later = within(self.between(created + DAY, created + 20 * DAY), tz, created, self.end)
        if target == "Escalated":
            self.at(later)
            crm.escalate_case(self.s, owner, case, reason=self.rng.choice(T.ESCALATION_REASONS))
        elif target == "Closed":
            self.at(later)
            crm.close_case(self.s, owner, case, resolution=self.rng.choice(T.RESOLUTIONS))

    def activities(self, n: int) -> None:
        kinds = ["call", "meeting", "email", "task", "note"]
        pools: list[tuple[str, list[Any]]] = [
            ("opportunity", self.made.opportunities),
            ("account", self.made.accounts),
            ("contact", [c for cs in self.made.contacts.values() for c in cs]),
            ("lead", [x for x in self.made.leads if not x.is_converted]),
            ("case", self.made.cases),
        ]
        pools = [(rt, pool) for rt, pool in pools if pool]
        for _ in range(n):
            record_type, pool = self.rng.choices(pools, weights=[50, 20, 10, 10, 10][: len(pools)])[
                0
            ]
            record = self.rng.choice(pool)
            kind = self.rng.choices(kinds, weights=[30, 20, 25, 15, 10])[0]
            self.activity(record_type, record, kind)

    def activity(self, record_type: str, record: Any, kind: str) -> None:
        """An activity on `record` between its creation and its close (or now)."""
        closed = getattr(record, "closed_at", None)  # the clock ticks past it: a minute before
        end = min(self.end, closed - dt.timedelta(minutes=1) if closed else self.end)
        when = self.between(record.created_at, min(record.created_at + 120 * DAY, end))
        due, status = None, None
        if kind == "task":
            due = when.date() + self.rng.randint(1, 21) * DAY
            recent = due >= self.ctx.scenario.date.date() - 7 * DAY
            status = "Open" if recent and end == self.end else "Completed"
        owner = self.s.get_one(Person, record.owner_id)
        when = within(when, owner.timezone, record.created_at, end)
        if not is_working(when, owner.timezone):  # a short life: any working time in it
            when = pick(self.words, record.created_at, end, owner.timezone) or when
        self.at(when)
        subject = crm_notes.activity_subject(self.rng, record_type, kind)
        crm.log_activity(
            self.s,
            owner,
            record_type=record_type,
            record_id=record.id,
            kind=kind,
            subject=subject,
            body=crm_notes.activity(self.words, self.s, record_type, record, subject),
            due_date=due,
            status=status,
        )
