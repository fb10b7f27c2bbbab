/* Accessibility repairs to what mkdocs-material's bundle adds at run time: the bundle wraps each table in a
   scrolling box (.md-typeset__scrollwrap) that a keyboard cannot reach when the table is wider than the screen.
   Each such box becomes a named, focusable region, so arrow keys scroll it. */
(function () {
  "use strict";
  /* the heading a table sits under: the nearest one before it, among its own and its ancestors' earlier siblings */
  function headingBefore(node) {
    for (var n = node; n && n !== article; n = n.parentElement) {
      for (var p = n.previousElementSibling; p; p = p.previousElementSibling) {
        if (/^H[1-6]$/.test(p.tagName)) return p.textContent;
      }
    }
    return "";
  }
  /* each region's name is unique on the page (landmarks of one role must differ by name): its caption, else the
     heading it sits under, numbered when two tables share one */
  var used = {};
  function name(wrap) {
    var caption = wrap.querySelector("caption");
    var text = (caption ? caption.textContent : headingBefore(wrap)).trim();
    var base = "Table" + (text ? ": " + text : ""), label = base;
    for (var k = 2; used[label]; k++) label = base + " (" + k + ")";
    used[label] = true;
    return label;
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
    /* rows a sorted board puts back hold no table box of their own: nothing to look for in them */
    changes.forEach(function (c) { c.addedNodes.forEach(function (n) { if (n.nodeType === 1 && !/^(TR|TD|TH|TBODY)$/.test(n.tagName)) repair(n.parentNode || n); }); });
  }).observe(article, { childList: true, subtree: true });
})();
