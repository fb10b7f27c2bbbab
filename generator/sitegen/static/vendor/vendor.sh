#!/bin/sh
# Re-vendor the pinned browser libraries. Run from this directory; needs npm and mkdocs-material installed at the
# pinned version (pip install -e '.[dev]' from the repository root).
# Versions are pinned here and recorded in VERSIONS (mkdocs-material also in pyproject.toml's dev extra); bump
# them together. mkdocs-material's compiled assets carry a content hash in their names, so a new release means
# new names below (also in templates/base.html and js/search-worker.js, which imports the search worker): the
# script checks the installed version and every name before it copies anything.
set -eu
VEGA=6.4.0; VEGALITE=6.4.1; EMBED=7.3.0; INTERP=2.3.2
MATERIAL=9.8.1
MATERIAL_FILES="stylesheets/main.57a0d79d.min.css stylesheets/palette.fb2fffe2.min.css
javascripts/bundle.a5f9d56c.min.js javascripts/workers/search.a7633da7.min.js"

found=$(python -c 'import importlib.metadata as m, os, material; print(m.version("mkdocs-material"), os.path.dirname(material.__file__))') || {
  echo "vendor.sh: mkdocs-material is not installed: pip install -e '.[dev]'" >&2; exit 1; }
version=${found%% *}; M=${found#* }/templates/assets
if [ "$version" != "$MATERIAL" ]; then
  echo "vendor.sh: mkdocs-material $version is installed but $MATERIAL is pinned: pip install -e '.[dev]'," >&2
  echo "or bump MATERIAL, MATERIAL_FILES, VERSIONS and pyproject.toml's dev extra together" >&2
  exit 1
fi
missing=""
for f in $MATERIAL_FILES; do [ -f "$M/$f" ] || missing="$missing $f"; done
if [ -n "$missing" ]; then
  echo "vendor.sh: mkdocs-material $version has no$missing under $M: update MATERIAL_FILES to its names" >&2
  exit 1
fi

tmp=$(mktemp -d)
(cd "$tmp" && for p in vega@$VEGA vega-lite@$VEGALITE vega-embed@$EMBED vega-interpreter@$INTERP; do
  npm pack "$p" >/dev/null 2>&1; done && for f in *.tgz; do mkdir "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}"; done)
strip() { sed -e 's#//[#@] sourceMappingURL=.*$##' "$1" > "$2"; }
strip "$tmp/vega-$VEGA/package/build/vega.min.js" vega/vega.min.js
strip "$tmp/vega-lite-$VEGALITE/package/build/vega-lite.min.js" vega-lite/vega-lite.min.js
strip "$tmp/vega-embed-$EMBED/package/build/vega-embed.min.js" vega-embed/vega-embed.min.js
# vega-interpreter ships only as an ES module importing vega-util; wrap it as a classic script that takes
# vega-util's functions from the vega global (vega re-exports vega-util) and sets window.vegaInterpreter.
{
  echo "/* vega-interpreter $INTERP (BSD-3-Clause, see LICENSE), wrapped as a classic script by vendor.sh */"
  echo "(function (vegaUtil) {"
  sed -e "s#^import { \(.*\) } from 'vega-util';#const { \1 } = vegaUtil;#" \
      -e 's#^export { expression as expressionInterpreter };#window.vegaInterpreter = { expressionInterpreter: expression };#' \
      "$tmp/vega-interpreter-$INTERP/package/build/vega-interpreter.js"
  echo "})(window.vega);"
} > "$tmp/interp.js"
strip "$tmp/interp.js" vega-interpreter/vega-interpreter.js
for p in vega vega-lite vega-embed vega-interpreter; do
  v=$(ls -d "$tmp/$p"-[0-9]*/package | head -1); cp "$v/LICENSE" "$p/LICENSE"; done
for f in $MATERIAL_FILES; do mkdir -p "material/$(dirname "$f")"; strip "$M/$f" "material/$f"; done
rm -rf "$tmp"
sha256sum */*.js */*.css */*/*.js */*/*/*.js 2>/dev/null | sort -k2 > SHA256SUMS
