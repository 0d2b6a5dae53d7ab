#!/usr/bin/env bash
# The GPU host (issue 32): numba-cuda 0.30.4's own test suite with numba-cuda (the baseline)
# and on taipan through the shim, one phase a command (the host limits a command to 10
# minutes): `build`, then `numba-cuda`, then `taipan` (any order after build). Run from the
# root of a `git archive HEAD` copy that holds .gpu-kit (the LLVM kit, unpack.sh); the results
# accumulate in $CUDA_SUITE_STATE (default /tmp/cuda_suite, kept while the host stays warm) and
# each phase copies report.md, results.json and the pytest logs to $OUT.
# .gpu-kit/run_cuda_suite.sh is this file (.gpu-kit is not tracked).
set -uo pipefail
export PYTHONUNBUFFERED=1
phase=${1:?usage: $0 build|numba-cuda|taipan}
state=${CUDA_SUITE_STATE:-/tmp/cuda_suite}
jobs=${CUDA_SUITE_JOBS:-16}
mkdir -p "$state"
start=$(date +%s)
case "$phase" in
build)
  bash .gpu-kit/unpack.sh > "$OUT/unpack.log" 2>&1 || { tail -20 "$OUT/unpack.log"; exit 1; }
  python3 -m pip install --no-build-isolation -q -C build-dir=build/wheel \
    -C build.tool-args=-j16 . > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
  echo "built in $(( $(date +%s) - start )) s"
  nvidia-smi --query-gpu=name --format=csv,noheader
  python3 -c "import importlib.metadata as m; print(*(f'{p} {m.version(p)}' for p in ('numba-cuda', 'numba', 'numpy', 'pytest-xdist')))"
  python3 -c "import filecheck" 2>/dev/null && echo "filecheck: installed" || echo "filecheck: the stand-in"
  ;;
numba-cuda|taipan)
  timeout 580 python3 tools/numba_compat/cuda_suite.py --sides "$phase" --merge --jobs "$jobs" \
    --timeout 480 --test-timeout 120 --out "$state" > "$state/$phase.stdout" 2> "$state/$phase.stderr"
  echo "$phase: rc=$? in $(( $(date +%s) - start )) s"
  tail -3 "$state/$phase.stderr"
  grep -E "^- (In scope|Sides)|all in scope" "$state/report.md"
  ;;
*)
  echo "unknown phase $phase"; exit 2
  ;;
esac
cp -r "$state/report.md" "$state/results.json" "$state/logs" "$OUT/" 2>/dev/null
exit 0
