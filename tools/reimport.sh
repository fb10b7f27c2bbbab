#!/bin/sh
# Re-import every source from its downloaded files and fail if scores/imported/ would change.
# Usage: tools/reimport.sh [DATA_DIR]   (default: downloads/ in the repository, the captures scores/sources.yaml lists)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-"$root/downloads"}
exec python3 -m sitegen.cli import --all --check --data "$data" --root "$root"
