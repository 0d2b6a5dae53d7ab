#!/usr/bin/env bash
# The style and structure checks the test command runs first: ruff (lint and format), clang-format
# on every C++ file, the C++ folder layering and the Python import graph.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m ruff check --quiet .
python3 -m ruff format --check --quiet .
git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format-19 --dry-run --Werror
python3 scripts/check_layering.py
python3 scripts/check_imports.py
