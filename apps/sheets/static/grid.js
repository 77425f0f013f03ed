/* The spreadsheet grid as people know it, over the page's plain forms.
 *
 * Cells are the grid form's inputs (id: the address in lower case). Click or arrow keys
 * move the selection and the name box and formula bar follow it; typing in a selected
 * cell replaces it, F2 or a double click edits it; Enter commits and moves down, Tab
 * right, Escape cancels; shift-click, drag and shift-arrows select a range, whose sum,
 * average and count the status bar shows. Commits, toolbar buttons, the formula bar,
 * the fill handle and paste go through the same form endpoints as without this script
 * (fetch POST of the form's own fields); the response page's cells are copied into this
 * one, so the window and the selection stay where they are. While a request is under
 * way the grid is aria-busy. Without this script every form still works as before.
 */
(function () {
  "use strict";
  var grid = document.getElementById("grid");
  var form = document.getElementById("grid-form");
  if (!grid || !form) return;
  var editable = grid.dataset.editable === "1";
  var win = {
    top: +grid.dataset.top, left: +grid.dataset.left,
    bottom: +grid.dataset.bottom, right: +grid.dataset.right,
  };
  var rows = Array.prototype.map.call(grid.tBodies[0].rows, function (tr) { return +tr.dataset.row; });
  var sheet = grid.dataset.sheet;
  var state = { anchor: null, ext: null, mode: "ready", start: "", queue: Promise.resolve() };
  /* Each cell's saved text, kept here rather than in its value attribute, which agents'
   * page-marking scripts (BrowserGym's) overwrite with what is being typed. */
  var saved = {};
  grid.querySelectorAll("input").forEach(function (el) { saved[el.id] = el.defaultValue; });

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

  /* ---------------------------------------------------------------- showing the selection */
  function setField(f, name, value) {
    if (f && f.elements[name]) f.elements[name].value = value;
  }
  function show() {
    var g = range(), text = rangeA1(g), active = cellAt(state.anchor);
    grid.classList.toggle("editing", state.mode === "caret");
    grid.querySelectorAll("td.sel").forEach(function (td) { td.classList.remove("sel"); });
    grid.querySelectorAll("input").forEach(function (el) {
      var p = posOf(el);
      if (p.r >= g.r1 && p.r <= g.r2 && p.c >= g.c1 && p.c <= g.c2) el.parentNode.classList.add("sel");
    });
    var box = document.getElementById("name-box");
    if (box) box.value = text;
    var bar = document.getElementById("formula-bar");
    if (bar && active) bar.value = state.mode === "ready" ? active.dataset.input : active.value;
    var label = document.getElementById("formula-label");
    if (label) label.textContent = "fx " + addr(state.anchor);
    setField(document.getElementById("formula-form"), "cell", addr(state.anchor));
    document.querySelectorAll("form input[name=sel]").forEach(function (el) { el.value = text; });
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
    if (!handle || !editable || !corner) { if (handle) handle.hidden = true; return; }
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
    var r = i < 0 ? from.r - 1 : i >= rows.length ? from.r + 1 : rows[i];
    if (r < 1 || c < 1) return;
    if (rows.indexOf(r) < 0 || c < win.left || c > win.right) return scrollTo({ r: r, c: c }, extend);
    select({ r: r, c: c }, extend);
  }
  function scrollTo(p, extend) {
    /* The window moves by as little as shows the cell (a new page of the same grid). */
    var top = win.top, left = win.left, height = rows.length, width = win.right - win.left + 1;
    if (p.r < top) top = p.r; else if (p.r > win.bottom) top = p.r - height + 1;
    if (p.c < left) left = p.c; else if (p.c > win.right) left = p.c - width + 1;
    var url = new URL(location.href);
    var sel = extend ? rangeA1({ r1: Math.min(state.anchor.r, p.r), c1: Math.min(state.anchor.c, p.c),
      r2: Math.max(state.anchor.r, p.r), c2: Math.max(state.anchor.c, p.c) }) : addr(p);
    url.searchParams.set("at", addr({ r: Math.max(1, top), c: Math.max(1, left) }));
    url.searchParams.set("sel", sel);
    busy(true);  /* until the next window is loaded */
    state.queue.then(function () { location.assign(url); });
  }

  /* ---------------------------------------------------------------- talking to the server */
  var pending = 0;
  function busy(on) {
    /* aria-busy from the moment a request is queued until the last one is answered. */
    pending += on ? 1 : -1;
    if (pending > 0) grid.setAttribute("aria-busy", "true"); else grid.removeAttribute("aria-busy");
  }
  function send(url, data, posted) {
    /* POST a form's fields; the page it redirects to updates this one (cells edited since
     * and not in `posted` keep what was typed). Queued: one request at a time. */
    data.set("sel", rangeA1());
    data.set("at", addr({ r: win.top, c: win.left }));
    data.set("sheet", sheet);
    busy(true);
    var run = function () {
      return fetch(url, { method: "POST", body: data, credentials: "same-origin" })
        .then(function (res) { return res.text(); })
        .then(function (html) { absorb(html, posted || {}); })
        .catch(function (err) { flashes([["error", "Not saved: " + err]]); })
        .finally(function () { busy(false); });
    };
    state.queue = state.queue.then(run, run);
    return state.queue;
  }
  function absorb(html, posted) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var other = doc.getElementById("grid");
    if (other && other.dataset.sheet === sheet) {
      other.querySelectorAll("input").forEach(function (src) {
        var el = document.getElementById(src.id);
        if (!el) return;
        var editing = state.mode !== "ready" && el === cellAt(state.anchor);
        var typed = dirty(el) && posted[el.name] !== el.value;
        saved[el.id] = src.getAttribute("value") || "";
        if (!editing && !typed) el.value = saved[el.id];
        el.dataset.input = src.dataset.input || "";
        if (src.dataset.n) el.dataset.n = src.dataset.n; else delete el.dataset.n;
        el.readOnly = src.readOnly;
        var keep = el.parentNode.classList.contains("sel");
        el.parentNode.className = src.parentNode.className.replace(/\bsel\b/, "").trim();
        if (keep) el.parentNode.classList.add("sel");
      });
    }
    var theirs = doc.getElementById("status-bar"), bar = document.getElementById("status-bar");
    if (other && theirs && bar && other.dataset.sel === rangeA1()) {
      bar.innerHTML = theirs.innerHTML;
      state.serverSel = other.dataset.sel;
    }
    var used = doc.getElementById("used-range"), mine = document.getElementById("used-range");
    if (used && mine) mine.textContent = used.textContent;
    flashes(Array.prototype.map.call(doc.querySelectorAll(".flashes .flash"), function (p) {
      return [p.classList.contains("flash-error") ? "error" : "info", p.textContent];
    }));
    var active = cellAt(state.anchor);
    if (active && state.mode === "ready") { state.start = active.value; if (document.activeElement === active) active.select(); }
    show();
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
    /* Save the edited cell(s) through the grid form; unchanged edits are put back first. */
    var el = cellAt(state.anchor);
    if (el && state.mode !== "ready" && el.value === state.start) el.value = saved[el.id];
    state.mode = "ready";
    var data = new FormData(form), posted = {}, any = false;
    grid.querySelectorAll("input").forEach(function (cell) {
      if (dirty(cell)) { posted[cell.name] = cell.value; any = true; } else data.delete(cell.name);
    });
    if (!any || !editable) return state.queue;
    return send(form.action, data, posted);
  }
  function toolbar(op) {
    var bar = document.getElementById("toolbar");
    if (!bar) return;
    var data = new FormData(bar);
    data.set("op", op);
    send(bar.action, data);
  }

  /* ---------------------------------------------------------------- keyboard */
  var KEYS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  function onKey(e) {
    var el = e.target;
    if (!isCell(el)) return;
    if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      var back = e.shiftKey ? -1 : 1;
      commit();
      return e.key === "Enter" ? move(back, 0, false) : move(0, back, false);
    }
    if (e.key === "Escape") {
      e.preventDefault();
      el.value = saved[el.id];
      state.mode = "ready";
      el.select();
      return show();
    }
    if (e.key === "F2") {
      e.preventDefault();
      return edit(el);
    }
    if ((e.ctrlKey || e.metaKey) && (e.key === "d" || e.key === "r") && state.mode === "ready") {
      e.preventDefault();
      return toolbar(e.key === "d" ? "fill_down" : "fill_right");
    }
    if ((e.key === "Delete") && state.mode === "ready" && editable) {
      e.preventDefault();
      return toolbar("clear");
    }
    var step = KEYS[e.key];
    if (!step || state.mode === "caret") return;
    e.preventDefault();
    if (state.mode === "typing") commit();
    move(step[0], step[1], e.shiftKey && state.mode === "ready");
  }
  function edit(el) {
    /* Edit the cell's input (its formula) with the caret at the end, as F2 does. */
    if (el.readOnly) return;
    state.mode = "caret";
    if (!dirty(el)) el.value = el.dataset.input;
    state.start = el.value;
    el.setSelectionRange(el.value.length, el.value.length);
    show();
  }

  /* ---------------------------------------------------------------- mouse */
  var dragging = null;
  function onDown(e) {
    var el = e.target;
    if (e.target.id === "fill-handle") { e.preventDefault(); dragging = "fill"; return; }
    if (!isCell(el)) return;
    var p = posOf(el);
    if (state.anchor && state.mode !== "ready" && (p.r !== state.anchor.r || p.c !== state.anchor.c)) commit();
    if (e.shiftKey && state.anchor) {
      e.preventDefault();
      state.ext = p;
      return show();
    }
    dragging = "select";
    if (document.activeElement === el && state.mode === "ready" && p.r === state.anchor.r && p.c === state.anchor.c) {
      state.ext = p;
      show();
    }
  }
  function onOver(e) {
    if (!dragging || !isCell(e.target) || !(e.buttons & 1)) return;
    var p = posOf(e.target);
    if (dragging === "fill") {
      var g = range();
      state.fillTo = p;
      grid.querySelectorAll("td.fill").forEach(function (td) { td.classList.remove("fill"); });
      if (p.r > g.r2 || p.c > g.c2) e.target.parentNode.classList.add("fill");
      return;
    }
    state.ext = p;
    show();
  }
  function onUp() {
    if (dragging === "fill" && state.fillTo) fillTo(state.fillTo);
    dragging = null;
    state.fillTo = null;
  }
  function fillTo(p) {
    /* The fill handle: down when dragged below the selection, else right. */
    var g = range();
    grid.querySelectorAll("td.fill").forEach(function (td) { td.classList.remove("fill"); });
    if (p.r > g.r2) { state.ext = { r: p.r, c: g.c2 }; state.anchor = { r: g.r1, c: g.c1 }; show(); toolbar("fill_down"); }
    else if (p.c > g.c2) { state.ext = { r: g.r2, c: p.c }; state.anchor = { r: g.r1, c: g.c1 }; show(); toolbar("fill_right"); }
  }
  function onFocus(e) {
    var el = e.target;
    if (!isCell(el) || state.moving) return;
    var p = posOf(el);
    if (state.anchor && p.r === state.anchor.r && p.c === state.anchor.c) return;
    state.anchor = p;
    state.ext = p;
    state.mode = "ready";
    state.start = el.value;
    el.select();
    show();
  }
  function onInput(e) {
    var el = e.target;
    if (isCell(el)) {
      var p = posOf(el);
      if (!state.anchor || p.r !== state.anchor.r || p.c !== state.anchor.c) { state.anchor = p; state.ext = p; }
      if (state.mode === "ready") state.mode = "typing";
      var bar = document.getElementById("formula-bar");
      if (bar) bar.value = el.value;
    }
  }

  /* ---------------------------------------------------------------- clipboard */
  function block() {
    var g = range(), lines = [];
    rows.forEach(function (r) {
      if (r < g.r1 || r > g.r2) return;
      var line = [];
      for (var c = g.c1; c <= g.c2; c++) { var el = cellAt({ r: r, c: c }); line.push(el ? el.value : ""); }
      lines.push(line.join("\t"));
    });
    return lines.join("\n");
  }
  function onCopy(e, cut) {
    if (!isCell(e.target) || state.mode !== "ready") return;
    e.preventDefault();
    var text = block(), quoted = "'" + sheet.replace(/'/g, "''") + "'!" + rangeA1();
    e.clipboardData.setData("text/plain", text);
    sessionStorage.setItem("officegym-clip", JSON.stringify(
      { path: location.pathname, text: text, source: quoted, cut: !!cut }));
  }
  function onPaste(e) {
    if (!isCell(e.target) || state.mode !== "ready" || !editable) return;
    e.preventDefault();
    var text = e.clipboardData.getData("text/plain"), clip = null;
    try { clip = JSON.parse(sessionStorage.getItem("officegym-clip") || "null"); } catch (err) { clip = null; }
    var data = new FormData();
    if (clip && clip.path === location.pathname && clip.text === text) {
      data.set("source", clip.source);
      if (clip.cut) { data.set("cut", "1"); sessionStorage.removeItem("officegym-clip"); }
    } else data.set("text", text);
    state.ext = state.anchor;
    send(form.dataset.paste, data);
  }

  /* ---------------------------------------------------------------- other forms */
  function viaFetch(id) {
    var f = document.getElementById(id);
    if (!f) return;
    f.addEventListener("submit", function (e) {
      e.preventDefault();
      var data = new FormData(f, e.submitter);
      if (id === "formula-form") {
        data.set("cell", addr(state.anchor));
        state.mode = "ready";
      }
      send(f.action, data).then(function () { var el = cellAt(state.anchor); if (el) el.focus(); });
    });
  }
  function onBar(e) {
    var el = cellAt(state.anchor);
    if (el && !el.readOnly) { el.value = e.target.value; state.mode = "caret"; }
  }

  grid.addEventListener("keydown", onKey);
  grid.addEventListener("mousedown", onDown);
  grid.addEventListener("mouseover", onOver);
  grid.addEventListener("focusin", onFocus);
  grid.addEventListener("input", onInput);
  grid.addEventListener("dblclick", function (e) { if (isCell(e.target)) edit(e.target); });
  grid.addEventListener("copy", function (e) { onCopy(e, false); });
  grid.addEventListener("cut", function (e) { onCopy(e, true); });
  grid.addEventListener("paste", onPaste);
  document.addEventListener("mouseup", onUp);
  var handle = document.getElementById("fill-handle");
  if (handle) handle.addEventListener("mousedown", onDown);
  var bar = document.getElementById("formula-bar");
  if (bar) bar.addEventListener("input", onBar);
  viaFetch("formula-form");
  viaFetch("toolbar");
  window.addEventListener("resize", function () { placeHandle(range()); });

  var first = (grid.dataset.sel || "A1").split(":");
  var a = parseAddr(first[0]), b = parseAddr(first[1] || first[0]);
  state.anchor = a && cellAt(a) ? a : { r: rows[0] || 1, c: win.left };
  state.ext = b && cellAt(state.anchor) ? b : state.anchor;  /* may reach beyond the window */
  state.serverSel = rangeA1();
  state.start = (cellAt(state.anchor) || {}).value || "";
  show();
  grid.dataset.ready = "1";
})();
