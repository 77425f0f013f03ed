"""Message templates for seeded chat history, by channel topic. Placeholders are
filled from the world (people, projects, customers) so messages refer to it; a
`{sentence}` is a line of the channel's topic from the phrase grammar below (`CHAT`, and
`REPLY_LINES` in threads), expanded by `seed_data.phrases`."""

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

# ---------------------------------------------------------------- phrase grammar
# Words the lines below draw on (slots not named here, such as {first} or {customer},
# are the world's own values, filled by seed_data/slack.py).
WORDS: dict[str, list[str]] = {
    "doc": [
        "the onboarding doc",
        "the runbook",
        "the {project} spec",
        "the launch checklist",
        "the pricing FAQ",
        "the {feature} design doc",
        "the quarterly plan",
    ],
    "meeting": [
        "the weekly sync",
        "standup",
        "the {project} review",
        "the pipeline review",
        "the all-hands",
        "our 1:1",
        "the planning session",
    ],
    "thing": [
        "the {feature} changes",
        "the {project} timeline",
        "the Q{quarter} numbers",
        "the {customer} renewal",
        "the new expense tool",
        "the offsite agenda",
    ],
    "quarter": ["1", "2", "3", "4"],
    "lunch": ["tacos", "the ramen place", "the salad bar downstairs", "pizza", "dumplings"],
    "reason": [
        "a customer call",
        "the dentist",
        "school pickup",
        "a flight at {time}",
        "interviews all afternoon",
        "the {project} review",
    ],
}
# `{sentence}` lines by channel topic: questions, hand-offs, updates and small talk.
CHAT: dict[str, list[str]] = {
    "general": [
        "Has anyone tried {lunch} near the office? Thinking of going {day}.",
        "The wifi on the third floor keeps dropping, IT is on it.",
        "Who left a blue umbrella in the {room} room? It's at reception.",
        "Reminder to book desks for {day} if you're coming in.",
        "Happy birthday {first}! Cake in the kitchen at {time}.",
        "Parking garage is closed {day} morning, plan ahead.",
        "Does anyone have a spare HDMI adapter? Mine died before {meeting}.",
    ],
    "announcements": ["Please read {doc} before {day}; questions in the thread."],
    "engineering": [
        "Merged the {feature} refactor; {project} builds are {small} minutes faster now.",
        "Can someone with prod access check the {project} queue depth? It looks stuck.",
        "I'm handing the {feature} migration to {first} while I'm out {day}.",
        "Heads up, the {project} v{version} changelog is in {doc}.",
        "CI is red on main because of the {feature} tests, reverting my PR.",
    ],
    "sales": [
        "Prepping for the {customer} call at {time}, anyone have their usage numbers?",
        "{customer} wants a {small}-month pilot before committing, thoughts on pricing?",
        "Updated the forecast: {customer} slips to next quarter.",
        "Sharing the {feature} one-pager with {customer} today.",
    ],
    "support": [
        "{customer} reports the {feature} issue is back since {day}, reopening #{ticket}.",
        "Macro for {feature} questions is updated, please use it.",
        "Handing over #{ticket} to {first} for the evening shift.",
    ],
    "marketing": [
        "Need a quote from {customer} for the {feature} landing page, who owns the account?",
        "Webinar slides for {day} are in review, comments by {time} please.",
        "The {project} newsletter goes out {day} at {time}.",
    ],
    "finance": [
        "Please code {project} expenses to the right cost center before {day}.",
        "Card statements are in; {small} receipts are still missing for last month.",
        "The {customer} invoice is {small} days overdue, sales is following up.",
    ],
    "people": [
        "Onboarding for the new hires starts {day} at {time} in {room}.",
        "Benefits Q&A session {day}; send questions ahead of time.",
        "Please finish the security training by {day}, {pct}% done so far.",
    ],
    "project": [
        "Updated {doc} with the new milestones for {project}.",
        "{first} owns the {feature} workstream from {day}.",
        "Risk for {project}: the {feature} vendor slipped by {small} days.",
        "Demo of {feature} for stakeholders {day} at {time}.",
    ],
    "incidents": [
        "Customer impact on {feature} is limited to {small} accounts so far.",
        "Rolled back {project} v{version}, error rate back to normal.",
    ],
    "private": [
        "Draft of {thing} is ready for review, please keep it in this channel.",
        "Let's decide on {thing} in {meeting} on {day}.",
    ],
    "dm": [
        "Did you get a chance to look at {thing}?",
        "I'll be late to {meeting}, {reason}.",
        "Can we move our 1:1 to {day} {time}?",
        "Sent you the notes from {meeting}.",
        "Want to grab {lunch} at {time}?",
    ],
}
# `{sentence}` lines in a thread, by the parent's channel topic: answers and follow-ups.
REPLY_LINES: dict[str, list[str]] = {
    "any": [
        "Thanks {first}, noted.",
        "Makes sense, let's cover it in {meeting}.",
        "I'll take that one, expect an update by {day}.",
    ],
    "general": [
        "Same here, {first} said it should be fixed by {day}.",
        "Count me in for {day}.",
        "I think facilities handles that, ask in #help-it.",
    ],
    "engineering": [
        "LGTM, left {small} small comments.",
        "I'll pair with {first} on it after {time}.",
        "Staging looks fine now, shipping {day}.",
        "Added a test for the {feature} edge case.",
    ],
    "sales": [
        "They mentioned budget approval by {day}.",
        "I can join at {time} if you need a second voice.",
        "Sent the case study over, fingers crossed.",
    ],
    "support": [
        "Reproduced it on my side, escalating to engineering.",
        "Customer confirmed the workaround works for now.",
    ],
    "project": [
        "Works for me, updated {doc}.",
        "{first} is blocked until {day}, can we reshuffle?",
    ],
    "incidents": [
        "Graphs look normal again since {time}.",
        "Writing the postmortem, draft by {day}.",
    ],
    "dm": ["Sure, {time} works.", "Yes, sent it over just now.", "No worries, see you {day}."],
}


def rules(topic: str, *, reply: bool = False) -> dict[str, list[str]]:
    """The grammar for a `{sentence}` in a message (or a thread reply) of `topic`."""
    lines = (
        REPLY_LINES.get(topic, REPLY_LINES["any"]) if reply else CHAT.get(topic, CHAT["general"])
    )
    return {**WORDS, "sentence": lines}
