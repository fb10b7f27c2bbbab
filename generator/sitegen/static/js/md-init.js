/* mkdocs-material's inline head script, as a file so the CSP needs no 'unsafe-inline'.
   The scope is the site root, given relative to the page in data-base. */
(function () {
  var base = document.currentScript.getAttribute("data-base") || "./";
  window.__md_scope = new URL(base, location);
  window.__md_hash = function (e) { return [].concat(Array.from(e)).reduce(function (h, c) { return (h << 5) - h + c.charCodeAt(0); }, 0); };
  window.__md_get = function (key, storage, scope) {
    storage = storage || localStorage; scope = scope || window.__md_scope;
    try { return JSON.parse(storage.getItem(scope.pathname + "." + key)); } catch (e) { return null; }
  };
  window.__md_set = function (key, value, storage, scope) {
    storage = storage || localStorage; scope = scope || window.__md_scope;
    try { storage.setItem(scope.pathname + "." + key, JSON.stringify(value)); } catch (e) { /* storage may be disabled */ }
  };
  document.documentElement.classList.remove("no-js");
  document.documentElement.classList.add("js");
})();
