/* Search results as mkdocs-material's worker ranks them, then reordered so that a title equal to the query comes
   first and titles containing it as a phrase next, among the results the worker has rendered (its prefix matching,
   "5*" also matching "5.5", can rank GPT-5.5 (high) above GPT-5 (high)). */
(function () {
  "use strict";
  var list = document.querySelector(".md-search-result__list");
  var input = document.querySelector("input.md-search__input");
  if (!list || !input) return;
  function words(s) { return " " + (s || "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim() + " "; }
  function score(item, q) {
    var h = item.querySelector("h1");
    var t = words(h ? h.textContent : "");
    return t === q ? 2 : t.indexOf(q) >= 0 ? 1 : 0;
  }
  /* "gpt 5.1" finds GPT-5.1 first when the dot is typed as a space (the worker's query parser reads "5.1" as one
     prefix term, which ranks GPT-5.1 below unrelated models) */
  document.addEventListener("input", function (e) {
    if (e.target !== input || !/\w\.\w/.test(input.value)) return;
    var at = input.selectionStart;
    input.value = input.value.replace(/(\w)\.(?=\w)/g, "$1 ");
    input.setSelectionRange(at, at);
  }, true);
  var busy = false;
  new MutationObserver(function () {
    if (busy) return;
    var q = words(input.value);
    if (q === "  ") return;
    var items = Array.prototype.slice.call(list.children);
    var ranked = items.map(function (li, i) { return { li: li, s: score(li, q), i: i }; })
      .sort(function (a, b) { return b.s - a.s || a.i - b.i; });
    if (ranked.every(function (r, i) { return r.li === items[i]; })) return;
    busy = true;
    ranked.forEach(function (r) { list.appendChild(r.li); });
    busy = false;
  }).observe(list, { childList: true });
})();
