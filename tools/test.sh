#!/usr/bin/env bash
# Install everything the test suite needs, then run all of it: the README's test command.
# Python packages come from PyPI; the browser tests drive Debian's chromium, installed here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --disable-pip-version-check -q -e '.[test]'

if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

python3 -m pytest "$@"
