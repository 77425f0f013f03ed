"""Size of what an agent reads of the CRM's pages: the browser env's observation text
(``axtree``, as `read_page` gives it) and Playwright's ``locator('body').aria_snapshot()``,
in characters, for the start page (as a reset opens it), an opportunity's record page (one
the persona owns, so its stage path and actions show), the reports page and a report
built by stage.

Issue 22 asks that the start page's tree grow no longer; this prints the figures.

    python bench/crm_pages.py
"""

from __future__ import annotations

from page_sizes import sizes
from sqlalchemy import select

from officegym.apps.crm.models import Opportunity
from officegym.apps.org.models import Person
from officegym.gym.browser_env import BrowserEnv

TASK = {"task": "crm.advance-stage", "task_seed": 0}


def owned_opportunity(env: BrowserEnv) -> int:
    """The smallest id of an open opportunity the task's persona owns."""
    assert env.task is not None
    with env.world.session() as s:
        me = s.scalars(select(Person.id).where(Person.handle == env.task.persona)).one()
        stmt = select(Opportunity.id).where(
            Opportunity.owner_id == me, Opportunity.closed_at.is_(None)
        )
        return int(s.scalars(stmt.order_by(Opportunity.id)).first() or 1)


def main() -> None:
    env = BrowserEnv(app="crm", max_steps=10)
    env.reset(options=TASK)
    opportunity = f"/crm/opportunities/{owned_opportunity(env)}"
    paths = (None, opportunity, "/crm/reports", "/crm/reports/build?group=stage&summary=sum")
    print("CRM pages: characters an agent reads (env text, aria_snapshot)")
    for path in paths:
        text, aria = sizes(env, path)
        print(f"  {path or 'start page':<44} env text {text:6d}   aria_snapshot {aria:6d}")
    env.close()


if __name__ == "__main__":
    main()
