"""What a browser agent sees of a page: an accessibility-tree-like text in which every
interactive node carries its element id, and optionally a screenshot.

The text comes from one fixed script the env runs in the page (agents never run
JavaScript). It walks the rendered DOM, skips what is hidden, and writes one line
per node with a role, in BrowserGym's layout::

    [composer-text] textbox "Message #general", value="", required
    [composer-send] button "Send"

Roles and names follow the usual ARIA rules for the elements the clones use
(links, buttons, form controls with their labels, headings, lists, tables,
landmarks); plain text is ``StaticText``. It costs about as much as reading
``page.content()``, several times less than ``locator.aria_snapshot()``, which
carries no element ids.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import numpy as np
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

__all__ = ["AXTREE_SCRIPT", "ELEMENT_ID", "PageView", "read_page", "screenshot"]

# The element id opening a node's line (names and values are JSON strings: one line each).
ELEMENT_ID = re.compile(r"^\t*\[([^\]]+)\] ", re.M)


@dataclass(frozen=True)
class PageView:
    """The page's text and the element ids it shows."""

    text: str
    ids: frozenset[str]


AXTREE_SCRIPT = r"""
async () => {
  if (document.readyState !== "complete") {  // the page an action led to is still loading
    await Promise.race([
      new Promise((done) => window.addEventListener("load", done, {once: true})),
      new Promise((done) => setTimeout(done, 10000)),
    ]);
  }
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK"]);
  const HEADING = {H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6};
  const TAG_ROLE = {NAV: "navigation", MAIN: "main", ASIDE: "complementary", UL: "list",
    OL: "list", LI: "listitem", TABLE: "table", THEAD: "rowgroup", TBODY: "rowgroup",
    TFOOT: "rowgroup", TR: "row", TH: "columnheader", TD: "cell", P: "paragraph", DL: "list",
    DT: "term", DD: "definition", IMG: "img", TEXTAREA: "textbox", BUTTON: "button",
    DIALOG: "dialog", FIELDSET: "group", LEGEND: "legend", CAPTION: "caption",
    PROGRESS: "progressbar", HR: "separator", DETAILS: "group", SUMMARY: "button"};
  const INPUT_ROLE = {checkbox: "checkbox", radio: "radio", submit: "button", button: "button",
    reset: "button", image: "button", search: "searchbox", range: "slider", number: "spinbutton"};
  const FROM_CONTENT = new Set(["link", "button", "heading", "cell", "columnheader", "term",
    "tab", "menuitem", "checkbox", "radio", "option", "legend", "caption"]);
  const VALUED = new Set(["textbox", "searchbox", "spinbutton", "slider"]);
  const out = [];
  const active = document.activeElement;
  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
  const quote = (s) => JSON.stringify(s);
  const hidden = (el) => {
    if (el.hidden || el.getAttribute("aria-hidden") === "true") return true;
    // A closed <details> shows only its <summary>, as in the browser's own tree.
    const box = el.parentElement;
    if (box && box.tagName === "DETAILS" && !box.open && el.tagName !== "SUMMARY") return true;
    const cs = getComputedStyle(el);
    return cs.display === "none" || cs.visibility === "hidden";
  };
  const roleOf = (el) => {
    const explicit = el.getAttribute("role");
    if (explicit) {  // presentational roles drop the element's own node (ARIA)
      const first = explicit.split(" ")[0];
      return first === "presentation" || first === "none" ? "" : first;
    }
    const tag = el.tagName;
    if (tag in HEADING) return "heading";
    if (tag === "A") return el.hasAttribute("href") ? "link" : "";
    if (tag === "INPUT") return el.type === "hidden" ? "" : (INPUT_ROLE[el.type] || "textbox");
    if (tag === "SELECT") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (tag === "HEADER") return el.closest("main,section,article,aside,nav") ? "" : "banner";
    const named = el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby");
    if (tag === "FORM") return named ? "form" : "";
    if (tag === "SECTION") return named ? "region" : "";
    return TAG_ROLE[tag] || "";
  };
  const textOf = (el) => {
    let s = "";
    for (const n of el.childNodes) {
      if (n.nodeType === 3) s += n.data;
      else if (n.nodeType === 1 && !SKIP.has(n.tagName) && !hidden(n)) {
        const label = n.getAttribute("aria-label");
        s += " " + (label || (n.tagName === "INPUT" ? "" : textOf(n))) + " ";
      }
    }
    return s;
  };
  const nameOf = (el, role) => {
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      return clean(by.split(/\s+/).map((i) => {
        const r = document.getElementById(i);
        return r ? textOf(r) : "";
      }).join(" "));
    }
    const aria = el.getAttribute("aria-label");
    if (aria) return clean(aria);
    if (el.labels && el.labels.length) return clean(Array.from(el.labels).map(textOf).join(" "));
    if (!role) return "";
    if (FROM_CONTENT.has(role)) {
      const own = clean(el.tagName === "INPUT" ? el.value : textOf(el));
      if (own) return own;
    }
    return clean(el.getAttribute("alt") || el.getAttribute("title") ||
      el.getAttribute("placeholder") || "");
  };
  const props = (el, role) => {
    const p = [];
    if (el.tagName in HEADING) p.push("level=" + HEADING[el.tagName]);
    if (VALUED.has(role) && "value" in el) p.push("value=" + quote(el.value));
    if (el.tagName === "SELECT") {
      const opts = Array.from(el.options);
      const chosen = opts.filter((o) => o.selected).map((o) => clean(o.label));
      p.push(el.multiple ? "selected=" + quote(chosen) : "value=" + quote(chosen[0] || ""));
      p.push("options=" + quote(opts.map((o) => clean(o.label))));
    }
    if (role === "checkbox" || role === "radio") p.push("checked=" + !!el.checked);
    if (el.disabled) p.push("disabled");
    if (el.required) p.push("required");
    if (el === active && el !== document.body) p.push("focused");
    const current = el.getAttribute("aria-current");
    if (current) p.push("current=" + current);
    return p;
  };
  const leaf = (el, role) => el.tagName === "SELECT" || el.tagName === "TEXTAREA" ||
    (FROM_CONTENT.has(role) && !el.querySelector("a,button,input,select,textarea,[data-og-id]"));
  const walk = (el, depth) => {
    const pad = "\t".repeat(depth);
    for (const n of el.childNodes) {
      if (n.nodeType === 3) {
        const t = clean(n.data);
        if (t && !(el.tagName === "LABEL" && el.control)) out.push(pad + "StaticText " + quote(t));
        continue;
      }
      if (n.nodeType !== 1 || SKIP.has(n.tagName) || hidden(n)) continue;
      const role = roleOf(n);
      const bid = n.getAttribute("data-og-id");
      if (!role && !bid) { walk(n, depth); continue; }
      const name = nameOf(n, role);
      const p = props(n, role);
      out.push(pad + (bid ? "[" + bid + "] " : "") + (role || "generic") +
        (name ? " " + quote(name) : "") + (p.length ? ", " + p.join(", ") : ""));
      if (!leaf(n, role)) walk(n, depth + 1);
    }
  };
  const top = !active || active === document.body ? ", focused" : "";
  out.push("RootWebArea " + quote(document.title) + top);
  if (document.body) walk(document.body, 1);
  return out.join("\n");
}
"""


def read_page(page: Page) -> PageView:
    """Run the fixed extraction script on `page`, once it has loaded (the script waits for
    the load event itself: one round trip instead of two). If a navigation replaced the
    document meanwhile, read the new one."""
    try:
        text = str(page.evaluate(AXTREE_SCRIPT))
    except PlaywrightError as exc:
        if "context was destroyed" not in str(exc):
            raise
        page.wait_for_load_state("load")
        text = str(page.evaluate(AXTREE_SCRIPT))
    return PageView(text=text, ids=frozenset(ELEMENT_ID.findall(text)))


def screenshot(page: Page) -> np.ndarray:
    """The viewport as an HxWx3 uint8 RGB array."""
    from PIL import Image

    png = page.screenshot(type="png", animations="disabled", caret="hide")
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
