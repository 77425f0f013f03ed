"""The web layer's guards: ids beyond what the database binds match no route, over-long
search values are a clear 400, every answer carries the browser policy headers, and a
download's name can never break its header."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from flask import Flask
from werkzeug.test import Client

from officegym.apps.org import service as org
from officegym.apps.slack import files
from officegym.db import ID_MAX
from officegym.inputs import MAX_QUERY_VALUE
from officegym.web import create_app
from officegym.web_guards import attachment
from officegym.world import World


@pytest.fixture
def app(world: World) -> Flask:
    return create_app(world, persona="kturner", config={"TESTING": True})


@pytest.mark.parametrize("path", ["/booking/listings/{}", "/crm/accounts/{}", "/slack/m/{}"])
def test_ids_beyond_the_databases_keys_are_not_found(app: Flask, path: str) -> None:
    assert Client(app).get(path.format(ID_MAX + 1)).status_code == 404
    assert Client(app).get(path.format(2**63)).status_code == 404
    in_range = Client(app).get(path.format(ID_MAX)).status_code  # the route runs: no such row
    assert 400 <= in_range < 500


def test_an_overlong_search_is_a_clear_400(app: Flask) -> None:
    answer = Client(app).get("/slack/search", query_string={"q": "x" * (MAX_QUERY_VALUE + 1)})
    assert answer.status_code == 400
    assert f"at most {MAX_QUERY_VALUE} characters" in answer.get_data(as_text=True)
    assert Client(app).get("/slack/search", query_string={"q": "x" * 50}).status_code == 200


def test_pages_carry_the_browser_policy_and_a_lax_session_cookie(app: Flask) -> None:
    answer = Client(app).get("/login/kturner?next=/slack/")
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert "SameSite=Lax" in answer.headers["Set-Cookie"]


@pytest.mark.parametrize("name", ['re"port\n.pdf', "отчёт 2026.csv", "a\\b/c.txt", "plain.ics"])
def test_a_download_name_is_safe_and_exact(name: str) -> None:
    header = attachment(name)
    header.encode("ascii")  # any name: a header of printable ASCII
    assert "\n" not in header and header.count('"') == 2
    exact = header.split("filename*=UTF-8''", 1)[1]
    assert unquote(exact) == name


def test_a_slack_file_named_outside_latin_1_downloads(app: Flask, world: World) -> None:
    with world.session() as s:
        me = org.find_person(s, "kturner")
        f = files.reserve_upload(s, me, filename="сводка.txt", length=2)
        files.write_upload(s, f.id, f.upload_key, b"hi")
        files.complete_upload(s, me, [(f, "")], channel=None)
        s.commit()
        fid = f.id
    answer = Client(app).get(f"/slack/files/{fid}")
    assert answer.status_code == 200 and answer.data == b"hi"
    assert "filename*=UTF-8''%D1%81" in answer.headers["Content-Disposition"]
