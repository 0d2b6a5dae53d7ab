#!/usr/bin/env bash
# Runs every test: the style and structure checks (lint.sh), the C++ unit tests (ctest) and the
# Python tests (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/lint.sh
ctest --test-dir build/wheel --output-on-failure -j2
# The user manual, warnings as errors; tests/python/test_manual.py opens this build in a browser.
python3 -m sphinx -E -W --keep-going -q -b html docs/manual build/manual/html
python3 -m pytest -q -n auto tests/python "$@"
