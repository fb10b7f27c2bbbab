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

  function fmt(v, d) { return v === null || v === undefined ? "–" : Number(v).toFixed(d === undefined ? 1 : d); }

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
    function row(name, vals, digits) {
      var r = tb.insertRow(); var h = el("th", name); h.scope = "row"; r.appendChild(h);
      var nums = vals.filter(function (v) { return v !== null && v !== undefined; });
      var best = nums.length > 1 ? Math.max.apply(null, nums) : null;
      vals.forEach(function (v) { var c = el("td", typeof v === "string" ? v : fmt(v, digits), "lb-num"); if (best !== null && v === best) c.classList.add("lb-best"); r.appendChild(c); });
    }
    section("Prices ($ per million tokens)");
    row("Input", idx.map(function (i) { return data.models[i][4]; }), 2);
    row("Output", idx.map(function (i) { return data.models[i][5]; }), 2);
    row("Weights", idx.map(function (i) { return data.models[i][6]; }));
    row("Parameters (B)", idx.map(function (i) { return data.models[i][7]; }));
    section("Indices");
    data.boards.forEach(function (b) {
      var vals = idx.map(function (i) { return b[2][i]; });
      if (vals.some(function (v) { return v !== null; })) row(b[1], vals, b[0] === "cost" ? 3 : 1);
    });
    section("Benchmarks");
    data.benchmarks.forEach(function (b) {
      var vals = idx.map(function (i) { return b[2][i]; });
      if (vals.some(function (v) { return v !== null; })) row(b[1], vals);
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
