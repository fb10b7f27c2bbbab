/* Sortable, filterable tables with the view kept in the query string (?sort=value&dir=desc&org=...&q=...), one
   history entry per change so Back undoes it; which of a board's folds (details[data-fold]) are open is kept there
   too (?open=about,filters), replacing the entry. Rows are rendered on the server; this only reorders and hides them,
   so the page works without it. On leaderboards, each component cell's provenance (how it was obtained and why,
   its source and retrieval date) comes from the board's cells.json and shows on hover, focus and tap. */
(function () {
  "use strict";
  var FILTERS = ["q", "org", "weights", "reasoning", "pmin", "pmax", "all"];
  var HOW = { o: "Observed", i: "Imputed", d: "Derived", p: "Published by the source", m: "Missing", x: "Excluded" };

  function readState() {
    var p = new URLSearchParams(location.search), s = {};
    ["sort", "dir", "open"].concat(FILTERS).forEach(function (k) { var v = p.get(k); if (v !== null && v !== "") s[k] = v; });
    if (s.reasoning === "unknown") s.reasoning = "not known";  /* the option's value before "not stated" was added */
    return s;
  }

  function writeState(state, push) {
    var p = new URLSearchParams(), now = new URLSearchParams(location.search);
    ["asof", "view"].forEach(function (k) { if (now.has(k)) p.set(k, now.get(k)); });  /* asof.js's */
    Object.keys(state).sort().forEach(function (k) { if (state[k] !== undefined && state[k] !== "") p.set(k, state[k]); });
    var qs = p.toString(), url = location.pathname + (qs ? "?" + qs : "") + location.hash;
    if (url === location.pathname + location.search + location.hash) return;
    if (push) history.pushState(null, "", url); else history.replaceState(null, "", url);
  }

  /* Search terms split on dots, dashes, slashes and brackets: "gpt 5.1" and "gpt-5.1" both find GPT-5.1. */
  function words(s) { return (s || "").toLowerCase().replace(/[.\-_/()\[\],:;]+/g, " ").replace(/\s+/g, " ").trim(); }

  function numberOf(text) {
    var f = /^(\d+)\/(\d+)$/.exec(text);  /* a coverage such as "2/4" sorts as its share */
    if (f) return +f[2] ? f[1] / f[2] : NaN;
    var m = /-?[\d,]*\.?\d+(?:e[-+]?\d+)?/i.exec(text.replace(/\u2212/g, "-"));
    return m ? parseFloat(m[0].replace(/,/g, "")) : NaN;
  }

  function setup(table) {
    var form = document.querySelector('form.lb-filters[data-table="' + table.id + '"]');
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.forEach(function (r, i) { r._order = i; });
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var state = readState();
    var count = form && form.querySelector(".lb-count");
    var hides = document.querySelector('.lb-hides[data-table="' + table.id + '"]');
    /* A long board draws the first STEP rows a reader can see and STEP more each time the last one drawn comes near
       the bottom of the table's scrolled box; "Show all" (and printing) draws every row. Rows not drawn are kept out
       of the page (while it loads, the server's lb-later class hides them), so they cost no style, layout or DOM
       work: loading, sorting and filtering take the same time on a board of any length. */
    var long = table.classList.contains("lb-long"), STEP = 30, limit = STEP, order = rows.slice();
    var more = null, watcher = null, lastShown = null;
    var keys = {};  /* column index -> sort keys by row order, read from the cells once */
    var empty = document.createElement("p");
    empty.className = "lb-empty";
    empty.setAttribute("role", "status");
    empty.hidden = true;
    empty.textContent = "No model matches these filters. ";
    var undo = document.createElement("button");
    undo.type = "button"; undo.className = "md-button"; undo.textContent = "Clear the filters";
    empty.appendChild(undo);
    var box = table.closest(".md-typeset__scrollwrap") || table;
    box.parentNode.insertBefore(empty, box.nextSibling);

    function colIndex(key) {
      for (var i = 0; i < headers.length; i++) if (headers[i].getAttribute("data-key") === key) return i;
      return -1;
    }
    var nameIdx = colIndex("name"), orgIdx = colIndex("org");

    function sortKeys(idx, type) {
      if (keys[idx]) return keys[idx];
      var out = new Array(rows.length);
      rows.forEach(function (r) {
        var c = r.cells[idx], v = c ? c.getAttribute("data-sort") : "";
        if (v === null) v = c.textContent.trim();
        var k = type === "num" ? (v === "" ? NaN : numberOf(v)) : v.toLowerCase();
        out[r._order] = { r: r, empty: v === "" || v === "–" || (type === "num" && isNaN(k)), v: k };
      });
      return (keys[idx] = out);
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
      var keyed = sortKeys(idx, type).slice();
      keyed.sort(function (a, b) {
        if (a.empty !== b.empty) return a.empty ? 1 : -1;  /* unknown values always last */
        if (!a.empty && a.v !== b.v) {
          if (type === "num") return sign * (a.v - b.v);
          return sign * (a.v < b.v ? -1 : 1);
        }
        return a.r._order - b.r._order;
      });
      var changed = keyed.some(function (k, i) { return order[i] !== k.r; });
      if (!changed) return;
      order = keyed.map(function (k) { return k.r; });
      if (long) return;  /* draw() puts the rows in */
      /* the rows move inside a tbody taken out of the page: one removal and one insertion, not one per row */
      var parent = tbody.parentNode, next = tbody.nextSibling;
      parent.removeChild(tbody);
      var frag = document.createDocumentFragment();
      order.forEach(function (r) { frag.appendChild(r); });
      tbody.appendChild(frag);
      parent.insertBefore(tbody, next);
    }

    /* a long board's drawn rows: the first `limit` a reader can see, in order; reads no layout */
    function draw() {
      var all = table.classList.contains("lb-all"), list = [], total = 0;
      order.forEach(function (r) {
        if (r.hidden) return;
        if (all || total < limit) list.push(r);
        total++;
      });
      var same = list.length === tbody.children.length && list.every(function (r, i) { return tbody.children[i] === r; });
      if (!same) {
        list.forEach(function (r) { if (r.classList.contains("lb-later")) r.classList.remove("lb-later"); });
        tbody.replaceChildren.apply(tbody, list);
      }
      var rest = !all && total > limit;
      more.hidden = !rest;
      more.firstChild.textContent = "Showing the first " + limit + " of " + total + " rows; more appear as you scroll. ";
      var last = rest ? list[list.length - 1] : null;
      if (watcher && last !== lastShown) {
        if (lastShown) watcher.unobserve(lastShown);
        lastShown = last;
        if (last) watcher.observe(last);
      }
    }

    function reveal(all) {
      if (all) table.classList.add("lb-all"); else limit += STEP;
      draw();
    }

    if (long) {
      more = document.createElement("p");
      more.className = "lb-more-rows";
      more.appendChild(document.createTextNode(""));
      var showAll = document.createElement("button");
      showAll.type = "button"; showAll.className = "md-button"; showAll.textContent = "Show all rows";
      showAll.addEventListener("click", function () { reveal(true); });
      more.appendChild(showAll);
      box.parentNode.insertBefore(more, box.nextSibling);
      window.addEventListener("beforeprint", function () { reveal(true); });
      if (window.IntersectionObserver) {
        /* the last row drawn nears the bottom of the table's box (which scrolls): draw more */
        watcher = new IntersectionObserver(function (entries) {
          if (entries.some(function (e) { return e.isIntersecting; })) reveal(false);
        }, { root: table.closest(".lb-wrap"), rootMargin: "0px 0px 600px 0px" });
      }
    }

    function hay(r) {
      if (r._hay === undefined) {
        var a = r.cells[nameIdx] && r.cells[nameIdx].querySelector("a");
        r._hay = " " + words([r.cells[nameIdx] ? r.cells[nameIdx].textContent : "", orgIdx >= 0 ? r.cells[orgIdx].textContent : "",
          a ? decodeURIComponent(a.getAttribute("href")).replace(/^(\.\.\/)*models\//, "") : "", r.getAttribute("data-aka") || ""].join(" ")) + " ";
      }
      return r._hay;
    }

    function filterRows() {
      /* each word typed must start a word of the row; dots and dashes inside it split it into a phrase */
      var terms = (state.q || "").split(/\s+/).map(words).filter(Boolean), shown = 0;
      var pmin = state.pmin !== undefined ? parseFloat(state.pmin) : NaN;
      var pmax = state.pmax !== undefined ? parseFloat(state.pmax) : NaN;
      var hideUnranked = table.hasAttribute("data-hide-unranked") && state.all !== "1";
      var hidden = { weights: {}, reasoning: {}, params: {} };  /* what each active filter hides, by the row's value */
      function tally(k, v) { hidden[k][v] = (hidden[k][v] || 0) + 1; }
      rows.forEach(function (r) {
        var ok = true;
        if (hideUnranked && r.getAttribute("data-ranked") === "0") ok = false;
        var listed = ok;
        if (ok && state.org && (orgIdx < 0 || r.cells[orgIdx].textContent !== state.org)) ok = false;
        var w = r.getAttribute("data-weights") || "unknown", m = r.getAttribute("data-reasoning") || "not known";
        if (listed && state.weights && w !== state.weights) { ok = false; tally("weights", w === "unknown" ? "not known" : w); }
        if (listed && state.reasoning && m !== state.reasoning) { ok = false; tally("reasoning", m); }
        if (listed && (!isNaN(pmin) || !isNaN(pmax))) {
          var p = parseFloat(r.getAttribute("data-params"));
          if (isNaN(p)) { ok = false; tally("params", "not known"); }
          else if ((!isNaN(pmin) && p < pmin) || (!isNaN(pmax) && p > pmax)) { ok = false; tally("params", "outside the range"); }
        }
        if (ok && terms.length) {
          var h = hay(r);
          for (var t = 0; t < terms.length && ok; t++) if (h.indexOf(" " + terms[t]) < 0) ok = false;
        }
        if (r.hidden !== !ok) r.hidden = !ok;
        if (ok) shown++;
      });
      if (long) draw();
      if (count) count.textContent = shown + " of " + rows.length + " shown";
      if (hides) {
        var parts = [];
        [["reasoning", "reasoning"], ["weights", "weights"], ["params", "parameters"]].forEach(function (f) {
          var n = hidden[f[0]], keys = Object.keys(n).sort();
          if (keys.length) parts.push("the " + f[1] + " filter hides " + keys.map(function (k) { return n[k] + " " + k; }).join(", "));
        });
        hides.textContent = parts.length ? "Hidden: " + parts.join("; ") + "." : "";
        hides.hidden = !parts.length;
      }
      empty.hidden = shown > 0;
      table.classList.toggle("lb-none", shown === 0);
    }

    function syncForm() {
      if (!form) return;
      FILTERS.forEach(function (k) {
        var el = form.elements[k];
        if (!el) return;
        if (el.type === "checkbox") el.checked = state[k] === "1"; else el.value = state[k] || "";
      });
    }

    function apply(write, push) {
      sortRows(); filterRows();
      if (write) writeState(state, push);
      if (cells) cells.reset();
    }

    headers.forEach(function (h) {
      var btn = h.querySelector("button.lb-sort");
      if (!btn) return;
      btn.addEventListener("click", function () {
        var t0 = performance.now();
        var key = h.getAttribute("data-key");
        var current = state.sort || table.getAttribute("data-default-sort");
        var currentDir = state.dir || table.getAttribute("data-default-dir") || "asc";
        if (current === key) state.dir = currentDir === "asc" ? "desc" : "asc";
        else state.dir = h.getAttribute("data-type") === "num" && key !== "rank" ? "desc" : "asc";
        state.sort = key;
        apply(true, true);
        table.setAttribute("data-last-ms", (performance.now() - t0).toFixed(1));
      });
    });

    var typing = null;  /* the text field being typed in: its first keystroke adds a history entry, the rest replace it */
    function clearFilters() {
      FILTERS.forEach(function (k) { delete state[k]; }); delete state.sort; delete state.dir;
      typing = null; apply(true, true); syncForm();
    }
    undo.addEventListener("click", clearFilters);
    if (form) {
      form.addEventListener("input", function (e) {
        var el = e.target;
        if (FILTERS.indexOf(el.name) < 0) return;
        var t0 = performance.now();
        state[el.name] = el.type === "checkbox" ? (el.checked ? "1" : "") : el.value;
        var text = el.tagName === "INPUT" && el.type !== "checkbox";
        apply(true, !(text && typing === el.name));
        typing = text ? el.name : null;
        table.setAttribute("data-last-ms", (performance.now() - t0).toFixed(1));
      });
      form.addEventListener("focusout", function () { typing = null; });
      form.addEventListener("submit", function (e) { e.preventDefault(); });
      form.addEventListener("reset", function (e) { e.preventDefault(); clearFilters(); });
    }
    /* folds: open as the URL says, and the filters (the date control) whenever a filter (a month) is in it */
    var folds = Array.prototype.slice.call(document.querySelectorAll("details[data-fold]"));
    function foldKey(d) { return d.getAttribute("data-fold"); }
    function listed() { return (state.open || "").split(","); }
    /* a wide screen shows the charts (after the table) until the address says which folds are open */
    var wide = window.matchMedia && window.matchMedia("(min-width: 76.25em)").matches;
    function implied(k) {
      if (k === "filters") return FILTERS.some(function (f) { return state[f] !== undefined; });
      if (k === "charts") return wide && listed().indexOf("-charts") < 0;  /* "-charts": closed by the reader */
      return k === "asof" && new URLSearchParams(location.search).has("asof");
    }
    function openFolds() {
      folds.forEach(function (d) {
        var k = foldKey(d), o = listed().indexOf(k) >= 0 || implied(k);
        d._set = o;  /* the toggle event this fires is the script's, not the reader's */
        if (d.open !== o) d.open = o;
      });
    }
    folds.forEach(function (d) {
      d.addEventListener("toggle", function () {
        if (d.open === d._set) return;
        d._set = d.open;
        var was = listed(), keys = folds.filter(function (x) {
          var k = foldKey(x);
          return x.open && (x === d || was.indexOf(k) >= 0 || !implied(k));
        }).map(foldKey);
        if (wide && folds.some(function (x) { return foldKey(x) === "charts" && !x.open; })) keys.push("-charts");
        if (keys.length) state.open = keys.join(","); else delete state.open;
        writeState(state, false);
      });
    });
    window.addEventListener("popstate", function () { state = readState(); typing = null; syncForm(); apply(false); openFolds(); });

    var cells = table.hasAttribute("data-cells") ? provenance(table, rows, function () { reveal(false); }) : null;
    measurementDetails(table);
    syncForm();
    apply(false);
    openFolds();
    table.classList.add("lb-ready");
    if (performance.mark) performance.mark("lb-ready");

  }

  /* A composite row's measurement-only interval sits behind the row's details: the page carries it as data-m on
     the total interval's cell (a <details> per row in the HTML would put a long board over its size budget), and
     the cell becomes a disclosure here: the total as its summary, "measurement only: ..." inside. */
  function measurementDetails(table) {
    Array.prototype.forEach.call(table.querySelectorAll("td.iv[data-m]"), function (td) {
      var had = td.querySelector("details");  /* the cell's note already opens from it: the measurement joins it */
      if (had) { had.appendChild(document.createTextNode("; measurement only: " + td.getAttribute("data-m"))); return; }
      var d = document.createElement("details"), s = document.createElement("summary");
      d.className = "lb-rowd";
      while (td.firstChild) s.appendChild(td.firstChild);
      d.appendChild(s);
      d.appendChild(document.createTextNode("measurement only: " + td.getAttribute("data-m")));
      td.appendChild(d);
    });
  }

  /* Provenance of component cells: one shared popup, filled from cells.json; keyboard users move between cells
     with the arrow keys (one tab stop for the whole table). */
  function provenance(table, rows, onMore) {
    var first = parseInt(table.getAttribute("data-first-cell"), 10);
    var end = first + table.tHead.querySelectorAll("th[data-key^='c']").length - table.tHead.querySelectorAll("th[data-key='coverage']").length;
    var data = null, current = null, pinned = false, hideTimer = 0;
    var tip = document.createElement("div");
    tip.id = table.id + "-tip"; tip.className = "lb-pop md-typeset"; tip.setAttribute("role", "tooltip"); tip.hidden = true;
    document.body.appendChild(tip);
    var loading = fetch(table.getAttribute("data-cells"), { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (d) { data = d; table.classList.add("lb-cells-ready"); if (performance.mark) performance.mark("lb-cells"); if (current) fill(current); })
      .catch(function () { data = { error: true }; if (current) fill(current); });

    function isCell(td) { return td && td.tagName === "TD" && td.cellIndex >= first && td.cellIndex < end && td.parentNode.parentNode === table.tBodies[0]; }

    function line(label, node) {
      var p = document.createElement("p");
      if (label) { var b = document.createElement("strong"); b.textContent = label + " "; p.appendChild(b); }
      p.appendChild(typeof node === "string" ? document.createTextNode(node) : node);
      tip.appendChild(p);
    }

    function fill(td) {
      var col = td.cellIndex - first, name = table.tHead.rows[0].cells[td.cellIndex].textContent.replace(/ ?[⇅▲▼]$/, "");
      var head = td.parentNode.querySelector("th"), model = head ? head.textContent : "";
      tip.textContent = "";
      line("", model + " · " + name);
      if (!data) { line("", "Loading provenance…"); return; }
      if (data.error) { line("", "Provenance could not be loaded; the model's page lists it."); return; }
      var c = (data.rows[td.parentNode._order] || [null, []])[1][col] || ["m"];
      var how = HOW[c[0]] || c[0];
      var note = c[1] !== undefined && c[1] !== null ? data.notes[c[1]] : "";
      line("How:", note || how);
      if (c[4] !== undefined && c[4] !== null) line("Benchmark score:", String(c[4]));  /* written at build time */
      if (c[2] !== undefined && c[2] !== null) {
        var s = data.sources[c[2]], a;
        if (s[1]) { a = document.createElement("a"); a.href = s[1]; a.rel = "noopener nofollow"; a.textContent = s[0]; }
        line("Source:", a || s[0]);
      }
      if (c[3] !== undefined && c[3] !== null) line("Retrieved:", data.dates[c[3]]);
    }

    function place(td) {
      var r = td.getBoundingClientRect(), w = tip.offsetWidth, h = tip.offsetHeight;
      var left = Math.max(4, Math.min(r.left, window.innerWidth - w - 4));
      var top = r.bottom + 4 + h > window.innerHeight ? r.top - h - 4 : r.bottom + 4;
      tip.style.left = left + "px"; tip.style.top = Math.max(4, top) + "px";
    }

    function show(td, pin) {
      clearTimeout(hideTimer);
      if (current && current !== td) current.classList.remove("lb-on");
      current = td; pinned = !!pin;
      td.classList.add("lb-on");
      fill(td); tip.hidden = false; place(td);
    }

    function hide() {
      clearTimeout(hideTimer);
      if (current) current.classList.remove("lb-on");
      current = null; pinned = false; tip.hidden = true;
    }

    var tbody = table.tBodies[0];
    tbody.addEventListener("mouseover", function (e) {
      var td = e.target.closest("td");
      if (isCell(td) && !pinned) show(td, false);
    });
    tbody.addEventListener("mouseleave", function () { if (!pinned) hideTimer = setTimeout(hide, 250); });
    tip.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    tip.addEventListener("mouseleave", function () { if (!pinned) hide(); });
    tbody.addEventListener("click", function (e) {
      var td = e.target.closest("td");
      if (!isCell(td)) return;
      if (current === td && pinned) hide(); else { focusCell(td, false); show(td, true); }
    });
    document.addEventListener("click", function (e) {
      if (current && !tip.contains(e.target) && !tbody.contains(e.target)) hide();
    });
    window.addEventListener("scroll", function () { if (current) place(current); }, { passive: true });
    var wrap = table.closest(".lb-wrap");
    if (wrap) wrap.addEventListener("scroll", function () { if (current) place(current); }, { passive: true });

    /* roving tab stop */
    var stop = null;
    function focusCell(td, move) {
      if (stop && stop !== td) { stop.removeAttribute("tabindex"); stop.removeAttribute("aria-describedby"); }
      stop = td; td.tabIndex = 0; td.setAttribute("aria-describedby", tip.id);
      if (move) td.focus();
    }
    function visibleRow(tr, step) {
      do {
        var n = step > 0 ? tr.nextElementSibling : tr.previousElementSibling;
        if (!n && step > 0) { onMore(); n = tr.nextElementSibling; }  /* the last row drawn: draw more */
        tr = n;
      } while (tr && tr.hidden);
      return tr;
    }
    tbody.addEventListener("focusin", function (e) { if (isCell(e.target)) { focusCell(e.target, false); show(e.target, true); } });
    tbody.addEventListener("focusout", function (e) {
      if (!tip.contains(e.relatedTarget) && !(e.relatedTarget && isCell(e.relatedTarget))) hide();
    });
    tbody.addEventListener("keydown", function (e) {
      var td = e.target;
      if (!isCell(td)) return;
      var tr = td.parentNode, next = null, i = td.cellIndex;
      if (e.key === "ArrowRight") next = tr.cells[i + 1];
      else if (e.key === "ArrowLeft") next = i > first ? tr.cells[i - 1] : null;
      else if (e.key === "ArrowDown") { var d = visibleRow(tr, 1); next = d && d.cells[i]; }
      else if (e.key === "ArrowUp") { var u = visibleRow(tr, -1); next = u && u.cells[i]; }
      else if (e.key === "Home") next = tr.cells[first];
      else if (e.key === "End") next = tr.cells[end - 1];
      else if (e.key === "Escape") { hide(); return; }
      else return;
      e.preventDefault();
      if (isCell(next)) { focusCell(next, true); next.scrollIntoView({ block: "nearest", inline: "nearest" }); place(next); }
    });

    return {
      loading: loading,
      reset: function () {
        hide();
        var tr = tbody.rows[0];
        while (tr && tr.hidden) tr = tr.nextElementSibling;
        if (stop && !stop.parentNode.hidden) return;
        if (tr && isCell(tr.cells[first])) focusCell(tr.cells[first], false);
      }
    };
  }

  /* Only the first table on a page owns the URL state. mkdocs-material's bundle, which runs after this script,
     opens its search dialog on any ?q= in the address; a board's ?q= is its own filter, so the address leaves q
     out until the bundle has started (the load event) and then gets it back. */
  var table = document.querySelector("table.lb-table");
  if (table) {
    setup(table);
    var q = new URLSearchParams(location.search);
    if (q.has("q")) {
      var back = location.href;
      q.delete("q");
      var qs = q.toString(), bare = location.pathname + (qs ? "?" + qs : "") + location.hash;
      history.replaceState(history.state, "", bare);
      var stripped = location.href;  /* a reader's change before the load event writes its own address: keep that */
      window.addEventListener("load", function () {
        setTimeout(function () { if (location.href === stripped) history.replaceState(history.state, "", back); }, 0);
      });
    }
  }
})();
