"""The site stage: SiteContext -> every page. The pages are planned and rendered in assembly.py; this package
exports what the build and the commands call."""

from .assembly import plan, redirects, render_files, render_site, sitemap

__all__ = ["plan", "redirects", "render_files", "render_site", "sitemap"]
