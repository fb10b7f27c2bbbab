#!/bin/sh
# Build the site and the JSON API twice, with REF's generator and with this tree's, and compare them byte for
# byte: a refactoring (a move, a cleanup) must print nothing and exit 0.
# Usage: tools/same_output.sh [--whole] REF   (e.g. the commit before the change; PYTHON picks the interpreter)
#   default: both generators build this tree's data (scores/, methodology/);
#   --whole: REF's generator builds REF's own checkout (a detached git worktree, removed after), for a change that
#            moves policy from the code into the data: REF's schemas reject the new fields, so REF's generator
#            cannot read this tree's files. The changelog page and feed then also list this tree's new data
#            commits, and the data-format page the new fields: those differences are the change's own.
set -eu
whole=0
if [ "${1:-}" = "--whole" ]; then whole=1; shift; fi
ref=${1:?usage: tools/same_output.sh [--whole] REF}
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
tmp=$(mktemp -d)
if [ "$whole" -eq 1 ]; then
    git -C "$root" worktree add --quiet --detach "$tmp/ref" "$ref"
    trap 'git -C "$root" worktree remove --force "$tmp/ref"; rm -rf "$tmp"' EXIT
else
    trap 'rm -rf "$tmp"' EXIT
    git -C "$root" archive "$ref" generator | tar -x -C "$tmp"
fi
for side in before after; do
    if [ "$side" = after ]; then generator="$root/generator"; data="$root"
    elif [ "$whole" -eq 1 ]; then generator="$tmp/ref/generator"; data="$tmp/ref"
    else generator="$tmp/generator"; data="$root"; fi
    PYTHONPATH="$generator" "$python" -m sitegen.cli build --root "$data" --out "$tmp/$side-site" --quiet
    PYTHONPATH="$generator" "$python" -m sitegen.cli export --root "$data" --out "$tmp/$side-api"
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
