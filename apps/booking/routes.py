"""The booking site's pages: stay search with filters, listing pages with calendar and
quote, checkout, trips with receipts, changes and cancellations, flights, wishlists, the
travel policy and the calendar export. Plain forms (POST then redirect); every read and
change goes through `service`, every amount through `pricing`. Bad input is flashed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from officegym.apps.booking import pages, pricing
from officegym.apps.booking import service as booking
from officegym.apps.booking.calendar import MAX_AHEAD_DAYS
from officegym.apps.booking.models import AMENITIES, PROPERTY_TYPES
from officegym.errors import Conflict, Forbidden, Invalid, NotFound, OfficeGymError
from officegym.web import flash_errors
from officegym.web_guards import attachment

bp = Blueprint("booking", __name__, template_folder="templates", static_folder="static")
PAGE_SIZE = 20
MAX_PAGE = 100_000  # further pages are empty anyway, and the offset must stay in 64 bits


@contextmanager
def refusals() -> Iterator[None]:
    """`flash_errors`, and a rule's refusal (Forbidden: over the policy cap, a fare that
    allows no changes) flashed on the page too, quoting the rule."""
    try:
        with flash_errors():
            yield
    except Forbidden as exc:
        g.db.rollback()
        flash(exc.message, "error")


def render(name: str, **context: Any) -> str:
    return render_template(name, money=pricing.money, today=booking.today(g.db),
                           lands=pages.lands, approves=pages.has_reports(g.db, g.actor),
                           **context)  # fmt: skip


@bp.get("/")
def search() -> str:
    """The search form; with a city, the results (20 a page) for the filters in the URL."""
    args = request.args
    page_no = min(max(1, args.get("page", 1, type=int)), MAX_PAGE)
    found, error = None, None
    if args.get("city"):
        try:
            found = booking.search_stays(g.db, **pages.search_filters(args), limit=PAGE_SIZE,
                                         offset=(page_no - 1) * PAGE_SIZE)  # fmt: skip
        except (Invalid, NotFound) as exc:
            error = exc.message
    return render("booking/search.html", args=args, found=found, error=error, page_no=page_no,
                  cities=booking.cities(g.db), types=PROPERTY_TYPES, amenities=AMENITIES,
                  url=pages.search_url)  # fmt: skip


@bp.get("/listings/<int:lid>")
def listing(lid: int) -> str:
    """A listing: details, the calendar of the coming weeks, and the quote for the dates."""
    s = g.db
    item = booking.get_listing(s, lid)
    dates = pages.stay_dates(request.args)
    quote, problem, taken = None, None, None
    if dates is not None:
        try:
            booking.check_stay(item, *dates, request.args.get("guests", 1, type=int),
                               booking.today(s))  # fmt: skip
            quote = booking.listing_quote(s, item, *dates)
            booking.require_free(s, item, *dates)
        except Invalid as exc:
            problem = exc.message
        except Conflict as exc:
            taken = exc.message  # the quote stands; the dates cannot be reserved
    today = booking.today(s)
    start = dates[0] if dates and 0 <= (dates[0] - today).days <= MAX_AHEAD_DAYS else today
    return render(
        "booking/listing.html", item=item, quote=quote, problem=problem, taken=taken,
        cap=pages.over_cap(s, item, quote) if quote else None, manager=pages.manager(s, g.actor),
        margin=booking.MARGIN,
        args=request.args, terms=pricing.policy_terms(item.policy, dates and dates[0]),
        calendar=pages.month_days(s, item, start), rules=booking.rules_of(s, lid),
        reviews=booking.reviews(s, lid, 5), amenities=booking.amenity_names(item.amenities),
        house_rules=booking.rule_names(item.rules), messages=booking.host_messages(s, g.actor, lid),
    )  # fmt: skip


@bp.post("/listings/<int:lid>/book")
def book(lid: int) -> BaseResponse:
    """Checkout: book the stay (or request it); the trip page opens on success."""
    item = booking.get_listing(g.db, lid)
    form = request.form
    with refusals():
        r = booking.book_stay(
            g.db, g.actor, item, check_in=pages.day(form, "check_in"),
            check_out=pages.day(form, "check_out"), guests=pages.number(form, "guests", 1),
            guest=form.get("traveller") or None, purpose=form.get("purpose", ""),
            message=form.get("message") or None,
        )  # fmt: skip
        if r.status == "pending":
            flash(f"Held: {r.code} awaits approval; the request went to the manager by DM.")
        else:
            flash(f"Booked: confirmation {r.code}.")
        return redirect(url_for("booking.trip", code=r.code))
    return redirect(url_for("booking.listing", lid=lid, **pages.keep(form)))


@bp.post("/listings/<int:lid>/message")
def message(lid: int) -> BaseResponse:
    item = booking.get_listing(g.db, lid)
    code = request.form.get("code") or None
    with refusals():
        r = booking.find_reservation(g.db, g.actor, code) if code else None
        booking.message_host(g.db, g.actor, item, request.form.get("text", ""), reservation=r)
        flash("Message sent to the host.")
    if code:
        return redirect(url_for("booking.trip", code=code))
    return redirect(url_for("booking.listing", lid=lid))


@bp.post("/listings/<int:lid>/save")
def save(lid: int) -> BaseResponse:
    item = booking.get_listing(g.db, lid)
    with refusals():
        booking.save_listing(g.db, g.actor, item, request.form.get("wishlist", ""))
        flash("Saved to your wishlist.")
    return redirect(url_for("booking.listing", lid=lid))


@bp.get("/trips")
def trips() -> str:
    """Stays and flights apart: upcoming, past, and cancelled."""
    return render("booking/trips.html", sections=pages.trip_sections(g.db, g.actor))


@bp.get("/trips/<code>")
def trip(code: str) -> str:
    """A stay: details, receipt, change form with the new quote, cancellation preview."""
    s = g.db
    r = booking.find_reservation(s, g.actor, code)
    refund = None
    if r.status in booking.LIVE:
        try:
            refund = booking.preview_cancel(s, g.actor, r)
        except OfficeGymError as exc:
            flash(exc.message, "error")
    return render("booking/trip.html", r=r, refund=refund, payments=booking.payments(s, r),
                  awaiting=pages.manager(s, r.guest), approver=r.approver_id
                  and pages.handle(s, r.approver_id),
                  messages=booking.host_messages(s, g.actor, r.listing_id),
                  terms=pricing.policy_terms(r.policy, r.check_in))  # fmt: skip


@bp.post("/trips/<code>/change")
def change(code: str) -> BaseResponse:
    r = booking.find_reservation(g.db, g.actor, code)
    form = request.form
    with refusals():
        r, old = booking.change_stay(
            g.db, g.actor, r, check_in=pages.day(form, "check_in", r.check_in),
            check_out=pages.day(form, "check_out", r.check_out),
            guests=pages.number(form, "guests", r.guests),
        )  # fmt: skip
        flash(f"Changed: new total {pricing.money(r.total)} (was {pricing.money(old)}).")
    return redirect(url_for("booking.trip", code=code))


@bp.get("/trips/<code>/cancel")
def confirm_cancel(code: str) -> str | BaseResponse:
    """The confirmation step before cancelling a stay: what comes back, and why."""
    s = g.db
    r = booking.find_reservation(s, g.actor, code)
    with refusals():
        refund = booking.preview_cancel(s, g.actor, r)
        what = f"your stay at {r.listing.title}, {r.check_in:%b %-d} to {r.check_out:%b %-d, %Y}"
        return render("booking/confirm_cancel.html", kind="stay", code=r.code, refund=refund,
                      total=r.total, what=what, terms=pricing.policy_terms(r.policy, r.check_in),
                      policy=r.policy, back=url_for("booking.trip", code=r.code),
                      action=url_for("booking.cancel", code=r.code))  # fmt: skip
    return redirect(url_for("booking.trip", code=code))


def _cancel(item: Any, cancel_it: Callable[..., Any], page: str, code: str) -> BaseResponse:
    """Cancel a stay or a flight, say what comes back, and go back to its page."""
    with refusals():
        cancel_it(g.db, g.actor, item)
        flash(f"Cancelled: refund {pricing.money(item.refund)}.")
    return redirect(url_for(page, code=code))


@bp.post("/trips/<code>/cancel")
def cancel(code: str) -> BaseResponse:
    r = booking.find_reservation(g.db, g.actor, code)
    return _cancel(r, booking.cancel_stay, "booking.trip", code)


@bp.get("/flights")
def flights() -> str:
    """Flight search: the day's flights between two cities with each fare's price, and
    with a return date the flights back that day (each way booked on its own)."""
    args = request.args
    options, back, error = None, None, None
    if args.get("origin") and args.get("destination") and args.get("date"):
        try:
            ways = pages.flight_ways(args)
            found = [booking.search_flights(g.db, origin=a, destination=b, date=day,
                                            cabin=args.get("cabin") or None)
                     for a, b, day in ways]  # fmt: skip
            options, back = found[0], found[1] if len(found) > 1 else None
        except (Invalid, NotFound) as exc:
            error = exc.message
    return render("booking/flights.html", args=args, options=options, back=back, error=error,
                  cities=[c for c in booking.cities(g.db) if c.airport])  # fmt: skip


@bp.post("/flights/book")
def book_flight() -> BaseResponse:
    form = request.form
    with refusals():
        fare = booking.get_fare(g.db, pages.number(form, "fare_id", 0))
        people = [h.strip() for h in form.get("travellers", "").split(",") if h.strip()]
        fb = booking.book_flight(
            g.db, g.actor, fare, date=pages.day(form, "date"), travellers=people or None,
            purpose=form.get("purpose", ""),
        )  # fmt: skip
        flash(f"Booked: record locator {fb.code}.")
        return redirect(url_for("booking.flight_trip", code=fb.code))
    return redirect(request.referrer or url_for("booking.flights"))


@bp.get("/flight-trips/<code>")
def flight_trip(code: str) -> str:
    s = g.db
    fb = booking.find_flight_booking(s, g.actor, code)
    refund = None
    if (
        fb.status == "confirmed"
        and booking.departure(fb.route, fb.flight_date) > s.info["clock"].peek()
    ):
        refund = booking.preview_flight_cancel(s, fb)
    return render("booking/flight_trip.html", fb=fb, refund=refund,
                  rules=pricing.fare_rules(fb.fare), payments=booking.flight_payments(s, fb),
                  travellers=[pages.handle(s, p) for p in booking.passengers(s, fb)])  # fmt: skip


@bp.post("/flight-trips/<code>/change")
def change_flight(code: str) -> BaseResponse:
    fb = booking.find_flight_booking(g.db, g.actor, code)
    with refusals():
        fb, due = booking.change_flight(g.db, g.actor, fb, date=pages.day(request.form, "date"),
                                        flight=request.form.get("flight") or None)  # fmt: skip
        flash(f"Changed: charged {pricing.money(due.due)}.")
    return redirect(url_for("booking.flight_trip", code=code))


@bp.get("/flight-trips/<code>/cancel")
def confirm_cancel_flight(code: str) -> str | BaseResponse:
    """The confirmation step before cancelling a flight: what comes back, and why."""
    s = g.db
    fb = booking.find_flight_booking(s, g.actor, code)
    with refusals():
        refund = booking.preview_flight_cancel(s, fb)
        return render("booking/confirm_cancel.html", kind="flight", code=fb.code,
                      refund=refund, total=fb.total, what=f"flight {fb.route.number} on "
                      f"{fb.flight_date:%b %-d, %Y}", terms=None,
                      back=url_for("booking.flight_trip", code=fb.code),
                      action=url_for("booking.cancel_flight", code=fb.code))  # fmt: skip
    return redirect(url_for("booking.flight_trip", code=code))


@bp.post("/flight-trips/<code>/cancel")
def cancel_flight(code: str) -> BaseResponse:
    fb = booking.find_flight_booking(g.db, g.actor, code)
    return _cancel(fb, booking.cancel_flight, "booking.flight_trip", code)


@bp.get("/fares/<int:fid>")
def fare(fid: int) -> str:
    """A fare's rules, with a link to the day's flights of its route."""
    item = booking.get_fare(g.db, fid)
    return render("booking/fare.html", fare=item, rules=pricing.fare_rules(item))


@bp.get("/wishlists")
def wishlists() -> str:
    s = g.db
    lists = [(w, [booking.get_listing(s, x.listing_id) for x in booking.saved_listings(s, w)])
             for w in booking.wishlists(s, g.actor)]  # fmt: skip
    return render("booking/wishlists.html", lists=lists)


@bp.post("/wishlists/remove")
def unsave() -> BaseResponse:
    with refusals():
        item = booking.get_listing(g.db, pages.number(request.form, "listing_id", 0))
        booking.unsave_listing(g.db, g.actor, item, request.form.get("wishlist", ""))
        flash("Removed from the wishlist.")
    return redirect(url_for("booking.wishlists"))


@bp.get("/policy")
def policy() -> str:
    s = g.db
    caps = [(c, booking.nightly_cap(s, c)) for c in booking.cities(s)]
    return render("booking/policy.html", caps=caps, manager=pages.manager(s, g.actor),
                  margin=booking.MARGIN)  # fmt: skip


@bp.get("/trips.ics")
def export() -> Response:
    data = booking.trips_ical(g.db, g.actor, g.db.info["clock"].peek())
    headers = {"Content-Disposition": attachment("trips.ics")}
    return Response(data, mimetype="text/calendar", headers=headers)


@bp.get("/approvals")
def approvals() -> str:
    """A manager's inbox: their reports' over-policy stays awaiting a decision."""
    s = g.db
    return render("booking/approvals.html", requests=pages.approval_rows(s, g.actor),
                  margin=booking.MARGIN)  # fmt: skip


@bp.post("/approvals/<code>")
def decide(code: str) -> BaseResponse:
    """Approve or decline one held stay; the answer goes to the booker by DM."""
    decision = request.form.get("decision", "")
    with refusals():
        if decision not in ("approve", "decline"):
            raise Invalid("choose approve or decline")
        r = booking.find_request(g.db, g.actor, code)
        booking.decide_approval(g.db, g.actor, r, approve=decision == "approve",
                                note=request.form.get("note", ""))  # fmt: skip
        flash(f"{'Approved' if decision == 'approve' else 'Declined'}: {r.code}.")
    return redirect(url_for("booking.approvals"))
