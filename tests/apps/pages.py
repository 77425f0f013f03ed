"""What every app's page tests check of a rendered page: each interactive element has a
stable id (``id`` equal to ``data-og-id``, unique on the page), every field a label, and
every link and button a name an agent can read."""

from __future__ import annotations

from html.parser import HTMLParser

from flask.testing import FlaskClient


class Elements(HTMLParser):
    """Interactive elements with their attributes and text, and label targets."""

    INTERACTIVE = frozenset({"a", "button", "input", "select", "textarea"})

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[dict[str, str | None]] = []
        self.labels: set[str] = set()
        self._open: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"] or "")
        if tag in self.INTERACTIVE and a.get("type") != "hidden":
            el = {"tag": tag, **a, "text": ""}
            self.elements.append(el)
            if tag in ("a", "button"):
                self._open.append(el)

    def handle_data(self, data: str) -> None:
        for el in self._open:
            el["text"] = (el["text"] or "") + data

    def handle_endtag(self, tag: str) -> None:
        if tag in ("a", "button") and self._open:
            self._open.pop()


def assert_addressable(html: str, url: str) -> list[dict[str, str | None]]:
    """Fail unless every interactive element of `html` has a unique stable id, every field
    a label and every link and button a readable name; return the elements."""
    parser = Elements()
    parser.feed(html)
    ids = [el.get("id") for el in parser.elements]
    assert len(ids) == len(set(ids)), f"duplicate ids on {url}"
    for el in parser.elements:
        assert el.get("id") and el.get("id") == el.get("data-og-id"), (url, el)
        assert "bid" not in el, (url, el)
        if el["tag"] in ("input", "select", "textarea"):
            assert el["id"] in parser.labels or el.get("aria-label"), (url, el)
        if el["tag"] in ("a", "button"):
            assert (el["text"] or "").strip() or el.get("aria-label"), (url, el)
    return parser.elements


def html_of(client: FlaskClient, url: str) -> str:
    """The page at `url`, which must answer 200."""
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)
