"""Words for the seeded CRM: products, titles, next steps, activity subjects, case
subjects and the chat messages that talk about real CRM records."""

from __future__ import annotations

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
    "{feature} export fails for large files",
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
