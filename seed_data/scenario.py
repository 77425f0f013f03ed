"""Scenario files: the parameters of a seeded world, validated on load.

A scenario is a TOML file in `seed_data/scenarios/` (or any path). A bad file is
rejected with a `ConfigError` naming the file, the field and the reason.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from officegym.errors import ConfigError, NotFound
from officegym.plugins import external_scenario_dirs

__all__ = [
    "SCENARIO_DIR",
    "Scenario",
    "cross_check",
    "load_scenario",
    "scenario_names",
    "scenario_path",
]

SCENARIO_DIR = Path(__file__).parent / "scenarios"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OrgParams(_Strict):
    people: int = Field(60, ge=12, le=2000, description="head count, leadership included")
    teams: list[str] = Field(min_length=2, max_length=20)


class SlackParams(_Strict):
    messages: int = Field(3500, ge=100, le=200_000)
    history_days: int = Field(42, ge=3, le=365)
    thread_ratio: float = Field(0.18, ge=0, le=0.9)
    reaction_ratio: float = Field(0.3, ge=0, le=3)
    dm_conversations: int = Field(40, ge=0, le=5000)
    edited_ratio: float = Field(0.015, ge=0, le=0.5, description="top-level posts edited later")
    deleted_ratio: float = Field(0.01, ge=0, le=0.5, description="top-level posts deleted later")
    archived: list[str] = Field(
        default_factory=lambda: ["proj-fjord"], description="channels archived at the end"
    )


class CrmParams(_Strict):
    accounts: int = Field(200, ge=0, le=20_000, description="0 leaves the CRM empty")
    contacts: int = Field(600, ge=0, le=100_000)
    leads: int = Field(150, ge=0, le=50_000)
    opportunities: int = Field(300, ge=0, le=50_000)
    activities: int = Field(400, ge=0, le=200_000)
    cases: int = Field(150, ge=0, le=50_000)
    history_days: int = Field(540, ge=90, le=3650, description="age of the oldest records")
    sales_team: str = "Sales"
    support_team: str = "Customer Support"
    admin_title: str = Field("Chief Operating Officer", description="title of the CRM admin")


class BookingParams(_Strict):
    listings: int = Field(3000, ge=0, le=20_000, description="0 leaves the site without stays")
    reviews_per_listing: float = Field(1.5, ge=0, le=10, description="stored review texts")
    routes_per_pair: int = Field(2, ge=0, le=6, description="flights a day between two cities")
    trips: int = Field(100, ge=0, le=2000, description="upcoming trips of the company's people")
    past_trips: int = Field(40, ge=0, le=5000)
    nightly_cap: int = Field(250, ge=50, le=5000, description="default policy cap, dollars")


class SheetsParams(_Strict):
    orders: int = Field(200, ge=0, le=20_000, description="rows of the raw orders dataset")
    expense_reports: int = Field(6, ge=0, le=200, description="people with an expense report")
    sales_export: bool = Field(True, description="a workbook of the CRM's opportunities")
    budgets: bool = Field(True, description="team budgets with actuals")
    headcount: bool = Field(True, description="a headcount plan from the directory")
    damaged: bool = Field(True, description="three workbooks with broken formulas or totals")


class Scenario(_Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    company: str
    email_domain: str = Field(pattern=r"^[a-z0-9.-]+\.[a-z]+$")
    date: dt.datetime
    locale: str = "en_US"
    org: OrgParams
    slack: SlackParams = SlackParams()
    crm: CrmParams = CrmParams()
    booking: BookingParams = BookingParams()
    sheets: SheetsParams = SheetsParams()
    _source: str = PrivateAttr(default="<scenario>")  # the file it was read from

    @property
    def source(self) -> str:
        """The file this scenario was read from, for errors that name it."""
        return self._source


LEADER_TITLES = ("Chief Executive Officer", "Chief Operating Officer")  # seed_data/org.py
RESERVED_TEAMS = ("Leadership",)  # the leaders' team, made by seed_data/org.py


def _slug(name: str) -> str:
    return "-".join(name.lower().split())


def cross_check(sc: Scenario) -> tuple[str, str] | None:
    """The first (field, reason) that makes sections of `sc` disagree, or None: what one
    field's range cannot say (teams the CRM names must exist, every team needs a head)."""
    teams = sc.org.teams
    slugs = [_slug(t) for t in teams]
    if len(set(slugs)) != len(slugs):
        return "org.teams", f"team names repeat (as channel names): {teams}"
    reserved = [t for t in teams if t in RESERVED_TEAMS]
    if reserved:
        return "org.teams", f"{reserved[0]!r} is the leaders' team, made for every company"
    if sc.org.people < len(teams) + len(LEADER_TITLES):
        need = len(teams) + len(LEADER_TITLES)
        return "org.people", f"{len(teams)} teams need a head each besides the 2 leaders: {need}+"
    if sc.crm.accounts == 0:
        return None
    for field in ("sales_team", "support_team"):
        name = getattr(sc.crm, field)
        if name not in teams:
            return f"crm.{field}", f"{name!r} is not one of org.teams {teams}"
    if sc.crm.sales_team == sc.crm.support_team:
        return "crm.support_team", "the support team must differ from the sales team"
    titles = (*LEADER_TITLES, *(f"Head of {t}" for t in teams))
    if sc.crm.admin_title not in titles:
        return "crm.admin_title", f"nobody has title {sc.crm.admin_title!r}; use one of {titles}"
    return None


def _scenario_dirs() -> list[Path]:
    """The shipped scenarios' folder, then those of authors' packages (`officegym.plugins`)."""
    return [SCENARIO_DIR, *external_scenario_dirs()]


def scenario_names() -> list[str]:
    return sorted({p.stem for d in _scenario_dirs() for p in d.glob("*.toml")})


def scenario_path(name_or_path: str | Path) -> Path:
    """The file of a scenario given by name (``default``) or path."""
    path = Path(name_or_path)
    if path.suffix == ".toml":
        if not path.exists():
            raise ConfigError(str(path), "<file>", "no such scenario file")
        return path
    for folder in _scenario_dirs():  # a shipped name wins over a plugin's
        if (path := folder / f"{name_or_path}.toml").exists():
            return path
    known = ", ".join(scenario_names())  # a name, not a file: no file or field to blame
    raise NotFound(f"no scenario {name_or_path!r} (known: {known}; or a path to a .toml file)")


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A scenario by name (``default``) or by path to a .toml file."""
    path = scenario_path(name_or_path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(str(path), "<file>", str(exc)) from None
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(x) for x in err["loc"]) or "<root>"
        raise ConfigError(str(path), field, err["msg"]) from None
    if (problem := cross_check(scenario)) is not None:
        raise ConfigError(str(path), *problem)
    scenario._source = str(path)
    return scenario
