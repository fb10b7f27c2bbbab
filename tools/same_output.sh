#!/bin/sh
# Build the site and the JSON API from this repository's data twice, with REF's generator and with this
# tree's, and compare them byte for byte: a refactoring (a move, a cleanup) must print nothing and exit 0.
# Usage: tools/same_output.sh REF   (e.g. the commit before the change; PYTHON picks the interpreter)
set -eu
ref=${1:?usage: tools/same_output.sh REF}
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$ref" generator | tar -x -C "$tmp"
for side in before after; do
    if [ "$side" = before ]; then generator="$tmp/generator"; else generator="$root/generator"; fi
    PYTHONPATH="$generator" "$python" -m sitegen.cli build --root "$root" --out "$tmp/$side-site" --quiet
    PYTHONPATH="$generator" "$python" -m sitegen.cli export --root "$root" --out "$tmp/$side-api"
done
# .sitegen-inputs and .sitegen-pages (reuse.py) digest the generator's own files, so they differ by design
# both compared, so an intended change to the site still shows whether the API moved too
same=0
diff -r -q --exclude=.sitegen-inputs --exclude=.sitegen-pages "$tmp/before-site" "$tmp/after-site" || same=1
diff -r -q "$tmp/before-api" "$tmp/after-api" || same=1
if [ "$same" -ne 0 ]; then
    echo "the output differs from $ref's (listed above)" >&2
    exit 1
fi
echo "same site and API as $ref" >&2
