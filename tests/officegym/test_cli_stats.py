"""`officegym tasks --stats`: its counts agree with counts made here independently (tasks
built one by one, the same work counted once), over seeds and two worlds; the table shows
them; bad scenarios and template ids are refused by name."""

from __future__ import annotations

import json
import statistics
from typing import Any

from click.testing import CliRunner

from officegym import cli
from officegym.tasks import make_task

WIDE = {"COLUMNS": "250"}
# set-status repeats itself within 10 seeds; onboard-new-hire has a long reference.
IDS = ("slack.set-status", "slack.onboard-new-hire", "crm.count-open-cases")
WORLDS = (("default", 0), ("startup", 0))
SEEDS = 10


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli.main, list(args), env=WIDE, catch_exceptions=False)


def expected(template_id: str) -> dict[str, Any]:
    """Distinct (goal, calls, answer) over the seeds and worlds, counted here."""
    seen: dict[tuple, int] = {}
    for scenario, world_seed in WORLDS:
        for seed in range(SEEDS):
            t = make_task(template_id, seed, scenario, world_seed)
            calls = tuple((c.name, repr(sorted(c.arguments.items()))) for c in t.solution)
            seen.setdefault((t.goal, calls, t.answer), len(t.solution))
    lengths = sorted(seen.values())
    difficulty = make_task(template_id, 0).difficulty
    return {
        "instances": len(seen),
        "tried": SEEDS * len(WORLDS),
        "unbuildable": 0,
        "oracle_calls": {
            "min": lengths[0],
            "median": statistics.median(lengths),
            "max": lengths[-1],
        },
        "difficulty": {difficulty: len(seen)},
    }


def test_stats_json_matches_independent_counts() -> None:
    result = invoke(
        "tasks", *IDS, "--stats", "--seeds", str(SEEDS), "--scenarios", "default,startup",
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["worlds"] == [list(w) for w in WORLDS] and report["seeds"] == SEEDS
    want = {tid: expected(tid) for tid in IDS}
    assert report["templates"] == want
    assert want["slack.set-status"]["instances"] < SEEDS * len(WORLDS)  # repeats counted once
    total = report["total"]
    assert total["instances"] == sum(w["instances"] for w in want.values())
    assert total["tried"] == SEEDS * len(WORLDS) * len(IDS)
    assert total["oracle_calls"]["max"] == max(w["oracle_calls"]["max"] for w in want.values())


def test_more_world_seeds_give_more_instances() -> None:
    one = json.loads(invoke("tasks", IDS[0], "--stats", "--seeds", "5", "--json").output)
    two = json.loads(
        invoke("tasks", IDS[0], "--stats", "--seeds", "5", "--world-seeds", "2", "--json").output
    )
    assert two["worlds"] == [["default", 0], ["default", 1]]
    assert two["total"]["tried"] == 2 * one["total"]["tried"] == 10
    assert two["total"]["instances"] > one["total"]["instances"]


def test_stats_table_shows_each_template_and_the_total() -> None:
    result = invoke("tasks", *IDS[:2], "--stats", "--seeds", "4")
    assert result.exit_code == 0, result.output
    counts = {tid: expected_on_default(tid, 4) for tid in IDS[:2]}
    rows = {x.split("\t")[0]: x.split("\t") for x in result.output.splitlines() if "\t" in x}
    for tid, n in counts.items():  # piped: tab-separated, the template id whole
        assert rows[tid][1] == str(n)
    assert rows["total"][1] == str(sum(counts.values()))
    assert f"{sum(counts.values())} distinct instances" in result.output


def expected_on_default(template_id: str, seeds: int) -> int:
    tasks = [make_task(template_id, s) for s in range(seeds)]
    return len(
        {(t.goal, repr([(c.name, c.arguments) for c in t.solution]), t.answer) for t in tasks}
    )


def test_bad_scenarios_and_template_ids_are_refused_by_name() -> None:
    result = CliRunner().invoke(cli.main, ["tasks", "--stats", "--scenarios", "default,nope"])
    assert result.exit_code == 2 and "--scenarios" in result.output and "nope" in result.output
    result = CliRunner().invoke(cli.main, ["tasks", "slack.nope", "--stats"])
    assert result.exit_code == 2 and "slack.nope" in result.output
