"""The web layer: one Flask application serving every clone's pages over one world.

`create_app(world)` discovers each app's ``routes`` module (a blueprint ``bp``
mounted at ``/<app>``, named in the top navigation by its ``NAV_LABEL``, else the app id
capitalized) and ``api`` module (a blueprint ``bp`` mounted at the
module's ``URL_PREFIX``, ``/api`` if it names none: the Slack API lives at
``/api/<method>`` as Slack's does, another app's native API under a path of its
own); nothing is listed by hand. Per request it opens ``g.db`` on the world
and loads ``g.actor`` (the signed-in person), commits after a successful
response and rolls back otherwise; an error the commit raises is answered as the same
error raised by the view would be. `OfficeGymError` is translated to an HTTP
status in exactly one handler here (an api blueprint may register its own
``bp.errorhandler`` to answer in JSON instead); `Busy` (the write lock stayed held past
the bounded wait) is a 503 with ``Retry-After`` at every door.

Grading over HTTP (``POST /grade``, `officegym.grading_api`) is mounted only with
``create_app(..., expose_grading=True)`` (``officegym serve --expose-grading``):
an agent under test must not read its own grade; elsewhere ``/grade`` is a 404.

Forms are protected from other sites: a state-changing request (POST, PUT, PATCH,
DELETE) whose ``Origin`` or ``Referer`` names another origin, or that carries
``Sec-Fetch-Site: cross-site``, is refused with 403 before any route runs (the
native APIs answer the same refusal in their own format). A domain error raised by
a form POST that came from one of the site's own pages is rolled back, flashed and
redirected to that page (303), so a refused action explains itself where it was
tried; anywhere else it is the error page with its status.

Sign-in is by persona, without passwords (a local sandbox):
``GET /login/<handle>?next=/slack/`` signs in and redirects. Who may sign in is
the app's `PersonaPolicy` (`persona_policy`), which the Slack API and MCP over
HTTP obey too; a server locked to a persona refuses everyone else.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Flask,
    Response,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

import officegym.apps
from officegym import grading_api
from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.errors import Busy, Conflict, Forbidden, Invalid, OfficeGymError
from officegym.personas import PersonaPolicy, who_acts
from officegym.web_guards import origin_of, own_origin, register_converters, register_guards
from officegym.world import World

__all__ = [
    "create_app",
    "flash_errors",
    "grading_exposed",
    "og_id",
    "persona_policy",
    "safe_next",
    "set_persona_policy",
    "stable_id",
]

PUBLIC_ENDPOINTS = frozenset({"index", "login", "login_as", "logout", "healthz", "static"})
_ID_JUNK = re.compile(r"[^a-z0-9_-]+")


def create_app(
    world: World,
    *,
    persona: str | None = None,
    lock_persona: bool = False,
    expose_grading: bool = False,
    hosts: Collection[str] | None = None,
    config: Mapping[str, Any] | None = None,
) -> Flask:
    """A Flask app serving every clone over `world`; `persona` signs in by default and,
    with `lock_persona`, is the only person anyone may act as (agents under test).
    `expose_grading` mounts ``POST /grade`` (for graders, never for agents under test).
    `hosts` (`officegym.hosts.host_names`) are the only Host names answered (None: any)."""
    if lock_persona and persona is None:
        raise ValueError("lock_persona needs a persona")
    if persona is not None:
        with world.session() as s:
            persona = org.find_person(s, persona).handle
    app = Flask(__name__)
    app.config["SECRET_KEY"] = secrets.token_hex(32)
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"  # another site's links and forms carry none
    if config:
        app.config.update(config)
    app.extensions["officegym"] = {"world": world, "token_auth": set(), "nav": [], "nav_labels": {}}
    app.extensions["officegym"]["grading"] = expose_grading
    app.extensions["officegym"]["hosts"] = frozenset(hosts) if hosts is not None else None
    set_persona_policy(app, PersonaPolicy(default=persona, locked=lock_persona))
    register_converters(app)  # before any rule is added
    _register_blueprints(app)
    _register_core_routes(app)
    register_guards(app, app.extensions["officegym"]["token_auth"], hosts=hosts)
    _register_request_hooks(app)
    _register_layout_context(app)
    _register_error_handlers(app)
    app.add_template_global(og_id)
    app.add_template_global(stable_id)
    app.add_template_filter(_when, "when")
    return app


def persona_policy(app: Flask) -> PersonaPolicy:
    """Who may act through `app`'s pages, Slack API and MCP endpoints."""
    policy: PersonaPolicy = app.extensions["officegym"]["personas"]
    return policy


def grading_exposed(app: Flask) -> bool:
    """Whether `app` grades over HTTP (``POST /grade``); MCP over HTTP follows it."""
    return bool(app.extensions["officegym"]["grading"])


def set_persona_policy(app: Flask, policy: PersonaPolicy) -> None:
    """Replace who may act through `app` (a browser env does so at every episode)."""
    app.extensions["officegym"]["personas"] = policy


def _register_blueprints(app: Flask) -> None:
    """Mount every app's routes at /<app> and every api module at its URL_PREFIX (default
    /api), as discovered."""
    ext = app.extensions["officegym"]
    for app_name, mod in officegym.apps.iter_app_modules("routes"):
        app.register_blueprint(mod.bp, url_prefix=f"/{app_name}")
        ext["nav"].append(app_name)
        ext["nav_labels"][app_name] = getattr(mod, "NAV_LABEL", app_name.capitalize())
    for _app_name, mod in officegym.apps.iter_app_modules("api"):
        app.register_blueprint(mod.bp, url_prefix=getattr(mod, "URL_PREFIX", "/api"))
        ext["token_auth"].add(mod.bp.name)
    if ext["grading"]:  # POST /grade: JSON only, needs no persona
        app.register_blueprint(grading_api.bp)
        ext["token_auth"].add(grading_api.bp.name)


# ---------------------------------------------------------------- stable ids


def stable_id(*parts: object) -> str:
    """A stable element id from page structure and entity: ('msg', 12, 'edit') -> msg-12-edit."""
    words = (_ID_JUNK.sub("-", str(p).lower()).strip("-") for p in parts)
    return "-".join(w for w in words if w)


def og_id(*parts: object) -> Markup:
    """Both attributes browser agents address an element by: id and data-og-id."""
    value = escape(stable_id(*parts))
    return Markup(f'id="{value}" data-og-id="{value}"')


def _when(value: Any) -> str:
    """A message time as people read it: 'Mar 02 09:15'."""
    return value.strftime("%b %d %H:%M") if value is not None else ""


@contextmanager
def flash_errors() -> Iterator[None]:
    """In a form POST, turn a bad-input error (Invalid, Conflict) into a flashed message.

    The request's changes are rolled back, and the route goes on to redirect
    (Post/Redirect/Get). NotFound and Forbidden still propagate to the error page.
    """
    try:
        yield
    except (Invalid, Conflict) as exc:
        g.db.rollback()
        flash(exc.message, "error")


# ---------------------------------------------------------------- sign-in


def safe_next(target: str | None, default: str = "/") -> str:
    """`target` if it is a path on this site (no open redirects), else `default`."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    return target


def _register_core_routes(app: Flask) -> None:
    """Sign-in pages, the home redirect and the health check."""

    @app.get("/")
    def index() -> BaseResponse:
        """Home is the chat, as in most offices."""
        return redirect("/slack/" if "slack" in app.extensions["officegym"]["nav"] else "/login")

    @app.get("/healthz")
    def healthz() -> str:
        return "ok"

    @app.get("/login")
    def login() -> str:
        """Choose whom to act as."""
        people = org.list_people(g.db, query=request.args.get("q") or None, limit=500)
        target = safe_next(request.args.get("next"))
        return render_template("login.html", people=people, next=target)

    @app.get("/login/<handle>")
    def login_as(handle: str) -> BaseResponse:
        """Sign in as `handle` and go to `next` (the URL browser agents are given)."""
        person = org.find_person(g.db, handle)
        persona_policy(app).admit(person.handle)
        session.clear()
        session["person_id"] = person.id
        return redirect(safe_next(request.args.get("next")))

    @app.route("/logout", methods=["GET", "POST"])
    def logout() -> BaseResponse:
        """Sign out (and do not fall back to the default persona afterwards)."""
        session.clear()
        session["signed_out"] = True
        flash("Signed out.")
        return redirect(url_for("login"))


# ---------------------------------------------------------------- per request


def _current_person(app: Flask) -> Person | None:
    """Who a page request acts as (`officegym.personas.who_acts`: the signed-in person,
    else the server's persona unless the user signed out), None if nobody. A sign-in
    the policy no longer admits (the persona changed since) is dropped."""
    raw = session.get("person_id")
    try:
        signed_in = int(raw) if raw is not None else None
    except (TypeError, ValueError):
        signed_in = None
    try:
        person = who_acts(
            g.db,
            persona_policy(app),
            None,
            signed_in=signed_in,
            use_default=not session.get("signed_out"),
        )
    except Forbidden:
        person = None
    if raw is not None and (person is None or person.id != signed_in):
        session.pop("person_id", None)
    return person


def _register_request_hooks(app: Flask) -> None:
    """Open a session per request, require a persona, commit or roll back, close."""
    world: World = app.extensions["officegym"]["world"]
    token_auth: set[str] = app.extensions["officegym"]["token_auth"]

    @app.before_request
    def open_session() -> BaseResponse | None:
        g.world = world
        g.db = world.session()
        g.actor = _current_person(app)
        # A URL or method that matches no route gets its 404/405, signed in or not.
        unrouted = request.routing_exception is not None
        public = unrouted or request.endpoint in PUBLIC_ENDPOINTS or request.blueprint in token_auth
        if g.actor is None and not public:
            return redirect(url_for("login", next=request.full_path.rstrip("?")))
        return None

    @app.after_request
    def finish(response: Response) -> Response | BaseResponse:
        db = g.get("db")
        if db is None:
            return response
        if response.status_code >= 400:
            db.rollback()
            return response
        try:
            db.commit()
        except Exception as exc:  # answered by the handler an error in the view would get
            db.rollback()
            try:
                return app.make_response(app.handle_user_exception(exc))
            except Exception as bug:  # no handler: the 500 of the request's blueprint
                return app.make_response(app.handle_exception(bug))
        return response

    @app.teardown_request
    def close_session(exc: BaseException | None) -> None:
        db = g.pop("db", None)
        if db is not None:
            if exc is not None:
                db.rollback()
            db.close()


def _form_origin(app: Flask) -> str | None:
    """The path of the site's own page a form POST came from (its Referer), if any."""
    token_auth: set[str] = app.extensions["officegym"]["token_auth"]
    if request.method != "POST" or request.blueprint in token_auth:
        return None
    referer = request.headers.get("Referer", "")
    if not referer or origin_of(referer) != own_origin():
        return None
    parts = urlsplit(referer)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return safe_next(path, "") or None


def _register_layout_context(app: Flask) -> None:
    """What every page's layout reads: who is signed in, the apps, the current one."""

    @app.context_processor
    def layout_context() -> dict[str, Any]:
        return {
            "actor": g.get("actor"),
            "nav_apps": app.extensions["officegym"]["nav"],
            "nav_labels": app.extensions["officegym"]["nav_labels"],
            "current_app_name": request.blueprint,
        }


def _register_error_handlers(app: Flask) -> None:
    """Translate domain errors (and HTTP errors) to an error page, once."""

    @app.errorhandler(OfficeGymError)
    def domain_error(exc: OfficeGymError) -> tuple[str, int] | tuple[str, int, dict[str, str]]:
        back = _form_origin(app)
        busy = isinstance(exc, Busy)
        if back is not None and not busy and g.get("db") is not None:  # explain it where tried
            g.db.rollback()
            flash(exc.message, "error")
            return redirect(back, code=303)  # type: ignore[return-value]
        page = render_template("error.html", message=exc.message, status=exc.http_status)
        if busy:
            return page, exc.http_status, exc.headers
        return page, exc.http_status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[str, int] | HTTPException:
        if exc.code is None or exc.code < 400:
            return exc
        message = exc.description or exc.name
        return render_template("error.html", message=message, status=exc.code), exc.code
