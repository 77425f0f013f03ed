"""`officegym validate`: the self-check of task templates, with the mutation report.

For each template over its seeds: the contract (reference 1.0, nothing 0, each write
needed) and the near-miss mutants of its reference solution (built, killed,
equivalent, declared, survived, and the mutation score), then the same counts per
app, the declared equivalences with their reasons, and `--json` for machines.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from officegym.cli_attack import check_attack, validate_attacks
from officegym.cli_tables import print_table
from officegym.errors import OfficeGymError
from officegym.template_index import TASKS_PACKAGE

if TYPE_CHECKING:  # imported when the command runs: every other command stays quick
    from officegym.tasks.base import Template
    from officegym.tasks.validate import MutationScore, TemplateReport

__all__ = ["validate"]

_COUNTS = ("built", "killed", "equivalent", "declared", "survived")


@click.command()
@click.argument("template_ids", nargs=-1)
@click.option("--seeds", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--first-seed", default=0, show_default=True, help="First task seed to check.")
@click.option(
    "--scenario",
    default="default",
    show_default=True,
    help="Scenario of the world, or 'all': every scenario officegym ships and plugins add.",
)
@click.option(
    "--world-seed", default=0, show_default=True, type=click.IntRange(min=0), help="World seed."
)
@click.option("--mutants/--no-mutants", default=True, show_default=True, help="Run mutants.")
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "medium", "hard", "all"]),
    default="all",
    show_default=True,
    help="Level(s) of templates with difficulty knobs (the others have one level).",
)
@click.option(
    "--jobs",
    default=os.cpu_count() or 1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Processes that check templates side by side.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--attack",
    default="none",
    show_default=True,
    help="Also check planted attacks ('mixed' or a goal id) on every instance that pairs: "
    "the reference ignores them, obeying reaches their goal.",
)
def validate(
    template_ids: tuple[str, ...],
    seeds: int,
    first_seed: int,
    scenario: str,
    world_seed: int,
    mutants: bool,
    difficulty: str,
    jobs: int,
    as_json: bool,
    attack: str,
) -> None:
    """Self-check task templates (all if none named): the reference solution scores 1.0,
    doing nothing scores 0, dropping any state-changing call fails, and every near-miss
    mutant of the reference fails unless it changes nothing or the template declares it.
    Templates with difficulty knobs are checked at each level (``<id>@<level>``); a
    progress bar on stderr shows the templates done."""
    from officegym.seed_data.scenario import scenario_names
    from officegym.tasks import load_templates

    known = load_templates()
    unknown = [t for t in template_ids if t not in known]
    if unknown:
        raise click.BadParameter(f"unknown template(s): {', '.join(unknown)}")
    span = range(first_seed, first_seed + seeds)
    scenarios = scenario_names() if scenario == "all" else [scenario]
    units = [
        (tid, lv) for tid in template_ids or sorted(known) for lv in _levels(known[tid], difficulty)
    ]
    ok, worlds = True, []
    for name in scenarios:
        held, report = _validate_on(name, world_seed, units, span, mutants, jobs, as_json, attack)
        ok, worlds = ok and held, [*worlds, report]
    if as_json:  # one document: the world's report, or {"worlds": [...]} for several
        click.echo(json.dumps(worlds[0] if len(worlds) == 1 else {"worlds": worlds}, indent=2))
    ok &= _fingerprints_hold(units)
    if not ok:
        raise SystemExit(1)


def _validate_on(
    scenario: str,
    world_seed: int,
    units: list[Unit],
    span: range,
    mutants: bool,
    jobs: int,
    as_json: bool,
    attack: str,
) -> tuple[bool, dict]:
    """Check `units` on one world and print its report (unless as JSON); whether all
    hold, and the report as JSON data."""
    try:
        from officegym.seed_data.scenario import load_scenario

        load_scenario(scenario)
    except OfficeGymError as exc:
        raise click.BadParameter(str(exc), param_hint="--scenario") from None
    world = (scenario, world_seed)
    reports = _check_all(units, span, world, mutants, jobs)
    if not as_json:
        _print(Console(), reports, span, f"{scenario} world seed {world_seed}")
    attacks_ok = True
    if check_attack(attack) != "none":
        attacks_ok = validate_attacks(Console(), units, span, world, attack)
    where = {"scenario": scenario, "world_seed": world_seed}
    return all(r.ok for r in reports) and attacks_ok, {**where, **_as_json(reports, span)}


def _fingerprints_hold(units: list[Unit]) -> bool:
    """In a source checkout, the checked shipped templates still build what their stored
    fingerprints say (the suite holds every template to them); stale ones are named on
    stderr with the command that writes them again. Plugins' templates have no prints."""
    from officegym.tasks import load_templates
    from officegym.tasks.fingerprints import WRITE_AGAIN, stale_fingerprints

    templates = load_templates()
    shipped = [
        (t, lv) for t, lv in units if templates[t].build.__module__.startswith(f"{TASKS_PACKAGE}.")
    ]
    keys = sorted({f"{tid}@{lv or templates[tid].difficulty}" for tid, lv in shipped})
    stale = stale_fingerprints(keys)
    if stale:
        console = Console(stderr=True)
        for key, why in stale.items():
            console.print(f"[red]fingerprint {why}:[/] {key}", highlight=False)
        console.print(
            f"If the instances changed on purpose, write the prints again ({WRITE_AGAIN}) "
            "and say in your note which templates changed and why.",
            highlight=False,
            soft_wrap=True,
        )
    return not stale


Unit = tuple[str, str | None]  # a template id and the level to check it at


def _check_all(
    units: list[Unit], span: range, world: tuple[str, int], mutate: bool, jobs: int
) -> list[TemplateReport]:
    """The reports of `units`, in their order, checked by `jobs` processes (the longest
    reference solutions first, so no long one starts last) under a progress bar."""
    from officegym.tasks import make_task

    def cost(unit: Unit) -> int:
        try:
            return len(make_task(unit[0], span.start, *world, unit[1]).solution)  # type: ignore[arg-type]
        except Exception:  # reported by the check itself
            return 0

    order = sorted(range(len(units)), key=lambda i: -cost(units[i]))
    done: dict[int, TemplateReport] = {}
    columns = (TextColumn("validate"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("templates", total=len(units))
        if jobs == 1:
            for i in order:
                done[i] = _check_unit(units[i], span, world, mutate)
                bar.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {
                    pool.submit(_check_unit, units[i], span, world, mutate): i for i in order
                }
                for future in as_completed(futures):
                    done[futures[future]] = future.result()
                    bar.advance(task)
    return [done[i] for i in range(len(units))]


def _check_unit(unit: Unit, span: range, world: tuple[str, int], mutate: bool) -> TemplateReport:
    """One template at one level (runs in a worker process)."""
    from officegym.tasks.validate import check_template

    template_id, level = unit
    scenario, world_seed = world
    report = check_template(
        template_id, span, scenario=scenario, world_seed=world_seed, mutate=mutate, difficulty=level
    )
    return _labelled(report, level)


def _levels(tpl: Template, chosen: str) -> list[str | None]:
    """The levels to check: None (its own) for a template without knobs, else the chosen
    one or all three."""
    if not tpl.knobs:
        return [None]
    return list(tpl.levels) if chosen == "all" else [chosen]


def _labelled(report: TemplateReport, level: str | None) -> TemplateReport:
    """The report named ``<id>@<level>`` when a knobbed template was checked at a level."""
    if level is not None:
        report.template_id = f"{report.template_id}@{level}"
        report.problems = [replace(p, template_id=report.template_id) for p in report.problems]
    return report


def _by_app(reports: list[TemplateReport]) -> dict[str, MutationScore]:
    from officegym.tasks.validate import MutationScore

    apps: dict[str, MutationScore] = defaultdict(MutationScore)
    total = MutationScore()
    for r in reports:
        apps[r.template_id.split(".")[0]].add(r.mutation)
        total.add(r.mutation)
    return {**dict(sorted(apps.items())), "all": total}


def _print_policies(console: Console, reports: list[TemplateReport]) -> None:
    """Per template: each generic policy's runs and survivors (each must fail), the share
    of instances expecting the most common answer, and the write tools with no inverse."""
    from officegym.tasks.policies import POLICIES

    table = Table(title="generic policies (each run must fail)")
    for column in ("template", *(f"{p} run/survived" for p in POLICIES), "prior", "no inverse"):
        table.add_column(column, overflow="fold")
    for r in reports:
        runs = [f"{r.policies[p].run}/{r.policies[p].survived}" for p in POLICIES]
        prior = "-" if r.prior is None else f"{r.prior:.0%} of {r.prior_seeds}"
        table.add_row(r.template_id, *runs, prior, ", ".join(sorted(r.unpaired)))
    print_table(console, table)
    for r in reports:  # reported, not yet failing: see policies.REPORTED_ONLY
        for what in r.loose[:3]:
            console.print(f"loose allowance: {r.template_id} {what} passed", highlight=False)


def _as_json(reports: list[TemplateReport], span: range) -> dict:
    return {
        "seeds": [span.start, span.stop - 1],
        "templates": {
            r.template_id: {
                "ok": r.ok,
                "skipped": {"seeds": sorted(r.skipped), "why": sorted(set(r.skipped.values()))},
                "problems": [{"seed": p.seed, "what": p.what} for p in r.problems],
                "mutants": r.mutation.to_dict(),
                "declared": r.declared,
                "policies": {name: t.to_dict() for name, t in r.policies.items()},
                "no_inverse": sorted(r.unpaired),
                "loose_allowances": r.loose,
                "prior": {"share": r.prior, "seeds": r.prior_seeds},
            }
            for r in reports
        },
        "apps": {app: score.to_dict() for app, score in _by_app(reports).items()},
    }


def _result(r: TemplateReport) -> str:
    if not r.ok:
        return "[red]broken[/]"
    return "[yellow]skipped[/]" if r.all_skipped else "[green]ok[/]"


def _print_skipped(console: Console, reports: list[TemplateReport], seeds: int) -> None:
    """Why seeds were skipped: the world lacks what the template declares it `needs`
    (not a broken template; exit code 0 when nothing else is wrong)."""
    for r in reports:
        for why in sorted(set(r.skipped.values())):
            n = sum(w == why for w in r.skipped.values())
            where = f"skipped: {r.template_id} on {n} of {seeds} seeds"
            console.print(f"{where}, the world lacks what it needs: {why}", highlight=False)


def _print(console: Console, reports: list[TemplateReport], span: range, world: str) -> None:
    title = f"template self-check over seeds {span.start}..{span.stop - 1} on {world}"
    table = Table(title=title)
    table.add_column("template", no_wrap=True)
    for column in ("result", "skipped", *_COUNTS, "score", "first problems"):
        table.add_column(column, overflow="fold")
    for r in reports:
        m = r.mutation
        detail = "; ".join(f"seed {p.seed}: {p.what}" for p in r.problems[:3])
        counts = [str(getattr(m, c)) for c in _COUNTS]
        skipped = f"{len(r.skipped)} of {len(span)}"
        table.add_row(r.template_id, _result(r), skipped, *counts, f"{m.score:.3f}", detail)
    print_table(console, table)
    _print_skipped(console, reports, len(span))
    apps = Table(title="mutants per app")
    for column in ("app", *_COUNTS, "score"):
        apps.add_column(column)
    for app, m in _by_app(reports).items():
        apps.add_row(app, *(str(getattr(m, c)) for c in _COUNTS), f"{m.score:.3f}")
    print_table(console, apps)
    _print_policies(console, reports)
    declared = [(r.template_id, k, why) for r in reports for k, why in r.declared.items()]
    for tid, what, why in declared:
        console.print(f"declared equivalent: {tid} {what}: {why}", highlight=False)
