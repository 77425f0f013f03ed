"""The world's values seeded chat talks about (projects, features, rooms, days, times),
the emoji people react with and the statuses they set. The conversations themselves are
data: `seed_data/conversations/*.toml`, read by `seed_data/slack_talk.py`; templates
take these lists to name things the chat names."""

from __future__ import annotations

PROJECTS = ["apollo", "borealis", "cascade", "delta", "ember", "fjord"]
FEATURES = [
    "SSO login",
    "CSV export",
    "billing page",
    "usage dashboard",
    "audit log",
    "search indexer",
    "webhooks",
    "mobile onboarding",
]
ROOMS = ["Aurora", "Baltic", "Cedar", "Dune", "Everest"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
TIMES = ["9:30", "10:00", "11:00", "13:30", "14:00", "15:30", "16:00"]
EMOJI = ["thumbsup", "eyes", "tada", "white_check_mark", "heart", "rocket", "pray", "joy", "fire"]

STATUSES = [
    ("In meetings", "calendar"),
    ("On vacation", "palm_tree"),
    ("Out sick", "face_with_thermometer"),
    ("Commuting", "bus"),
    ("Heads down", "headphones"),
]
