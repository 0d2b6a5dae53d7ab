// Shims from taipan kernels to cuRAND's device API (curand_kernel.h), as in the talk "Accelerated
// Python with Numba": each forwards to the cuRAND function it is named after.
//
// Declared in curand_binding.py with cuda.declare_device and Numba's calling convention: a
// function returns 0 and writes its result through the first parameter. The states are arrays in
// global memory; `index` picks one.

#include <curand_kernel.h>

extern "C" __device__ int _numba_curand_init(int *numba_return_value, unsigned long long seed,
                                             unsigned long long subsequence,
                                             unsigned long long offset, curandState *states,
                                             unsigned long long index) {
  curand_init(seed, subsequence, offset, &states[index]);
  return 0;
}

extern "C" __device__ int _numba_curand(unsigned int *numba_return_value, curandState *states,
                                        unsigned long long index) {
  *numba_return_value = curand(&states[index]);
  return 0;
}

extern "C" __device__ int _numba_curand_philox_init(int *numba_return_value,
                                                    unsigned long long seed,
                                                    unsigned long long subsequence,
                                                    unsigned long long offset,
                                                    curandStatePhilox4_32_10_t *states,
                                                    unsigned long long index) {
  curand_init(seed, subsequence, offset, &states[index]);
  return 0;
}

extern "C" __device__ int _numba_curand_philox(unsigned int *numba_return_value,
                                               curandStatePhilox4_32_10_t *states,
                                               unsigned long long index) {
  *numba_return_value = curand(&states[index]);
  return 0;
}

// The sizes of the state structs, which the NumPy dtypes in curand_binding.py must match.
extern "C" __device__ int _numba_curand_state_size(unsigned long long *numba_return_value) {
  *numba_return_value = sizeof(curandState);
  return 0;
}

extern "C" __device__ int _numba_curand_philox_state_size(unsigned long long *numba_return_value) {
  *numba_return_value = sizeof(curandStatePhilox4_32_10_t);
  return 0;
}
