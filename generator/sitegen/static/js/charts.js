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
      /* a point links to its model's page: the data names the page from the site root */
      var root = window.__md_scope || new URL("./", location);
      Object.keys(spec.datasets || {}).forEach(function (k) {
        (spec.datasets[k] || []).forEach(function (row) {
          if (row && typeof row.page === "string" && row.page) row.href = new URL(row.page, root).href;
        });
      });
      spec.config = Object.assign({}, spec.config || {}, theme());
      /* no ARIA roles on the marks: each would need alternative text of its own. The chart is one image, named by
         its container (role="img" and aria-label: its title and description; the data summary follows it). */
      spec.config.aria = false;
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
      /* the drawing itself is hidden from assistive technology: its container is the image (role="img", named by
         the chart's title and description) and the data summary beside it gives the points as text */
      var svg = el.querySelector("svg");
      if (svg) svg.setAttribute("aria-hidden", "true");
      var hl = el.getAttribute("data-highlight");
      if (el._view) el._view.finalize();
      el._view = result.view;
      /* a click on a point opens its model's page. On a touch screen, where vega's hover tooltip vanishes as
         the finger lifts, the first tap shows the point's tooltip in a popup and a second tap opens the page. */
      var tapped = null;
      result.view.addEventListener("click", function (event, item) {
        var d = item && item.datum;
        if (!d || !d.href) return;
        var touch = event.pointerType === "touch" || (event.sourceCapabilities && event.sourceCapabilities.firesTouchEvents);
        if (touch && tapped !== d) {
          tapped = d;
          tapTip(item.tooltip, event);
          return;
        }
        location.href = d.href;
      });
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

  var tip = null;
  function tapTip(fields, event) {
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "lb-pop md-typeset lb-chart-tip";
      tip.setAttribute("role", "tooltip");
      document.body.appendChild(tip);
      document.addEventListener("click", function (e) { if (!e.target.closest(".lb-vega")) tip.hidden = true; });
    }
    tip.textContent = "";
    Object.keys(fields || {}).forEach(function (k) {
      var p = document.createElement("p"), b = document.createElement("strong");
      b.textContent = k + ": ";
      p.appendChild(b);
      p.appendChild(document.createTextNode(String(fields[k])));
      tip.appendChild(p);
    });
    var p = document.createElement("p");
    p.textContent = "Tap the point again to open its page.";
    tip.appendChild(p);
    tip.hidden = false;
    tip.style.left = Math.max(4, Math.min(event.clientX, window.innerWidth - tip.offsetWidth - 4)) + "px";
    tip.style.top = Math.max(4, event.clientY - tip.offsetHeight - 12) + "px";
  }

  /* Vega (four scripts, ~1 MB) is loaded only when a chart first comes within a screen of view, one script after
     the other (each needs the one before); a page whose charts are never scrolled to never loads it. */
  var me = document.currentScript, vegaFiles = ((me && me.getAttribute("data-vega")) || "").split(" ").filter(Boolean);
  var vegaLoad = null;
  function loadVega() {
    if (!vegaLoad) {
      vegaLoad = vegaFiles.reduce(function (done, src) {
        return done.then(function () {
          return new Promise(function (resolve, reject) {
            var s = document.createElement("script");
            s.src = src;
            s.onload = resolve;
            s.onerror = function () { reject(new Error("could not load " + src)); };
            document.head.appendChild(s);
          });
        });
      }, Promise.resolve());
    }
    return vegaLoad;
  }
  function show(el) {
    el._shown = true;
    loadVega().then(function () { return draw(el); }, function (err) {
      el.classList.add("lb-vega--failed");
      if (window.console) console.warn(err);
    });
  }

  var charts = Array.prototype.slice.call(document.querySelectorAll(".lb-vega[data-spec]"));
  if (window.IntersectionObserver) {
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting && !e.target._shown) { seen.unobserve(e.target); show(e.target); }
      });
    }, { rootMargin: "100% 0px" });
    charts.forEach(function (el) { seen.observe(el); });
  } else {
    charts.forEach(show);
  }
  /* Redraw the drawn charts in the other colour scheme when the palette toggle changes it. */
  var last = dark();
  new MutationObserver(function () {
    if (dark() !== last) { last = dark(); charts.forEach(function (el) { if (el._view) draw(el); }); }
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
})();
