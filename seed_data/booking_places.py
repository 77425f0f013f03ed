"""The booking site's geography and words: cities (pairs that share a name in different
states or countries among them), their neighbourhoods, seasons and price levels, and the
pieces listing titles and reviews are made of. Facts, not code: the generators read them."""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    name: str
    region: str
    abbr: str  # slug suffix: state or country code
    country: str
    airport: str | None
    tax_bp: int  # occupancy tax, basis points
    timezone: str
    level: float  # price level (1.0: an average US city)
    weight: int  # share of the listings
    lat: float
    lon: float
    hoods: tuple[str, ...]


# fmt: off
PLACES: tuple[Place, ...] = (
    Place("New York", "New York", "ny", "United States", "JFK", 1475, "America/New_York", 1.7, 10, 40.71, -74.01, ("Midtown", "Chelsea", "Williamsburg", "Upper West Side", "Harlem", "SoHo")),
    Place("Chicago", "Illinois", "il", "United States", "ORD", 1740, "America/Chicago", 1.15, 7, 41.88, -87.63, ("The Loop", "Wicker Park", "Lincoln Park", "River North", "Hyde Park")),
    Place("San Francisco", "California", "ca", "United States", "SFO", 1400, "America/Los_Angeles", 1.6, 7, 37.77, -122.42, ("Mission", "SoMa", "Nob Hill", "Hayes Valley", "Sunset")),
    Place("Austin", "Texas", "tx", "United States", "AUS", 1700, "America/Chicago", 1.1, 5, 30.27, -97.74, ("Downtown", "South Congress", "East Austin", "Hyde Park", "Zilker")),
    Place("Boston", "Massachusetts", "ma", "United States", "BOS", 1145, "America/New_York", 1.4, 5, 42.36, -71.06, ("Back Bay", "South End", "Beacon Hill", "Seaport", "Jamaica Plain")),
    Place("Seattle", "Washington", "wa", "United States", "SEA", 1560, "America/Los_Angeles", 1.3, 5, 47.61, -122.33, ("Capitol Hill", "Ballard", "Fremont", "Queen Anne", "Belltown")),
    Place("Denver", "Colorado", "co", "United States", "DEN", 1075, "America/Denver", 1.05, 4, 39.74, -104.99, ("LoDo", "RiNo", "Highlands", "Capitol Hill", "Cherry Creek")),
    Place("Atlanta", "Georgia", "ga", "United States", "ATL", 1600, "America/New_York", 0.95, 4, 33.75, -84.39, ("Midtown", "Buckhead", "Old Fourth Ward", "Inman Park", "Decatur")),
    Place("Los Angeles", "California", "ca", "United States", "LAX", 1400, "America/Los_Angeles", 1.45, 6, 34.05, -118.24, ("Silver Lake", "Venice", "Santa Monica", "Hollywood", "Downtown")),
    Place("Miami", "Florida", "fl", "United States", "MIA", 1300, "America/New_York", 1.25, 4, 25.76, -80.19, ("Brickell", "Wynwood", "South Beach", "Little Havana", "Coconut Grove")),
    Place("Washington", "District of Columbia", "dc", "United States", "DCA", 1495, "America/New_York", 1.3, 5, 38.91, -77.04, ("Dupont Circle", "Capitol Hill", "Georgetown", "Shaw", "Navy Yard")),
    Place("Nashville", "Tennessee", "tn", "United States", "BNA", 1525, "America/Chicago", 1.05, 3, 36.16, -86.78, ("The Gulch", "East Nashville", "Germantown", "Midtown", "12 South")),
    Place("Toronto", "Ontario", "on", "Canada", "YYZ", 1300, "America/Toronto", 1.2, 4, 43.65, -79.38, ("Queen West", "The Annex", "Yorkville", "Leslieville", "Kensington Market")),
    Place("London", "England", "uk", "United Kingdom", "LHR", 2000, "Europe/London", 1.5, 7, 51.51, -0.13, ("Shoreditch", "Camden", "Notting Hill", "South Bank", "Islington")),
    Place("Paris", "Ile-de-France", "fr", "France", "CDG", 1000, "Europe/Paris", 1.35, 6, 48.86, 2.35, ("Le Marais", "Montmartre", "Saint-Germain", "Bastille", "Canal Saint-Martin")),
    Place("Berlin", "Berlin", "de", "Germany", "BER", 750, "Europe/Berlin", 0.95, 4, 52.52, 13.40, ("Mitte", "Kreuzberg", "Prenzlauer Berg", "Friedrichshain", "Neukolln")),
    Place("Dublin", "Leinster", "ie", "Ireland", "DUB", 900, "Europe/Dublin", 1.25, 3, 53.35, -6.26, ("Temple Bar", "Portobello", "Ranelagh", "Smithfield", "Docklands")),
    Place("Amsterdam", "North Holland", "nl", "Netherlands", "AMS", 1250, "Europe/Amsterdam", 1.4, 4, 52.37, 4.90, ("Jordaan", "De Pijp", "Oost", "Centrum", "Oud-West")),
    # Cities that share a name with one above or with each other.
    Place("Portland", "Oregon", "or", "United States", "PDX", 1450, "America/Los_Angeles", 1.0, 4, 45.52, -122.68, ("Pearl District", "Alberta Arts", "Hawthorne", "Nob Hill", "Sellwood")),
    Place("Portland", "Maine", "me", "United States", "PWM", 900, "America/New_York", 0.95, 3, 43.66, -70.26, ("Old Port", "West End", "Munjoy Hill", "East Bayside", "Back Cove")),
    Place("Springfield", "Illinois", "il", "United States", None, 1100, "America/Chicago", 0.65, 2, 39.78, -89.65, ("Downtown", "Enos Park", "Leland Grove", "Vinegar Hill")),
    Place("Springfield", "Massachusetts", "ma", "United States", None, 1145, "America/New_York", 0.7, 2, 42.10, -72.59, ("Metro Center", "Forest Park", "McKnight", "Sixteen Acres")),
    Place("Paris", "Texas", "tx", "United States", None, 1300, "America/Chicago", 0.6, 1, 33.66, -95.56, ("Downtown", "Lamar Avenue", "Clarksville Street")),
    Place("London", "Ontario", "on", "Canada", "YXU", 1300, "America/Toronto", 0.8, 2, 42.98, -81.25, ("Old North", "Wortley Village", "Byron", "Downtown")),
    Place("Cambridge", "Massachusetts", "ma", "United States", None, 1145, "America/New_York", 1.35, 2, 42.37, -71.11, ("Harvard Square", "Kendall Square", "Central Square", "Porter Square")),
    Place("Cambridge", "England", "uk", "United Kingdom", None, 2000, "Europe/London", 1.1, 2, 52.21, 0.12, ("Mill Road", "Newnham", "Chesterton", "Trumpington")),
    Place("Birmingham", "Alabama", "al", "United States", "BHM", 1450, "America/Chicago", 0.75, 2, 33.52, -86.80, ("Five Points South", "Southside", "Avondale", "Highland Park")),
    Place("Birmingham", "England", "uk", "United Kingdom", "BHX", 2000, "Europe/London", 0.9, 2, 52.49, -1.89, ("Jewellery Quarter", "Digbeth", "Edgbaston", "Moseley")),
    Place("Richmond", "Virginia", "va", "United States", "RIC", 1400, "America/New_York", 0.85, 2, 37.54, -77.44, ("The Fan", "Church Hill", "Scott's Addition", "Carytown")),
    Place("Kansas City", "Missouri", "mo", "United States", "MCI", 1600, "America/Chicago", 0.8, 2, 39.10, -94.58, ("Crossroads", "Westport", "River Market", "Brookside")),
    Place("Kansas City", "Kansas", "ks", "United States", None, 1500, "America/Chicago", 0.7, 1, 39.11, -94.63, ("Strawberry Hill", "Rosedale", "Armourdale")),
)
# fmt: on

# Where the company's people are based, by their timezone (their home airport).
HOME_BY_TIMEZONE = {
    "America/New_York": "new-york-ny",
    "America/Chicago": "chicago-il",
    "America/Los_Angeles": "san-francisco-ca",
    "Europe/London": "london-uk",
}

# Seasons a host may price differently: (label, month, day, nights, markup percent).
SEASONS = (
    ("Spring break", 3, 14, 16, 25),
    ("Conference week", 4, 20, 6, 45),
    ("Summer", 6, 20, 70, 20),
    ("Fall foliage", 10, 1, 21, 15),
    ("Holidays", 12, 20, 14, 35),
    ("Winter lull", 1, 6, 40, -15),
)

PROPERTY_WORDS = {
    "apartment": ("apartment", "flat", "suite"),
    "house": ("house", "home", "family home"),
    "condo": ("condo", "high-rise condo", "condo with a view"),
    "loft": ("loft", "industrial loft", "artist loft"),
    "townhouse": ("townhouse", "row house", "brownstone"),
    "cabin": ("cabin", "cottage", "hideaway"),
    "guesthouse": ("guesthouse", "garden suite", "carriage house"),
}
ADJECTIVES = (
    "Sunny", "Cozy", "Bright", "Quiet", "Modern", "Stylish", "Spacious", "Charming", "Airy",
    "Chic", "Renovated", "Light-filled", "Elegant", "Classic", "Serene", "Urban", "Lovely",
)  # fmt: skip
REVIEW_GOOD = (
    "Great location and spotless. Would stay again.",
    "Exactly as pictured, quick answers from the host.",
    "Comfortable beds and a quiet street. Easy check-in.",
    "Perfect for a work trip: fast wifi and a real desk.",
    "Lovely place, walking distance to everything.",
)
REVIEW_MIXED = (
    "Good value, but the street gets loud at night.",
    "Nice space; the check-in instructions were confusing.",
    "Fine for a night or two, smaller than it looks.",
)
AIRLINES = (("Northstar Air", "NS"), ("Bluewing", "BW"), ("Atlantic Crest", "AC"))
FARE_BRANDS = (
    # brand, cabin, price factor, refundable, change fee in dollars (None: no changes), bags
    ("Basic Economy", "economy", 1.0, False, None, 0),
    ("Main", "economy", 1.3, False, 99, 1),
    ("Flex", "economy", 1.9, True, 0, 1),
    ("Business", "business", 3.6, True, 0, 2),
)
PURPOSES = (
    "a customer visit", "a customer visit", "a customer visit", "the team offsite",
    "a conference",
    "a partner workshop", "a recruiting event", "quarterly planning",
)  # fmt: skip
