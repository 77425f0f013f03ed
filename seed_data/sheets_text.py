"""Fixed vocabulary of the seeded workbooks: regions, products, budget categories,
expense categories, marketing channels (data only)."""

from __future__ import annotations

# CRM billing country -> sales region (the CRM's countries: seed_data/crm_text.py).
REGION_OF_COUNTRY = {
    "United States": "North America",
    "Canada": "North America",
    "United Kingdom": "EMEA",
    "Germany": "EMEA",
    "Australia": "APAC",
}
ORDER_REGIONS = ["North America", "EMEA", "APAC", "LATAM"]
ORDER_HEADERS = ["Order ID", "Order Date", "Region", "Product", "Category", "Sales Rep",
                 "Units", "Unit Price", "Revenue"]  # fmt: skip
# product -> (category, unit price)
PRODUCTS = {
    "Analytics Cloud": ("Software", 1200.0),
    "Data Pipeline": ("Software", 950.0),
    "Insight Dashboards": ("Software", 480.0),
    "Onboarding Package": ("Services", 2500.0),
    "Training Day": ("Services", 1800.0),
    "Premium Support": ("Services", 600.0),
    "Edge Appliance": ("Hardware", 3200.0),
    "Sensor Kit": ("Hardware", 350.0),
}
BUDGET_CATEGORIES = {
    "Software": (8_000, 40_000),
    "Travel": (5_000, 30_000),
    "Contractors": (10_000, 80_000),
    "Events": (2_000, 25_000),
    "Hardware": (3_000, 20_000),
}
EXPENSE_CATEGORIES = {
    "Travel": (120.0, 900.0),
    "Lodging": (140.0, 620.0),
    "Meals": (12.0, 140.0),
    "Software": (9.0, 240.0),
    "Office Supplies": (6.0, 180.0),
}
TRIP_CATEGORIES = ("Travel", "Lodging")  # an expense report's lines from real bookings
EXPENSE_MERCHANTS = {
    "Travel": ("Uber", "Lyft", "Amtrak"),
    "Lodging": ("Hilton", "Marriott"),
    "Meals": ("Cafe Luna", "Blue Bottle", "Sweetgreen", "Chipotle"),
    "Software": ("Zoom", "Figma", "Notion", "Loom"),
    "Office Supplies": ("Staples", "Office Depot"),
}
CHANNELS = ["Paid Search", "Social Ads", "Events", "Content", "Email", "Partnerships"]
