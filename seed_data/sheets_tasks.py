"""Workbooks the spreadsheet tasks work on, beside the company's own (`sheets.py`): a
product catalog whose orders need their prices looked up, a vendor list with duplicate
rows, regional sales kept on one sheet per region, and a direct message from a sales
rep asking the owner of the broken regional summary to fix it.

A random stream of its own, and it runs after everything else, so the rest of the
world is the same with or without it.
"""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person, Team
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.apps.slack import service as chat
from officegym.seed_data import sheets_text as T
from officegym.seed_data.context import SeedContext

ORDER = 46
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
VENDORS = [
    ("Acme Office Supply", "orders@acme-office.test", "Office"),
    ("Blue Ridge Catering", "events@blueridge.test", "Events"),
    ("Cloudline Hosting", "billing@cloudline.test", "Software"),
    ("Delta Print Co", "hello@deltaprint.test", "Marketing"),
    ("Evergreen Cleaning", "service@evergreen.test", "Facilities"),
    ("Fairway Travel", "agents@fairway.test", "Travel"),
    ("Granite Security", "desk@granite.test", "Facilities"),
    ("Harbor Legal LLP", "team@harborlegal.test", "Legal"),
    ("Ionic Labs", "accounts@ioniclabs.test", "Software"),
    ("Juniper Staffing", "talent@juniper.test", "Contractors"),
    ("Keystone Furniture", "sales@keystone.test", "Office"),
    ("Lumen Analytics", "ar@lumen.test", "Software"),
    ("Meridian Couriers", "dispatch@meridian.test", "Logistics"),
    ("Northstar Events", "book@northstar.test", "Events"),
    ("Orchid Design", "studio@orchid.test", "Marketing"),
]


def seed(s: Session, ctx: SeedContext) -> None:
    """Create the task workbooks (with the scenario's sheets on)."""
    if not ctx.scenario.sheets.damaged:
        return
    rng = random.Random(f"{ctx.scenario.name}:{ctx.seed}:sheets-tasks")
    clock = s.info["clock"]
    clock.set(ctx.scenario.date - dt.timedelta(days=2))
    people = list(s.scalars(select(Person).order_by(Person.id)))
    heads = {
        t: p for p in people for t in [s.get_one(Team, p.team_id).name] if p.title == f"Head of {t}"
    }
    catalog(s, rng, heads.get("Sales", people[0]))
    vendors(s, rng, heads.get("Finance", people[0]))
    regional(s, rng, heads.get("Sales", people[0]), ctx.scenario.date.year)
    clock.set(ctx.scenario.date - dt.timedelta(hours=3))
    fix_request(s, rng, heads.get("Sales", people[0]), people)
    clock.set(ctx.scenario.date - dt.timedelta(minutes=1))


def catalog(s: Session, rng: random.Random, owner: Person) -> None:
    """Orders without prices, and the price list on a sheet of its own."""
    wb = sheets.create_workbook(s, owner, "Product Catalog", ["Orders", "Prices"])
    prices = [["Product", "Category", "Unit Price"]]
    prices += [[p, c, price] for p, (c, price) in sorted(T.PRODUCTS.items())]
    sheets.write_range(s, owner, wb, "A1", prices, sheet="Prices")
    rows: list[list[object]] = [["Order ID", "Product", "Units", "Unit Price", "Total"]]
    for i in range(rng.randint(18, 26)):
        rows.append([f"PO-{2001 + i}", rng.choice(sorted(T.PRODUCTS)), rng.randint(1, 12)])
    sheets.write_range(s, owner, wb, "A1", rows, sheet="Orders")
    sheets.set_link_access(s, owner, wb, "editor")


def vendors(s: Session, rng: random.Random, owner: Person) -> None:
    """A vendor list pasted together from two exports: some vendors appear twice."""
    chosen = rng.sample(VENDORS, k=12)
    twice = rng.sample(chosen, k=4)
    rows = [list(v) for v in chosen + twice]
    rng.shuffle(rows)
    wb = sheets.create_workbook(s, owner, "Vendor List", ["Vendors"])
    sheets.write_range(s, owner, wb, "A1", [["Vendor", "Email", "Category"], *rows])
    sheets.set_link_access(s, owner, wb, "editor")


def regional(s: Session, rng: random.Random, owner: Person, year: int) -> None:
    """Monthly sales of last year, one sheet per region."""
    wb = sheets.create_workbook(s, owner, f"Regional Sales {year - 1}", list(T.ORDER_REGIONS))
    for region in T.ORDER_REGIONS:
        rows: list[list[object]] = [["Month", "Sales"]]
        rows += [[m, rng.randrange(20_000, 150_000, 500)] for m in MONTHS]
        sheets.write_range(s, owner, wb, "A1", rows, sheet=region)
    sheets.set_link_access(s, owner, wb, "editor")


ASKS = {
    "Regional Sales Summary": "the Regional Sales Summary shows #REF! for {region} instead of a "
    "total. Could you fix the formula?",
    "Support Tickets Weekly": "the totals in Support Tickets Weekly leave out the last weeks. "
    "Could you fix them so they cover every week?",
    "Q1 Marketing Spend": "the grand total in Q1 Marketing Spend no longer matches the rows; "
    "someone typed the number in. Could you replace it with a formula?",
}
REQUESTS_PER_REPORT = 20


def fix_request(s: Session, rng: random.Random, owner: Person, people: list[Person]) -> None:
    """Colleagues DM people who can edit the damaged workbooks (anyone: they are open to the
    company) asking them to fix what is broken."""
    region = _broken_region(s, owner)
    for name, ask in ASKS.items():
        if s.scalar(select(Workbook).where(Workbook.name == name)) is None:
            continue
        pairs = set()
        while len(pairs) < min(REQUESTS_PER_REPORT, len(people) // 2):
            asker, doer = rng.sample(people, 2)
            pairs.add((asker.id, doer.id))
        for asker_id, doer_id in sorted(pairs):
            asker, doer = s.get_one(Person, asker_id), s.get_one(Person, doer_id)
            dm = chat.open_dm(s, asker, [doer])
            text = f"Hi {doer.name.split()[0]}, " + ask.format(region=region)
            chat.post_message(s, asker, dm, text)


def _broken_region(s: Session, owner: Person) -> str:
    wb = s.scalar(select(Workbook).where(Workbook.name == "Regional Sales Summary"))
    if wb is None:
        return ""
    block = sheets.read_range(s, owner, wb, "Summary!A2:B5")
    return next((str(row[0]) for row in block.rows if row[1] == "#REF!"), "")
