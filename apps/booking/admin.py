"""Site administration: the catalog (cities, hosts, listings and their calendars and
reviews, routes and fares) and the travel policy, written in bulk by seeders. Agents
never call these; they have no tools."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from officegym.apps.booking.models import (
    Block,
    City,
    Fare,
    Host,
    Listing,
    PriceRule,
    Review,
    Route,
    TravelPolicy,
)
from officegym.errors import Invalid

__all__ = ["CATALOG", "add_catalog"]

CATALOG: tuple[type, ...] = (City, Host, Listing, PriceRule, Block, Review, Route, Fare,
                             TravelPolicy)  # fmt: skip


def add_catalog(s: Session, model: type, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert catalog rows of `model` in one statement (ids in the order given)."""
    if model not in CATALOG:
        raise Invalid(f"{model.__name__} is not part of the catalog")
    if rows:
        s.flush()
        s.connection().execute(insert(model), [dict(r) for r in rows])
    s.info.get("directory", {}).clear()  # cities and caps are cached per world
