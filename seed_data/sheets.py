"""Seed the spreadsheets: workbooks of the same company as the chat and the CRM.

A pipeline export whose rows are the CRM's opportunities (regions, owners and amounts
agree), team budgets with actuals, expense reports of real people, a headcount plan
counted from the directory, a raw orders dataset for pivots, and three workbooks with
realistic damage: a formula showing #REF!, a hard-coded total that no longer matches
its rows, and a total whose range stops short of the data.

It runs after every other generator with a random stream of its own, so the rest of
the world is the same with or without it; it copes with any valid scenario (12 to 2000
people, an empty CRM).
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.crm.models import Account, Opportunity
from officegym.apps.org.models import Person, Team
from officegym.apps.sheets import service as sheets
from officegym.seed_data import sheets_text as T
from officegym.seed_data.context import SeedContext

ORDER = 45
MERCHANT_DRAW = 12  # one draw of this size per expense line keeps later workbooks' stream


def seed(s: Session, ctx: SeedContext) -> None:
    """Create every workbook the scenario's [sheets] section asks for."""
    params = ctx.scenario.sheets
    rng = random.Random(f"{ctx.scenario.name}:{ctx.seed}:sheets")
    day = ctx.scenario.date
    s.info["clock"].set(day - dt.timedelta(days=3))
    people = list(s.scalars(select(Person).order_by(Person.id)))
    heads = _heads(s, people)
    if params.sales_export:
        sales_export(s, heads.get("Sales", people[0]))
    if params.budgets:
        budgets(s, rng, heads, people[0], day.year)
    if params.expense_reports:
        expense_reports(s, rng, people, params.expense_reports, day)
    if params.headcount:
        headcount(s, rng, heads, people, day.year)
    if params.orders:
        orders(s, rng, heads, people, params.orders, day)
    if params.damaged:
        damaged(s, rng, heads, people, day)
    s.info["clock"].set(day - dt.timedelta(minutes=1))


def _heads(s: Session, people: list[Person]) -> dict[str, Person]:
    """Each team's head (``Head of <team>``) by team name."""
    teams = {t.id: t.name for t in s.scalars(select(Team))}
    out = {}
    for p in people:
        team = teams[p.team_id]
        if p.title == f"Head of {team}":
            out[team] = p
    return out


def _owner(heads: dict[str, Person], team: str, fallback: Person) -> Person:
    return heads.get(team, fallback)


def sales_export(s: Session, owner: Person) -> None:
    """The CRM's opportunities as a sheet, as a sales operations export would list them."""
    stmt = (
        select(
            Opportunity.name,
            Account.name,
            Account.billing_country,
            Person.name,
            Opportunity.stage,
            Opportunity.amount,
            Opportunity.close_date,
            Opportunity.probability,
        )
        .join(Account, Account.id == Opportunity.account_id)
        .join(Person, Person.id == Opportunity.owner_id)
        .order_by(Opportunity.id)
    )
    rows: list[list[object]] = [
        [
            "Opportunity",
            "Account",
            "Region",
            "Owner",
            "Stage",
            "Amount",
            "Close Date",
            "Probability",
        ]
    ]
    for name, account, country, who, stage, amount, close, prob in s.execute(stmt):
        region = T.REGION_OF_COUNTRY.get(country or "", "Other")
        rows.append([name, account, region, who, stage, amount or 0, close.isoformat(), prob / 100])
    wb = sheets.create_workbook(s, owner, "Pipeline Export", ["Opportunities"])
    sheets.write_range(s, owner, wb, "A1", rows)
    if len(rows) > 1:
        sheets.set_number_format(s, owner, wb, f"F2:F{len(rows)}", "currency_rounded")
        sheets.set_number_format(s, owner, wb, f"H2:H{len(rows)}", "percent")
    sheets.freeze_rows(s, owner, wb, sheets.sheet_named(s, wb, None), 1)
    sheets.set_link_access(s, owner, wb, "viewer")


def budgets(
    s: Session, rng: random.Random, heads: dict[str, Person], ceo: Person, year: int
) -> None:
    """Q1 budget and actuals per team and category, with variance formulas and totals."""
    owner = _owner(heads, "Finance", ceo)
    rows: list[list[object]] = [["Team", "Category", "Budget", "Actual", "Variance", "Variance %"]]
    for team in sorted(heads):
        for category, (lo, hi) in T.BUDGET_CATEGORIES.items():
            budget = rng.randrange(lo, hi, 500)
            actual = round(budget * rng.uniform(0.7, 1.25))
            r = len(rows) + 1
            rows.append([team, category, budget, actual, f"=D{r}-C{r}", f"=IF(C{r}=0,0,E{r}/C{r})"])
    n = len(rows)
    rows.append(
        [
            "Total",
            "",
            f"=SUM(C2:C{n})",
            f"=SUM(D2:D{n})",
            f"=D{n + 1}-C{n + 1}",
            f"=IF(C{n + 1}=0,0,E{n + 1}/C{n + 1})",
        ]
    )
    wb = sheets.create_workbook(s, owner, f"FY{year} Team Budgets", ["Q1"])
    sheets.write_range(s, owner, wb, "A1", rows)
    sheets.set_number_format(s, owner, wb, f"C2:E{n + 1}", "currency_rounded")
    sheets.set_number_format(s, owner, wb, f"F2:F{n + 1}", "percent_decimal")
    for _team, head in sorted(heads.items()):
        if head.id != owner.id:
            sheets.share_workbook(s, owner, wb, head, "viewer")


def expense_reports(
    s: Session, rng: random.Random, people: list[Person], count: int, day: dt.datetime
) -> None:
    """Last month's expense reports of some people, shared with their managers: last
    month's travellers first, their hotel and flight lines those of their real bookings
    (amounts, dates, confirmation codes), then meals, software and supplies."""
    staff = [p for p in people if p.manager_id is not None]
    month_end = day.date().replace(day=1) - dt.timedelta(days=1)
    trips = _trip_lines(s, staff, month_end)
    drawn = rng.sample(staff, k=min(count, len(staff)))
    travellers = [p for p in staff if trips.get(p.id)][:count]
    chosen = travellers + [p for p in drawn if p not in travellers][: count - len(travellers)]
    for person in chosen:
        rows: list[list[object]] = [["Date", "Category", "Merchant", "Amount", "Notes"]]
        for _ in range(rng.randint(5, 12)):
            category, (lo, hi) = rng.choice(sorted(T.EXPENSE_CATEGORIES.items()))
            when = month_end.replace(day=rng.randint(1, month_end.day))
            merchants = T.EXPENSE_MERCHANTS[category]
            merchant = merchants[rng.randrange(MERCHANT_DRAW) % len(merchants)]
            amount = round(rng.uniform(lo, hi))
            if category not in T.TRIP_CATEGORIES:  # travel lines come from real bookings
                rows.append([when.isoformat(), category, merchant, amount, ""])
        rows += trips.get(person.id, [])
        rows[1:] = sorted(rows[1:], key=lambda r: str(r[0]))
        n = len(rows)
        rows.append(["Total", "", "", f"=SUM(D2:D{n})", ""])
        wb = sheets.create_workbook(
            s, person, f"Expenses - {person.name} - {month_end:%B %Y}", ["Expenses"]
        )
        sheets.write_range(s, person, wb, "A1", rows)
        sheets.set_number_format(s, person, wb, f"D2:D{n + 1}", "currency")
        manager = s.get_one(Person, person.manager_id)
        sheets.share_workbook(s, person, wb, manager, "viewer")


def _trip_lines(
    s: Session, staff: list[Person], month_end: dt.date
) -> dict[int, list[list[object]]]:
    """Each person's expense lines for last month's confirmed stays (lodging, on the
    check-out date) and flights (travel, on the flight date), with their codes."""
    start = month_end.replace(day=1)
    out: dict[int, list[list[object]]] = {}
    for p in staff:
        lines: list[list[object]] = []
        for r in booking.list_stays(s, p):
            mine = r.status == "confirmed" and r.guest_id == p.id
            if mine and start <= r.check_in and r.check_out <= month_end:
                lines.append([r.check_out.isoformat(), "Lodging", r.listing.title,
                              r.total // 100, f"Stay {r.code}"])  # fmt: skip
        for f in booking.list_flights(s, p):
            if f.status == "confirmed" and start <= f.flight_date <= month_end:
                lines.append([f.flight_date.isoformat(), "Travel", f.route.airline,
                              f.total // 100, f"Flight {f.code} {f.route.number}"])  # fmt: skip
        if lines:
            out[p.id] = lines
    return out


def headcount(
    s: Session, rng: random.Random, heads: dict[str, Person], people: list[Person], year: int
) -> None:
    """Current head count per team (from the directory) and planned hires per quarter."""
    owner = _owner(heads, "People Operations", people[0])
    sizes = Counter(p.team_id for p in people)
    rows: list[list[object]] = [
        ["Team", "Head", "Current", "Q2 Hires", "Q3 Hires", "Q4 Hires", "Year End"]
    ]
    for team, head in sorted(heads.items()):
        r = len(rows) + 1
        hires = [rng.randint(0, 3) for _ in range(3)]
        rows.append([team, head.name, sizes[head.team_id], *hires, f"=SUM(C{r}:F{r})"])
    n = len(rows)
    rows.append(["Total", "", *[f"=SUM({c}2:{c}{n})" for c in "CDEFG"]])
    wb = sheets.create_workbook(s, owner, f"Headcount Plan {year}", ["Plan"])
    sheets.write_range(s, owner, wb, "A1", rows)
    sheets.set_link_access(s, owner, wb, "viewer")


def orders(
    s: Session,
    rng: random.Random,
    heads: dict[str, Person],
    people: list[Person],
    count: int,
    day: dt.datetime,
) -> None:
    """A raw export of last year's orders, one row per order, for pivots."""
    owner = _owner(heads, "Finance", people[0])
    sellers = [
        p.name for p in people if heads.get("Sales") and p.team_id == heads["Sales"].team_id
    ] or [p.name for p in people[:8]]
    start = dt.date(day.year - 1, 1, 1)
    rows: list[list[object]] = []
    for _ in range(count):
        product = rng.choice(sorted(T.PRODUCTS))
        category, price = T.PRODUCTS[product]
        units = rng.randint(1, 20)
        when = start + dt.timedelta(days=rng.randrange(365))
        rows.append(
            [
                when.isoformat(),
                rng.choice(T.ORDER_REGIONS),
                product,
                category,
                rng.choice(sellers),
                units,
                price,
                units * price,
            ]
        )
    rows.sort(key=lambda r: str(r[0]))
    table: list[list[object]] = [list(T.ORDER_HEADERS)]
    table += [[f"SO-{10001 + i}", *r] for i, r in enumerate(rows)]
    wb = sheets.create_workbook(s, owner, f"Orders {day.year - 1}", ["Orders"])
    sheets.write_range(s, owner, wb, "A1", table)
    sheets.set_number_format(s, owner, wb, f"H2:I{len(table)}", "currency_rounded")
    sheets.freeze_rows(s, owner, wb, sheets.sheet_named(s, wb, None), 1)
    sheets.set_link_access(s, owner, wb, "viewer")


def damaged(
    s: Session, rng: random.Random, heads: dict[str, Person], people: list[Person], day: dt.datetime
) -> None:
    """Three workbooks with the damage real ones accumulate."""
    _ref_error(s, rng, _owner(heads, "Sales", people[0]))
    _stale_total(s, rng, _owner(heads, "Marketing", people[0]))
    _short_range(s, rng, _owner(heads, "Customer Support", people[0]), day)


def _ref_error(s: Session, rng: random.Random, owner: Person) -> None:
    """Regional totals by SUMIF, one of which lost its range (#REF!)."""
    wb = sheets.create_workbook(s, owner, "Regional Sales Summary", ["Summary", "Deals"])
    deals: list[list[object]] = [["Region", "Amount"]]
    for _ in range(rng.randint(14, 24)):
        deals.append([rng.choice(T.ORDER_REGIONS), rng.randrange(5_000, 120_000, 500)])
    sheets.write_range(s, owner, wb, "A1", deals, sheet="Deals")
    n = len(deals)
    broken = rng.randrange(len(T.ORDER_REGIONS))
    rows: list[list[object]] = [["Region", "Total"]]
    for i, region in enumerate(T.ORDER_REGIONS):
        r = i + 2
        rng_ref = "#REF!" if i == broken else f"Deals!A2:A{n}"
        rows.append([region, f"=SUMIF({rng_ref},A{r},Deals!B2:B{n})"])
    rows.append(["Total", f"=SUM(B2:B{len(T.ORDER_REGIONS) + 1})"])
    sheets.write_range(s, owner, wb, "A1", rows, sheet="Summary")
    sheets.set_link_access(s, owner, wb, "editor")


def _stale_total(s: Session, rng: random.Random, owner: Person) -> None:
    """Monthly spend per channel whose grand total was typed in and is now wrong."""
    wb = sheets.create_workbook(s, owner, "Q1 Marketing Spend", ["Spend"])
    rows: list[list[object]] = [["Channel", "Jan", "Feb", "Mar", "Q1 Total"]]
    for ch in T.CHANNELS:
        r = len(rows) + 1
        rows.append(
            [ch, *[rng.randrange(2_000, 30_000, 100) for _ in range(3)], f"=SUM(B{r}:D{r})"]
        )
    n = len(rows)
    true_total = sum(sum(int(v) for v in r[1:4]) for r in rows[1:])  # type: ignore[call-overload]
    stale = true_total - rng.randrange(1_000, 9_000, 100)
    rows.append(["Total", f"=SUM(B2:B{n})", f"=SUM(C2:C{n})", f"=SUM(D2:D{n})", stale])
    sheets.write_range(s, owner, wb, "A1", rows)
    sheets.set_number_format(s, owner, wb, f"B2:E{n + 1}", "currency_rounded")
    sheets.set_link_access(s, owner, wb, "editor")


def _short_range(s: Session, rng: random.Random, owner: Person, day: dt.datetime) -> None:
    """Weekly ticket counts whose total stops four weeks short of the data."""
    wb = sheets.create_workbook(s, owner, "Support Tickets Weekly", ["Weekly"])
    rows: list[list[object]] = [["Week of", "Opened", "Closed"]]
    monday = day.date() - dt.timedelta(days=day.weekday() + 7 * 13)
    for w in range(13):
        rows.append(
            [(monday + dt.timedelta(weeks=w)).isoformat(), rng.randint(20, 90), rng.randint(20, 90)]
        )
    stop = len(rows) - 4
    rows.append(["Total", f"=SUM(B2:B{stop})", f"=SUM(C2:C{stop})"])
    sheets.write_range(s, owner, wb, "A1", rows)
    sheets.set_link_access(s, owner, wb, "editor")
