/* The spreadsheet grid as people know it, over the page's plain forms: the selection.
 *
 * Cells are the grid form's inputs (id: the address in lower case). Click or arrow keys
 * move the selection and the name box and formula bar follow it (for a spilled cell the
 * bar shows its anchor's formula greyed, as Sheets does); shift-click, drag and
 * shift-arrows select a range, whose sum, average and count the status bar shows.
 * This module keeps the selection and shows it; grid_server.js saves through the same
 * form endpoints as without scripts and copies the answer's cells into this page, so
 * the window and the selection stay where they are; grid_input.js takes keys, the mouse
 * and the clipboard. Without these scripts every form still works as before.
 */
(function () {
  "use strict";
  var grid = document.getElementById("grid");
  var form = document.getElementById("grid-form");
  if (!grid || !form) return;
  var G = window.OfficegymGrid = {
    grid: grid, form: form, editable: grid.dataset.editable === "1", sheet: grid.dataset.sheet,
    win: {
      top: +grid.dataset.top, left: +grid.dataset.left,
      bottom: +grid.dataset.bottom, right: +grid.dataset.right,
    },
    rows: Array.prototype.map.call(grid.tBodies[0].rows, function (tr) { return +tr.dataset.row; }),
    state: { anchor: null, ext: null, mode: "ready", start: "", queue: Promise.resolve() },
    /* Each cell's saved text, kept here rather than in its value attribute, which agents'
     * page-marking scripts (BrowserGym's) overwrite with what is being typed. */
    saved: {},
    /* Rows edited under a filter: they stay shown until the filter changes, as in Sheets. */
    kept: {},
  };
  var state = G.state, win = G.win, rows = G.rows;
  grid.querySelectorAll("input").forEach(function (el) { G.saved[el.id] = el.defaultValue; });
  var keepField = form.querySelector("input[name=keep]");
  if (keepField) keepField.value.split(",").forEach(function (r) { if (r) G.kept[r] = true; });

  /* ---------------------------------------------------------------- addresses */
  function letters(c) {
    var s = "";
    while (c > 0) { var m = (c - 1) % 26; s = String.fromCharCode(65 + m) + s; c = (c - m - 1) / 26; }
    return s;
  }
  function addr(p) { return letters(p.c) + p.r; }
  function parseAddr(text) {
    var m = /^([A-Za-z]+)(\d+)$/.exec(text || "");
    if (!m) return null;
    var c = 0;
    for (var i = 0; i < m[1].length; i++) c = c * 26 + (m[1].toUpperCase().charCodeAt(i) - 64);
    return { r: +m[2], c: c };
  }
  function cellAt(p) { return document.getElementById(addr(p).toLowerCase()); }
  function posOf(el) { return parseAddr(el.getAttribute("aria-label")); }
  function isCell(el) { return el && el.tagName === "INPUT" && grid.contains(el); }
  function range() {
    var a = state.anchor, b = state.ext;
    return { r1: Math.min(a.r, b.r), c1: Math.min(a.c, b.c), r2: Math.max(a.r, b.r), c2: Math.max(a.c, b.c) };
  }
  function rangeA1(g) {
    g = g || range();
    var one = g.r1 === g.r2 && g.c1 === g.c2;
    return one ? addr({ r: g.r1, c: g.c1 }) : addr({ r: g.r1, c: g.c1 }) + ":" + addr({ r: g.r2, c: g.c2 });
  }
  function selectA1(text) {
    /* Select a range given as A1 text (the server's answer to a paste). */
    var ends = (text || "").split(":"), a = parseAddr(ends[0]), b = parseAddr(ends[1] || ends[0]);
    if (a && b) { state.anchor = a; state.ext = b; }
  }

  /* ---------------------------------------------------------------- showing the selection */
  function setField(f, name, value) {
    if (f && f.elements[name]) f.elements[name].value = value;
  }
  function keptText() { return Object.keys(G.kept).sort(function (a, b) { return a - b; }).join(","); }
  function showBar(active) {
    /* The formula bar: the cell's input, or for a spilled cell its anchor's formula greyed
     * (a placeholder: typing there writes into this cell, as in Sheets). */
    var bar = document.getElementById("formula-bar");
    if (!bar || !active) return;
    bar.value = state.mode === "ready" ? active.dataset.input : active.value;
    var spilled = active.dataset.spill || "";
    bar.placeholder = spilled;
    if (spilled) bar.title = "Spilled from " + active.dataset.anchor + ": its formula";
    else bar.removeAttribute("title");
  }
  function show() {
    var g = range(), text = rangeA1(g), active = cellAt(state.anchor);
    grid.classList.toggle("editing", state.mode === "caret");
    if (state.mode === "ready" && G.refs) G.refs.forget();  /* no reference outlined */
    grid.querySelectorAll("td.sel").forEach(function (td) { td.classList.remove("sel"); });
    grid.querySelectorAll("input").forEach(function (el) {
      var p = posOf(el);
      if (p.r >= g.r1 && p.r <= g.r2 && p.c >= g.c1 && p.c <= g.c2) el.parentNode.classList.add("sel");
    });
    var box = document.getElementById("name-box");
    if (box) box.value = text;
    showBar(active);
    var label = document.getElementById("formula-label");
    if (label) label.textContent = "fx " + addr(state.anchor);
    setField(document.getElementById("formula-form"), "cell", addr(state.anchor));
    document.querySelectorAll("form input[name=sel]").forEach(function (el) { el.value = text; });
    var end = g.r1 === g.r2 && g.c1 === g.c2 ? "" : addr(state.ext);  /* the end a person moves */
    document.querySelectorAll("form input[name=end]").forEach(function (el) { el.value = end; });
    document.querySelectorAll("form input[name=keep]").forEach(function (el) { el.value = keptText(); });
    var shown = document.getElementById("toolbar-sel");
    if (shown) shown.textContent = text;
    var col = letters(state.anchor.c);
    ["sort-column", "filter-column"].forEach(function (id) {
      var s = document.getElementById(id);
      if (s && s.querySelector("option[value='" + col + "']")) s.value = col;
    });
    var at = document.getElementById("import-csv-at");
    if (at) at.value = addr(state.anchor);
    status(g, text);
    placeHandle(g);
    var url = new URL(location.href);
    url.searchParams.set("sel", text);
    url.searchParams.set("at", addr({ r: win.top, c: win.left }));
    if (end) url.searchParams.set("end", end); else url.searchParams.delete("end");
    if (keptText()) url.searchParams.set("keep", keptText());
    history.replaceState(null, "", url);
  }
  function round2(x) { return String(Math.round(x * 100) / 100); }
  function status(g, text) {
    var bar = document.getElementById("status-bar");
    if (!bar) return;
    if (text === state.serverSel) return;  /* the server's sum: every row, not only the window's */
    state.serverSel = null;
    if (g.r1 === g.r2 && g.c1 === g.c2) { bar.replaceChildren(); return; }
    var nums = [];
    rows.forEach(function (r) {
      if (r < g.r1 || r > g.r2) return;
      for (var c = g.c1; c <= g.c2; c++) {
        var el = cellAt({ r: r, c: c });
        if (el && el.dataset.n) nums.push(parseFloat(el.dataset.n));
      }
    });
    var sum = nums.reduce(function (a, b) { return a + b; }, 0);
    var p = document.createElement("p");
    p.className = "summary";
    p.id = "selection-summary";
    p.dataset.ogId = "selection-summary";
    var filtered = grid.dataset.filtered === "1" ? " (rows shown by the filter)" : "";
    p.textContent = "Selection " + text + filtered + ": " + round2(sum) + " in total (sum of " +
      nums.length + " numbers" + (nums.length ? ", average " + round2(sum / nums.length) : "") + ")";
    bar.replaceChildren(p);
  }
  function placeHandle(g) {
    var handle = document.getElementById("fill-handle"), corner = cellAt({ r: g.r2, c: g.c2 });
    if (!handle || !G.editable || !corner) { if (handle) handle.hidden = true; return; }
    var box = corner.parentNode.getBoundingClientRect(), wrap = handle.parentNode.getBoundingClientRect();
    handle.style.left = (box.right - wrap.left - 4) + "px";
    handle.style.top = (box.bottom - wrap.top - 4) + "px";
    handle.hidden = false;
  }

  /* ---------------------------------------------------------------- moving */
  function select(p, extend) {
    if (extend) state.ext = p;
    else { state.anchor = p; state.ext = p; }
    var el = cellAt(extend ? state.anchor : p);
    state.mode = "ready";
    if (el && document.activeElement !== el) { state.moving = true; el.focus(); state.moving = false; }
    if (el && !extend) { state.start = el.value; el.select(); }
    show();
  }
  function move(dr, dc, extend) {
    var from = extend ? state.ext : state.anchor;
    var i = rows.indexOf(from.r) + dr, c = from.c + dc;
    var r = i < 0 ? beyond("before", from.r - 1) : i >= rows.length ? beyond("after", from.r + 1) : rows[i];
    if (!(r >= 1) || c < 1) return;
    if (rows.indexOf(r) < 0 || c < win.left || c > win.right) return scrollTo({ r: r, c: c }, extend);
    select({ r: r, c: c }, extend);
  }
  function beyond(side, next) {
    /* The row an arrow key reaches past the window: the next one, or under a filter the
     * next row the filter shows (none at its ends). */
    return grid.dataset.filtered === "1" ? +grid.dataset[side] || 0 : next;
  }
  function scrollTo(p, extend) {
    /* The window moves by as little as shows the cell (a new page of the same grid; under
     * a filter the server scrolls its rows to the selection). */
    var top = win.top, left = win.left, height = rows.length, width = win.right - win.left + 1;
    if (grid.dataset.filtered === "1") { /* rows: as shown by the filter */ }
    else if (p.r < top) top = p.r; else if (p.r > win.bottom) top = p.r - height + 1;
    if (p.c < left) left = p.c; else if (p.c > win.right) left = p.c - width + 1;
    var url = new URL(location.href);
    var sel = extend ? rangeA1({ r1: Math.min(state.anchor.r, p.r), c1: Math.min(state.anchor.c, p.c),
      r2: Math.max(state.anchor.r, p.r), c2: Math.max(state.anchor.c, p.c) }) : addr(p);
    url.searchParams.set("at", addr({ r: Math.max(1, top), c: Math.max(1, left) }));
    url.searchParams.set("sel", sel);
    /* the window shows the end that moved (under a filter the server finds its rows) */
    if (extend) url.searchParams.set("end", addr(p)); else url.searchParams.delete("end");
    go(url);
  }
  function go(url) {
    /* Load another window once the saves under way are done, with the rows kept shown. */
    G.busy(true);  /* until the next window is loaded */
    state.queue.then(function () {
      if (keptText() && url.searchParams.has("filter_col")) url.searchParams.set("keep", keptText());
      location.assign(url);
    });
  }
  function follow(link) {
    /* A link that moves the window or changes the view (paging, tabs, the formulas
     * toggle): what is being typed is saved first, as Sheets commits on leaving a cell. */
    if (!link) return;
    if (state.mode !== "ready") G.commit();
    var url = new URL(link.href), at = parseAddr(url.searchParams.get("at"));
    var to = parseAddr(url.searchParams.get("sel")), filtered = grid.dataset.filtered === "1";
    if (link.parentNode.classList.contains("paging") && at && to) {
      /* Page Up/Down from the active cell: it moves with the window, in its column */
      var dr = at.r - win.top, dc = at.c - win.left;
      var r = filtered ? (dr ? to.r : state.anchor.r) : state.anchor.r + dr;
      url.searchParams.set("sel", addr({ r: Math.max(1, r), c: Math.max(1, state.anchor.c + dc) }));
    } else if (url.searchParams.get("sheet") === G.sheet && url.searchParams.has("sel")) {
      url.searchParams.set("sel", rangeA1());
      var single = state.anchor.r === state.ext.r && state.anchor.c === state.ext.c;
      if (single) url.searchParams.delete("end"); else url.searchParams.set("end", addr(state.ext));
    }
    go(url);
  }

  G.letters = letters; G.addr = addr; G.parseAddr = parseAddr; G.cellAt = cellAt; G.posOf = posOf;
  G.isCell = isCell; G.range = range; G.rangeA1 = rangeA1; G.selectA1 = selectA1; G.show = show;
  G.placeHandle = placeHandle; G.select = select; G.move = move; G.keptText = keptText;
  G.follow = follow;
})();
