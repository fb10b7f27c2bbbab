/* mkdocs-material's search worker, with its results re-ranked before the page renders them: a name typed exactly
   comes first. The worker (lunr) ranks by term weight and completes every term as a prefix, so "GPT-5 (high)"
   also matches the rarer, heavier terms of GPT-5.5 (high) or GPT-5.3 Codex (high) and can rank them first; the
   page renders only the first ten results, so re-ordering the rendered list is not enough. Order, stable within
   each tier: a result one of whose exact names (name, id, id without organisation, alias) is the query; the
   other configurations of the release such a result belongs to, and models whose release name is the query
   ("Claude Opus 4.6" for every Claude Opus 4.6 configuration); titles that contain the query as a phrase of whole
   words; titles that contain each of its words; the rest. Names are compared as lower-case words ("gpt-5.1" = "GPT 5.1"); the index holds them already
   normalised (generator/sitegen/site/search.py, `words`). */
(function () {
  "use strict";
  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
  var docs = new Map(), queries = [];
  /* The documents are loaded on the first search, not with every page: the page sends the settings only (its
     search_index.json has no documents, site/search.py), and the first query fetches search_docs.json beside it,
     sets material's worker up with them and, once it is ready, answers the queries held meanwhile. */
  var DOCS = new URL("../../search/search_docs.json", self.location.href).href;
  var setup = null, state = "stub", held = [];
  function loadDocs() {
    if (state !== "stub") return;
    state = "loading";
    fetch(DOCS, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(DOCS + ": HTTP " + r.status);
      return r.json();
    }).then(function (full) {
      self.dispatchEvent(new MessageEvent("message", { data: { type: SETUP, data: {
        config: (setup && setup.config) || full.config, docs: full.docs || [], options: setup && setup.options } } }));
    }).catch(function () { ready(); });  /* no documents: every query answers "no matching documents" */
  }
  function ready() {
    state = "full";
    held.splice(0).forEach(function (m) { self.dispatchEvent(new MessageEvent("message", { data: m })); });
  }
  var ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#x27;": "'" };
  function words(s) { return String(s || "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim(); }
  function unescape(s) { return String(s || "").replace(/&(amp|lt|gt|quot|#x27);/g, function (e) { return ENTITIES[e]; }); }

  self.addEventListener("message", function (ev) {
    var m = ev.data || {};
    if (m.type === SETUP) {
      if (state === "stub") setup = m.data;
      docs = new Map();
      (m.data.docs || []).forEach(function (d) {
        docs.set(d.location, { exact: d.exact || [], config: d.config || [], release: d.release || "",
                               title: " " + words(unescape(d.title)) + " " });
      });
    } else if (m.type === QUERY) {
      /* held (material's worker does not see it yet) until the documents are set up; the empty query the page
         sends when it opens has no results either way and needs no documents */
      if (state !== "full" && (words(m.data) !== "" || held.length)) {
        ev.stopImmediatePropagation();
        held.push(m);
        loadDocs();
        return;
      }
      queries.push(words(m.data));
    }
  });

  function rerank(groups, q) {
    if (!q) return groups;
    var info = groups.map(function (g) { return docs.get(g[0] && g[0].location) || null; });
    var releases = {};
    info.forEach(function (d) { if (d && d.release && d.exact.indexOf(q) >= 0) releases[d.release] = true; });
    function tier(d) {
      if (!d) return 0;
      if (d.exact.indexOf(q) >= 0) return 3;
      if ((d.release && releases[d.release]) || d.config.indexOf(q) >= 0) return 2;
      if (d.title.indexOf(" " + q + " ") >= 0) return 1.5;
      return q.split(" ").every(function (w) { return d.title.indexOf(" " + w + " ") >= 0; }) ? 1 : 0;
    }
    return groups.map(function (g, i) { return { g: g, t: tier(info[i]), i: i }; })
      .sort(function (a, b) { return b.t - a.t || a.i - b.i; })
      .map(function (r) { return r.g; });
  }

  var post = self.postMessage.bind(self);
  self.postMessage = function (m) {
    if (m && m.type === READY && state === "loading") { ready(); return; }  /* the page was told once, at its setup */
    if (m && m.type === RESULT) {
      var q = queries.shift();
      if (m.data && Array.isArray(m.data.items)) m.data.items = rerank(m.data.items, q);
    }
    post(m);
  };

  importScripts("../vendor/material/javascripts/workers/search.a7633da7.min.js");
})();
