"""Message templates for seeded chat history, by channel topic. Placeholders are
filled from the world (people, projects, customers) so messages refer to it."""

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

GENERIC = [
    "Morning all! Anyone else fighting the coffee machine today?",
    "Reminder: please fill in your timesheets before {day}.",
    "Does anyone know who owns the {feature} docs?",
    "Thanks {first} for the help yesterday, much appreciated.",
    "I'll be out {day} afternoon, ping me on mobile if urgent.",
    "Quick poll: should we move the weekly sync to {time}?",
    "{sentence}",
    "{sentence} {sentence}",
]
BY_TOPIC: dict[str, list[str]] = {
    "general": [
        "Welcome {first} to the team! :wave:",
        "The all-hands is on {day} at {time} in the {room} room.",
        "Office closes early on {day} for maintenance.",
        "{sentence}",
    ],
    "announcements": [
        "Company update: we closed the quarter at {pct}% of target. Thank you all!",
        "New policy: expense reports over ${amount} need manager approval.",
        "The {room} room is booked for the board meeting on {day}.",
        "Benefits enrollment closes on {day}. Questions go to #people-ops.",
    ],
    "engineering": [
        "PR for the {feature} is up, could someone review? It touches the {project} service.",
        "Deploy of {project} v{version} is done. Watching error rates.",
        "Flaky test in the {feature} suite again, I'm looking into it.",
        "Heads up: staging will be down for ~{small} minutes at {time}.",
        "Who's on call this week? I have a question about the {project} pipeline.",
    ],
    "sales": [
        "Just got off a call with {customer}: they want a quote for {small}0 seats.",
        "{customer} signed! ${amount} ARR. :tada:",
        "Anyone have a case study for {customer}'s industry?",
        "Pipeline review moved to {day} {time}.",
        "{customer} is asking about the {feature} roadmap, who can join the call?",
    ],
    "support": [
        "Ticket #{ticket} from {customer}: {feature} is timing out for them.",
        "Escalating #{ticket} ({customer}) to engineering, it looks like a regression.",
        "Closed #{ticket}, the customer confirmed the fix.",
        "Backlog is at {small}0 open tickets, can someone pick up the oldest ones?",
    ],
    "marketing": [
        "Draft of the {feature} launch blog post is in the shared drive.",
        "Webinar with {customer} is confirmed for {day} at {time}.",
        "Campaign results: {pct}% open rate on the {project} newsletter.",
    ],
    "finance": [
        "Month-end close starts {day}. Please submit invoices by then.",
        "Budget for {project} is at {pct}% spent.",
        "Invoice for {customer} (${amount}) went out today.",
    ],
    "people": [
        "We have {small} open roles this quarter, referrals welcome!",
        "Interview loop for the {feature} role on {day}, need one more panelist.",
        "Reminder: performance reviews are due {day}.",
    ],
    "project": [
        "Status for {project}: {feature} is {done}% done, on track for {day}.",
        "Blocked on the {feature} API contract, {first} can you take a look?",
        "Design review for {feature} on {day} at {time} in {room}.",
        "Moved the {project} retro to {day}.",
    ],
    "incidents": [
        "INCIDENT: elevated errors on {feature} since {time}. Investigating.",
        "Resolved: {feature} errors were caused by a bad config push. Postmortem to follow.",
        "Paging {first}: latency spike on the {project} API.",
    ],
    "private": [
        "Let's keep this between us until it's announced: {customer} may churn.",
        "Comp review numbers are due {day}.",
        "Candidate for {feature} lead looks strong, let's make an offer.",
        "Board deck draft is ready, {pct}% of slides done.",
    ],
    "dm": [
        "Hey {first}, do you have a minute today?",
        "Thanks for covering for me on {day}!",
        "Can you send me the {feature} notes?",
        "Lunch at {time}?",
        "{sentence}",
    ],
}
REPLIES = [
    "On it.",
    "Thanks!",
    "+1",
    "Good catch, {first}.",
    "I can take a look after {time}.",
    "Done :white_check_mark:",
    "Can we discuss in the sync on {day}?",
    "{sentence}",
]
STATUSES = [
    ("In meetings", "calendar"),
    ("On vacation", "palm_tree"),
    ("Out sick", "face_with_thermometer"),
    ("Commuting", "bus"),
    ("Heads down", "headphones"),
]
