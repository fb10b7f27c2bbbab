/* Compare two to four models side by side from the JSON embedded in the page; the choice lives in ?m=a,b. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("compare-data").textContent);
  /* the build leaves out empty entries (site/__init__.py, _compare_data): each column back to one entry per model */
  function dense(o, n, empty) { var a = new Array(n); for (var i = 0; i < n; i++) a[i] = o[i] === undefined ? empty : o[i]; return a; }
  var n = data.models.length;
  data.boards.forEach(function (b) { b[2] = dense(b[2], n, null); b[5] = dense(b[5], n, ""); });
  data.benchmarks.forEach(function (b) {
    b[2] = dense(b[2], n, null);
    b[5] = dense(b[5], n, null).map(function (p) { return p && [p[0], p[1], data.links[p[2]]]; });
  });
  var form = document.getElementById("compare-form");
  var out = document.getElementById("compare-out");
  var byId = Object.create(null), byLabel = Object.create(null);  /* no prototype: ?m=__proto__ names no model */
  data.models.forEach(function (m, i) { byId[m[0]] = i; byLabel[label(m)] = i; });

  function label(m) { return m[1] + " — " + m[0]; }

  var list = document.getElementById("compare-models");
  data.models.forEach(function (m) { var o = document.createElement("option"); o.value = label(m); list.appendChild(o); });

  function chosen() {
    var ids = (new URLSearchParams(location.search).get("m") || "").split(",").filter(function (x) { return x in byId; });
    return ids.slice(0, 4);
  }

  /* every number arrives as a cell [number, text]: the text is what the build's one formatter wrote
     (numbers.number), shown as it is; the number only decides which value is best */
  function value(c) { return Array.isArray(c) ? c[0] : c; }
  function cellText(c) {
    if (c === null || c === undefined || c === "unknown") return "–";
    return Array.isArray(c) ? c[1] : String(c);
  }

  /* "A is ahead of B in 97% of simulations": counted here from each model's simulated rank in every one of the
     build's seeded simulations (site/ahead.py), one small file per model, fetched only for the models being
     compared. In a draw the model with the smaller rank is ahead; equal ranks are a tie. */
  var sims = {}, pending = {}, current = [], decoded = {};
  function fetchSims(idx) {
    idx.forEach(function (i) {
      if (data.models[i][8] !== 1 || i in sims || pending[i]) return;
      pending[i] = true;
      fetch("ahead/" + i + ".json").then(function (r) { return r.ok ? r.json() : null; })
        .catch(function () { return null; })
        .then(function (d) {
          sims[i] = d && d.model === data.models[i][0] ? d : null;
          delete pending[i];
          render(current);
        });
    });
  }
  /* model i's rank in each of the n simulations of board b, or null: an entry is [best rank, bytes per draw,
     base64 of each draw's offset from the best rank, little-endian] */
  function ranks(bid, n, i) {
    var e = sims[i] && sims[i].boards[bid], key = bid + " " + i;
    if (!e) return null;
    if (!(key in decoded)) {
      var bytes = atob(e[2]), w = e[1], out = bytes.length === n * w ? new Array(n) : null;
      for (var d = 0; out && d < n; d++) {
        var v = 0;
        for (var b = w - 1; b >= 0; b--) v = v * 256 + bytes.charCodeAt(d * w + b);
        out[d] = e[0] + v;
      }
      decoded[key] = out;
    }
    return decoded[key];
  }
  /* [simulations i is ahead of k, simulations k is ahead of i] on board b (n simulations), or null */
  function aheadCounts(bid, n, i, k) {
    var ri = ranks(bid, n, i), rk = ranks(bid, n, k);
    if (!ri || !rk) return null;
    var c = [0, 0];
    for (var d = 0; d < n; d++) {
      if (ri[d] < rk[d]) c[0]++;
      else if (rk[d] < ri[d]) c[1]++;
    }
    return c;
  }
  function pct(c, n) {
    var v = 100 * c / n, t = Math.round(v);
    return ((t === 100 && c < n) || (t === 0 && c > 0) ? v.toFixed(1) : String(t)) + "%";
  }
  function aheadText(i, k, c, n) {
    var lead = c[0] >= c[1] ? [i, k, c[0], c[1]] : [k, i, c[1], c[0]];
    var a = data.models[lead[0]][1], b = data.models[lead[1]][1], ties = n - c[0] - c[1];
    var text = a + " is ahead of " + b + (lead[2] === n ? " in all " + n.toLocaleString("en-US") + " simulations"
      : " in " + pct(lead[2], n) + " of " + n.toLocaleString("en-US") + " simulations");
    var rest = [];
    if (lead[3]) rest.push(b + " ahead in " + pct(lead[3], n));
    if (ties) rest.push("tied in " + pct(ties, n));
    return text + (rest.length ? " (" + rest.join(", ") + ")" : "");
  }

  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }

  function render(ids) {
    current = ids;
    out.textContent = "";
    if (ids.length === 0) { out.appendChild(el("p", "Choose models above to compare them.")); return; }
    var idx = ids.map(function (id) { return byId[id]; });
    fetchSims(idx);
    var table = el("table", undefined, "lb-compare");
    var thead = table.createTHead(), hr = thead.insertRow();
    var corner = el("th"); corner.scope = "col"; corner.appendChild(el("span", "What is compared", "lb-sr"));  /* a header is never empty */
    hr.appendChild(corner);
    idx.forEach(function (i) {
      var th = el("th"); th.scope = "col";
      var m = data.models[i];
      if (m[3]) { var a = el("a", m[1]); a.href = "../" + m[3]; th.appendChild(a); } else th.textContent = m[1];
      th.appendChild(el("div", m[2] || "", "lb-sub"));
      hr.appendChild(th);
    });
    var tb = table.createTBody();
    function section(title) { var r = tb.insertRow(); var c = el("th", title, "lb-section"); c.colSpan = idx.length + 1; r.appendChild(c); }
    /* higher: true/false marks the best value in bold (lower is better for costs and errors); null marks none */
    /* extra(k, cell): adds a value's provenance under it; returns the row header for a caption or warning */
    function row(name, cells, higher, extra) {
      var r = tb.insertRow(); var h = el("th"); h.scope = "row"; r.appendChild(h);
      if (typeof name === "string") h.textContent = name; else h.appendChild(name);
      var vals = cells.map(value);
      var nums = vals.filter(function (v) { return typeof v === "number"; });
      var best = nums.length > 1 && higher !== null && higher !== undefined ? (higher ? Math.max : Math.min).apply(null, nums) : null;
      vals.forEach(function (v, k) {
        var c = el("td", cellText(cells[k]), "lb-num");
        if (v === null || v === undefined || v === "unknown") c.appendChild(el("span", " not known", "lb-sr"));
        if (best !== null && v === best) c.classList.add("lb-best");
        if (extra && v !== null && v !== undefined) extra(k, c);
        r.appendChild(c);
      });
      return h;
    }
    function warn(h, text) { h.appendChild(el("div", "⚠ " + text, "lb-sub lb-flagtext")); }
    function distinct(xs) { return xs.filter(function (x, i) { return x !== null && x !== undefined && x !== "" && xs.indexOf(x) === i; }); }
    section("Model");
    row("Weights", idx.map(function (i) { return data.models[i][6]; }));
    row("Parameters (B)", idx.map(function (i) { return data.models[i][7]; }));
    section("Prices (USD per million tokens; lowest in bold)");
    row("Input", idx.map(function (i) { return data.models[i][4]; }), false);
    row("Output", idx.map(function (i) { return data.models[i][5]; }), false);
    section("Indices (best in bold)");
    var OK = ["complete", "full", "published", ""];
    data.boards.forEach(function (b) {
      var vals = idx.map(function (i) { return b[2][i]; });
      if (!vals.some(function (v) { return v !== null; })) return;
      var name = document.createDocumentFragment(), a = el("a", b[1]);
      a.href = "../" + b[7]; name.appendChild(a);
      if (b[6]) name.appendChild(el("div", b[6], "lb-sub"));
      var statuses = idx.map(function (i) { return b[5][i]; });
      var h = row(name, vals, b[4], function (k, c) {
        if (OK.indexOf(statuses[k]) < 0) { var s = el("span", statuses[k], "lb-status lb-status--" + statuses[k]); c.appendChild(document.createTextNode(" ")); c.appendChild(s); }
      });
      var shown = statuses.filter(function (s, k) { return vals[k] !== null; });
      if (distinct(shown).length > 1 && shown.some(function (s) { return OK.indexOf(s) < 0; })) warn(h, "not all of these values are final: see their status");
      var said = [];
      for (var p = 0; b[8] && p < idx.length; p++) for (var q = p + 1; q < idx.length; q++) {
        var c = aheadCounts(b[0], b[8], idx[p], idx[q]);
        if (c) said.push(aheadText(idx[p], idx[q], c, b[8]));
      }
      if (said.length) {
        var sr = tb.insertRow(), sh = el("th", "", "lb-sub"), sc = el("td", undefined, "lb-ahead");
        sh.scope = "row";
        var how = el("a", "In the simulations");
        how.href = "../methodology/uncertainty/";
        sh.appendChild(how);
        sh.appendChild(el("div", "each value drawn from its " + b[9] + " interval and the index recomputed, " + b[8] + " times", "lb-simnote"));
        sc.colSpan = idx.length;
        said.forEach(function (t) { sc.appendChild(el("div", t)); });
        sr.appendChild(sh); sr.appendChild(sc);
      }
    });
    var versions = {};
    data.boards.forEach(function (b) {
      if (!idx.some(function (i) { return b[2][i] !== null; })) return;
      var family = b[1].replace(/ v[\d.]+$/, "");
      (versions[family] = versions[family] || []).push(b[1]);
    });
    Object.keys(versions).forEach(function (family) {
      if (versions[family].length > 1) out.appendChild(el("p", "⚠ " + versions[family].join(" and ") + " are different methodology versions of one index: compare values within a version, not across.", "lb-flagtext"));
    });
    section("Benchmarks (best in bold; source and retrieval date under each value)");
    data.benchmarks.forEach(function (b) {
      var vals = idx.map(function (i) { return b[2][i]; });
      if (!vals.some(function (v) { return v !== null; })) return;
      var prov = idx.map(function (i) { return b[5][i]; });
      var name = b[1];
      if (b[3]) { name = document.createDocumentFragment(); name.appendChild(document.createTextNode(b[1])); name.appendChild(el("div", b[3], "lb-sub")); }
      var h = row(name, vals, b[4], function (k, c) {
        var p = prov[k];
        if (!p) return;
        var sub = el("div", undefined, "lb-sub"), src = p[0] !== null ? data.sources[p[0]] : "source not known";
        if (p[2]) { var a = el("a", src); a.href = p[2]; a.rel = "noopener nofollow"; sub.appendChild(a); } else sub.appendChild(document.createTextNode(src));
        if (p[1]) sub.appendChild(document.createTextNode(", " + p[1]));
        c.appendChild(sub);
      });
      var given = prov.filter(function (p, k) { return p && vals[k] !== null; });
      if (distinct(given.map(function (p) { return p[0]; })).length > 1) warn(h, "from different sources: their setups may differ");
      else if (distinct(given.map(function (p) { return p[1]; })).length > 1) warn(h, "retrieved on different dates: a source's snapshot may have changed in between");
    });
    var box = el("div", undefined, "md-typeset__scrollwrap"), wrap = el("div", undefined, "md-typeset__table lb-box");
    wrap.appendChild(table); box.appendChild(wrap);
    var fig = chart(idx);
    if (fig) out.appendChild(fig);
    out.appendChild(box);
  }

  /* The chosen models on each index as a chart a reader reads without hovering: one panel per index, a line per
     model named in its own colour, its value as a dot and its interval as a bar, both as the build wrote them in
     text beside it. Each index has its own scale, from the lowest to the highest of what the panel shows. */
  function chart(idx) {
    var panels = data.boards.filter(function (b) { return idx.filter(function (i) { return b[2][i] !== null; }).length > 0; });
    if (!panels.length) return null;
    var fig = el("figure", undefined, "lb-cmpchart");
    fig.appendChild(el("figcaption", "The chosen models on each index: a dot at the value and, where the index has one, a bar over its interval; each index on its own scale, from the lowest to the highest value or bound shown. " + (panels.some(function (b) { return b[4] === false; }) ? "Lower is better where the panel says so." : "")));
    panels.forEach(function (b) {
      var sec = el("section", undefined, "lb-cc"), head = el("p", undefined, "lb-cc-head"), a = el("a", b[1]);
      a.href = "../" + b[7]; head.appendChild(a);
      var say = [b[9] && idx.some(function (i) { return b[10] && b[10][i]; }) ? b[9] + " interval" : "", b[4] === false ? "lower is better" : ""].filter(Boolean);
      if (say.length) head.appendChild(el("span", " (" + say.join("; ") + ")", "lb-cc-note"));
      sec.appendChild(head);
      var lo = Infinity, hi = -Infinity;
      idx.forEach(function (i) {
        var v = b[2][i], iv = b[10] && b[10][i];
        if (v === null) return;
        [v[0]].concat(iv ? [iv[0], iv[1]] : []).forEach(function (x) { lo = Math.min(lo, x); hi = Math.max(hi, x); });
      });
      var pad = (hi - lo) * 0.06 || Math.abs(hi) * 0.05 || 1;
      lo -= pad; hi += pad;
      function at(x) { return (100 * (x - lo) / (hi - lo)).toFixed(2) + "%"; }
      idx.forEach(function (i, k) {
        var v = b[2][i], iv = b[10] && b[10][i];
        var line = el("div", undefined, "lb-cc-row lb-cc-k" + k);
        line.appendChild(el("span", data.models[i][1], "lb-cc-name"));
        var track = el("span", undefined, "lb-cc-track");
        if (v !== null) {
          if (iv) { var bar = el("span", undefined, "lb-cc-iv"); bar.style.left = at(iv[0]); bar.style.width = (100 * (iv[1] - iv[0]) / (hi - lo)).toFixed(2) + "%"; track.appendChild(bar); }
          var dot = el("span", undefined, "lb-cc-dot"); dot.style.left = at(v[0]); track.appendChild(dot);
        }
        line.appendChild(track);
        line.appendChild(el("span", v === null ? "no value" : v[1] + (iv ? " (" + iv[2] + ")" : ""), "lb-cc-val"));
        sec.appendChild(line);
      });
      fig.appendChild(sec);
    });
    return fig;
  }

  function fromForm() {
    var ids = [];
    for (var k = 0; k < 4; k++) {
      var v = form.elements["m" + k].value;
      var i = v in byLabel ? byLabel[v] : (v in byId ? byId[v] : -1);
      if (i >= 0 && ids.indexOf(data.models[i][0]) < 0) ids.push(data.models[i][0]);
    }
    return ids;
  }

  function sync(ids) {
    for (var k = 0; k < 4; k++) form.elements["m" + k].value = ids[k] ? label(data.models[byId[ids[k]]]) : "";
  }

  form.addEventListener("change", function () {
    var ids = fromForm();
    var p = new URLSearchParams(location.search);
    if (ids.length) p.set("m", ids.join(",")); else p.delete("m");
    history.replaceState(null, "", location.pathname + (p.toString() ? "?" + p.toString() : ""));
    render(ids);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  var ids = chosen();
  sync(ids);
  render(ids);
})();
