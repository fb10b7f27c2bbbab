#!/usr/bin/env bash
# The README's test command: install everything the test suite needs, then run all of it (arguments go to pytest).
# Python packages go into the virtual environment .venv (created here with python3 >= 3.11, at the versions in
# constraints.txt); the browser tests drive Debian's chromium. Debian packages missing for either (python3-venv,
# chromium) are installed with apt-get. .ci/run runs the rest of CI in the same .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  local sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "tools/test.sh: sitegen needs Python 3.11 or newer; python3 is $(python3 -V 2>&1)" >&2
  exit 1
fi
if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  # Debian and Ubuntu ship venv's pip bootstrap (ensurepip) apart from python3, as python3-venv.
  python3 -m venv --clear .venv || { apt_install python3-venv && python3 -m venv --clear .venv; }
fi
# SITEGEN_CONSTRAINTS=/dev/null installs the newest versions instead (.github/workflows/newest-deps.yml).
.venv/bin/python -m pip install --disable-pip-version-check -q -c "${SITEGEN_CONSTRAINTS:-constraints.txt}" -e '.[test]'

command -v chromium >/dev/null 2>&1 || apt_install chromium
# axe-core for the browser tests' accessibility check, at the version and integrity tests/site/axe/package-lock.json
# pins, installed here (npm ci) into tests/site/axe/node_modules: test-only, never part of the site; the tests use no
# network.
command -v npm >/dev/null 2>&1 || apt_install npm
npm ci --prefix tests/site/axe --no-audit --no-fund --silent

# On every core (pytest-xdist): each test file on one worker, the slowest handed out first (tests/conftest.py).
# Arguments come after, so `-n 0` runs in this process alone.
.venv/bin/python -m pytest -n auto --dist loadgroup --no-loadscope-reorder "$@"
