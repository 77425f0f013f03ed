"""Seed the booking site's catalog: cities (same-name pairs included), hosts, thousands of
listings with sparse calendars (price rules for seasons, blocked and booked ranges) and
reviews, the travel policy, and flight routes with their fares between every two cities
with an airport. `booking_trips` then books the company's past and upcoming trips.

It runs after every other generator, with random streams of its own, so the rest of the
world is the same with or without it. Rows go in through `apps.booking.admin` in bulk.
"""

from __future__ import annotations

import datetime as dt
import math
import random

from faker import Faker
from sqlalchemy.orm import Session

from officegym.apps.booking.admin import add_catalog
from officegym.apps.booking.models import (
    AMENITIES,
    RULES,
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
from officegym.seed_data import booking_places as P
from officegym.seed_data import booking_text as T
from officegym.seed_data import booking_trips
from officegym.seed_data.booking_text import REVIEW_DETAILS, REVIEW_WORDS
from officegym.seed_data.context import SeedContext
from officegym.seed_data.phrases import capital, expand
from officegym.seed_data.scenario import Scenario

ORDER = 40
BEDROOMS = (0, 1, 2, 3, 4, 5)
BEDROOM_WEIGHTS = (8, 30, 30, 18, 9, 5)
BASE_NIGHTLY = (85, 110, 160, 220, 290, 360)  # dollars, by bedrooms, an average city
AMENITY_ODDS = (0.96, 0.85, 0.6, 0.5, 0.7, 0.9, 0.55, 0.7, 0.35, 0.1, 0.08, 0.12, 0.06,
                0.15, 0.3, 0.5, 0.05, 0.15)  # fmt: skip
TYPES_BIG_CITY = {"apartment": 45, "condo": 18, "loft": 12, "townhouse": 10, "house": 10,
                  "guesthouse": 5}  # fmt: skip
TYPES_TOWN = {"house": 35, "apartment": 25, "guesthouse": 12, "townhouse": 10, "cabin": 10,
              "condo": 8}  # fmt: skip
POLICY_WEIGHTS = {"flexible": 35, "moderate": 40, "strict": 25}


def seed(s: Session, ctx: SeedContext) -> None:
    """Catalog, travel policy and flights, then the company's trips."""
    sc = ctx.scenario
    rng = random.Random(f"{sc.name}:{ctx.seed}:booking")
    fake = Faker(sc.locale)
    fake.seed_instance(f"{sc.name}:{ctx.seed}:booking")
    add_catalog(s, City, [_city(i, p) for i, p in enumerate(P.PLACES, 1)])
    _policy(s, sc)
    _listings(s, sc, rng, fake, random.Random(f"{sc.name}:{ctx.seed}:booking-text"),
              random.Random(f"{sc.name}:{ctx.seed}:booking-descriptions"))  # fmt: skip
    _flights(s, sc, rng)
    booking_trips.seed_trips(s, ctx)


def _city(i: int, p: P.Place) -> dict:
    slug = "-".join(p.name.lower().split()) + f"-{p.abbr}"
    return {"id": i, "name": p.name, "region": p.region, "country": p.country, "slug": slug,
            "airport": p.airport, "tax_rate": p.tax_bp, "timezone": p.timezone}  # fmt: skip


def _dollars(x: float, step: int = 1) -> int:
    """`x` dollars rounded to `step` dollars, in cents."""
    return max(step, round(x / step) * step) * 100


def _policy(s: Session, sc: Scenario) -> None:
    """The default cap, and higher caps (to $25) in the dearer cities."""
    cap = sc.booking.nightly_cap
    rows: list[dict] = [{"city_id": None, "nightly_cap": cap * 100}]
    rows += [{"city_id": i, "nightly_cap": _dollars(cap * p.level, 25)}
             for i, p in enumerate(P.PLACES, 1) if p.level >= 1.3]  # fmt: skip
    add_catalog(s, TravelPolicy, rows)


def _listings(
    s: Session,
    sc: Scenario,
    rng: random.Random,
    fake: Faker,
    words: random.Random,
    descriptions: random.Random,
) -> None:
    total = sc.booking.listings
    weights = sum(p.weight for p in P.PLACES)
    counts = [total * p.weight // weights for p in P.PLACES]
    for i in range(total - sum(counts)):
        counts[i % len(counts)] += 1
    rows: dict = {Host: [], Listing: [], PriceRule: [], Block: [], Review: [], "titles": set(),
                  "words": words, "descriptions": descriptions}  # fmt: skip
    for city_id, (place, n) in enumerate(zip(P.PLACES, counts, strict=True), 1):
        for _ in range(n):
            if not rows[Host] or rng.random() < 0.4:
                rows[Host].append(_host(len(rows[Host]) + 1, rng, fake))
            _listing(rows, len(rows[Listing]) + 1, city_id, place, sc, rng, fake)
    for model in (Host, Listing, PriceRule, Block, Review):
        add_catalog(s, model, rows[model])


def _host(i: int, rng: random.Random, fake: Faker) -> dict:
    return {"id": i, "name": f"{fake.first_name()} {fake.last_name()[0]}.",
            "since": rng.randint(2012, 2025), "superhost": rng.random() < 0.3,
            "response_rate": rng.choice((80, 90, 95, 98, 100, 100))}  # fmt: skip


def _listing(rows: dict, i: int, city_id: int, p: P.Place, sc: Scenario,
             rng: random.Random, fake: Faker) -> None:  # fmt: skip
    types = TYPES_BIG_CITY if p.level >= 1.0 else TYPES_TOWN
    ptype = rng.choices(list(types), weights=list(types.values()))[0]
    bedrooms = rng.choices(BEDROOMS, weights=BEDROOM_WEIGHTS)[0]
    beds = max(1, bedrooms + rng.choice((0, 0, 1, 1, 2)) - (bedrooms > 2 and rng.random() < 0.2))
    nightly = _dollars(BASE_NIGHTLY[bedrooms] * p.level * rng.uniform(0.7, 1.45))
    reviews = 0 if rng.random() < 0.08 else int(rng.lognormvariate(3.0, 1.0)) + 1
    hood = rng.choice(p.hoods)
    row = {
        "id": i, "title": _title(rng, ptype, bedrooms, hood, rows["titles"]),
        "host_id": len(rows[Host]), "city_id": city_id, "neighbourhood": hood,
        "property_type": ptype,
        "bedrooms": bedrooms, "beds": beds, "baths": 1 + bedrooms // 2 + 0.5 * (rng.random() < 0.3),
        "max_guests": max(1, min(16, beds * 2 - rng.choice((0, 0, 1)))),
        "amenities": sum(1 << k for k, odds in enumerate(AMENITY_ODDS) if rng.random() < odds),
        "rules": sum(1 << k for k in range(len(RULES)) if rng.random() < 0.5),
        "min_nights": rng.choices((1, 2, 3, 5, 7, 30), weights=(40, 30, 15, 7, 6, 2))[0],
        "max_nights": rng.choice((30, 60, 90, 365)), "instant_book": rng.random() < 0.7,
        "rating": round(rng.uniform(3.6, 5.0) if reviews else 0.0, 2), "review_count": reviews,
        "policy": rng.choices(list(POLICY_WEIGHTS), weights=list(POLICY_WEIGHTS.values()))[0],
        "nightly": nightly, "weekend": _dollars(nightly / 100 * rng.uniform(1.0, 1.35)),
        "cleaning_fee": _dollars((30 + 20 * bedrooms) * p.level * rng.uniform(0.6, 1.6), 5),
        "weekly_discount": rng.choice((0, 0, 5, 10, 15)),
        "monthly_discount": rng.choice((0, 20, 25, 30)),
    }  # fmt: skip
    rows[Listing].append(row)
    rows[PriceRule] += _rules(row, sc, rng)
    rows[Block] += _blocks(i, sc, rng)
    host = rows[Host][-1]["name"].split(" ")[0]
    facts = {"host": host, "hood": hood, "city": p.name, "kind": ptype}
    rows[Review] += _reviews(row, sc, rng, fake, rows["words"], facts)
    row["description"] = _description(row, facts, rows["descriptions"])


def _description(row: dict, facts: dict[str, str], rng: random.Random) -> str:
    """The listing's description from the grammar (its own random stream, so adding it
    left every other seeded value as it was)."""
    rooms = "a studio room" if row["bedrooms"] == 0 else (
        f"{row['bedrooms']} bedroom{'s' * (row['bedrooms'] > 1)}")  # fmt: skip
    names = [T.AMENITY_PHRASES.get(a, a) for k, a in enumerate(AMENITIES)
             if row["amenities"] >> k & 1]  # fmt: skip
    picked = rng.sample(names, k=min(3, len(names))) or ["the essentials"]
    has = ", ".join(picked[:-1]) + (" and " if len(picked) > 1 else "") + picked[-1]
    guests = f"{row['max_guests']} guest{'s' * (row['max_guests'] > 1)}"
    rules = {**T.DESCRIPTION_WORDS, **facts, "rooms": rooms, "guests": guests, "has": has}
    return expand(rng.choice(T.DESCRIPTION), rng, rules)


def _title(rng: random.Random, ptype: str, bedrooms: int, hood: str, taken: set[str]) -> str:
    """A title no other listing has (people and tasks name places by it)."""
    size = "Studio" if bedrooms == 0 else f"{bedrooms}BR"
    for attempt in range(50):
        word = rng.choice(P.PROPERTY_WORDS[ptype])
        title = f"{rng.choice(P.ADJECTIVES)} {size} {word} in {hood}"
        if attempt >= 20:
            title += f" #{attempt}"
        if title not in taken:
            break
    taken.add(title)
    return title


def _rules(listing: dict, sc: Scenario, rng: random.Random) -> list[dict]:
    """Seasonal rates for the seasons this host prices (this year's and next)."""
    if rng.random() < 0.4:
        return []
    out = []
    for label, month, day, nights, markup in rng.sample(P.SEASONS, k=rng.randint(1, 2)):
        for year in (sc.date.year, sc.date.year + 1):
            start = dt.date(year, month, day)
            factor = (100 + markup + rng.randint(-5, 5)) / 10_000
            out.append({"listing_id": listing["id"], "label": label, "start": start,
                        "end": start + dt.timedelta(days=nights),
                        "nightly": _dollars(listing["nightly"] * factor),
                        "weekend": _dollars(listing["weekend"] * factor)})  # fmt: skip
    return sorted(out, key=lambda r: r["start"])


def _blocks(listing_id: int, sc: Scenario, rng: random.Random) -> list[dict]:
    """A few ranges in the next months, booked by outside guests or blocked by the host."""
    today = sc.date.date()
    out = []
    for _ in range(rng.randint(1, 4)):
        start = today + dt.timedelta(days=rng.randint(0, 150))
        end = start + dt.timedelta(days=rng.randint(1, 7))
        kind = "booked" if rng.random() < 0.7 else "blocked"
        out.append({"listing_id": listing_id, "start": start, "end": end, "kind": kind})
    return out


def _reviews(listing: dict, sc: Scenario, rng: random.Random, fake: Faker,
             words: random.Random, facts: dict[str, str]) -> list[dict]:  # fmt: skip
    """Guests' reviews: a line on the stay, then one on its host and neighbourhood (drawn
    from `words`, so the catalog's own stream is as before)."""
    ratio = sc.booking.reviews_per_listing
    k = min(listing["review_count"], int(ratio) + (rng.random() < ratio - int(ratio)))
    has = [T.AMENITY_PHRASES.get(a, a) for b, a in enumerate(AMENITIES)
           if listing["amenities"] >> b & 1] or ["the location"]  # fmt: skip
    out = []
    for _ in range(k):
        stars = 5 if rng.random() < listing["rating"] - 4 else rng.choice((3, 4, 4))
        rng.choice(P.REVIEW_GOOD if stars >= 4 else P.REVIEW_MIXED)  # drawn as it was
        how = "good" if stars >= 4 else "mixed"
        rules = {**REVIEW_WORDS, **facts, "has": has}
        text = capital(expand(words.choice(T.REVIEW_OPENINGS[how]), words, rules))
        text += " " + expand(words.choice(REVIEW_DETAILS[how]), words, rules)
        when = sc.date.date() - dt.timedelta(days=rng.randint(5, 700))
        out.append({"listing_id": listing["id"], "author": f"{fake.first_name()}",
                    "stars": stars, "text": text, "written_on": when})  # fmt: skip
    return out


# ---------------------------------------------------------------- flights


def _km(a: P.Place, b: P.Place) -> float:
    """Great-circle distance between two cities."""
    la1, lo1, la2, lo2 = map(math.radians, (a.lat, a.lon, b.lat, b.lon))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * 6371 * math.asin(math.sqrt(h))


def _flights(s: Session, sc: Scenario, rng: random.Random) -> None:
    airports = [(i, p) for i, p in enumerate(P.PLACES, 1) if p.airport]
    routes: list[dict] = []
    fares: list[dict] = []
    numbers = {code: 100 for _, code in P.AIRLINES}
    for oi, o in airports:
        for di, d in airports:
            if oi == di:
                continue
            km = _km(o, d)
            hours = sorted(
                rng.sample((6, 7, 8, 9, 11, 13, 15, 17, 19, 21), sc.booking.routes_per_pair)
            )
            for hour in hours:
                airline, code = rng.choice(P.AIRLINES)
                numbers[code] += rng.randint(1, 9)
                rid = len(routes) + 1
                routes.append({"id": rid, "airline": airline, "number": f"{code} {numbers[code]}",
                               "origin_id": oi, "destination_id": di,
                               "departs": dt.time(hour, rng.choice((0, 15, 30, 45))),
                               "minutes": 5 * round((40 + km / 800 * 60) / 5),
                               "weekdays": 127 if rng.random() < 0.7 else 0b1011111})  # fmt: skip
                fares += _fares(rid, km, rng)
    add_catalog(s, Route, routes)
    add_catalog(s, Fare, fares)


def _fares(route_id: int, km: float, rng: random.Random) -> list[dict]:
    base = (55 + 0.11 * km) * rng.uniform(0.85, 1.2)
    return [{"route_id": route_id, "cabin": cabin, "brand": brand,
             "base": _dollars(base * factor), "refundable": refundable,
             "change_fee": None if fee is None else fee * 100, "bags": bags}
            for brand, cabin, factor, refundable, fee, bags in P.FARE_BRANDS]  # fmt: skip
