#!/usr/bin/env bash
# Developer loop: builds taipan._core (and the C++ tests) into build/dev-<python> and links the
# extension into src/taipan, so `PYTHONPATH=src python3 -m pytest tests/python` runs the working
# tree without reinstalling. PYTHON=python3.12 builds for another interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
python=$(command -v "${PYTHON:-python3}")
tag=$("$python" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')
dir=build/dev-$tag
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" -G Ninja -DSKBUILD=ON -DTAIPAN_BUILD_TESTS=ON \
    -DPython_EXECUTABLE="$python" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$dir" -j2
extension=$(ls "$dir"/src/bindings/_core*.so)
ln -sf "../../$extension" "src/taipan/$(basename "$extension")"
