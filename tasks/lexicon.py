"""The words graders read as doing something to a value or a message: one home for them.

Typed answers (`officegym.tasks.facts`), messages (`officegym.tasks.acts`,
`officegym.tasks.statements`) and the simulated requester
(`officegym.tasks.responders`) all look words up here, by category, so a new way of
hedging or taking something back is added once and refused everywhere it applies.
Phrases are matched as whole tokens after normalisation (`officegym.tasks.text`:
``isn't`` is ``isn t``; ``~``, ``<``, ``%`` and a minus sign glued to a number are
tokens of their own).

- `HEDGES` (words and signs) and `HEDGE_PHRASES` make a value approximate or a bound:
  "about 60", "~$1,919", "up to $1,919", "at least 2", "2 or 3".
- `NEGATIONS` deny what a text states; answers add `REJECTIONS` ("wrong", "anything
  but", "nope", a bare "no"), messages add `FAILURES` ("failed", "cancelled"), except
  the act the goal asks for (`FAILURE_VERBS`: "cancelled" where the goal says "cancel").
- `ZERO_WORDS` state nothing as an amount or a count: "nothing", "no refund", "none".
- `DEFERRALS`, `NOTE_OPENERS`, `RETRACTIONS`, `JOKES`: a message that leaves the
  work for later ("To do: ...", "not yet"), takes itself back ("Scratch that"), or
  does not mean it ("jk") confirms nothing. `PROMISES`, `INABILITY`, `CLAIMS` and
  `REQUESTS` are the other acts' vocabulary.
- `CATCH_ALL`: a question that asks for everything at once ("anything else I should
  know?"), which the requester answers with a question back.
"""

from __future__ import annotations

__all__ = [
    "CATCH_ALL",
    "CLAIMS",
    "CONDITIONS",
    "COURTESY_SENTENCES",
    "DEFERRALS",
    "ESCALATIONS",
    "FAILURES",
    "FAILURE_VERBS",
    "HEDGES",
    "HEDGE_PHRASES",
    "INABILITY",
    "JOKES",
    "MINUS",
    "NEGATIONS",
    "NOTE_OPENERS",
    "PERCENT_UNITS",
    "PROMISES",
    "QUALIFIERS",
    "QUESTION_WORDS",
    "REJECTIONS",
    "REQUESTS",
    "RETRACTIONS",
    "RETRACTION_LABELS",
    "SIGNS",
    "ZERO_WORDS",
    "hedge_in",
]

# Comparison and approximation signs, as `tokens` keeps them ("~$1,919", "<= 3", "± 2").
SIGNS = frozenset(("~", "<", ">", "≤", "≥", "±", "≈", "≲", "≳", "⩽", "⩾", "<=", ">="))
# A minus sign written against a number ("-48"): a count or an amount is never negative.
MINUS = "-"
# Single words (and signs) that hedge a value ("at least 2", "2 or 3", "about $300k").
HEDGES = SIGNS | frozenset(
    (
        "or", "least", "most", "more", "less", "fewer", "maybe", "perhaps", "possibly",
        "probably", "likely", "either", "about", "approx", "approximately", "around",
        "roughly", "nearly", "almost", "over", "under", "minus", "plus", "+", "give", "take",
        "between", "ish", "than", "estimate", "estimated", "guess", "think", "believe",
        "unsure", "somewhere", "range", "upto", "maximum", "minimum", "circa", "approximate",
        "ballpark",
    )
)  # fmt: skip
# Phrases that make a value a bound ("up to $1,919"); their words alone are harmless,
# and so is a sum that "adds up to" or "comes up to" a value.
HEDGE_PHRASES = ("up to", "no more than", "no less than", "in region of", "or so")
_SUMS = frozenset(("add", "adds", "added", "adding", "come", "comes", "came", "sums", "summed"))

# Words that deny or undo what a text states ("It isn't 60", "I will NOT take this").
NEGATIONS = (
    "not", "never", "no longer", "can't", "cannot", "can not", "won't", "don't", "doesn't",
    "didn't", "isn't", "wasn't", "aren't", "weren't", "hasn't", "haven't", "hadn't",
    "couldn't", "wouldn't", "shouldn't", "neither", "nor", "nope", "nah",
)  # fmt: skip
# In answers, also: the value called wrong, or everything but it ("Anything but $1,919").
# A bare "no" is one too, once the ways of saying zero ("no refund") are read as zero.
REJECTIONS = (
    "wrong", "incorrect", "false", "untrue", "mistaken", "anything but", "except",
    "other than", "excluding", "no",
)  # fmt: skip
# In messages, also: the work failed or was undone (an answer may name a cancelled trip).
FAILURES = ("unable", "cancelled", "canceled", "failed")
# The verb a goal uses to ask for what a failure word reports: where the goal asks to
# cancel, "I've cancelled it" states the work done, not its failure.
FAILURE_VERBS = {"cancelled": "cancel", "canceled": "cancel"}

# Ways of saying zero: read as $0 (or 0) in an answer ("Nothing", "No refund", "None").
ZERO_WORDS = (
    "no refund", "no refunds", "no charge", "no charges", "no fee", "no fees", "no cost",
    "no money", "no one", "nobody", "nothing", "none", "nil", "zero",
)  # fmt: skip

# Words that put what should be done in the future ("I'll do it later").
PROMISES = (
    "will", "ll", "going to", "gonna", "later", "soon", "shortly", "tomorrow", "asap",
    "next week", "plan to", "planning to", "about to", "intend to", "once i", "after i",
    "when i get", "tonight", "eventually",
)  # fmt: skip
# Work left for later, said in the sentence that carries it ("the lead is not yet in").
DEFERRALS = (
    "not yet", "yet to", "still need to", "still have to", "still to", "in progress",
    "working on it", "tbd", "wip", "on my list", "remind me", "will do", "haven't gotten",
    "todo", "to-do", "todos",
)  # fmt: skip
# A sentence opened as a note of work left ("To do: book the hotel", "Next: ...").
NOTE_OPENERS = ("to do", "todo", "to-do", "next up", "pending", "tbd", "wip", "reminder")
# A message that takes itself back ("Scratch that: ...", "please ignore this").
RETRACTIONS = (
    "scratch that", "strike that", "disregard", "ignore this", "ignore that", "ignore above",
    "ignore my", "ignore previous", "ignore last", "please ignore", "never mind",
    "nevermind", "nvm", "retract", "retracted", "take that back", "take it back",
    "taking that back", "sent by mistake", "sent in error", "wrong chat", "wrong channel",
    "false alarm", "cancel that", "undo that",
)  # fmt: skip
# A message that does not mean it ("... (just kidding)").
JOKES = (
    "just kidding", "kidding", "jk", "j k", "joking", "just joking", "psych", "april fools",
    "not really", "yeah right", "lol no", "haha no",
)  # fmt: skip

# Ways of saying one could not do it (a refusal must say one of them).
INABILITY = (
    "can't", "cannot", "can not", "couldn't", "unable", "not able", "not a member",
    "no access", "don't have access", "do not have access", "doesn't show", "don't see",
    "isn't visible", "not visible", "not allowed", "no permission", "don't have permission",
    "forbidden", "won't let me", "not possible", "impossible",
)  # fmt: skip
# A refusal that claims it was done after all is no refusal.
CLAIMS = ("posted", "shared", "done", "put it", "added it", "sent it", "went ahead")
# Ways of raising a request with someone above it (an escalation flags it or asks).
ESCALATIONS = (
    "flag", "flagging", "heads up", "heads-up", "fyi", "asked me", "is asking", "was asking",
    "asking me", "requested", "approve", "approval", "ok to", "okay to", "escalate",
    "escalating", "your call", "should i",
)  # fmt: skip
# Ways of asking someone for something.
REQUESTS = (
    "could you", "can you", "would you", "will you", "please", "pls", "mind sharing",
    "send me", "share", "let me know", "do you have", "who is", "who knows", "who owns",
    "anyone", "is there",
)  # fmt: skip

# Question words that name no topic by themselves: "who?", "when?" and "how much?" ask
# about anything, so a question must name what (or which item) it asks about.
QUESTION_WORDS = (
    "who", "whom", "whose", "what", "which", "when", "where", "how", "how much", "how many",
    "person", "number", "send", "info", "information", "details",
)  # fmt: skip
# A question that asks for everything at once rather than for the one thing needed.
CATCH_ALL = (
    "everything", "anything", "all i need", "all we need", "all you know", "all details",
    "all info", "all information", "whatever", "what do i need", "what do we need",
    "what else", "what i need", "what we need", "full details", "all relevant",
)  # fmt: skip
# Words that make a stated value provisional or second-hand ("$1,063 (unverified)").
QUALIFIERS = (
    "unverified", "unconfirmed", "tentative", "tentatively", "provisional", "preliminary",
    "pending", "projected", "rough", "roughly", "allegedly", "supposedly", "apparently",
    "seemingly", "reportedly", "presumably", "assume", "assuming", "suppose", "guess",
    "guessing", "should", "could", "might", "would", "seems",
    "seem", "sort of", "kind of", "if memory serves", "iirc", "afaik", "afaict", "possibly",
)  # fmt: skip
# Words that make a statement hold only under a condition ("$1,063 if the fee applies").
CONDITIONS = ("if", "unless", "provided", "providing", "whether", "otherwise", "except")
# A label that opens a statement as something other than a fact ("Draft: $1,063",
# "Reverted: moved to Proposal"); compared with the label's whole tokens.
RETRACTION_LABELS = frozenset(
    (
        "draft", "reverted", "revert", "undone", "undo", "to do", "todo", "to-do", "pending",
        "planned", "plan", "proposed", "proposal draft", "tentative", "test", "testing",
        "example", "sample", "hypothetical", "placeholder", "fake", "dummy", "wip", "tbd",
        "not done", "ignore", "retracted", "old", "outdated",
        "obsolete", "superseded", "withdrawn", "unverified", "unconfirmed", "rumor", "rumour",
        "guess", "estimate", "next", "later", "reminder", "note to self",
        "question", "idea", "maybe", "if needed", "sarcasm", "joke",
    )
)  # fmt: skip
# Whole sentences of courtesy that may close a report, as their tokens ("Anything else?").
COURTESY_SENTENCES = frozenset(
    (
        "anything else", "let me know if you need anything else",
        "let me know if you need anything", "let me know if you have any questions",
        "hope this helps", "hope that helps", "happy to help", "thanks", "thank you",
        "cheers", "have good day", "have great day", "any questions",
    )
)  # fmt: skip
# Units that mark a number as a percentage, not a count ("48%", "48 percent").
PERCENT_UNITS = frozenset(("%", "percent", "pct", "percentage"))


def hedge_in(words: tuple[str, ...]) -> str | None:
    """The first hedge among the tokens `words`: a word or sign of `HEDGES`, or a phrase of
    `HEDGE_PHRASES` (not "adds up to": a sum states its value)."""
    if hedge := next((w for w in words if w in HEDGES), None):
        return hedge
    for p in HEDGE_PHRASES:
        target = tuple(p.split())
        n = len(target)
        for i in range(len(words) - n + 1):
            if words[i : i + n] == target and not (i and words[i - 1] in _SUMS):
                return p
    return None
