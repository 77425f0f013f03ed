"""Long-horizon account review in a workbook: look up the open pipeline of each of your
accounts in the CRM, list them in a new workbook (one row per account) and send your
manager the total. Each account's row is its own sub-goal (see `longhaul.py`)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.checks import GradeContext, NewRowId, Predicate
from officegym.tasks.common import call, dm_step, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.sheets.formulas import cell_number
from officegym.tasks.sheets.perturb import Reader, final_book
from officegym.tasks.sheets.steps import new_workbook_step, read_call, write_call
from officegym.tasks.statements import Says, same_text
from officegym.tasks.steps import Step

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
        ok = len(found) == 1 and cell_number(found[0][1]) == amount
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
    made, workbook = new_workbook_step(me.id, name, tab, f"A1:B{n + 1}")  # header, an account each
    boss = idx.people[me.manager_id]
    rows: list[list[Any]] = [["Account", "Open pipeline"]]
    rows += [[a.name, amount[a.id]] for a in accounts]
    lookups = [call("crm_search_accounts", owner=me.handle, limit=50)]
    lookups += [
        call("crm_search_opportunities", account=a.id, open_only=True, limit=50) for a in accounts
    ]
    return Spec(
        goal=f'Account review: create a workbook named "{name}" with one sheet named "{tab}". '
        'Put a header row "Account", "Open pipeline", then one row for each CRM account you '
        "own: its name, and the total amount of the open opportunities on that account "
        "(0 if it has none). Then send your manager a direct message with the total open "
        "pipeline of all your accounts.",
        persona=me.handle,
        steps=[
            Step(calls=lookups),
            workbook,
            Step(
                calls=[
                    write_call(name, f"{tab}!A1", rows),
                    # Read the amounts back: the grid's status bar sums the selection (the total).
                    read_call(name, f"{tab}!B2:B{n + 1}"),
                ],
                checks=[
                    Predicate(
                        name=f"row for {a.name}", fn=_row_for(made, tab, a.name, amount[a.id], n)
                    )
                    for a in accounts
                ],
            ),
            dm_step(
                w,
                me,
                boss,
                f"The open pipeline of my accounts adds up to ${total:,}.",
                Says(amount=total, amounts_besides=sorted(set(amount.values())), act="report"),
                name=f"DM to {boss.name} with the total",
            ),
        ],
    )
