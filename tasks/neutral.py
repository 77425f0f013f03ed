"""The words a statement may hold beside what it asserts: a small, closed vocabulary.

The reader (`officegym.tasks.reader`) fails closed: a word it cannot classify makes a
claim not count. What it may classify as neutral is listed here, by category, and kept
small on purpose — every entry is a word that cannot change what a statement asserts:

- `FUNCTION`: closed-class English (articles, pronouns, plain prepositions and
  conjunctions, the positive auxiliaries); no negation, no condition, no hedge.
- `COURTESY`: greetings, thanks and sign-offs ("Hi Ana", "Thanks!", "Cheers").
- `FRAMING`: how people introduce a value or a report ("the total comes to",
  "according to the CRM", "I checked", "here is") — plain assertion only.
- `WORK`: what office work is called when it is reported done ("added", "booked",
  "moved", "updated", "pinned"), and the apps and things it is done to.
- `AFFIRM`: affirmations ("yes", "confirmed", "all set").

Everything else an answer or report may hold comes from the task itself: the goal's
words, the names of the people and records involved, the words of the reference's
own messages and the phrases its checks look for. Words that hedge, deny, retract,
put off or joke (`officegym.tasks.lexicon`) are never neutral, even when the goal
uses them.
"""

from __future__ import annotations

__all__ = ["AFFIRM", "COURTESY", "FRAMING", "FUNCTION", "NEUTRAL", "WORK"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FUNCTION = _words(
    """
    a an the this that these those it its i me my mine myself we us our ours you your
    yours he him his she her hers they them their theirs s m re ve d is are was were be been
    being am has have had do does did here there of in on at to for from by with as and so
    also just now then both each which who whose into onto per all via
    """
)
COURTESY = _words(
    """
    hi hello hey dear thanks thank thx ty cheers regards best kind warm team folks everyone
    morning afternoon evening good great glad happy welcome please sure ok okay alright
    sorry quick update fyi note ask asked asking
    """
)
FRAMING = _words(
    """
    answer answers result results total totals totaling totalling count counted number
    numbers amount amounts value figure sum summed comes come came adds added up works out
    stands sits currently current right today exactly precisely exact final overall
    found find checked check looked look see saw shows showing shown listed lists says
    said reads according based recorded record records data system report reporting
    reported looks like confirm confirmed confirming
    answered responded reply replying got get gives give giving back owner owned owns
    belongs belong go goes went gone
    """
)
WORK = _words(
    """
    done did completed complete finished handled taken care sorted set created create
    made moved updated update changed booked book reserved pinned posted sent shared
    invited assigned closed opened logged filed scheduled marked renamed fixed escalated
    archived submitted entered saved welcomed added new open crm slack sheet sheets
    spreadsheet workbook booking bookings site app channel thread dm message messages
    deal deals case cases lead leads account accounts contact contacts stay stays trip
    flight flights reservation expense expenses pipeline stage row rows cell cells
    night nights day days date dates guest guests people person dollars
    """
)
AFFIRM = _words("yes yep yeah yup affirmative indeed correct all-set")

NEUTRAL = FUNCTION | COURTESY | FRAMING | WORK | AFFIRM
