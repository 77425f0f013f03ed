"""Fuzzing every HTTP door of a served world (as `officegym serve --expose-grading` runs
it: uvicorn, the web UI, the Slack API, MCP over streamable HTTP and ``POST /grade``): a
bounded, deterministic number of malformed requests (hypothesis, derandomized), each
answered with a 4xx or the door's own error format, never a 500; afterwards the server
still answers and the database passes SQLite's integrity check.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from officegym.apps.slack.api import METHODS
from officegym.mcp_wrappers.asgi import build_asgi_app
from officegym.web import create_app
from officegym.world import World, world_image
from tests.servers import served

ME = "kturner"
FUZZ = settings(
    max_examples=250,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
NASTY = ["", "general", "C0000001", "U0000004", "1772381616.000001", "\x00", "-1", "1e400",
         "99999999999999999999999", "NaN", "<@U0000004>", "#general", "true", "😀", "../..",
         "%00", "x" * 5000, "1.2.3", "Bk0000001", "F0000001", "Q0000001", "A0000001", "\ud800",
         "a\udfffb", "9999-12-31", "0001-01-01", "2026-02-30", "2027-06-01", "4.5", "abc",
         "-99999999999999999999", "bmV4dDo5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5"]  # fmt: skip
KEYS = ["channel", "text", "ts", "thread_ts", "timestamp", "name", "users", "user", "limit",
        "cursor", "latest", "oldest", "query", "count", "page", "types", "topic", "purpose",
        "email", "profile", "file", "files", "length", "filename", "channel_id", "bookmark_id",
        "title", "link", "type", "post_at", "scheduled_message_id", "blocks", "attachments",
        "manifest", "app_id", "message_ts", "inclusive", "reply_broadcast"]  # fmt: skip
FORM_KEYS = ["q", "team", "owner", "before", "stage", "page", "sort", "dir", "open", "account",
             "channel", "author", "next", "text", "emoji", "topic", "name", "people", "reason",
             "resolution", "subject", "kind", "due_date", "amount", "close_date", "status",
             "loss_reason", "private", "action", "title", "email", "annual_revenue", "check_in",
             "check_out", "guests", "city", "min_price", "max_price", "bedrooms", "beds", "type",
             "amenity", "instant", "rating", "date", "origin", "destination", "cabin", "fare_id",
             "listing_id", "wishlist", "code", "flight", "travellers", "traveller", "decision",
             "note", "purpose", "message", "body", "opportunity_name",
             "create_opportunity"]  # fmt: skip

scalars = st.sampled_from(NASTY) | st.integers(-(2**70), 2**70) | st.none() | st.booleans()
values = st.recursive(
    scalars | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)
deep = st.integers(100, 20_000).map(lambda n: "[" * n + "]" * n)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, World, Any]]:
    db = Path(tmp_path_factory.mktemp("fuzz")) / "world.sqlite"
    world = World(world_image("default", 0), url=f"sqlite:///{db}")
    flask_app = create_app(world, persona=ME, expose_grading=True)
    flask_app.logger.disabled = True  # the fuzz answers are asserted, not logged
    with served(build_asgi_app(world, flask_app)) as url:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        opener.open(f"{url}/login/{ME}", timeout=10).read()
        yield url, world, opener
    world.close()


def urlencode(fields: dict[str, Any]) -> str:
    """Form encoding that lets lone surrogates through (as the bytes a broken client sends)."""
    return urllib.parse.urlencode(fields, doseq=True, errors="surrogatepass")


def send(opener: Any, url: str, data: bytes | None, headers: dict[str, str], method: str) -> tuple:
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@st.composite
def api_requests(draw: st.DrawFn) -> tuple[str, bytes, dict[str, str]]:
    name = draw(st.sampled_from(sorted(METHODS)) | st.text(max_size=12).map(lambda t: t or "x"))
    params = draw(st.dictionaries(st.sampled_from(KEYS), values, max_size=6))
    how = draw(st.sampled_from(["json", "form", "deep", "bytes"]))
    headers = {"Authorization": f"Bearer xoxp-{ME}"}
    if how == "json":
        return name, json.dumps(params).encode(), headers | {"Content-Type": "application/json"}
    if how == "form":
        form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
        return name, urlencode(form).encode(), headers
    if how == "deep":
        return name, draw(deep).encode(), headers | {"Content-Type": "application/json"}
    kind = draw(st.sampled_from(["application/json", "multipart/form-data; boundary=b", "text/x"]))
    return name, draw(st.binary(max_size=60)), headers | {"Content-Type": kind}


@FUZZ
@given(request=api_requests())
def test_the_slack_api_answers_bad_input_in_its_own_format(site: tuple, request: tuple) -> None:
    url, _, opener = site
    name, body, headers = request
    path = urllib.parse.quote(name, safe="")
    status, answer = send(opener, f"{url}/api/{path}", body, headers, "POST")
    assert status < 500, (name, body[:200], answer[:300])
    if status == 200:
        assert isinstance(json.loads(answer)["ok"], bool)


def web_routes(url: str) -> list[tuple[str, list[str], list[str]]]:
    """(rule, argument names, methods) of every page route of the web UI."""
    from officegym.web import create_app as make

    app = make(World(world_image("default", 0)))
    out = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(("/api", "/gsheets", "/static", "/logout", "/grade", "/login")):
            continue  # the native APIs have fuzz tests of their own
        methods = sorted(m for m in rule.methods or () if m in ("GET", "POST"))
        if not methods:
            continue
        out.append((rule.rule, sorted(rule.arguments), methods))
    return sorted(out)


ROUTES = web_routes("")
INT_SEGMENTS = ["9223372036854775808", "99999999999999999999999", "5", "0", "4000", "1"]
SEGMENTS = ["opportunities", "general", "accounts", "cases", "leads", "contacts", ME, "C0000001",
            "D0000065", "nope", "%ff", "x" * 300, "😀"]  # fmt: skip


@st.composite
def web_requests(draw: st.DrawFn) -> tuple[str, str, dict[str, str]]:
    rule, arguments, methods = draw(st.sampled_from(ROUTES))
    path = rule
    for arg in arguments:
        if f"<int:{arg}>" in path:
            path = path.replace(f"<int:{arg}>", draw(st.sampled_from(INT_SEGMENTS)))
        else:
            value = urllib.parse.quote(draw(st.sampled_from(SEGMENTS)), safe="%")
            path = path.replace(f"<{arg}>", value)
    method = draw(st.sampled_from(methods))
    fields = draw(st.dictionaries(st.sampled_from(FORM_KEYS), st.sampled_from(NASTY), max_size=5))
    return path, method, fields


@FUZZ
@given(request=web_requests())
def test_the_web_pages_answer_bad_input_with_4xx(site: tuple, request: tuple) -> None:
    url, _, opener = site
    path, method, fields = request
    encoded = urlencode(fields)
    if method == "GET":
        status, page = send(opener, f"{url}{path}?{encoded}", None, {}, "GET")
    else:
        status, page = send(opener, f"{url}{path}", encoded.encode(), {"Origin": url}, "POST")
    assert status < 500, (method, path, fields, page[:300])


# ------------------------------------------------- every route and method, every bad kind

# The apps whose page routes are swept, each with the form keys its routes read.
SHEETS_KEYS = ["cell", "cut", "fields", "format", "formulas", "link_access", "name", "op",
               "person", "q", "range", "role", "rows", "sel", "sheet", "sort_column",
               "sort_header", "sort_order", "source", "text", "version", "values", "columns",
               "filter", "filter_col", "at", "anchor", "function", "keep", "tab",
               "order_field_1", "order_1", "order_by_1"]  # fmt: skip
BAD = ["\ud800", "99999999999999999999999", "9223372036854775808", "-1", "abc", "9999-12-31",
       "1e400", "x" * 50_000]  # fmt: skip
PLAUSIBLE = {"kind": "opportunities", "ref": "general", "handle": ME, "code": "HM0000000"}


def swept_paths(rule: str, arguments: list[str]) -> list[str]:
    """The rule's path with ids beyond 64 bits, and with plausible ids (so the route reads
    its form and query values)."""
    out = []
    for big in (True, False):
        path = rule
        for arg in arguments:
            if f"<int:{arg}>" in path:
                path = path.replace(f"<int:{arg}>", "99999999999999999999999" if big else "1")
            else:
                path = path.replace(f"<{arg}>", PLAUSIBLE.get(arg, "general"))
        out.append(path)
    return sorted(set(out))


def swept_requests(apps: tuple[str, ...], keys: list[str]) -> list[tuple[str, str, str]]:
    """(method, path, encoded values) for every booking, CRM and chat page route and every
    bad kind of value, each put in every form key (a long one in the search key only, for
    GET: the value itself is what a query string may not carry)."""
    out = []
    for rule, arguments, methods in ROUTES:
        if rule.split("/")[1] not in apps:
            continue
        for path in swept_paths(rule, arguments):
            for method in methods:
                for bad in BAD:
                    put = ["q"] if method == "GET" and len(bad) > 100 else keys
                    out.append((method, path, urlencode(dict.fromkeys(put, bad))))
    return out


@pytest.mark.parametrize(
    ("apps", "keys"),
    [(("booking", "crm", "slack"), FORM_KEYS), (("sheets",), SHEETS_KEYS)],
    ids=["booking-crm-slack", "sheets"],
)
def test_every_page_route_answers_every_bad_kind_of_value_with_4xx(
    site: tuple, apps: tuple[str, ...], keys: list[str]
) -> None:
    """(A 50,000-character value once came back in a sheets redirect and a flashed message:
    headers over 64 KB that no client reads.)"""
    url, _, opener = site
    swept = swept_requests(apps, keys)
    failures = []
    for method, path, encoded in swept:
        if method == "GET":
            status, page = send(opener, f"{url}{path}?{encoded}", None, {}, "GET")
        else:
            status, page = send(opener, f"{url}{path}", encoded.encode(), {"Origin": url}, "POST")
        if status >= 500:
            failures.append((method, path, encoded[:80], page[:200]))
    assert len(swept) > 300
    assert failures == []


def api_payloads() -> list[tuple[str, bytes, dict[str, str]]]:
    """Every Slack API method with each bad kind of value in every parameter, as JSON (lone
    surrogates arrive as JSON escapes) and once as a form."""
    headers = {"Authorization": f"Bearer xoxp-{ME}"}
    json_headers = headers | {"Content-Type": "application/json"}
    kinds: list[Any] = [*BAD, 2**70, -(2**70), 1e308, ["\ud800"], {"\ud800": 1}]
    kinds.append("bmV4dDo5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5")  # next:99999999999999999999999999
    out = []
    for name in sorted(METHODS):
        for bad in kinds:
            out.append((name, json.dumps(dict.fromkeys(KEYS, bad)).encode(), json_headers))
        form = urlencode(dict.fromkeys(KEYS, "\ud800"))
        out.append((name, form.encode(), headers))
    return out


def test_every_slack_api_method_answers_every_bad_kind_of_value_without_500(site: tuple) -> None:
    url, _, opener = site
    payloads = api_payloads()
    failures = []
    for name, body, headers in payloads:
        status, answer = send(opener, f"{url}/api/{name}", body, headers, "POST")
        if status >= 500 or (status == 200 and not isinstance(json.loads(answer)["ok"], bool)):
            failures.append((name, body[:80], answer[:200]))
    assert len(payloads) == len(METHODS) * 15
    assert failures == []


@st.composite
def mcp_bodies(draw: st.DrawFn) -> bytes:
    """JSON-RPC that is broken in one way or another, or a tool call with bad arguments."""
    tool = draw(
        st.sampled_from(["slack_post_message", "slack_read_thread", "crm_get_account", "x"])
    )
    message = {"jsonrpc": draw(st.sampled_from(["2.0", "1.0", None])), "id": draw(scalars),
               "method": draw(st.sampled_from(["tools/call", "tools/list", "initialize", "nope"])),
               "params": {"name": tool, "arguments": draw(values)}}  # fmt: skip
    return draw(st.sampled_from([json.dumps(message).encode(), b"{", b"[]", draw(deep).encode()]))


@settings(FUZZ, max_examples=60)
@given(body=mcp_bodies())
def test_mcp_over_http_answers_bad_input_without_a_server_error(site: tuple, body: bytes) -> None:
    url, _, opener = site
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    status, answer = send(opener, f"{url}/mcp", body, headers, "POST")
    assert status < 500, (body[:200], answer[:300])


@st.composite
def grade_bodies(draw: st.DrawFn) -> bytes:
    """Grade requests with wrong fields, wrong types, or no JSON at all."""
    fields = {"task": draw(st.sampled_from(["slack.post-channel", "nope", ""]) | values),
              "seed": draw(scalars), "answer": draw(values)}  # fmt: skip
    return draw(st.sampled_from([json.dumps(fields).encode(), b"{", draw(deep).encode()]))


@settings(FUZZ, max_examples=40)
@given(body=grade_bodies())
def test_grading_over_http_answers_bad_input_in_json(site: tuple, body: bytes) -> None:
    url, _, opener = site
    headers = {"Content-Type": "application/json"}
    status, answer = send(opener, f"{url}/grade", body, headers, "POST")
    assert status < 500, (body[:200], answer[:300])
    assert isinstance(json.loads(answer), dict)


def test_after_the_fuzz_the_server_answers_and_the_database_is_intact(site: tuple) -> None:
    url, world, opener = site
    assert send(opener, f"{url}/healthz", None, {}, "GET") == (200, b"ok")
    with world.engine.connect() as conn:
        assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
