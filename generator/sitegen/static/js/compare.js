/* Compare two to four models side by side from the JSON embedded in the page; the choice lives in ?m=a,b. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("compare-data").textContent);
  var form = document.getElementById("compare-form");
  var out = document.getElementById("compare-out");
  var byId = {}, byLabel = {};
  data.models.forEach(function (m, i) { byId[m[0]] = i; byLabel[label(m)] = i; });

  function label(m) { return m[1] + " — " + m[0]; }

  var list = document.getElementById("compare-models");
  data.models.forEach(function (m) { var o = document.createElement("option"); o.value = label(m); list.appendChild(o); });

  function chosen() {
    var ids = (new URLSearchParams(location.search).get("m") || "").split(",").filter(function (x) { return x in byId; });
    return ids.slice(0, 4);
  }

  /* f = [decimals, prefix, suffix], decided by the site's one rule (numbers.decimals) and only applied here */
  function fmt(v, f) {
    if (v === null || v === undefined) return "–";
    if (typeof v === "string") return v === "unknown" ? "–" : v;
    if (!f) return String(v);
    var text = Math.abs(v).toLocaleString("en-US", { minimumFractionDigits: f[0], maximumFractionDigits: f[0] });
    return (v < 0 && text.replace(/[0.,]/g, "") !== "" ? "-" : "") + f[1] + text + f[2];
  }

  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }

  function render(ids) {
    out.textContent = "";
    if (ids.length === 0) { out.appendChild(el("p", "Choose models above to compare them.")); return; }
    var idx = ids.map(function (id) { return byId[id]; });
    var table = el("table", undefined, "lb-compare");
    var thead = table.createTHead(), hr = thead.insertRow();
    hr.appendChild(el("th", ""));
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
    function row(name, vals, f, higher) {
      var r = tb.insertRow(); var h = el("th", name); h.scope = "row"; r.appendChild(h);
      var nums = vals.filter(function (v) { return typeof v === "number"; });
      var best = nums.length > 1 && higher !== null && higher !== undefined ? (higher ? Math.max : Math.min).apply(null, nums) : null;
      vals.forEach(function (v) {
        var c = el("td", fmt(v, f), "lb-num");
        if (v === null || v === undefined || v === "unknown") c.title = "not known";
        if (best !== null && v === best) c.classList.add("lb-best");
        r.appendChild(c);
      });
    }
    section("Model");
    row("Weights", idx.map(function (i) { return data.models[i][6]; }));
    row("Parameters (B)", idx.map(function (i) { return data.models[i][7]; }), data.params);
    section("Prices (USD per million tokens; lowest in bold)");
    row("Input", idx.map(function (i) { return data.models[i][4]; }), data.price, false);
    row("Output", idx.map(function (i) { return data.models[i][5]; }), data.price, false);
    section("Indices (best in bold)");
    data.boards.forEach(function (b) {
      var vals = idx.map(function (i) { return b[2][i]; });
      if (vals.some(function (v) { return v !== null; })) row(b[1], vals, b[3], b[4]);
    });
    section("Benchmarks (best in bold)");
    data.benchmarks.forEach(function (b) {
      var vals = idx.map(function (i) { return b[2][i]; });
      if (vals.some(function (v) { return v !== null; })) row(b[1], vals, b[3], b[4]);
    });
    var wrap = el("div", undefined, "md-typeset__table"); wrap.appendChild(table);
    out.appendChild(wrap);
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
