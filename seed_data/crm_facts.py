"""Facts of seeded CRM records derived from others: an account's web domain, an open
deal's expected close date."""

from __future__ import annotations

import datetime as dt
import re

from officegym.apps.crm.models import STAGES

DAY = dt.timedelta(days=1)


def close_date(target: str, created: dt.datetime, today: dt.date, days: int) -> dt.date:
    """An open deal's expected close: ahead in the early stages, slipped past today for
    some later ones, never before the deal existed (closing sets a closed deal's own)."""
    if target in STAGES[:2]:
        return today + (abs(days) + 7) * DAY
    if target in STAGES[2:5]:
        return max(today + (days - 40) * DAY, created.date() + 14 * DAY)
    return today + days * DAY


def domain(company: str) -> str:
    """'acme.example' for 'Acme Group' (accounts' websites and their contacts' emails)."""
    words = re.sub(r"[^a-z0-9 ]", "", company.lower()).split()
    stop = {"and", "inc", "llc", "ltd", "plc", "group", "sons"}
    core = [w for w in words if w not in stop][:2] or words[:1] or ["example"]
    return "".join(core) + ".example"
