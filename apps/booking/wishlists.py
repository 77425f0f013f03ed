"""Wishlists: named lists of saved listings, each person's own."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from officegym.apps.booking.models import Listing, Saved, Wishlist
from officegym.apps.org.models import Person
from officegym.clock import now
from officegym.errors import Conflict, Invalid, NotFound
from officegym.writes import delete_row, insert_new

__all__ = ["find_wishlist", "save_listing", "saved_listings", "unsave_listing", "wishlists"]

_MINE = select(Wishlist).where(Wishlist.owner_id == bindparam("p")).order_by(Wishlist.id)
_SAVED = select(Saved).where(Saved.wishlist_id == bindparam("w")).order_by(Saved.id)


def wishlists(s: Session, actor: Person) -> list[Wishlist]:
    return list(s.scalars(_MINE, {"p": actor.id}))


def find_wishlist(s: Session, actor: Person, name: str) -> Wishlist | None:
    """The actor's wishlist called `name` (case and spacing aside), if any."""
    key = " ".join(name.split()).lower()
    return next((w for w in wishlists(s, actor) if w.name.lower() == key), None)


def saved_listings(s: Session, wishlist: Wishlist) -> list[Saved]:
    return list(s.scalars(_SAVED, {"w": wishlist.id}))


def save_listing(s: Session, actor: Person, listing: Listing, wishlist: str) -> Saved:
    """Save a listing to the actor's wishlist `wishlist`, made if it does not exist. Two
    sessions saving at once make one wishlist, and the listing is saved once (the other
    gets the Conflict of saving it twice)."""
    name = " ".join(wishlist.split())
    if not name or len(name) > 80:
        raise Invalid("a wishlist needs a name of 1 to 80 characters")
    found = find_wishlist(s, actor, name)
    if found is None:
        found = insert_new(s, Wishlist, owner_id=actor.id, name=name, created_at=now(s))
        found = found or find_wishlist(s, actor, name)  # another session just made it
    saved = None
    if found is not None and not any(x.listing_id == listing.id for x in saved_listings(s, found)):
        saved = insert_new(s, Saved, wishlist_id=found.id, listing_id=listing.id, added_at=now(s))
    if saved is None:
        where = found.name if found is not None else name
        raise Conflict(f"{listing.title!r} is already in {where!r}", code="already_saved")
    return saved


def unsave_listing(s: Session, actor: Person, listing: Listing, wishlist: str) -> None:
    """Remove a listing from one of the actor's wishlists."""
    found = find_wishlist(s, actor, wishlist)
    if found is None:
        raise NotFound(f"you have no wishlist {wishlist!r}", code="wishlist_not_found")
    item = next((x for x in saved_listings(s, found) if x.listing_id == listing.id), None)
    if item is None:
        raise NotFound(f"{listing.title!r} is not in {found.name!r}", code="not_saved")
    delete_row(s, item)
