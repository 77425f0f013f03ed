"""CRM state, shaped after Salesforce's standard objects.

Owners are `org_person` rows of the shared directory; a person's CRM role
(rep, manager, admin) is one `crm_user_role` row. Activities attach to any record
through (record_type, record_id); every field change is one `crm_field_history` row.
Enumerations are `Literal` types; their allowed values are the tuples beside them.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, get_args

from sqlalchemy import BigInteger, Date, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from officegym.apps.org.models import Person
from officegym.db import CLOCK, DERIVED, Base, intpk

Role = Literal["rep", "manager", "admin"]
RecordType = Literal["account", "contact", "lead", "opportunity", "case"]
Industry = Literal[
    "Technology", "Finance", "Healthcare", "Manufacturing", "Retail", "Education",
    "Media", "Energy", "Government", "Hospitality", "Transportation", "Telecommunications",
]  # fmt: skip
AccountType = Literal["Prospect", "Customer", "Partner", "Other"]
LeadStatus = Literal["New", "Working", "Nurturing", "Unqualified", "Converted"]
LeadSource = Literal[
    "Web", "Referral", "Partner", "Trade Show", "Cold Call", "Advertisement", "Webinar"
]
Rating = Literal["Hot", "Warm", "Cold"]
Stage = Literal[
    "Prospecting", "Qualification", "Needs Analysis", "Proposal", "Negotiation",
    "Closed Won", "Closed Lost",
]  # fmt: skip
OpportunityType = Literal["New Business", "Existing Business", "Renewal"]
LossReason = Literal["Price", "Competitor", "No Budget", "No Decision", "Timing", "Product Fit"]
ActivityKind = Literal["call", "meeting", "email", "task", "note"]
ActivityStatus = Literal["Open", "Completed"]
CaseStatus = Literal["New", "Working", "Escalated", "Closed"]
CasePriority = Literal["Low", "Medium", "High", "Critical"]
CaseOrigin = Literal["Email", "Phone", "Web", "Chat"]

ROLES: tuple[Role, ...] = get_args(Role)
RECORD_TYPES: tuple[RecordType, ...] = get_args(RecordType)
STAGES: tuple[Stage, ...] = get_args(Stage)
OPEN_STAGES: tuple[Stage, ...] = STAGES[:5]
CLOSED_STAGES: tuple[Stage, ...] = STAGES[5:]
# Default probability (percent) of each stage, as in Salesforce's standard pipeline.
STAGE_PROBABILITY: dict[Stage, int] = {
    "Prospecting": 10,
    "Qualification": 20,
    "Needs Analysis": 30,
    "Proposal": 60,
    "Negotiation": 80,
    "Closed Won": 100,
    "Closed Lost": 0,
}
CASE_STATUSES: tuple[CaseStatus, ...] = get_args(CaseStatus)
CASE_PRIORITIES: tuple[CasePriority, ...] = get_args(CasePriority)


def _owner() -> Mapped[int]:
    return mapped_column(ForeignKey("org_person.id"), index=True)


class UserRole(Base):
    """A person's CRM role; people without a row have no CRM access."""

    __tablename__ = "crm_user_role"

    id: Mapped[intpk]
    person_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"), unique=True)
    role: Mapped[str] = mapped_column(String(10))

    person: Mapped[Person] = relationship(viewonly=True)


class Account(Base):
    __tablename__ = "crm_account"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(120), unique=True)
    industry: Mapped[str | None] = mapped_column(String(40))
    type: Mapped[str] = mapped_column(String(20), default="Prospect")
    website: Mapped[str | None] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(40))
    billing_city: Mapped[str | None] = mapped_column(String(80))
    billing_country: Mapped[str | None] = mapped_column(String(80))
    annual_revenue: Mapped[int | None] = mapped_column(BigInteger)
    employees: Mapped[int | None] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(Text, default="")
    owner_id: Mapped[int] = _owner()
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)

    owner: Mapped[Person] = relationship(viewonly=True)


class Contact(Base):
    __tablename__ = "crm_contact"

    id: Mapped[intpk]
    account_id: Mapped[int | None] = mapped_column(ForeignKey("crm_account.id"), index=True)
    first_name: Mapped[str] = mapped_column(String(60), default="")
    last_name: Mapped[str] = mapped_column(String(80))
    title: Mapped[str | None] = mapped_column(String(120))
    email: Mapped[str | None] = mapped_column(String(200), index=True)
    phone: Mapped[str | None] = mapped_column(String(40))
    owner_id: Mapped[int] = _owner()
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)

    account: Mapped[Account | None] = relationship(viewonly=True)
    owner: Mapped[Person] = relationship(viewonly=True)

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Lead(Base):
    __tablename__ = "crm_lead"

    id: Mapped[intpk]
    first_name: Mapped[str] = mapped_column(String(60), default="")
    last_name: Mapped[str] = mapped_column(String(80))
    company: Mapped[str] = mapped_column(String(120))
    title: Mapped[str | None] = mapped_column(String(120))
    email: Mapped[str | None] = mapped_column(String(200), index=True)
    phone: Mapped[str | None] = mapped_column(String(40))
    industry: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), default="New")
    source: Mapped[str | None] = mapped_column(String(20))
    rating: Mapped[str | None] = mapped_column(String(10))
    owner_id: Mapped[int] = _owner()
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    converted_at: Mapped[dt.datetime | None] = mapped_column(DateTime(), info=CLOCK)
    converted_account_id: Mapped[int | None] = mapped_column(ForeignKey("crm_account.id"))
    converted_contact_id: Mapped[int | None] = mapped_column(ForeignKey("crm_contact.id"))
    converted_opportunity_id: Mapped[int | None] = mapped_column(ForeignKey("crm_opportunity.id"))

    owner: Mapped[Person] = relationship(viewonly=True)

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def is_converted(self) -> bool:
        return self.status == "Converted"


class Opportunity(Base):
    __tablename__ = "crm_opportunity"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(120), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("crm_account.id"), index=True)
    contact_id: Mapped[int | None] = mapped_column(ForeignKey("crm_contact.id"))
    stage: Mapped[str] = mapped_column(String(20), index=True)
    probability: Mapped[int] = mapped_column(Integer)
    amount: Mapped[int | None] = mapped_column(BigInteger)
    close_date: Mapped[dt.date] = mapped_column(Date())
    next_step: Mapped[str] = mapped_column(String(255), default="")
    type: Mapped[str | None] = mapped_column(String(20))
    lead_source: Mapped[str | None] = mapped_column(String(20))
    loss_reason: Mapped[str | None] = mapped_column(String(20))
    description: Mapped[str] = mapped_column(Text, default="")
    owner_id: Mapped[int] = _owner()
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(), info=CLOCK)

    account: Mapped[Account] = relationship(viewonly=True)
    contact: Mapped[Contact | None] = relationship(viewonly=True)
    owner: Mapped[Person] = relationship(viewonly=True)

    @property
    def is_closed(self) -> bool:
        return self.stage in CLOSED_STAGES


class Activity(Base):
    """A call, meeting, email, task or note logged on any CRM record."""

    __tablename__ = "crm_activity"
    __table_args__ = (Index("ix_crm_activity_record", "record_type", "record_id"),)

    id: Mapped[intpk]
    kind: Mapped[str] = mapped_column(String(10))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text, default="")
    record_type: Mapped[str] = mapped_column(String(12))
    record_id: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), default="Completed")
    due_date: Mapped[dt.date | None] = mapped_column(Date())
    owner_id: Mapped[int] = _owner()
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)

    owner: Mapped[Person] = relationship(viewonly=True)


class Case(Base):
    """A customer support case."""

    __tablename__ = "crm_case"

    id: Mapped[intpk]
    number: Mapped[str] = mapped_column(String(8), unique=True, info={"free": "generated number"})
    subject: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    account_id: Mapped[int | None] = mapped_column(ForeignKey("crm_account.id"), index=True)
    contact_id: Mapped[int | None] = mapped_column(ForeignKey("crm_contact.id"))
    status: Mapped[str] = mapped_column(String(10), index=True)
    priority: Mapped[str] = mapped_column(String(10))
    origin: Mapped[str | None] = mapped_column(String(10))
    resolution: Mapped[str] = mapped_column(Text, default="")
    owner_id: Mapped[int] = _owner()
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(), info=CLOCK)

    account: Mapped[Account | None] = relationship(viewonly=True)
    contact: Mapped[Contact | None] = relationship(viewonly=True)
    owner: Mapped[Person] = relationship(viewonly=True)


class FieldHistory(Base):
    """One changed field of one record: who changed it, when, from what, to what."""

    __tablename__ = "crm_field_history"
    __table_args__ = (Index("ix_crm_field_history_record", "record_type", "record_id"), DERIVED)

    id: Mapped[intpk]
    record_type: Mapped[str] = mapped_column(String(12))
    record_id: Mapped[int] = mapped_column(Integer)
    field: Mapped[str] = mapped_column(String(40))
    old_value: Mapped[str | None] = mapped_column(Text)
    new_value: Mapped[str | None] = mapped_column(Text)
    changed_by_id: Mapped[int] = mapped_column(ForeignKey("org_person.id"))
    changed_at: Mapped[dt.datetime] = mapped_column(DateTime(), info=CLOCK)

    changed_by: Mapped[Person] = relationship(viewonly=True)


MODELS: dict[RecordType, type[Account | Contact | Lead | Opportunity | Case]] = {
    "account": Account,
    "contact": Contact,
    "lead": Lead,
    "opportunity": Opportunity,
    "case": Case,
}
