"""The free text of seeded CRM records, written from each record's own facts (its
account, contact, product, amount, source) by the phrase grammar of `crm_text`, with a
random stream of its own so the records themselves are drawn as before."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.crm.models import Account, Case, Contact, Lead, Opportunity
from officegym.seed_data import crm_case_text as C
from officegym.seed_data import crm_text as T

CORE = ["Analytics Platform", "Data Warehouse Add-on", "Embedded Dashboards", "Forecasting Module"]


def _who(contact: Contact | None, fallback: str) -> str:
    """'Dana Reyes (CFO)', or `fallback` when the record has no contact."""
    if contact is None:
        return fallback
    title = f" ({contact.title})" if contact.title else ""
    return f"{contact.first_name} {contact.last_name}{title}"


def _product(opp_name: str) -> str:
    """The product an opportunity named '<account> - <product>' is about, as a phrase."""
    tail = opp_name.rsplit(" - ", 1)[-1]
    return T.PRODUCT_PHRASES.get(tail, T.PRODUCT_PHRASES["Analytics Platform"])


def account(rng: random.Random, values: dict[str, Any], year: int) -> str:
    """An account's description from its industry, type, city and size."""
    industry = values["industry"]
    facts = {
        "industry": industry,
        "industry_lower": industry.lower(),
        "city": values["billing_city"],
        "employees": f"{values['employees']:,}",
        "product": T.PRODUCT_PHRASES[rng.choice(CORE)],
        "since": str(year - rng.randint(1, 5)),
    }
    return T.prose(rng.choice(T.ACCOUNT_LINES[values["type"]]), rng, facts)


def opportunity(rng: random.Random, values: dict[str, Any], acct: Account,
                contact: Contact | None) -> str:  # fmt: skip
    """An opportunity's description: who wants which product, why, how big, from where."""
    facts = {
        "who": _who(contact, f"The team at {acct.name}"),
        "account": acct.name,
        "product": _product(values["name"]),
        "amount": f"${values['amount']:,}",
        "source": T.SOURCE_PHRASES.get(values["lead_source"], "the website"),
        "kind": "Expansion" if values["type"] == "Existing Business" else "New-business",
    }
    return T.prose(rng.choice(T.OPPORTUNITY_LINES), rng, facts)


def case_facts(subject: str, feature: str) -> dict[str, Any]:
    """The words a case's texts use about its problem: the symptoms of its subject."""
    for template, facts in C.CASE_FACTS.items():
        if template.format(feature=feature) == subject:
            return {**facts, "feature": feature}
    return {"feature": feature}


def case(rng: random.Random, values: dict[str, Any], contact: Contact | None,
         feature: str) -> str:  # fmt: skip
    """A case's description: who reported what (the problem its subject names), through
    which channel, how bad it is (as its priority says), what was tried."""
    facts = {
        "who": _who(contact, "The customer"),
        "origin": values["origin"].lower(),
        "priority": values["priority"].lower(),
        "impact": C.IMPACT[values["priority"]],
        **case_facts(values["subject"], feature),
    }
    return T.prose(rng.choice(T.CASE_LINES), rng, facts)


def activity_subject(rng: random.Random, record_type: str, kind: str) -> str:
    """An activity's subject (a case's from the support team's own subjects)."""
    subjects = T.CASE_ACTIVITY_SUBJECTS if record_type == "case" else T.ACTIVITY_SUBJECTS
    return rng.choice(subjects[kind])


def activity(rng: random.Random, s: Session, record_type: str, record: Any, subject: str) -> str:
    """An activity's note, saying what its subject names about the record it is on."""
    facts = {"subject": subject, **_record_facts(s, record_type, record)}
    lines = T.CASE_ACTIVITY_LINES if record_type == "case" else T.ACTIVITY_LINES
    return T.prose(rng.choice(lines[subject]), rng, facts)


def _record_facts(s: Session, record_type: str, record: Any) -> dict[str, str]:
    """The words a note can use about its record: who, what it is called, its account."""
    if isinstance(record, Lead):
        who = f"{record.first_name} {record.last_name}"
        return {
            "who": who,
            "record": f"{record.company}'s evaluation",
            "account": record.company,
            "product": T.PRODUCT_PHRASES["Analytics Platform"],
            "step": "a discovery call",
            "amount": "the standard tier",
            "industry_lower": (record.industry or "").lower(),
        }
    acct = record if isinstance(record, Account) else s.get(Account, record.account_id or 0)
    name = acct.name if acct else "the customer"
    contact = record if isinstance(record, Contact) else None
    if isinstance(record, (Opportunity, Case)) and record.contact_id:
        contact = s.get(Contact, record.contact_id)
    facts = {
        "who": _who(contact, f"the team at {name}").split(" (")[0],
        "account": name,
        "record": f"the {name} account",
        "product": T.PRODUCT_PHRASES["Analytics Platform"],
        "step": "a check-in next month",
        "amount": "the renewal price",
        "industry_lower": (acct.industry or "").lower() if acct else "",
    }
    if isinstance(record, Opportunity):
        facts |= {
            "record": record.name,
            "product": _product(record.name),
            "step": record.next_step.lower() or facts["step"],
            "amount": f"${record.amount:,}" if record.amount else facts["amount"],
        }
    elif isinstance(record, Case):
        facts["record"] = f"case {record.number} ({record.subject})"
        feature = next((f for f in T.FEATURES if f in record.subject), "")
        facts |= case_facts(record.subject, feature)
    return facts
