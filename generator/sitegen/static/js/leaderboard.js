/* Sortable, filterable tables with the view kept in the query string (?sort=value&dir=desc&org=...&q=...).
   Rows are rendered on the server; this only reorders and hides them, so the page works without it. */
(function () {
  "use strict";
  var FILTERS = ["q", "org", "weights", "reasoning", "pmin", "pmax", "all"];

  function readState() {
    var p = new URLSearchParams(location.search), s = {};
    ["sort", "dir"].concat(FILTERS).forEach(function (k) { var v = p.get(k); if (v !== null && v !== "") s[k] = v; });
    return s;
  }

  function writeState(state) {
    var p = new URLSearchParams();
    Object.keys(state).sort().forEach(function (k) { if (state[k] !== undefined && state[k] !== "") p.set(k, state[k]); });
    var qs = p.toString();
    history.replaceState(null, "", location.pathname + (qs ? "?" + qs : "") + location.hash);
  }

  function setup(table) {
    var form = document.querySelector('form.lb-filters[data-table="' + table.id + '"]');
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.forEach(function (r, i) { r._order = i; });
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var state = readState();
    var count = form && form.querySelector(".lb-count");

    function colIndex(key) {
      for (var i = 0; i < headers.length; i++) if (headers[i].getAttribute("data-key") === key) return i;
      return -1;
    }

    function sortRows() {
      var key = state.sort || table.getAttribute("data-default-sort");
      var dir = state.dir || (key === state.sort ? "asc" : table.getAttribute("data-default-dir")) || "asc";
      var idx = colIndex(key);
      headers.forEach(function (h) { if (h.hasAttribute("aria-sort")) h.setAttribute("aria-sort", "none"); });
      if (idx < 0) return;
      var type = headers[idx].getAttribute("data-type");
      headers[idx].setAttribute("aria-sort", dir === "desc" ? "descending" : "ascending");
      var sign = dir === "desc" ? -1 : 1;
      var keyed = rows.map(function (r) {
        var c = r.cells[idx], v = c ? c.getAttribute("data-sort") : "";
        if (v === null) v = c ? c.textContent.trim() : "";
        return { r: r, empty: v === "", v: type === "num" ? parseFloat(v) : v.toLowerCase() };
      });
      keyed.sort(function (a, b) {
        if (a.empty !== b.empty) return a.empty ? 1 : -1;  /* unknown values always last */
        if (!a.empty && a.v !== b.v) {
          if (type === "num") return sign * (a.v - b.v);
          return sign * (a.v < b.v ? -1 : 1);
        }
        return a.r._order - b.r._order;
      });
      var frag = document.createDocumentFragment();
      keyed.forEach(function (k) { frag.appendChild(k.r); });
      tbody.appendChild(frag);
    }

    function filterRows() {
      var q = (state.q || "").toLowerCase().trim(), shown = 0;
      var pmin = state.pmin !== undefined ? parseFloat(state.pmin) : NaN;
      var pmax = state.pmax !== undefined ? parseFloat(state.pmax) : NaN;
      var hideUnranked = table.hasAttribute("data-hide-unranked") && state.all !== "1";
      rows.forEach(function (r) {
        var ok = true, d = r.dataset;
        if (hideUnranked && d.ranked === "0") ok = false;
        if (q && (d.search || "").indexOf(q) < 0) ok = false;
        if (ok && state.org && d.org !== state.org) ok = false;
        if (ok && state.weights && d.weights !== state.weights) ok = false;
        if (ok && state.reasoning && d.reasoning !== state.reasoning) ok = false;
        if (ok && (!isNaN(pmin) || !isNaN(pmax))) {
          var p = parseFloat(d.params);
          if (isNaN(p) || (!isNaN(pmin) && p < pmin) || (!isNaN(pmax) && p > pmax)) ok = false;
        }
        r.hidden = !ok;
        if (ok) shown++;
      });
      if (count) count.textContent = shown + " of " + rows.length + " shown";
    }

    function syncForm() {
      if (!form) return;
      FILTERS.forEach(function (k) {
        var el = form.elements[k];
        if (!el) return;
        if (el.type === "checkbox") el.checked = state[k] === "1"; else el.value = state[k] || "";
      });
    }

    function apply(push) {
      sortRows(); filterRows();
      if (push) writeState(state);
    }

    headers.forEach(function (h) {
      var btn = h.querySelector("button.lb-sort");
      if (!btn) return;
      btn.addEventListener("click", function () {
        var key = h.getAttribute("data-key");
        var current = state.sort || table.getAttribute("data-default-sort");
        var currentDir = state.dir || table.getAttribute("data-default-dir") || "asc";
        if (current === key) state.dir = currentDir === "asc" ? "desc" : "asc";
        else state.dir = h.getAttribute("data-type") === "num" && key !== "rank" ? "desc" : "asc";
        state.sort = key;
        apply(true);
      });
    });

    if (form) {
      form.addEventListener("input", function (e) {
        var el = e.target;
        if (FILTERS.indexOf(el.name) >= 0) { state[el.name] = el.type === "checkbox" ? (el.checked ? "1" : "") : el.value; apply(true); }
      });
      form.addEventListener("submit", function (e) { e.preventDefault(); });
      form.addEventListener("reset", function () {
        setTimeout(function () { FILTERS.forEach(function (k) { delete state[k]; }); delete state.sort; delete state.dir; apply(true); syncForm(); }, 0);
      });
    }
    syncForm();
    apply(false);
    table.classList.add("lb-ready");
  }

  /* Only the first table on a page owns the URL state. */
  var table = document.querySelector("table.lb-table");
  if (table) setup(table);
})();
