"""Browser reference steps of the CRM: each CRM tool call as actions on its pages.

`steps(call, world, persona)` gives the action strings that do through the web UI what
the tool call does, by the pages' stable element ids: a record action (stage, convert,
escalate, close, reassign, log activity) uses the form on the record's page
(``/crm/<kind>/<id>``), a create or update fills the record form
(``/crm/<kind>/new``, ``/crm/<kind>/<id>/edit``), and a read opens the page that
shows the same facts: a record, a list narrowed by the search's filters (its count line,
and for opportunities its total amount, cover every page), the pipeline board or the
reports. `world` is a read-only session on the task's initial world and `actor` the
task's persona in it, used only to look a reference (a case number, a name) up through
the service, for the record id a URL needs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.browser_steps import act, goto
from officegym.apps.crm import service as crm
from officegym.apps.crm.fields import SPECS
from officegym.apps.org.models import Person
from officegym.web import stable_id

__all__ = ["STEPS"]

Args = Mapping[str, Any]
Make = Callable[[Args, Session, Person], list[str]]
SLUG = {"account": "accounts", "contact": "contacts", "lead": "leads",
        "opportunity": "opportunities", "case": "cases"}  # fmt: skip
# Tool arguments that are a different form field (records referenced by id).
FORM_NAME = {"account": "account_id", "contact": "contact_id"}
# Search arguments that are list-view URL parameters of the same name.
LIST_PARAMS = frozenset({"status", "priority", "stage", "source", "rating", "industry", "type",
                         "close_after", "close_before"})  # fmt: skip
# Search arguments about order and paging: the list has its own, and its count line (and an
# opportunity list's total amount) cover every page.
PAGING = frozenset({"sort", "descending", "limit", "offset"})


def record_id(world: Session, actor: Person, rt: str, ref: int | str) -> int:
    """The id of a record given by id, case number, name (accounts, opportunities), email
    or full name (contacts, leads), looked up as the tools do."""
    return int(crm.find(world, actor, rt, ref).id)


def _page(rt: str, rid: int) -> str:
    return f"/crm/{SLUG[rt]}/{rid}"


def _key(rt: str, rid: int, part: str) -> str:
    """The id of a control on a record page: record-<type>-<id>-<part>."""
    return stable_id("record", rt, rid, part)


def _fill_form(rt: str, values: Args) -> list[str]:
    """Fill the record form's inputs for `values` (selects are chosen, the rest typed)."""
    prefix = f"form-{rt}"
    out = []
    for arg, value in values.items():
        if value is None:
            continue
        if arg == "owner":
            out.append(act("select_option", f"{prefix}-owner", str(value).lstrip("@")))
            continue
        name = FORM_NAME.get(arg, arg)
        spec = SPECS[rt].get(name)
        if spec is None:
            raise KeyError(f"the {rt} form has no field for {arg!r}")
        bid = stable_id(prefix, name)
        verb = "select_option" if spec.kind == "choice" or name == "account_id" else "fill"
        out.append(act(verb, bid, str(value)))
    return [*out, act("click", f"{prefix}-submit")]


def _create(rt: str) -> Make:
    def make(a: Args, w: Session, me: Person) -> list[str]:
        values = dict(a)
        if values.get("account") is not None:
            values["account"] = record_id(w, me, "account", values["account"])
        return [goto(f"/crm/{SLUG[rt]}/new"), *_fill_form(rt, values)]

    return make


def _update(rt: str) -> Make:
    def make(a: Args, w: Session, me: Person) -> list[str]:
        rid = record_id(w, me, rt, a[rt])
        values = {k: v for k, v in a.items() if k != rt}
        if values.get("account") is not None:
            values["account"] = record_id(w, me, "account", values["account"])
        return [goto(f"{_page(rt, rid)}/edit"), *_fill_form(rt, values)]

    return make


def _change_stage(a: Args, w: Session, me: Person) -> list[str]:
    """Choose the stage on the record's stage path, then "Mark as current stage"."""
    rid = record_id(w, me, "opportunity", a["opportunity"])
    path_step = stable_id("record", "opportunity", rid, "path", a["stage"])
    out = [goto(_page("opportunity", rid)), act("click", path_step)]
    if a.get("loss_reason"):
        out.append(act("select_option", _key("opportunity", rid, "loss-reason"), a["loss_reason"]))
    return [*out, act("click", _key("opportunity", rid, "stage-submit"))]


def _convert_lead(a: Args, w: Session, me: Person) -> list[str]:
    if a.get("contact") is not None:
        raise KeyError("the convert form cannot merge into an existing contact")
    rid = record_id(w, me, "lead", a["lead"])
    out = [goto(_page("lead", rid))]
    if a.get("account") is not None:
        account = record_id(w, me, "account", a["account"])
        out.append(act("select_option", _key("lead", rid, "convert-account"), str(account)))
    if a.get("create_opportunity") is False:
        out.append(act("uncheck", _key("lead", rid, "convert-opportunity")))
    for arg, part in (("opportunity_name", "convert-name"), ("amount", "convert-amount"),
                      ("close_date", "convert-close-date")):  # fmt: skip
        if a.get(arg) is not None:
            out.append(act("fill", _key("lead", rid, part), str(a[arg])))
    return [*out, act("click", _key("lead", rid, "convert-submit"))]


def _escalate_case(a: Args, w: Session, me: Person) -> list[str]:
    rid = record_id(w, me, "case", a["case"])
    out = [goto(_page("case", rid)), act("fill", _key("case", rid, "escalate-reason"), a["reason"])]
    if a.get("new_owner"):
        owner = str(a["new_owner"]).lstrip("@")
        out.append(act("select_option", _key("case", rid, "escalate-owner"), owner))
    return [*out, act("click", _key("case", rid, "escalate-submit"))]


def _close_case(a: Args, w: Session, me: Person) -> list[str]:
    rid = record_id(w, me, "case", a["case"])
    return [
        goto(_page("case", rid)),
        act("fill", _key("case", rid, "close-resolution"), a["resolution"]),
        act("click", _key("case", rid, "close-submit")),
    ]


def _reassign_owner(a: Args, w: Session, me: Person) -> list[str]:
    rt, rid = a["record_type"], record_id(w, me, a["record_type"], a["record_id"])
    return [
        goto(_page(rt, rid)),
        act("select_option", _key(rt, rid, "owner"), str(a["new_owner"]).lstrip("@")),
        act("click", _key(rt, rid, "owner-submit")),
    ]


def _log_activity(a: Args, w: Session, me: Person) -> list[str]:
    rt, rid = a["record_type"], record_id(w, me, a["record_type"], a["record_id"])
    out = [goto(_page(rt, rid)),
           act("select_option", _key(rt, rid, "activity-kind"), a["kind"]),
           act("fill", _key(rt, rid, "activity-subject"), a["subject"])]  # fmt: skip
    if a.get("body"):
        out.append(act("fill", _key(rt, rid, "activity-body"), a["body"]))
    if a.get("due_date"):
        out.append(act("fill", _key(rt, rid, "activity-due"), a["due_date"]))
    return [*out, act("click", _key(rt, rid, "activity-submit"))]


def _complete_task(a: Args, w: Session, me: Person) -> list[str]:
    activity = crm.get_activity(w, me, int(a["activity_id"]))
    aid = activity.id
    return [goto(_page(activity.record_type, activity.record_id)),
            act("click", stable_id("activity", aid, "complete"))]  # fmt: skip


# ---------------------------------------------------------------- reads


def _get(rt: str) -> Make:
    return lambda a, w, me: [goto(_page(rt, record_id(w, me, rt, a[rt])))]


def _search(rt: str) -> Make:
    """The record list narrowed as the search is (``q``, filters, ``open``, close dates)."""

    def make(a: Args, w: Session, me: Person) -> list[str]:
        params: dict[str, Any] = {}
        for arg, value in a.items():
            if value is None or arg in PAGING:
                continue
            if arg == "query":
                params["q"] = value
            elif arg == "owner":
                params["owner"] = str(value).lstrip("@")
            elif arg == "account":
                params["account"] = record_id(w, me, "account", value)
            elif arg == "open_only":
                params["open"] = 1 if value else None
            elif arg in LIST_PARAMS:
                params[arg] = value
            else:
                raise KeyError(f"the {rt} list has no filter for {arg!r}")
        if "owner" not in params:  # lists open on "My …"; a search covers everyone's
            params["view"] = "all"
        return [goto(f"/crm/{SLUG[rt]}", **params)]

    return make


def _pipeline_report(a: Args, w: Session, me: Person) -> list[str]:
    """By stage for one owner: the pipeline board of that owner (its column headings give
    each stage's count and amount); otherwise the reports page."""
    if a.get("close_after") or a.get("close_before") or a.get("include_closed"):
        raise KeyError("no page reports the pipeline within close dates or with closed deals")
    owner = a.get("owner")
    if owner and a.get("group_by", "stage") == "stage":
        return [goto("/crm/pipeline", owner=str(owner).lstrip("@"))]
    return [goto("/crm/reports")]


def _case_report(a: Args, w: Session, me: Person) -> list[str]:
    owner = a.get("owner")
    return [goto("/crm/reports", owner=str(owner).lstrip("@") if owner else None)]


def _run_report(a: Args, w: Session, me: Person) -> list[str]:
    """The report builder's page, its form's choices given in the URL (a GET form)."""
    owner = a.get("owner")
    query = {"object": SLUG[a["record_type"]], "group": a["group_by"],
             "summary": a.get("summary"), "owner": str(owner).lstrip("@") if owner else None,
             "status": a.get("status"), "date": a.get("date_field"),
             "from": a.get("date_from") or a.get("close_after"),
             "to": a.get("date_to") or a.get("close_before")}  # fmt: skip
    return [goto("/crm/reports/build", **query)]


def _on_record(a: Args, w: Session, me: Person) -> list[str]:
    rt = a["record_type"]
    return [goto(_page(rt, record_id(w, me, rt, a["record_id"])))]


STEPS: dict[str, Make] = {
    **{f"crm_get_{rt}": _get(rt) for rt in SLUG},
    **{f"crm_search_{SLUG[rt]}": _search(rt) for rt in SLUG},
    "crm_get_field_history": _on_record,
    "crm_list_activities": _on_record,
    # Every list's Owner filter names each CRM user with their role and team.
    "crm_list_users": lambda a, w, me: [goto("/crm/opportunities")],
    "crm_pipeline_report": _pipeline_report,
    "crm_case_report": _case_report,
    "crm_run_report": _run_report,
    **{f"crm_create_{rt}": _create(rt) for rt in SLUG},
    **{f"crm_update_{rt}": _update(rt) for rt in SLUG},
    "crm_change_opportunity_stage": _change_stage,
    "crm_convert_lead": _convert_lead,
    "crm_escalate_case": _escalate_case,
    "crm_close_case": _close_case,
    "crm_reassign_owner": _reassign_owner,
    "crm_log_activity": _log_activity,
    "crm_complete_task": _complete_task,
}
