"""Long-horizon account review in a workbook: look up the open pipeline of each of your
accounts in the CRM, list them in a new workbook (one row per account) and send your
manager the total. Each account's row is its own sub-goal (see `longhaul.py`)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Check, GradeContext, NewRowId, Predicate
from officegym.tasks.common import allow_dm_to, call, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.sheets.common import allow_new_workbook
from officegym.tasks.sheets.formulas import _num
from officegym.tasks.sheets.perturb import Reader, final_book
from officegym.tasks.slack.said import Said
from officegym.tasks.statements import Says, same_text

TABS = ("Accounts", "Pipeline", "Review", "By account")


def _row_for(made: NewRowId, tab: str, account: str, amount: int, rows: int):
    """Check: the new workbook's sheet `tab` has a row (below the header) whose column A
    names `account` and whose column B holds `amount`."""

    def check(g: GradeContext) -> tuple[bool, str]:
        wb_id = made.resolve(g)
        if wb_id is None:
            return False, "no such workbook was created"
        try:
            grid = Reader(final_book(g, wb_id)).grid(tab, f"A2:B{rows + 11}")
        except Exception as exc:  # a sheet of another name: the check reads nothing
            return False, f"cannot read sheet {tab!r}: {exc}"
        found = [r for r in grid if same_text(str(r[0] or ""), account)]
        if not found:
            return False, f"no row for {account}"
        ok = len(found) == 1 and _num(found[0][1]) == amount
        return ok, f"{len(found)} row(s) for {account}, amount {found[0][1]!r}"

    return check


@template(
    "cross.account-pipeline-sheet",
    difficulty="hard",
    apps=["crm", "sheets", "slack"],
    needs="reps who own many accounts",
)
def account_pipeline_sheet(w: Session, rng: random.Random) -> Spec:
    """List your accounts' open pipeline in a new workbook; DM your manager the total.

    A CRM look-up per account; each account's row is a sub-goal."""
    idx = crm_index(w)
    reps = [
        p
        for p in idx.with_role("rep", idx.sales)
        if p.manager_id and 16 <= sum(a.owner_id == p.id for a in idx.accounts) <= 45
    ]
    me = pick(rng, reps, "reps with many accounts")
    accounts = [a for a in idx.accounts if a.owner_id == me.id]
    amount = {
        a.id: sum(o.amount or 0 for o in idx.open_opps() if o.account_id == a.id) for a in accounts
    }
    total = sum(amount.values())
    first = me.name.split()[0]
    name = rng.choice(
        [
            f"Account pipeline - {first}",
            f"{first}'s accounts",
            "Account review",
            f"Pipeline by account - {first}",
            "My accounts",
        ]
    )
    tab = rng.choice(TABS)
    n = len(accounts)
    made, allowed = allow_new_workbook(me.id, name, f"A1:B{n + 1}")  # header, an account each
    boss = idx.people[me.manager_id]
    checks: list[Check] = [
        Predicate(name=f"row for {a.name}", fn=_row_for(made, tab, a.name, amount[a.id], n))
        for a in accounts
    ]
    checks.append(
        Said(
            name=f"DM to {boss.name} with the total",
            author_id=me.id,
            dm_to=boss.id,
            says=Says(amount=total, amounts_besides=sorted(set(amount.values())), act="report"),
        )
    )
    rows: list[list[Any]] = [["Account", "Open pipeline"]]
    rows += [[a.name, amount[a.id]] for a in accounts]
    return Spec(
        goal=f'Account review: create a workbook named "{name}" with one sheet named "{tab}". '
        'Put a header row "Account", "Open pipeline", then one row for each CRM account you '
        "own: its name, and the total amount of the open opportunities on that account "
        "(0 if it has none). Then send your manager a direct message with the total open "
        "pipeline of all your accounts.",
        persona=me.handle,
        checks=checks,
        allowed=[*allowed, *allow_dm_to(w, me, boss)],
        solution=[
            call("crm_search_accounts", owner=me.handle, limit=50),
            *[
                call("crm_search_opportunities", account=a.id, open_only=True, limit=50)
                for a in accounts
            ],
            call("sheets_create_workbook", name=name, sheets=[tab]),
            call("sheets_write_range", workbook=name, range=f"{tab}!A1", values=rows),
            # Read the amounts back: the grid's status bar sums the selection (the total).
            call("sheets_read_range", workbook=name, range=f"{tab}!B2:B{n + 1}"),
            call(
                "slack_send_dm",
                people=[boss.handle],
                text=f"The open pipeline of my accounts adds up to ${total:,}.",
            ),
        ],
    )
