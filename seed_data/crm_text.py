"""Words for the seeded CRM: products, titles, next steps, activity subjects, case
subjects and the chat messages that talk about real CRM records."""

from __future__ import annotations

import random

from officegym.seed_data.phrases import capital, expand

PRODUCTS = [
    "Analytics Platform",
    "Data Warehouse Add-on",
    "Enterprise Expansion",
    "Premium Support",
    "Training Package",
    "Embedded Dashboards",
    "Forecasting Module",
    "Data Connectors",
    "Pilot",
    "Team Seats",
]
CONTACT_TITLES = [
    "CEO",
    "CFO",
    "CTO",
    "VP of Sales",
    "VP of Operations",
    "Head of Data",
    "Director of IT",
    "Procurement Manager",
    "Data Analyst",
    "Operations Manager",
    "Business Intelligence Lead",
    "Office Manager",
]
COUNTRIES = ["United States"] * 6 + ["Canada", "United Kingdom", "Germany", "Australia"]
# Real cities of each country, for accounts' billing addresses.
CITIES = {
    "United States": [
        "Columbus", "Indianapolis", "Charlotte", "Phoenix", "Minneapolis", "Orlando",
        "Sacramento", "Kansas City", "St. Louis", "Raleigh", "Salt Lake City", "Tampa",
        "Cleveland", "Cincinnati", "Milwaukee", "Omaha", "Richmond", "Lexington",
        "Baltimore", "San Diego", "San Jose", "Dallas", "Houston", "Portland", "Boise",
        "Albuquerque", "Tucson", "Madison", "Des Moines", "Hartford", "Providence",
        "Birmingham", "Memphis", "Oklahoma City", "Spokane", "Ann Arbor", "Durham",
    ],
    "Canada": ["Vancouver", "Calgary", "Ottawa", "Montreal", "Winnipeg", "Halifax", "Edmonton",
               "Waterloo", "Victoria", "Quebec City"],
    "United Kingdom": ["Manchester", "Leeds", "Bristol", "Edinburgh", "Glasgow", "Cardiff",
                       "Nottingham", "Sheffield", "Reading", "Cambridge", "Belfast", "Leicester"],
    "Germany": ["Munich", "Hamburg", "Essen", "Cologne", "Stuttgart", "Düsseldorf",
                "Leipzig", "Dresden", "Nuremberg", "Hanover", "Bremen"],
    "Australia": ["Sydney", "Melbourne", "Brisbane", "Perth", "Adelaide", "Canberra",
                  "Hobart", "Gold Coast"],
}  # fmt: skip
NEXT_STEPS = [
    "Send revised quote",
    "Schedule technical demo",
    "Security questionnaire due",
    "Legal review of MSA",
    "Follow up with procurement",
    "Executive sponsor call",
    "Share ROI analysis",
    "Book onsite workshop",
    "Waiting on budget approval",
    "Send pilot success criteria",
]
ACTIVITY_SUBJECTS = {
    "call": ["Discovery call", "Pricing call", "Check-in call", "Renewal call", "Follow-up call"],
    "meeting": ["Product demo", "Quarterly business review", "Onsite workshop", "Kickoff meeting"],
    "email": ["Sent proposal", "Sent case study", "Sent contract draft", "Intro email"],
    "task": ["Prepare quote", "Update mutual action plan", "Send NDA", "Confirm attendees"],
    "note": ["Champion left the company", "Budget approved for Q2", "Competitor in the deal"],
}
CASE_SUBJECTS = [
    "{feature} is timing out",
    "Cannot log in with SSO",
    "{feature} shows wrong numbers",
    "Request: add users to workspace",
    "Invoice does not match contract",
    "Errors in {feature} on large accounts",
    "Question about {feature} limits",
    "Dashboard loads slowly",
    "API returns 500 on {feature}",
    "Need help configuring {feature}",
]
FEATURES = [
    "SSO login",
    "CSV export",
    "billing page",
    "usage dashboard",
    "audit log",
    "webhooks",
    "data sync",
    "scheduled reports",
]
RESOLUTIONS = [
    "Fixed in the latest release; customer confirmed.",
    "Configuration corrected on our side.",
    "Explained the documented limit; customer satisfied.",
    "Duplicate of an earlier case; merged.",
    "Workaround provided and accepted.",
]
ESCALATION_REASONS = [
    "Customer threatened to churn",
    "Outage affecting all users",
    "Open for more than two weeks",
    "Executive complaint",
]
DEAL_QUESTIONS = [
    "@{owner} what's the latest on {opp}? {contact} asked me about pricing this morning.",
    "@{owner} is {opp} still on track to close by {close}? Forecast call is today.",
    "Quick one @{owner}: who is the champion on {opp} at {account}?",
]
DEAL_ANSWERS = [
    "It's in {stage} right now. Next step: {next_step}.",
    "Still {stage}. {next_step} is the blocker, I'll update the record today.",
]
DISCOUNT_ASKS = [
    "Hi {head}, can I get approval for a 15% discount on {opp}? They're talking to a competitor.",
    "Hi {head}: {account} wants multi-year terms on {opp}. OK to offer a 10% discount?",
]
ESCALATIONS = [
    "Case {number} from {account} ({subject}) is getting hot, the customer called twice today.",
    "Heads up: {account} is unhappy about case {number} ({subject}). Can we escalate?",
]
ESCALATION_REPLIES = [
    "Looking at it now. @{owner} you own case {number}, can you give me a status?",
    "Agreed, this needs an escalation. @{owner} please update the case.",
]
# Requests in chat that name real CRM records (material for cross-app tasks). The
# wording is fixed so task templates can find them; `crm_requests.py` posts them.
STAGE_REQUEST = "@{owner} please move {opp} to {stage} in the CRM: {reason}."
STAGE_REASONS = [
    "they confirmed the budget",
    "legal signed off on the MSA",
    "the demo went well",
    "procurement asked for the final paperwork",
    "their CFO approved the proposal",
]
FIELD_QUESTION = "@{owner} quick question: what is the {field} of {opp}?"
QUESTION_FIELDS = ["close date", "amount", "next step"]
LEAD_TIP = (
    "Met {first} {last} ({title}) from {company} at the {event}. Email: {email}. "
    "Could someone add them to the CRM as a lead?"
)
EVENTS = ["SaaS Summit", "Data Expo", "regional meetup", "partner dinner", "analytics conference"]
ESCALATION_REQUEST = (
    "@{owner} case {number} ({account}) needs an escalation: {reason}. "
    "Please escalate it in the CRM and confirm here."
)

# ---------------------------------------------------------------- phrase grammar
# Free text of the seeded records (descriptions, case bodies, activity notes), expanded by
# `seed_data.phrases` from the record's own facts: its account, contact, product, amount.
WORDS: dict[str, list[str]] = {
    "pain": [
        "reporting takes their analysts {days} days every month-end",
        "their dashboards live in spreadsheets nobody trusts",
        "the current vendor's contract ends in {month}",
        "leadership wants one view of revenue across regions",
        "their data team of {small} cannot keep up with requests",
    ],
    "goal": [
        "cut month-end reporting to a day",
        "replace three legacy BI tools",
        "give store managers daily numbers",
        "consolidate reporting after an acquisition",
        "roll out self-serve dashboards to {small}0 users",
    ],
    "risk": [
        "a competitor is also in the deal",
        "budget is not approved yet",
        "security review could slow things down",
        "the champion is new in the role",
        "procurement wants a discount for a multi-year term",
    ],
    "symptom": [
        "the page spins for over a minute and then shows an error",
        "numbers differ from the export they ran last week",
        "users in the EU workspace are affected, US users are fine",
        "it started after the last release",
        "it fails only for files over 50 MB",
    ],
    "impact": [
        "{small}0 users are blocked",
        "Their month-end close depends on it",
        "One team is affected so far",
        "They have a board meeting on {weekday}",
    ],
    "symptom_short": ["the timeout", "the error", "the wrong totals", "the failed export"],
    "tried_lower": [
        "cleared the cache and retried",
        "checked the status page",
        "reproduced it on a test workspace",
    ],
    "tried": [
        "Cleared the cache and retried",
        "Asked for a screenshot and the browser version",
        "Reproduced it on a test workspace",
        "Checked the status page, nothing reported",
        "Sent them the troubleshooting article",
    ],
    "weekday": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    "month": ["January", "March", "June", "September", "December"],
    "days": ["3", "4", "5", "6"],
    "small": ["2", "3", "4", "5", "6", "8"],
}
ACCOUNT_LINES: dict[str, list[str]] = {
    "Customer": [
        "{industry} customer in {city} with about {employees} employees. Uses "
        "{product} across {small} teams.",
        "{industry} account based in {city}, customer since {since}. Renewal "
        "conversations usually start in {month}.",
    ],
    "Prospect": [
        "{industry} prospect in {city}, about {employees} employees. Their pain: {pain}.",
        "{industry} company in {city} evaluating analytics vendors; they want to {goal}.",
    ],
    "Partner": [
        "Implementation partner in {city}; resells {product} to {industry_lower} customers.",
        "Consulting partner based in {city}, {small} certified consultants.",
    ],
    "Other": [
        "{industry} organisation in {city}; not a buyer today, keep for references.",
        "Vendor we buy from, based in {city}. Contact accounts payable for invoices.",
    ],
}
OPPORTUNITY_LINES = [
    "{who} wants {product} to {goal}. Sized at {amount}; came in through {source}.",
    "{account} is looking at {product} because {pain}. {who} is the champion. Risk: {risk}.",
    "{kind} deal for {product} at {amount}. {who} is driving it; {risk}.",
]
CASE_LINES = [
    "{who} wrote in by {origin}: {symptom}. {impact}. {tried}.",
    "Reported by {who} via {origin} ({priority} priority): {symptom}. {impact}. {tried}; "
    "waiting on the customer.",
    "{who} says {symptom}. {impact}. {tried}, no change yet.",
]
# Notes of an activity, by its subject, so the note says what the subject names.
ACTIVITY_LINES: dict[str, list[str]] = {
    "Discovery call": ["Discovery call with {who}: {pain}. Wants to {goal}."],
    "Pricing call": [
        "Walked {who} through pricing for {product}. They asked about multi-year terms."
    ],
    "Check-in call": ["Checked in with {who} on {record}. No blockers; next: {step}."],
    "Renewal call": ["Renewal call with {who}: happy with {product}, though {risk}."],
    "Follow-up call": ["Follow-up with {who} on {record}. Agreed next step: {step}."],
    "Product demo": [
        "Demoed {product} to {who} and {small} colleagues. Good questions "
        "on permissions and exports."
    ],
    "Quarterly business review": [
        "QBR with {who}: usage up {small}0% this quarter; they want to {goal}."
    ],
    "Onsite workshop": ["Onsite workshop at {account} with {who}; mapped their reporting needs."],
    "Kickoff meeting": ["Kickoff with {who} for {record}. Owners and dates agreed."],
    "Sent proposal": ["Sent {who} the proposal for {record} ({amount})."],
    "Sent case study": ["Sent {who} a case study from another {industry_lower} customer."],
    "Sent contract draft": ["Sent the contract draft for {record} to {who} for legal review."],
    "Intro email": ["Intro email to {who} about {product}."],
    "Prepare quote": ["Prepare the quote for {record} at {amount} before the next call."],
    "Update mutual action plan": ["Update the mutual action plan for {record} with {who}'s dates."],
    "Send NDA": ["Send the mutual NDA to {who} before the technical deep dive."],
    "Confirm attendees": ["Confirm who from {account} joins the next session with {who}."],
    "Champion left the company": [
        "Heard that our champion at {account} left; {who} is the new contact for {record}."
    ],
    "Budget approved for Q2": ["{who} confirmed budget for {record} is approved for Q2."],
    "Competitor in the deal": [
        "{who} mentioned they are also talking to a competitor about {record}; {risk}."
    ],
}
# Activities on a case are the support team's, with subjects of their own (as many per
# kind as ACTIVITY_SUBJECTS has, so either list is drawn from alike).
CASE_ACTIVITY_SUBJECTS = {
    "call": ["Troubleshooting call", "Status call", "Screen share", "Callback", "Follow-up call"],
    "meeting": [
        "Troubleshooting session",
        "Escalation review",
        "Fix walkthrough",
        "Account review",
    ],
    "email": ["Asked for logs", "Sent workaround", "Sent status update", "Confirmed fix"],
    "task": [
        "Reproduce the issue",
        "Check with engineering",
        "Update the customer",
        "Close if no reply",
    ],
    "note": ["Customer frustrated", "Known issue", "Waiting on engineering"],
}
CASE_ACTIVITY_LINES: dict[str, list[str]] = {
    "Troubleshooting call": ["Call with {who} on {record}: {tried_lower}, the issue persists."],
    "Status call": ["Gave {who} a status on {record}; next update by {weekday}."],
    "Screen share": ["Screen share with {who}: watched {symptom_short} happen on {record}."],
    "Callback": ["Called {who} back about {record}; left a voicemail."],
    "Follow-up call": ["Follow-up with {who} on {record}. {tried}."],
    "Troubleshooting session": ["Session with {who} and engineering on {record}. {tried}."],
    "Escalation review": ["Reviewed {record} with the support lead; {who} is waiting on a fix."],
    "Fix walkthrough": [
        "Walked {who} through the fix for {record}; they will confirm by {weekday}."
    ],
    "Account review": ["Reviewed open cases with {who}, {record} first."],
    "Asked for logs": ["Asked {who} for logs and a HAR file for {record}."],
    "Sent workaround": ["Emailed {who} a workaround for {record}."],
    "Sent status update": ["Emailed {who} a status update on {record}."],
    "Confirmed fix": ["{who} confirmed by email that {record} is fixed."],
    "Reproduce the issue": ["Reproduce {record} on a test workspace."],
    "Check with engineering": ["Check with engineering whether {record} is a known bug."],
    "Update the customer": ["Send {who} an update on {record} by {weekday}."],
    "Close if no reply": ["Close {record} if {who} does not reply within a week."],
    "Customer frustrated": ["{who} is frustrated about {record}; keep them posted daily."],
    "Known issue": ["{record} matches a known issue; engineering has a fix in progress."],
    "Waiting on engineering": ["{record} waits on engineering; told {who}."],
}


# How a product (the tail of an opportunity's name) reads in a sentence.
PRODUCT_PHRASES = {
    "Analytics Platform": "the Analytics Platform",
    "Data Warehouse Add-on": "the Data Warehouse add-on",
    "Enterprise Expansion": "an enterprise-wide expansion",
    "Premium Support": "Premium Support",
    "Training Package": "the training package",
    "Embedded Dashboards": "Embedded Dashboards",
    "Forecasting Module": "the Forecasting Module",
    "Data Connectors": "the data connectors",
    "Pilot": "a pilot of the Analytics Platform",
    "Team Seats": "more team seats",
}
SOURCE_PHRASES = {
    "Web": "the website", "Referral": "a referral", "Partner": "a partner",
    "Trade Show": "a trade show", "Cold Call": "a cold call", "Advertisement": "an ad",
    "Webinar": "a webinar",
}  # fmt: skip


def prose(template: str, rng: random.Random, facts: dict[str, str]) -> str:
    """`template` expanded by the grammar with the record's `facts` (its own words first)."""
    return capital(expand(template, rng, {**WORDS, **facts}))
