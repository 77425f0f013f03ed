"""What a seeded support case's body says: the symptom its subject names, what support
tried, and an impact as bad as its priority (expanded by `seed_data.crm_notes`)."""

from __future__ import annotations

# What a case's body says, by its subject (the template in CASE_SUBJECTS): its symptom
# (`symptom`), how it is named in short (`symptom_short`) and what support tried (`tried`).
CASE_FACTS: dict[str, dict[str, list[str]]] = {
    "{feature} is timing out": {
        "symptom": ["the {feature} spins for over a minute and then times out",
                    "every request to the {feature} times out after about 60 seconds",
                    "the {feature} is slow all morning and times out at peak hours"],
        "symptom_short": ["the timeout", "the slow {feature}"],
    },
    "Cannot log in with SSO": {
        "symptom": ["users are sent back to the login page after the SSO redirect",
                    "SSO login fails with an identity provider error since their certificate "
                    "rotation", "new users cannot sign in through SSO; existing ones can"],
        "symptom_short": ["the SSO login failure", "the redirect loop"],
    },
    "{feature} shows wrong numbers": {
        "symptom": ["numbers in the {feature} differ from the export they ran last week",
                    "the {feature} totals are off by a few percent against their own figures",
                    "the {feature} counts some orders twice"],
        "symptom_short": ["the wrong totals", "the mismatched numbers"],
    },
    "Request: add users to workspace": {
        "symptom": ["they need {small} new users invited to the workspace before {weekday}",
                    "they bought {small}0 more seats and want the new users added",
                    "a new team joins and needs user accounts in the workspace"],
        "symptom_short": ["the user request", "the seat request"],
    },
    "Invoice does not match contract": {
        "symptom": ["the last invoice charges list price, not the contract's discounted price",
                    "the invoice bills {small}0 seats while the contract says fewer",
                    "they were charged twice for the same month according to the invoice"],
        "symptom_short": ["the invoice mismatch", "the billing error"],
    },
    "Errors in {feature} on large accounts": {
        "symptom": ["the {feature} fails with an error for accounts with over 10,000 records",
                    "large accounts get an error page from the {feature}; small ones are fine",
                    "the {feature} errors out on their biggest workspace only"],
        "symptom_short": ["the error", "the failures on large accounts"],
    },
    "Question about {feature} limits": {
        "symptom": ["they ask how many requests the {feature} allows per hour",
                    "they want to know the size limit of the {feature} before rolling it out",
                    "they have a question about whether the {feature} limit applies per user"],
        "symptom_short": ["the limits question", "the question"],
    },
    "Dashboard loads slowly": {
        "symptom": ["their main dashboard takes about 40 seconds to load",
                    "dashboards load slowly since they added the regional filters",
                    "the dashboard is slow for everyone in the morning"],
        "symptom_short": ["the slow dashboard", "the load time"],
    },
    "API returns 500 on {feature}": {
        "symptom": ["calls to the {feature} API return a 500 error about one time in ten",
                    "the {feature} endpoint fails with 500 since the last release",
                    "their integration logs show 500 errors from the {feature} API"],
        "symptom_short": ["the 500 errors", "the failing API calls"],
    },
    "Need help configuring {feature}": {
        "symptom": ["they ask how to set up the {feature} for two regions",
                    "they need help to configure the {feature} for their admins",
                    "the {feature} configuration guide does not cover their setup, they ask how"],
        "symptom_short": ["the configuration question", "the setup"],
    },
}  # fmt: skip
# How bad it is, said as the case's priority says it.
IMPACT = {
    "Low": ["No deadline on their side", "One user is affected and has a workaround",
            "They asked for an answer when we can"],
    "Medium": ["One team is affected so far", "A few users are slowed down",
               "They would like it sorted this week"],
    "High": ["{small}0 users are blocked", "Their month-end close depends on it",
             "They have a board meeting on {weekday}"],
    "Critical": ["Every user in the workspace is blocked", "Their whole operation is stopped",
                 "Their executives escalated; nobody can work"],
}  # fmt: skip
