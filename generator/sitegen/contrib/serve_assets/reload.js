// sitegen serve only: reloads the page when a rebuild finishes, and shows a failed rebuild's problems over the
// page (the last good site) until a build succeeds. The server adds this file to each HTML page it sends (as
// <script src>, so the site's Content-Security-Policy allows it); the built site never contains it. The
// problems are set as text, never as HTML, and styled through the DOM (no inline style attribute to allow).
(function () {
  "use strict";
  var seen = null;
  var BANNER = "sitegen-serve-failed";
  var seenFailed = false;

  function showFailed(lines) {
    var box = seenFailed ? document.getElementById(BANNER) : null;
    if (!lines || !lines.length) {
      if (box) { box.parentNode.removeChild(box); }
      seenFailed = false;
      return;
    }
    seenFailed = true;
    box = document.getElementById(BANNER);
    if (!box) {
      box = document.createElement("pre");
      box.id = BANNER;
      box.setAttribute("role", "alert");
      var s = box.style;
      s.position = "fixed"; s.left = "0"; s.right = "0"; s.bottom = "0"; s.zIndex = "2147483647";
      s.margin = "0"; s.padding = "0.75em 1em"; s.maxHeight = "40vh"; s.overflow = "auto";
      s.whiteSpace = "pre-wrap"; s.font = "13px/1.4 monospace";
      s.background = "#fff4f4"; s.color = "#7a0000"; s.borderTop = "3px solid #b00020";
      document.body.appendChild(box);
    }
    box.textContent = lines.join("\n");
  }

  function poll() {
    fetch("/__sitegen/build", { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (state) {
        if (seen === null) {
          seen = state.build;
        } else if (state.build !== seen) {
          window.location.reload();
          return;
        }
        showFailed(state.failed);
        setTimeout(poll, 500);
      })
      .catch(function () { setTimeout(poll, 2000); }); // the server is restarting or gone: keep trying
  }
  poll();
})();
