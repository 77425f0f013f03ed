"""Cross-app templates between the spreadsheet, the CRM and the chat: a rep's pipeline
from the CRM into a new workbook, a workbook's true total posted to a channel, a team's
worst budget overrun reported to its head's manager, an expense report's total sent to
one's manager (a broken report fixed at a colleague's request is `sheet_fixes.py`)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.slack.models import Channel
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.checks import GradeContext, NewRowId
from officegym.tasks.common import call, dm_step, people_rows, pick, post_step
from officegym.tasks.crm.common import crm_index
from officegym.tasks.facts import choice
from officegym.tasks.mutants import Equivalent, name_facts
from officegym.tasks.sheets.common import BUDGETS, book_of, grid, sheets_index, used_rows
from officegym.tasks.sheets.formulas import _num
from officegym.tasks.sheets.perturb import Computes, Reader, final_book, follows
from officegym.tasks.sheets.steps import new_workbook_step, read_call, write_call
from officegym.tasks.slack.common import member_ids
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

APPS = ["sheets", "crm", "slack"]
SPEND = "Q1 Marketing Spend"


def _pipeline_sheet(made: NewRowId, deals: list[Any], tab: str):
    """The new workbook's Deals sheet lists exactly the deals, then a Total that sums them."""
    want = sorted((d.name, d.stage, float(d.amount or 0)) for d in deals)
    n = len(deals)

    def check(g: GradeContext) -> tuple[bool, str]:
        wb_id = made.resolve(g)
        if wb_id is None:
            return False, "no such workbook was created"
        r = Reader(final_book(g, wb_id))
        rows = r.grid(tab, f"A1:C{n + 2}")
        body = sorted((str(a), str(b), _num(c)) for a, b, c in rows[1 : n + 1])
        if [str(x).lower() for x in rows[0]] != ["opportunity", "stage", "amount"] or body != want:
            return False, f"the Deals rows differ from the CRM's open deals ({len(body)} rows read)"

        def total(x: Reader) -> list[list[Any]]:
            return [["Total", None, sum(_num(v) for v in x.column(tab, f"C2:C{n + 1}"))]]

        return follows(g, wb_id, (tab, f"A{n + 2}:C{n + 2}"), total, [[(tab, "C2", 1234567)]])

    return check


@template("cross.pipeline-to-sheet", difficulty="hard", apps=APPS)
def pipeline_to_sheet(w: Session, rng: random.Random) -> Spec:
    """Copy your open CRM deals into a new workbook with a live total."""
    idx = crm_index(w)
    reps = [p for p in idx.with_role("rep", idx.sales) if 1 <= len(idx.open_opps(p.id)) <= 40]
    me = pick(rng, reps, "sales reps with a few open deals")
    deals = sorted(idx.open_opps(me.id), key=lambda o: o.id)
    first = me.name.split()[0]
    names = [
        f"Pipeline - {me.name}",
        "My open pipeline",
        f"{first}'s deals",
        f"Open deals - {first}",
        "Pipeline review",
        f"{first} pipeline",
    ]
    name, tab = rng.choice(names), rng.choice(["Deals", "Pipeline", "Open"])
    n = len(deals)
    made, workbook = new_workbook_step(me.id, name, tab, f"A1:C{n + 2}")  # header, deals, total
    rows = [["Opportunity", "Stage", "Amount"], *([d.name, d.stage, d.amount or 0] for d in deals)]
    rows.append(["Total", None, f"=SUM(C2:C{n + 1})"])
    search = call("crm_search_opportunities", owner=me.handle, open_only=True, limit=100)
    filled = _pipeline_sheet(made, deals, tab)
    return Spec(
        goal=f'Create a workbook named "{name}" with one sheet named "{tab}": a header row '
        '"Opportunity", "Stage", "Amount", then one row per open opportunity of yours in the CRM, '
        'then a row "Total" whose Amount cell is a formula adding up the amounts above it.',
        persona=me.handle,
        steps=[
            Step(calls=[search]),
            workbook,
            Step(
                calls=[write_call(name, f"{tab}!A1", rows)],
                checks=[
                    Computes(
                        name="the deals and a live total",
                        fn=filled,
                        workbook=made,
                        target=(tab, f"C{n + 2}"),
                    )
                ],
            ),
        ],
    )


def _channel(w: Session, name: str) -> Any:
    return w.scalars(select(Channel).where(Channel.name == name)).one()


def _team_channel(w: Session, person: Any) -> Any:
    """The channel of `person`'s team (the head of marketing's #marketing), or #general
    where the team has none (a company without a marketing team gives the workbook to
    its leadership)."""
    from officegym.apps.org.models import Team

    slug = w.scalar(select(Team.slug).where(Team.id == person.team_id))
    found = w.scalar(select(Channel).where(Channel.name == slug, Channel.kind == "public"))
    return found if found is not None else _channel(w, "general")


@template("cross.sheet-total-to-chat", difficulty="medium", apps=["sheets", "slack"])
def sheet_total_to_chat(w: Session, rng: random.Random) -> Spec:
    """Post a figure of the marketing spend workbook (its true totals, not the stale grand
    total cell) in the team channel."""
    book = book_of(w, SPEND)
    last = used_rows(w, book, "Spend")
    rows = grid(w, book, f"Spend!A2:D{last - 1}")
    channels = [str(r[0]) for r in rows]
    col = rng.choice([1, 2, 3, None])
    month = {1: "January", 2: "February", 3: "March"}.get(col or 0)
    k = rng.choice([None, *range(len(rows))])
    picked = rows if k is None else [rows[k]]
    true = int(sum(_num(r[c]) for r in picked for c in ((col,) if col else (1, 2, 3))))
    channel = _team_channel(w, book.owner)
    people = {p.id: p for p in people_rows(w)}
    me = people[rng.choice(sorted(member_ids(w, channel.id)))]
    period = month or "Q1"
    on = f" on {channels[k]}" if k is not None else ""
    what = f"{period} marketing spend{on}"
    top, bottom = (2, last - 1) if k is None else (k + 2, k + 2)
    cols = "BD" if col is None else "BCD"[col - 1] * 2
    facts = _period(month) + ([choice(channels[k], channels)] if k is not None else [])
    return Spec(
        goal=f'Post the total {what} in #{channel.name}, added up from the channel rows of the "Q1 '
        'Marketing Spend" workbook (its grand total cell is known to be stale).',
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    read_call(SPEND, f"Spend!A1:E{last}"),
                    read_call(SPEND, f"Spend!{cols[0]}{top}:{cols[1]}{bottom}"),
                ]
            ),
            post_step(
                me,
                channel.id,
                f"The {what} comes to ${true:,}.",
                Says(amount=true, act="report", facts=facts),
                name=f"the {what} posted",
                channel=channel.name,
            ),
        ],
    )


def _period(month: str | None) -> list[Any]:
    """The month (or the quarter) the posted total covers."""
    if month is None:
        return [
            choice(
                "Q1",
                {"Q1": ("quarter", "first quarter"), "January": (), "February": (), "March": ()},
            )
        ]
    return [choice(month, ["January", "February", "March", "Q1"])]


@template("cross.budget-overrun-to-manager", difficulty="medium", apps=["sheets", "slack"])
def budget_overrun_to_manager(w: Session, rng: random.Random) -> Spec:
    """Find your team's budget line furthest over (or with most left) and DM your manager."""
    book = book_of(w, BUDGETS)
    last = used_rows(w, book, "Q1") - 1
    rows = grid(w, book, f"Q1!A2:D{last}")
    people = {p.id: p for p in people_rows(w)}
    heads = {
        p.title.removeprefix("Head of "): p
        for p in people.values()
        if p.title.startswith("Head of ")
    }
    team = pick(rng, sorted({str(r[0]) for r in rows if r[0] in heads}), "teams with budgets")
    mine = [r for r in rows if r[0] == team]
    kinds = ["left", "spent", "least"] + (
        ["over"] if any(_num(r[3]) > _num(r[2]) for r in mine) else []
    )
    kind = rng.choice(kinds)
    gaps = {r[1]: _num(r[3]) - _num(r[2]) for r in mine}
    key = {
        "over": lambda r: gaps[r[1]],
        "left": lambda r: -gaps[r[1]],
        "spent": lambda r: _num(r[3]),
        "least": lambda r: -_num(r[3]),
    }[kind]
    line = max(mine, key=key)
    gap = int(_num(line[3]) if kind in ("spent", "least") else abs(gaps[line[1]]))
    me, boss = heads[team], people[heads[team].manager_id]
    finance = heads.get("Finance")
    to_whom = "your manager"
    if finance is not None and finance.id != me.id and rng.random() < 0.5:
        boss, to_whom = finance, "the Head of Finance (who owns the workbook)"
    categories = sorted({str(r[1]) for r in rows})
    how = {
        "over": "went furthest over its Q1 budget",
        "left": "has the most Q1 budget left unspent",
        "spent": "your team spent the most on in Q1",
        "least": "your team spent the least on in Q1",
    }[kind]
    amount = {
        "over": "the amount over budget",
        "left": "the amount left",
        "spent": "the amount spent",
        "least": "the amount spent",
    }[kind]
    by = {"over": "over budget", "left": "left", "spent": "spent", "least": "spent"}[kind]
    return Spec(
        goal=f'Look up your team\'s lines in the "{book.name}" workbook, find the category '
        f"that {how}, and send {to_whom} a direct message naming that category and {amount} "
        "in dollars.",
        persona=me.handle,
        steps=[
            Step(calls=[read_call(book, f"Q1!A1:F{last + 1}")]),
            dm_step(
                w,
                me,
                boss,
                f"{team} Q1 budget: {line[1]} is ${gap:,} {by}.",
                Says(
                    facts=[choice(str(line[1]), categories)],
                    amount=gap,
                    act="report",
                    amounts_besides=[
                        a for a in (int(_num(line[2])), int(_num(line[3]))) if a != gap
                    ],
                ),
                name=f"DM to {boss.name} with {line[1]} and ${gap:,}",
                lone=True,
                equivalent=[
                    Equivalent(
                        "text.drop-fact",
                        "the team is the sender's own; naming it is optional",
                        tool="slack_send_dm",
                        words=("Q1",),
                    )
                ],
            ),
        ],
    )


@template(
    "cross.expense-total-to-manager",
    difficulty="easy",
    apps=["sheets", "slack"],
    # hops: your manager, or your manager's manager; by_category: a category's total only
    knobs={"hops": (1, 2, 2), "by_category": (False, False, True)},
)
def expense_total_to_manager(w: Session, rng: random.Random, level: Level) -> Spec:
    """Send your manager (harder: your manager's manager) the total of your expense report
    (or of one category in it; hard: a category's, found with a filter)."""
    reports = [b for n, b in sorted(sheets_index(w).items()) if n.startswith("Expenses - ")]
    by_id = {p.id: p for p in people_rows(w)}
    if level.hops > 1:
        reports = [b for b in reports if len(_bosses(by_id, b.owner.id)) >= level.hops]
    book = pick(rng, reports, "expense reports")
    me = book.owner
    up = _bosses(by_id, me.id)[: level.hops]
    boss = up[-1]
    last = used_rows(w, book, "Expenses") - 1
    lines = grid(w, book, f"Expenses!B2:D{last}")
    categories = sorted({str(c) for c, _, _ in lines})
    category = rng.choice(
        categories if level.by_category else [None, "largest", "smallest", *categories]
    )
    if category in ("largest", "smallest"):
        pick_one = max if category == "largest" else min
        biggest = pick_one(lines, key=lambda x: _num(x[2]))
        amounts = [int(_num(a)) for _, _, a in lines]
        total = int(_num(biggest[2]))
        what, facts = f"your {category} single expense in", []
        text = f"My {category} expense was ${total:,} ({biggest[1]})."
        named = name_facts(biggest[1], "the merchant only places the expense; the amount "
                           "is what is asked", "slack_send_dm")  # fmt: skip
    else:
        amounts = [int(_num(a)) for c, _, a in lines if category in (None, c)]
        total = sum(amounts)
        what = (
            f"the total of your {category} expenses in"
            if category
            else "the total of your expense report"
        )
        facts = [choice(category, categories)] if category else []
        text = f"The total of my {category + ' ' if category else ''}expenses is ${total:,}."
        named = []
    whom = "the manager of " * (level.hops - 1) + "your manager"
    looks = [call("slack_get_person", person=p.handle) for p in (me, *up[:-1]) if level.hops > 1]
    filter_by = call(
        "sheets_filter_rows",
        workbook=book.name,
        range=f"Expenses!B1:D{last}",
        column="B",
        condition=category,
    )
    filters = [filter_by] if category in categories else []
    return Spec(
        goal=f'Send {whom} a direct message with {what} "{book.name}".',
        persona=me.handle,
        steps=[
            Step(calls=[*looks, read_call(book, f"Expenses!A1:E{last + 1}"), *filters]),
            dm_step(
                w,
                me,
                boss,
                text,
                Says(
                    amount=total,
                    amounts_besides=[a for a in amounts if a != total],
                    act="report",
                    facts=facts,
                ),
                name=f"DM to {boss.name} with ${total:,}",
                lone=True,
                equivalent=named,
            ),
        ],
    )


def _bosses(by_id: dict[int, Any], person_id: int) -> list[Any]:
    """`person_id`'s manager, that manager's manager, and so on up the org chart."""
    out: list[Any] = []
    boss_id = by_id[person_id].manager_id
    while boss_id is not None and boss_id in by_id and all(b.id != boss_id for b in out):
        out.append(by_id[boss_id])
        boss_id = by_id[boss_id].manager_id
    return out
