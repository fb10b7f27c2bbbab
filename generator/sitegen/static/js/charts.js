/* Draw every chart on the page from its shared Vega-Lite spec (a same-origin JSON file), with vega's
   expression interpreter so no 'unsafe-eval' is needed. The model or benchmark to highlight is set as the
   value of the spec's `hl` parameter: data, never expression text. */
(function () {
  "use strict";
  var specs = {};

  function dark() { return document.body.getAttribute("data-md-color-scheme") === "slate"; }

  function theme() {
    var fg = dark() ? "#e2e4e9" : "#212121", grid = dark() ? "#3a3f4f" : "#e0e0e0";
    return {
      background: null,
      font: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
      axis: { labelColor: fg, titleColor: fg, gridColor: grid, domainColor: grid, tickColor: grid, labelFontSize: 11, titleFontSize: 12 },
      legend: { labelColor: fg, titleColor: fg },
      title: { color: fg },
      text: { color: fg },
      view: { stroke: null }
    };
  }

  function draw(el) {
    var url = el.getAttribute("data-spec");
    var load = specs[url] || (specs[url] = fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("chart spec " + url + ": HTTP " + r.status);
      return r.json();
    }));
    return load.then(function (spec) {
      spec = JSON.parse(JSON.stringify(spec));
      spec.config = Object.assign({}, spec.config || {}, theme());
      return vegaEmbed(el, spec, {
        renderer: "svg",
        logLevel: vega.Error,
        actions: false,
        defaultStyle: false,
        ast: true,
        expr: vegaInterpreter.expressionInterpreter,
        tooltip: { theme: dark() ? "dark" : "light", disableDefaultStyle: true }
      });
    }).then(function (result) {
      var hl = el.getAttribute("data-highlight");
      if (el._view) el._view.finalize();
      el._view = result.view;
      if (hl) return result.view.signal("hl", hl).runAsync();
    }).then(function () {
      el.classList.add("lb-vega--drawn");
    }).catch(function (err) {
      el.classList.add("lb-vega--failed");
      var p = document.createElement("p");
      p.className = "lb-chart-error";
      p.textContent = "This chart could not be drawn; its data summary is below.";
      el.appendChild(p);
      if (window.console) console.warn(err);
    });
  }

  var charts = Array.prototype.slice.call(document.querySelectorAll(".lb-vega[data-spec]"));
  charts.forEach(draw);
  /* Redraw in the other colour scheme when the palette toggle changes it. */
  var last = dark();
  new MutationObserver(function () {
    if (dark() !== last) { last = dark(); charts.forEach(draw); }
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
})();
