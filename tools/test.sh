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
# Debian's chromium, when missing, is installed in the background while uv installs the Python packages (on a fresh
# machine its download and unpacking take about as long), and waited for (its failure fails this script) before npm,
# whose own install would need apt's lock.
chromium_pid=""
if ! command -v chromium >/dev/null 2>&1; then
  apt_install chromium &
  chromium_pid=$!
fi
# The installs go through uv, pinned here and installed into .venv by pip from PyPI: the same versions pip would
# install (constraints.txt, the EEE file's pins), but downloaded in parallel: measured 28 s for .venv and 19 s for
# .venv-eee where pip took ~110 s and ~150-300 s (benchmarks/ci-time.md). uv reads no pip.conf: UV_INDEX_URL or
# UV_DEFAULT_INDEX names another index. .venv keeps its own pip for the README's first command.
.venv/bin/python -m pip install --disable-pip-version-check -q uv==0.13.9
# SITEGEN_CONSTRAINTS=/dev/null installs the newest versions instead (.github/workflows/newest-deps.yml).
.venv/bin/uv pip install -q --python .venv/bin/python -c "${SITEGEN_CONSTRAINTS:-constraints.txt}" -e '.[test]'

# The wheel of this package and a wheelhouse of its dependencies at the constraints.txt versions, in .wheelhouse/
# (git-ignored): tests/init/test_wheel.py installs from it alone (--no-index --find-links) into a fresh virtual
# environment, as a stranger installs the generator. The old sitegen wheel goes first, so the one there is this tree's.
# It runs in the background while chromium is waited for and axe-core and the EEE environment are installed, and is
# waited for (its failure fails this script) before pytest starts.
rm -rf .wheelhouse/sitegen-*.whl build  # build/: setuptools' copy, which could keep a removed module
.venv/bin/python -m pip wheel --disable-pip-version-check -q -c "${SITEGEN_CONSTRAINTS:-constraints.txt}" \
  -w .wheelhouse . &
wheelhouse_pid=$!

# Bytecode for every module of .venv and of sitegen, made once here: uv installs no .pyc (pip compiles at install)
# and .ci/run sets PYTHONDONTWRITEBYTECODE, so without this every Python process of the run (each test worker, each
# `sitegen` the tests start) compiled every module it imported from source again: tests/hardening/test_atomic.py
# alone took 62.1 CPU s without it and 27.2 with it (benchmarks/ci-time.md). Python checks each .pyc against its
# source's size and time, so a stale one is never used; __pycache__/ is git-ignored and left out of the package
# digest (reuse.py) and of the wheel. In the background, waited for before pytest.
.venv/bin/python -m compileall -q -j 0 generator/sitegen \
  "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" >/dev/null &
bytecode_pid=$!

if [ -n "$chromium_pid" ]; then
  wait "$chromium_pid" || { echo "tools/test.sh: installing chromium (apt-get) failed" >&2; exit 1; }
fi
# axe-core for the browser tests' accessibility check, at the version and integrity tests/site/axe/package-lock.json
# pins, installed here (npm ci) into tests/site/axe/node_modules: test-only, never part of the site; the tests use no
# network.
command -v npm >/dev/null 2>&1 || apt_install npm
npm ci --prefix tests/site/axe --no-audit --no-fund --silent

# The Every Eval Ever validator (tests/interchange/test_eee_official_validator.py) needs Python >= 3.12, which
# sitegen does not: its own environment .venv-eee, made here with the first Python >= 3.12 that runs (python3.1x on
# PATH, or one of pyenv's), at the versions tests/interchange/eee-requirements.txt pins, and remade only when those
# change. The tests install nothing and use no network; without such a Python the test says so (and fails in CI).
eee_requirements=tests/interchange/eee-requirements.txt
if ! cmp -s "$eee_requirements" .venv-eee/requirements.txt; then
  eee_python=""
  for candidate in python3.12 python3.13 python3.14 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3; do
    # a pyenv shim for a version not selected fails here
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
      eee_python="$candidate"
      break
    fi
  done
  if [ -n "$eee_python" ]; then
    rm -rf .venv-eee
    "$eee_python" -m venv .venv-eee || { apt_install python3-venv && "$eee_python" -m venv .venv-eee; }
    .venv/bin/uv pip install -q --compile-bytecode --python .venv-eee/bin/python -r "$eee_requirements"
    cp "$eee_requirements" .venv-eee/requirements.txt  # the stamp: written last, after a complete install
  else
    echo "tools/test.sh: no Python >= 3.12 found (python3.12+ on PATH or under pyenv): the EEE validator test cannot run" >&2
  fi
fi

wait "$wheelhouse_pid" || { echo "tools/test.sh: building the wheelhouse (.wheelhouse/) failed" >&2; exit 1; }
# A file compileall cannot compile (a package may ship one as data) is left without bytecode: nothing imports it.
wait "$bytecode_pid" || echo "tools/test.sh: some of .venv's or sitegen's files were not compiled to bytecode" >&2

# On every core (pytest-xdist): each test file on one worker, the longest handed out first (tests/conftest.py, from
# the measured seconds in tests/unit-times.txt; SITEGEN_UNIT_TIMES=tests/unit-times.txt refreshes them from a run).
# Arguments come after, so `-n 0` runs in this process alone.
.venv/bin/python -m pytest -n auto --dist loadgroup --no-loadscope-reorder "$@"
