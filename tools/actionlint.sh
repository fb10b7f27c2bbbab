#!/usr/bin/env bash
# Lints the GitHub Actions workflows with actionlint (and shellcheck on run: scripts when it is
# installed). actionlint comes with the test extras: pip install -e '.[test]'.
# Usage: tools/actionlint.sh [actionlint options] [workflow files]
# Without files, actionlint finds .github/workflows/ itself.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v actionlint >/dev/null 2>&1; then
  echo "actionlint is not installed: run pip install -e '.[test]'" >&2
  exit 2
fi
exec actionlint "$@"
