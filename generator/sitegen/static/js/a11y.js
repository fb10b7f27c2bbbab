/* Accessibility repairs to what mkdocs-material's bundle adds at run time: the bundle wraps each table in a
   scrolling box (.md-typeset__scrollwrap) that a keyboard cannot reach when the table is wider than the screen.
   Each such box becomes a named, focusable region, so arrow keys scroll it. */
(function () {
  "use strict";
  function name(wrap) {
    var caption = wrap.querySelector("caption");
    var heading = wrap.previousElementSibling;
    var text = caption ? caption.textContent : heading && /^H[1-6]$/.test(heading.tagName) ? heading.textContent : "";
    return "Table" + (text.trim() ? ": " + text.trim() : "");
  }
  function repair(root) {
    (root.querySelectorAll ? root.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])") : []).forEach(function (wrap) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", name(wrap));
    });
  }
  var article = document.getElementById("content");
  if (!article) return;
  repair(article);
  new MutationObserver(function (changes) {
    changes.forEach(function (c) { c.addedNodes.forEach(function (n) { if (n.nodeType === 1) repair(n.parentNode || n); }); });
  }).observe(article, { childList: true, subtree: true });
})();
