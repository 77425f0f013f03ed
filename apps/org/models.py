"""People and teams: one row per person, used by every clone (chat, CRM, sheets, bookings)."""

from __future__ import annotations

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from officegym.db import Base, intpk


class Team(Base):
    __tablename__ = "org_team"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(80), unique=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)

    members: Mapped[list[Person]] = relationship(
        viewonly=True, back_populates="team", foreign_keys="Person.team_id"
    )


class Person(Base):
    __tablename__ = "org_person"

    id: Mapped[intpk]
    handle: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    email: Mapped[str] = mapped_column(String(200), unique=True)
    title: Mapped[str] = mapped_column(String(120))
    team_id: Mapped[int] = mapped_column(ForeignKey("org_team.id"), index=True)
    manager_id: Mapped[int | None] = mapped_column(ForeignKey("org_person.id"))
    timezone: Mapped[str] = mapped_column(String(40))

    team: Mapped[Team] = relationship(
        viewonly=True, back_populates="members", foreign_keys=[team_id]
    )
    manager: Mapped[Person | None] = relationship(viewonly=True, remote_side="Person.id")
