#!/bin/sh
# Issue 33's proofs on a GPU host (run from the repository root, with the taipan to test
# importable): the cuRAND binding against cuRAND's host API, the UDF engine over 10**7 rows,
# the Quaternion kernel. Each prints PASS/FAIL lines and its figures; the status is 1 if any
# failed. Needs NVRTC and the CUDA headers (curand_kernel.h) for shim.cu, and libcurand or CuPy
# for the host API's numbers.
status=0
for script in examples/curand_binding/check_on_gpu.py examples/udf_engine/run_on_gpu.py \
    examples/quaternion/quaternion.py; do
  echo "== python $script"
  python "$script" || status=1
done
exit $status
