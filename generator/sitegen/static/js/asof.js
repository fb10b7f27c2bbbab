/* A board as of a past month end. The page lists the months (as ranges in data-known / data-released); choosing
   one fetches that month's pre-computed file from the JSON API (api/v1/indices/<id>/<yyyy-mm>.json, relative
   URLs, no server) and the names of its models (asof-names.json beside the page), and shows the board in place of
   today's. The month and view are kept in the query string (?asof=2025-09&view=released), one history entry per
   choice, so a link opens the same board and Back returns to the one before. Without this script the page is
   today's board. */
(function () {
  "use strict";
  var box = document.getElementById("asof");
  if (!box || !window.fetch || !window.URLSearchParams || !history.pushState) return;
  var VIEWS = {
    known: "as known on that date: results public on or before it, models released by then, the methodology in force then",
    released: "models released by that date, with every result we have now (the frontier-over-time view)"
  };
  var api = box.getAttribute("data-api");
  var root = new URL(api + "../../../../", location.href);
  var unit = box.getAttribute("data-unit");
  var monthSel = box.querySelector('select[name="asof"]'), viewSel = box.querySelector('select[name="view"]');
  var out = box.querySelector(".lb-asof-out");
  var table = document.getElementById(box.getAttribute("data-table"));
  var cache = {}, shown = 0;

  function expand(ranges) {  /* "2023-07/2023-09 2024-01/2024-01" -> every month in them */
    var set = {};
    (ranges || "").split(" ").forEach(function (r) {
      var ab = r.split("/");
      if (ab.length !== 2) return;
      var y = +ab[0].slice(0, 4), m = +ab[0].slice(5, 7);
      for (var guard = 0; guard < 1200; guard++) {
        var s = y + "-" + (m < 10 ? "0" : "") + m;
        set[s] = true;
        if (s >= ab[1]) break;
        m += 1; if (m > 12) { m = 1; y += 1; }
      }
    });
    return set;
  }
  var known = expand(box.getAttribute("data-known")), released = expand(box.getAttribute("data-released"));
  /* months whose version had been replaced by then: offered in the known view, which says by what */
  var superseded = expand(box.getAttribute("data-superseded"));
  var offered = { known: Object.assign({}, superseded, known), released: released };
  var listed = "";

  function fillMonths(view) {  /* only the months the chosen view has something for */
    if (listed === view) return;
    listed = view;
    while (monthSel.options.length > 1) monthSel.remove(1);
    Object.keys(offered[view]).sort().reverse().forEach(function (m) {
      var o = document.createElement("option");
      o.value = m; o.textContent = m;
      monthSel.appendChild(o);
    });
  }

  function nearest(m, view) {  /* the view's latest month on or before m, else its first */
    var all = Object.keys(offered[view]).sort(), best = "";
    all.forEach(function (x) { if (x <= m) best = x; });
    return best || all[0] || "";
  }
  var meta = document.querySelector(".lb-meta-counts"), metaToday = meta ? meta.textContent : "";

  /* what today's board shows besides the table; hidden while a past board is shown */
  var today = [table && table.closest(".md-typeset__scrollwrap"), document.querySelector('form.lb-filters[data-table="' + (table && table.id) + '"]'),
               document.querySelector(".lb-filter-unknown"), document.getElementById("left-out"),
               document.getElementById("not-attributed")]
    .concat(Array.prototype.slice.call(document.querySelectorAll(".lb-legend")));

  function json(url) {
    return cache[url] || (cache[url] = fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(url + ": HTTP " + r.status);
      return r.json();
    }));
  }

  /* a month's numbers as the build wrote them (asof/<yyyy-mm>.json beside the page: the site's one formatter,
     with today's table's decimals): [value, interval low, interval high] per model */
  function text(t, k) { return t && t[k] !== null && t[k] !== undefined ? t[k] : "–"; }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function readState() {
    var p = new URLSearchParams(location.search);
    var m = p.get("asof") || "", v = p.get("view") === "released" ? "released" : "known";
    return { month: /^\d{4}-\d{2}$/.test(m) ? (offered[v][m] ? m : nearest(m, v)) : "", view: v };
  }

  function writeState(s, replace) {
    var p = new URLSearchParams(location.search);
    if (s.month) p.set("asof", s.month); else p.delete("asof");
    if (s.month && s.view === "released") p.set("view", "released"); else p.delete("view");
    var qs = p.toString(), url = location.pathname + (qs ? "?" + qs : "") + location.hash;
    if (url !== location.pathname + location.search + location.hash) {
      if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
    }
  }

  function opened() {  /* a link to a month the view has nothing for opens the nearest month it has (URL corrected) */
    var s = readState();
    writeState(s, true);
    show(s);
  }

  function showToday() {
    shown += 1;
    out.textContent = "";
    today.forEach(function (e) { if (e) e.hidden = false; });
    if (meta) meta.textContent = metaToday;
    box.removeAttribute("data-shown");
  }

  function render(s, data, names, texts) {
    out.textContent = "";
    today.forEach(function (e) { if (e) e.hidden = true; });
    box.setAttribute("data-shown", s.month + " " + s.view);
    var head = el("p", "", "lb-asof-head");
    head.appendChild(el("strong", (s.view === "known" ? "As known on " : "Models released by ") + data.date));
    head.appendChild(document.createTextNode(": " + VIEWS[s.view] + "."));
    if (data.source_snapshot) {
      head.appendChild(document.createTextNode(" Pinned to the source snapshot " + data.source_snapshot +
        (data.snapshot_retrieved ? ", retrieved " + data.snapshot_retrieved : "") + "."));
    }
    if (data.version) head.appendChild(document.createTextNode(" Methodology version " + data.version + "."));
    if (s.view === "released") {
      head.appendChild(document.createTextNode(" Today's definition applies to every month, whatever version " +
        "was in force then."));
    }
    if (s.view === "known") {  /* "as known then": each month ranks the population it had */
      head.appendChild(document.createTextNode(" Computed as it would have been then: on the models and results of " +
        "that date, so populations (and values that depend on them) differ from today's board."));
    }
    out.appendChild(head);
    var board = data.views && data.views[s.view];
    if (meta) meta.textContent = "as of " + data.date + ": " + (board ? counts(board) : "no board");
    if (!board && s.view === "known" && data.superseded) {
      var gone = el("p", "Version " + data.version + " of this index was superseded on " + data.superseded.from +
        (data.superseded.by ? " by version " + data.superseded.version + ": " : "."), "lb-asof-none lb-asof-superseded");
      if (data.superseded.by) {
        var link = el("a", "its board as known on " + data.date);
        link.href = new URL("boards/" + data.superseded.by + "/?asof=" + s.month, root).href;
        gone.appendChild(link);
        gone.appendChild(document.createTextNode("."));
      }
      out.appendChild(gone);
      return;
    }
    if (!board) {
      var other = s.view === "known" ? "released" : "known";
      var p = el("p", s.view === "known"
        ? "This board had no results public by then, or its methodology version was not yet in force. "
        : "No model released by then has a value on this board. ", "lb-asof-none");
      if (data.views && data.views[other]) {
        var b = el("button", "Show " + (other === "released" ? "the models released by then" : "it as known on that date"), "md-button");
        b.type = "button";
        b.addEventListener("click", function () { viewSel.value = other; choose(); });
        p.appendChild(b);
      }
      out.appendChild(p);
      return;
    }
    var rows = board.rows || [];
    var ch = data.changes;
    var summary = counts(board) + " with a value.";
    if (s.view === "known" && ch) {
      summary += " Since the end of the month before: " + (ch.entered || []).length + " entered, " +
        (ch.left || []).length + " left, " + (ch.moved || []).length + " moved.";
    }
    out.appendChild(el("p", summary, "lb-legend"));
    if (s.view === "known" && ch) {
      [["entered", "Entered"], ["left", "Left"]].forEach(function (k) {
        var list = (ch[k[0]] || []).map(function (c) { return (names[c.model] || [c.model])[0]; });
        if (!list.length) return;
        out.appendChild(el("p", k[1] + " that month: " + list.slice(0, 8).join(", ") +
          (list.length > 8 ? " and " + (list.length - 8) + " more." : "."), "lb-legend lb-asof-changes"));
      });
    }
    var wrap = el("div", undefined, "md-typeset__scrollwrap"), inner = el("div", undefined, "md-typeset__table lb-wrap");
    var t = el("table", undefined, "lb-table lb-fixed lb-asof-table");
    t.appendChild(el("caption", "Board as of " + data.date + ", " + (s.view === "known" ? "as known then" : "models released by then"), "lb-sr"));
    var tr = el("tr");
    var tiers = rows.some(function (r) { return r.tier !== undefined; });
    var intervals = rows.some(function (r) { return r.interval !== undefined; });
    /* the board's columns, in its order (board.html): the value right after the name */
    [["#", "rank"]].concat(tiers ? [["Range (tier)", "tier"]] : [], [["Model", "name"], [unit, "value"]],
                          intervals ? [["Interval", ""]] : [], [["Organisation", "org"], ["Status", "status"]])
      .forEach(function (h) { var th = el("th", h[0]); th.scope = "col"; if (h[1]) th.setAttribute("data-key", h[1]); tr.appendChild(th); });
    t.appendChild(el("thead")).appendChild(tr);
    var body = el("tbody");
    rows.forEach(function (r) {
      var row = el("tr"), name = names[r.model] || [r.model, ""], t = ((texts || {})[s.view] || {})[r.model];
      row.appendChild(el("td", r.rank === null || r.rank === undefined ? "–" : String(r.rank)));
      if (tiers) {  /* the rank range shown, as on the board: "3–7 (1)", the tier in brackets */
        var ri = r.rank_interval, range = ri ? (ri[0] === ri[1] ? String(ri[0]) : ri[0] + "–" + ri[1]) : "";
        var tier = r.tier === undefined || r.tier === null ? "" : "(" + r.tier + ")";
        row.appendChild(el("td", [range, tier].filter(Boolean).join(" ") || "–"));
      }
      var th = el("th");
      th.scope = "row";
      if (name[1]) {
        var a = el("a");
        nameInto(a, name[0]);
        a.href = new URL(name[1], root).href;
        th.appendChild(a);
      } else nameInto(th, name[0]);
      row.appendChild(th);
      row.appendChild(el("td", r.value === null || r.value === undefined ? "–" : text(t, 0), "v"));
      if (intervals) {
        row.appendChild(el("td", r.interval ? text(t, 1) + "–" + text(t, 2) : "–", "iv"));
      }
      row.appendChild(el("td", name[2] || ""));
      row.appendChild(el("td", r.status || "", "st"));
      body.appendChild(row);
    });
    t.appendChild(body);
    inner.appendChild(t); wrap.appendChild(inner); out.appendChild(wrap);
  }

  /* a name as the board shows it (render.split_name): the product, then its configuration in a chip; the
     brackets stay in the text for screen readers and copying, hidden on screen */
  function nameInto(parent, name) {
    var i = name.indexOf(" ("), tail = i > 0 && name.slice(0, i).trim() ? name.slice(i + 1).trim() : "";
    if (!tail) { parent.appendChild(document.createTextNode(name)); return; }
    var one = /^\([^()]*\)$/.test(tail), chip = el("i");
    parent.appendChild(document.createTextNode(name.slice(0, i) + " "));
    if (one) chip.appendChild(el("span", "(", "lb-sr"));
    chip.appendChild(document.createTextNode(one ? tail.slice(1, -1) : tail));
    if (one) chip.appendChild(el("span", ")", "lb-sr"));
    parent.appendChild(chip);
  }

  function counts(board) {
    var rows = board.rows || [];
    var ranked = rows.filter(function (r) { return r.rank !== null && r.rank !== undefined; }).length;
    return ranked + " ranked of " + rows.length + " models";
  }

  function show(s) {
    fillMonths(s.view);
    monthSel.value = s.month;
    viewSel.value = s.view;
    if (!s.month) { showToday(); return; }
    var mine = ++shown;
    out.textContent = "Loading the board as of " + s.month + "…";
    Promise.all([json(api + s.month + ".json"), json("asof-names.json"), json("asof/" + s.month + ".json")]).then(function (got) {
      if (mine === shown) render(s, got[0], got[1], got[2]);
    }).catch(function (err) {
      if (mine !== shown) return;
      out.textContent = "The board as of " + s.month + " could not be loaded (" + err.message + ").";
    });
  }

  function choose() {
    var v = viewSel.value === "released" ? "released" : "known";
    var s = { month: monthSel.value && !offered[v][monthSel.value] ? nearest(monthSel.value, v) : monthSel.value,
              view: v };
    writeState(s);
    show(s);
  }

  monthSel.addEventListener("change", choose);
  viewSel.addEventListener("change", choose);
  window.addEventListener("popstate", opened);
  box.hidden = false;
  if (box.closest("details")) box.closest("details").hidden = false;  /* the board's fold around it (board.html) */
  opened();
})();
