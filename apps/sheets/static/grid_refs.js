/* Click-to-reference, as in Sheets: while a formula is typed in a cell (its text starts
 * with "=" and the caret follows an operator, a parenthesis, a comma or the "="), a press
 * on another cell puts that cell's address in at the caret, and dragging from it makes
 * the address a range (A1:B3); pressing again replaces the reference just put in. The
 * referenced range is outlined; the edited cell keeps the keys. Anywhere else a press
 * commits the edit and selects the cell pressed (grid_input.js). Loaded after grid.js.
 */
(function () {
  "use strict";
  var G = window.OfficegymGrid;
  if (!G) return;
  var state = G.state, grid = G.grid;
  var ref = null;  /* the reference just put in: {from, to, start, end} (caret offsets) */
  var AFTER = /[=(,+\-*/^&<>:;]\s*$/;  /* what a reference may follow */

  function editing() {
    var el = state.anchor && state.mode !== "ready" ? G.cellAt(state.anchor) : null;
    return el && el.value.charAt(0) === "=" ? el : null;
  }
  function outline(g) {
    grid.querySelectorAll("td.ref").forEach(function (td) { td.classList.remove("ref"); });
    if (!g) return;
    for (var r = g.r1; r <= g.r2; r++) {
      for (var c = g.c1; c <= g.c2; c++) {
        var el = G.cellAt({ r: r, c: c });
        if (el) el.parentNode.classList.add("ref");
      }
    }
  }
  function put(el, from, to) {
    /* Write the reference of from..to over the one just put in (or at the caret). */
    var g = { r1: Math.min(from.r, to.r), c1: Math.min(from.c, to.c),
              r2: Math.max(from.r, to.r), c2: Math.max(from.c, to.c) };
    var text = G.rangeA1(g), v = el.value;
    el.value = v.slice(0, ref.start) + text + v.slice(ref.end);
    ref.end = ref.start + text.length;
    el.setSelectionRange(ref.end, ref.end);
    var bar = document.getElementById("formula-bar");
    if (bar) bar.value = el.value;
    outline(g);
  }
  function pick(p) {
    /* A press on cell `p` while editing: true when it became a reference. */
    var el = editing();
    if (!el) return false;
    var at = el.selectionStart, before = el.value.slice(0, at);
    var again = ref && ref.cell === el.id && ref.end === at && at === el.selectionEnd;
    if (!again) {
      if (at !== el.selectionEnd || !AFTER.test(before)) return false;
      ref = { cell: el.id, start: at, end: at };
    }
    ref.from = p;
    state.mode = "typing";  /* arrows commit and move again, as after typing */
    put(el, p, p);
    return true;
  }
  function extend(p) {
    var el = editing();
    if (el && ref) put(el, ref.from, p);
  }
  function forget() { ref = null; outline(null); }

  grid.addEventListener("input", function () { if (ref) { ref = null; outline(null); } });
  G.refs = { pick: pick, extend: extend, forget: forget };
})();
