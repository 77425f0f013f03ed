"""Naming a person indirectly, through the org chart: the look-up steps a difficulty knob
adds before a task can act ("the manager of Ana Ruiz's manager")."""

from __future__ import annotations

import random
from collections.abc import Sequence

from officegym.apps.org.models import Person
from officegym.tasks.common import call, pick
from officegym.tools import ToolCall

__all__ = ["chain_phrase", "lookup_calls", "manager_chain", "manager_chains"]


def manager_chain(
    rng: random.Random, everyone: Sequence[Person], hops: int, *, avoid: Sequence[int] = ()
) -> list[Person]:
    """A chain ``[start, manager, manager's manager, ...]`` of ``hops + 1`` distinct people,
    none of whose ids is in `avoid`; the last one is the person meant."""
    chains = manager_chains(everyone, hops, avoid=avoid)
    return pick(rng, chains, f"people {hops} manager(s) below someone")


def manager_chains(
    everyone: Sequence[Person], hops: int, *, avoid: Sequence[int] = ()
) -> list[list[Person]]:
    """Every chain ``[start, manager, ...]`` of ``hops + 1`` distinct people (one per start,
    in `everyone`'s order), none of whose ids is in `avoid`."""
    by_id = {p.id: p for p in everyone}

    def chain(p: Person) -> list[Person] | None:
        out = [p]
        for _ in range(hops):
            boss = by_id.get(out[-1].manager_id) if out[-1].manager_id else None
            if boss is None or boss in out:
                return None
            out.append(boss)
        return out if not {q.id for q in out} & set(avoid) else None

    return [c for p in everyone if (c := chain(p)) is not None]


def chain_phrase(chain: Sequence[Person]) -> str:
    """How a goal names the chain's last person: ``Ana Ruiz``, ``Ana Ruiz's manager``,
    ``the manager of Ana Ruiz's manager``."""
    start, hops = chain[0].name, len(chain) - 1
    if hops == 0:
        return start
    return "the manager of " * (hops - 1) + f"{start}'s manager"


def lookup_calls(chain: Sequence[Person]) -> list[ToolCall]:
    """The reference look-ups that walk the chain: one profile read per hop."""
    return [call("slack_get_person", person=p.handle) for p in chain[:-1]]
