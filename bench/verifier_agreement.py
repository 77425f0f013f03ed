"""How often a verifier model agrees with the rule reader on the honest-phrasing corpus.

Every case of the corpus (`tests/tasks/corpus`: honest answers and reports, and the
cheating forms) is read by the rule reader (`officegym.tasks.reader.RuleReader`) and
asked of the verifier (`officegym.tasks.verifier`) directly, whatever the rules said.
Printed: the cases, each reader's accuracy against the corpus labels, their agreement,
and what the verifier would change behind the rules (claims it takes away). Verdicts are
cached, so a second run asks nothing.

The verifier is the one configured by ``OFFICEGYM_VERIFIER_URL`` and
``OFFICEGYM_VERIFIER_MODEL``; without one, a local stub speaking the OpenAI chat API
(`tests/gym/openai_stub.py`) stands in, answering NO when the statement holds a word of
a short hedge list — a floor any real verifier should beat.

    python bench/verifier_agreement.py [--cache DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from officegym.tasks.facts import judge_answer
from officegym.tasks.judge import ask
from officegym.tasks.reader import RuleReader, set_reader
from officegym.tasks.verifier import (
    answer_question,
    statement_question,
    verifier_settings,
)
from tests.tasks.corpus import Case, answer_cases, statement_cases

_STUB_NO = re.compile(r"\b(maybe|probably|think|not|isn't|draft|unverified)\b|\?|~", re.I)


def _stub(path: str, body: dict) -> tuple[int, str, bytes]:
    from tests.gym.openai_stub import as_json

    text = body["messages"][-1]["content"].split("Text:\n", 1)[-1]
    verdict = "NO" if _STUB_NO.search(text) else "YES"
    return as_json(200, {"choices": [{"message": {"role": "assistant", "content": verdict}}]})


def rule_verdict(case: Case) -> bool:
    """The grade's own verdict with the rule reader alone (no verifier)."""
    set_reader(RuleReader())
    try:
        if case.fact is not None:
            return judge_answer(case.fact, case.text, goal=case.goal)[0]
        assert case.says is not None
        return case.says.judge(case.text, case.goal, case.reference)[0]
    finally:
        set_reader(None)


def question(case: Case) -> str:
    if case.fact is not None:
        return answer_question(case.fact)
    assert case.says is not None
    return statement_question(case.says.all_facts)


def _share(verdicts: list[bool], labels: list[bool]) -> float:
    return sum(a == y for a, y in zip(verdicts, labels, strict=True)) / len(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", default=None, help="where verdicts are cached")
    args = parser.parse_args()
    server = None
    if verifier_settings() is None:
        from tests.gym.openai_stub import StubServer

        server = StubServer(_stub)
        os.environ["OFFICEGYM_VERIFIER_URL"] = server.base_url
        os.environ["OFFICEGYM_VERIFIER_MODEL"] = "stub-hedge-list"
    os.environ["OFFICEGYM_CACHE"] = args.cache or tempfile.mkdtemp(prefix="og-verifier-")
    settings = verifier_settings()
    assert settings is not None
    cases = answer_cases() + statement_cases()
    rules = [rule_verdict(c) for c in cases]
    model = [ask(settings, question(c), c.text) for c in cases]
    labels = [c.honest for c in cases]
    n = len(cases)
    agree = sum(a == b for a, b in zip(rules, model, strict=True))
    taken = sum(a and not b for a, b in zip(rules, model, strict=True))
    print(f"verifier {settings.model} at {settings.url}")
    print(f"cases                 {n} ({sum(labels)} honest, {n - sum(labels)} cheating)")
    print(f"rule reader accuracy  {_share(rules, labels):.1%}")
    print(f"verifier accuracy     {_share(model, labels):.1%}")
    print(f"agreement             {agree / n:.1%} ({agree} of {n})")
    print(f"taken away by verifier {taken} of {sum(rules)} the rules accept")
    if server is not None:
        server.close()


if __name__ == "__main__":
    main()
