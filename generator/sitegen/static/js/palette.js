/* mkdocs-material's inline palette script, as a file: apply the saved colour scheme before first paint. */
(function () {
  var palette = window.__md_get && window.__md_get("__palette");
  if (!palette || !palette.color) {
    if (window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches) {
      document.body.setAttribute("data-md-color-scheme", "slate");
    }
    return;
  }
  if (palette.color.media === "(prefers-color-scheme)") {
    var media = matchMedia("(prefers-color-scheme: light)");
    var input = document.querySelector(media.matches
      ? "[data-md-color-media='(prefers-color-scheme: light)']"
      : "[data-md-color-media='(prefers-color-scheme: dark)']");
    palette.color.media = input.getAttribute("data-md-color-media");
    palette.color.scheme = input.getAttribute("data-md-color-scheme");
    palette.color.primary = input.getAttribute("data-md-color-primary");
    palette.color.accent = input.getAttribute("data-md-color-accent");
  }
  Object.keys(palette.color).forEach(function (key) {
    document.body.setAttribute("data-md-color-" + key, palette.color[key]);
  });
})();
