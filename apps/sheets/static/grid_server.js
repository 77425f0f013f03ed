/* The grid's saves: commits, toolbar buttons, the formula bar, the fill handle and paste
 * POST the page's own form fields to the same endpoints as without scripts (fetch, one
 * request at a time); asked so (X-Grid-Window), the server answers with the window itself
 * instead of redirecting to the page, and that updates this one, so the window and the
 * selection stay where they are. While a request is under way the grid is
 * aria-busy. Loaded after grid.js, whose OfficegymGrid it extends.
 */
(function () {
  "use strict";
  var G = window.OfficegymGrid;
  if (!G) return;
  var grid = G.grid, form = G.form, state = G.state, saved = G.saved;

  var pending = 0;
  function busy(on) {
    /* aria-busy from the moment a request is queued until the last one is answered. */
    pending += on ? 1 : -1;
    if (pending > 0) grid.setAttribute("aria-busy", "true"); else grid.removeAttribute("aria-busy");
  }
  function send(url, data, posted, options) {
    /* POST a form's fields; the window it answers with updates this one (cells edited since
     * and not in `posted` keep what was typed; `options.select`: select what the answer
     * selects, as a paste selects the pasted range). Queued: one request at a time. */
    data.set("sel", G.rangeA1());
    data.set("at", G.addr({ r: G.win.top, c: G.win.left }));
    data.set("sheet", G.sheet);
    busy(true);
    var run = function () {
      return fetch(url, { method: "POST", body: data, credentials: "same-origin",
                          headers: { "X-Grid-Window": "1" } })
        .then(function (res) { return res.text(); })
        .then(function (html) { absorb(html, posted || {}, options || {}); })
        .catch(function (err) { flashes([["error", "Not saved: " + err]]); })
        .finally(function () { busy(false); });
    };
    /* nothing else under way: sent at once, before the key's handler moves the selection
     * and redraws (the request is built already) */
    state.queue = pending === 1 ? run() : state.queue.then(run, run);
    return state.queue;
  }
  function copyCell(src, posted) {
    /* One cell of the answer into this page's cell of the same id. */
    var el = document.getElementById(src.id);
    if (!el) return;
    var editing = state.mode !== "ready" && el === G.cellAt(state.anchor);
    var typed = dirty(el) && posted[el.name] !== el.value;
    saved[el.id] = src.getAttribute("value") || "";
    if (!editing && !typed && el.value !== saved[el.id]) el.value = saved[el.id];
    /* only what differs is written: a window is 250 cells, and every write of an
     * attribute or class makes the browser check the page's styles again */
    ["input", "n", "anchor", "spill"].forEach(function (k) {
      var v = src.dataset[k];
      if (v === el.dataset[k]) return;
      if (v !== undefined) el.dataset[k] = v; else delete el.dataset[k];
    });
    if (el.title !== src.title) { if (src.title) el.title = src.title; else el.removeAttribute("title"); }
    if (el.readOnly !== src.readOnly) el.readOnly = src.readOnly;
    var td = el.parentNode, cls = src.parentNode.className.replace(/\bsel\b/, "").trim();
    if (td.classList.contains("sel")) cls = cls ? cls + " sel" : "sel";
    if (td.className !== cls) td.className = cls;
  }
  function absorb(html, posted, options) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var other = doc.getElementById("grid");
    if (other && options.select && other.dataset.sheet !== G.sheet) {
      /* an undo on another sheet: show that sheet, what it changed selected */
      var url = new URL(location.href);
      url.searchParams.set("sheet", other.dataset.sheet);
      url.searchParams.set("sel", other.dataset.sel);
      ["at", "end", "filter_col", "filter", "keep"].forEach(function (k) { url.searchParams.delete(k); });
      return location.assign(url);
    }
    if (other && other.dataset.sheet === G.sheet) {
      other.querySelectorAll("input").forEach(function (src) { copyCell(src, posted); });
      if (options.select && other.dataset.sel) G.selectA1(other.dataset.sel);
    }
    var theirs = doc.getElementById("status-bar"), bar = document.getElementById("status-bar");
    if (other && theirs && bar && other.dataset.sel === G.rangeA1()) {
      bar.innerHTML = theirs.innerHTML;
      state.serverSel = other.dataset.sel;
    }
    var used = doc.getElementById("used-range"), mine = document.getElementById("used-range");
    if (used && mine) mine.textContent = used.textContent;
    flashes(Array.prototype.map.call(doc.querySelectorAll(".flashes .flash"), function (p) {
      return [p.classList.contains("flash-error") ? "error" : "info", p.textContent];
    }));
    var active = G.cellAt(state.anchor);
    if (active && state.mode === "ready") { state.start = active.value; if (document.activeElement === active) active.select(); }
    G.show();
  }
  function flashes(list) {
    var box = document.querySelector("main .flashes");
    if (!box) {
      box = document.createElement("div");
      box.className = "flashes";
      var main = document.querySelector("main");
      main.insertBefore(box, main.firstChild);
    }
    box.replaceChildren();
    list.forEach(function (item) {
      var p = document.createElement("p");
      p.className = "flash flash-" + item[0];
      p.setAttribute("role", item[0] === "error" ? "alert" : "status");
      p.textContent = item[1];
      box.appendChild(p);
    });
  }
  function dirty(el) { return el.value !== saved[el.id]; }
  function commit() {
    /* Save the edited cell(s) through the grid form; unchanged edits are put back first.
     * Under a filter, the edited rows stay shown (Sheets filters again only when the
     * filter changes). */
    var el = G.cellAt(state.anchor);
    if (el && state.mode !== "ready" && el.value === state.start) el.value = saved[el.id];
    state.mode = "ready";
    var data = new FormData(form), posted = {}, any = false;
    grid.querySelectorAll("input").forEach(function (cell) {
      if (dirty(cell)) {
        posted[cell.name] = cell.value;
        any = true;
        if (grid.dataset.filtered === "1") G.kept[G.posOf(cell).r] = true;
      } else data.delete(cell.name);
    });
    if (!any || !G.editable) return state.queue;
    if (data.has("keep")) data.set("keep", G.keptText());
    return send(form.action, data, posted);
  }
  function toolbar(op, options, fields) {
    /* A toolbar button's action on the selection (`fields`: more form fields). */
    var bar = document.getElementById("toolbar");
    if (!bar) return Promise.resolve();
    var data = new FormData(bar);
    data.set("op", op);
    Object.keys(fields || {}).forEach(function (k) { data.set(k, fields[k]); });
    return send(bar.action, data, {}, options);
  }
  function viaFetch(id) {
    /* A form of the page (the formula bar, the toolbar) sent without leaving the page. */
    var f = document.getElementById(id);
    if (!f) return;
    f.addEventListener("submit", function (e) {
      e.preventDefault();
      var data = new FormData(f, e.submitter);
      if (id === "formula-form") {
        data.set("cell", G.addr(state.anchor));
        state.mode = "ready";
        if (grid.dataset.filtered === "1") G.kept[state.anchor.r] = true;
        if (data.has("keep")) data.set("keep", G.keptText());
      }
      var op = e.submitter && e.submitter.value;  /* undo and redo select what they changed */
      send(f.action, data, {}, { select: op === "undo" || op === "redo" }).then(function () { var el = G.cellAt(state.anchor); if (el) el.focus(); });
    });
  }

  G.busy = busy; G.send = send; G.dirty = dirty; G.commit = commit; G.toolbar = toolbar;
  G.flashes = flashes;
  viaFetch("formula-form");
  viaFetch("toolbar");
})();
