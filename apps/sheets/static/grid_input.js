/* The grid's keys, mouse and clipboard, as in Sheets: typing in a selected cell replaces
 * it, F2 or a double click edits it; Enter commits and moves down, Tab right, Escape
 * cancels; shift-click, drag and shift-arrows select a range; Ctrl+D and Ctrl+R fill;
 * the fill handle drags a fill; copy, cut and paste (the pasted range is selected).
 * Loaded last: it wires the events and marks the grid ready (data-ready="1").
 */
(function () {
  "use strict";
  var G = window.OfficegymGrid;
  if (!G) return;
  var grid = G.grid, state = G.state, cellAt = G.cellAt, posOf = G.posOf, isCell = G.isCell;

  /* ---------------------------------------------------------------- keyboard */
  var KEYS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  function onKey(e) {
    var el = e.target;
    if (!isCell(el)) return;
    if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      var back = e.shiftKey ? -1 : 1;
      G.commit();
      return e.key === "Enter" ? G.move(back, 0, false) : G.move(0, back, false);
    }
    if (e.key === "Escape") {
      e.preventDefault();
      el.value = G.saved[el.id];
      state.mode = "ready";
      el.select();
      return G.show();
    }
    if (e.key === "F2") {
      e.preventDefault();
      return edit(el);
    }
    var key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && (key === "z" || key === "y")) {
      if (state.mode !== "ready") return;  /* while editing: the text box's own undo */
      e.preventDefault();
      return G.toolbar(key === "y" || e.shiftKey ? "redo" : "undo", { select: true });
    }
    if ((e.ctrlKey || e.metaKey) && (e.key === "d" || e.key === "r") && state.mode === "ready") {
      e.preventDefault();
      return G.toolbar(e.key === "d" ? "fill_down" : "fill_right");
    }
    if ((e.key === "Delete") && state.mode === "ready" && G.editable) {
      e.preventDefault();
      return G.toolbar("clear");
    }
    if ((e.key === "PageDown" || e.key === "PageUp") && state.mode !== "caret") {
      e.preventDefault();
      return G.follow(document.getElementById(e.key === "PageDown" ? "page-down" : "page-up"));
    }
    var step = KEYS[e.key];
    if (!step || state.mode === "caret") return;
    e.preventDefault();
    if (state.mode === "typing") G.commit();
    G.move(step[0], step[1], e.shiftKey && state.mode === "ready");
  }
  function edit(el) {
    /* Edit the cell's input (its formula) with the caret at the end, as F2 does. */
    if (el.readOnly) return;
    state.mode = "caret";
    if (!G.dirty(el)) el.value = el.dataset.input;
    state.start = el.value;
    el.setSelectionRange(el.value.length, el.value.length);
    G.show();
  }

  /* ---------------------------------------------------------------- mouse */
  var dragging = null;
  function same(p, q) { return q && p.r === q.r && p.c === q.c; }
  function onDown(e) {
    /* A press on a cell selects it and a drag from there selects a range; the browser's
     * own text selection and drag and drop of a cell's text never start (they moved text
     * between cells), except in the cell being edited, where the press places the caret.
     * While a formula is typed, a press on another cell puts its reference in instead. */
    var el = e.target;
    if (e.target.id === "fill-handle") { e.preventDefault(); dragging = "fill"; return; }
    if (!isCell(el) || e.button !== 0) return;
    var p = posOf(el);
    if (state.anchor && state.mode !== "ready" && same(p, state.anchor)) {
      state.mode = "caret";  /* arrows now move the caret, as after F2 */
      return;
    }
    e.preventDefault();
    if (state.anchor && state.mode !== "ready") {
      if (G.refs && G.refs.pick(p)) { dragging = "ref"; return; }
      G.commit();
    }
    if (e.shiftKey && state.anchor) { state.ext = p; return G.show(); }
    G.select(p, false);
    dragging = "select";
  }
  function onOver(e) {
    if (!dragging || !isCell(e.target) || !(e.buttons & 1)) return;
    var p = posOf(e.target);
    if (dragging === "ref") return G.refs.extend(p);
    if (dragging === "fill") {
      var g = G.range();
      state.fillTo = p;
      grid.querySelectorAll("td.fill").forEach(function (td) { td.classList.remove("fill"); });
      if (p.r > g.r2 || p.c > g.c2) e.target.parentNode.classList.add("fill");
      return;
    }
    state.ext = p;
    G.show();
  }
  function onUp() {
    if (dragging === "fill" && state.fillTo) fillTo(state.fillTo);
    dragging = null;
    state.fillTo = null;
  }
  function fillTo(p) {
    /* The fill handle: down when dragged below the selection, else right; the cells past
     * the selection continue its series (or repeat it), the selection itself is kept,
     * then selected with what was filled. */
    var g = G.range();
    grid.querySelectorAll("td.fill").forEach(function (td) { td.classList.remove("fill"); });
    var end = p.r > g.r2 ? { r: p.r, c: g.c2 } : p.c > g.c2 ? { r: g.r2, c: p.c } : null;
    if (!end) {
      var inside = p.r >= g.r1 && p.r <= g.r2 && p.c >= g.c1 && p.c <= g.c2;
      if (!inside) G.flashes([["error", "Nothing filled: drag the fill handle down or right of the selection."]]);
      return;
    }
    state.anchor = { r: g.r1, c: g.c1 };
    state.ext = { r: g.r2, c: g.c2 };
    G.toolbar("fill_series", {}, { to: G.addr(end) }).then(function () { state.ext = end; G.show(); });
  }
  function onFocus(e) {
    var el = e.target;
    if (!isCell(el) || state.moving) return;
    var p = posOf(el);
    if (same(p, state.anchor)) return;
    state.anchor = p;
    state.ext = p;
    state.mode = "ready";
    state.start = el.value;
    el.select();
    G.show();
  }
  function onInput(e) {
    var el = e.target;
    if (!isCell(el)) return;
    var p = posOf(el);
    if (!same(p, state.anchor)) { state.anchor = p; state.ext = p; }
    if (state.mode === "ready") state.mode = "typing";
    var bar = document.getElementById("formula-bar");
    if (bar) bar.value = el.value;
  }

  /* ---------------------------------------------------------------- clipboard */
  function block() {
    var g = G.range(), lines = [];
    G.rows.forEach(function (r) {
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
    var text = block(), quoted = "'" + G.sheet.replace(/'/g, "''") + "'!" + G.rangeA1();
    e.clipboardData.setData("text/plain", text);
    sessionStorage.setItem("officegym-clip", JSON.stringify(
      { path: location.pathname, text: text, source: quoted, cut: !!cut }));
  }
  function onPaste(e) {
    /* Paste at the selection's first cell; the pasted range is selected after. */
    if (!isCell(e.target) || state.mode !== "ready" || !G.editable) return;
    e.preventDefault();
    var text = e.clipboardData.getData("text/plain"), clip = null;
    try { clip = JSON.parse(sessionStorage.getItem("officegym-clip") || "null"); } catch (err) { clip = null; }
    var data = new FormData();
    if (clip && clip.path === location.pathname && clip.text === text) {
      data.set("source", clip.source);
      if (clip.cut) { data.set("cut", "1"); sessionStorage.removeItem("officegym-clip"); }
    } else data.set("text", text);
    state.ext = state.anchor;
    G.send(G.form.dataset.paste, data, {}, { select: true });
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
  document.addEventListener("keydown", function (e) {
    /* Ctrl+Z / Ctrl+Y with no field focused (after a click on the page or a button):
     * the workbook's undo and redo, as in Sheets; fields keep their own. */
    var t = e.target, key = (e.key || "").toLowerCase();
    if (!(e.ctrlKey || e.metaKey) || (key !== "z" && key !== "y") || grid.contains(t)) return;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.isContentEditable) return;
    e.preventDefault();
    G.toolbar(key === "y" || e.shiftKey ? "redo" : "undo", { select: true });
  });
  /* nothing is dragged out of or dropped into a cell: a drag selects (see onDown) */
  grid.addEventListener("dragstart", function (e) { e.preventDefault(); });
  grid.addEventListener("drop", function (e) { e.preventDefault(); });
  grid.addEventListener("dblclick", function (e) { if (isCell(e.target)) edit(e.target); });
  grid.addEventListener("copy", function (e) { onCopy(e, false); });
  grid.addEventListener("cut", function (e) { onCopy(e, true); });
  grid.addEventListener("paste", onPaste);
  document.addEventListener("mouseup", onUp);
  var handle = document.getElementById("fill-handle");
  if (handle) handle.addEventListener("mousedown", onDown);
  var bar = document.getElementById("formula-bar");
  if (bar) bar.addEventListener("input", onBar);
  window.addEventListener("resize", function () { G.placeHandle(G.range()); });
  document.querySelectorAll("nav.paging a, nav.tabs a, #toggle-formulas, #filter-clear").forEach(function (a) {
    a.addEventListener("click", function (e) {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      G.follow(a);
    });
  });

  var first = (grid.dataset.sel || "A1").split(":");
  var a = G.parseAddr(first[0]), b = G.parseAddr(first[1] || first[0]), end = G.parseAddr(grid.dataset.end);
  if (a && b && end) { a = { r: a.r + b.r - end.r, c: a.c + b.c - end.c }; b = end; }  /* anchor: opposite the end */
  var shown = end ? cellAt(end) : a && cellAt(a);  /* the window shows the end a person moved */
  state.anchor = shown ? a : { r: G.rows[0] || 1, c: G.win.left };
  state.ext = shown ? b : state.anchor;  /* either may lie beyond the window */
  state.serverSel = G.rangeA1();
  state.start = (cellAt(state.anchor) || {}).value || "";
  var active = cellAt(state.anchor) || cellAt(state.ext);
  if (active && (!document.activeElement || document.activeElement === document.body)) {
    /* the active cell takes the keys, as in Sheets: arrows and Page Down go on from a new window */
    state.moving = true; active.focus({ preventScroll: true }); state.moving = false;
    active.select();
  }
  G.show();
  grid.dataset.ready = "1";
})();
