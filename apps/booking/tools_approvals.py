"""Booking tools for managers: the over-policy stays awaiting your approval, and your
decision on one (the traveller reads it in your DM)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from officegym.apps.booking import pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking import shapes as V
from officegym.tools import Ref, ToolContext, tool


def _request_view(ctx: ToolContext, r: Any) -> dict[str, Any]:
    s = ctx.session
    cap = booking.nightly_cap(s, r.listing.city)
    nightly = pricing.share(r.accommodation - r.discount, 1, r.nights)
    return {**V.reservation_view(s, r), "average_nightly": V.money(nightly),
            "nightly_cap": V.money(cap)}  # fmt: skip


@tool("read")
def booking_list_approvals(ctx: ToolContext) -> dict[str, Any]:
    """Stays your reports booked over the travel policy cap that await your approval:
    each with its traveller, dates, total, average nightly rate, cap and stated purpose.
    Decide each with booking_decide_approval."""
    requests = booking.approval_requests(ctx.session, ctx.actor)
    return {"awaiting_you": [_request_view(ctx, r) for r in requests]}


@tool("write")
def booking_decide_approval(
    ctx: ToolContext,
    *,
    code: Annotated[
        str,
        Field(description="The held stay's confirmation code, e.g. HM4K9PXQ2A."),
        Ref("booking_reservation", ("code",)),
    ],
    decision: Annotated[
        Literal["approve", "decline"], Field(description="'approve' or 'decline'.")
    ],
    note: Annotated[
        str, Field(description="Optional words to the traveller, added to your DM answer.")
    ] = "",
) -> dict[str, Any]:
    """Approve or decline an over-policy stay awaiting your approval (you must be the
    traveller's manager). Approved: confirmed and charged (or sent to the host for a
    request-to-book place). Declined: its nights are freed and nothing is charged. Your
    answer is posted in your DM with the person who booked it."""
    s = ctx.session
    r = booking.find_request(s, ctx.actor, code)
    r = booking.decide_approval(s, ctx.actor, r, approve=decision == "approve", note=note)
    return {"ok": True, "reservation": V.reservation_view(s, r)}
