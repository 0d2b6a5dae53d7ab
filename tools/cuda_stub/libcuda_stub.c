/* libcuda_stub.c - A stand-in for libcuda.so.1 on machines without a GPU, for timing and
 * profiling taipan's host side of CUDA (launches, first calls) only: every entry point taipan
 * resolves answers CUDA_SUCCESS with made-up handles and an H200's properties.
 *
 * Nothing runs on a "device": kernels are not executed, "device memory" is host memory from
 * malloc (so copies round-trip), streams, events and host functions complete at once. Results
 * of kernels are therefore meaningless. taipan loads this library only when TAIPAN_CUDA_DRIVER
 * names it, and it initialises only when TAIPAN_CUDA_STUB=1 too (see tools/cuda_stub/README.md);
 * it is built under build/, never where the dynamic loader or a test would find it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *Handle;

#define SUCCESS 0
#define INVALID_VALUE 1
#define EXPORT __attribute__((visibility("default")))

/* Distinct addresses serve as the handles of contexts, pools and functions. */
static char contextObject, poolObject, functionObject, linkObject, cubinImage[16];
static __thread Handle currentContext;

static void *deviceBytes(size_t bytes) {
  void *memory = NULL;
  /* 256-byte alignment, as cuMemAlloc gives; at least one byte so that every pointer differs. */
  if (posix_memalign(&memory, 256, bytes ? bytes : 1) != 0)
    return NULL;
  memset(memory, 0, bytes ? bytes : 1);
  return memory;
}

/* Answers only where TAIPAN_CUDA_STUB=1 says that a stand-in is wanted: anywhere else it is the
 * toolkit's stub library as far as taipan can tell (CUDA_ERROR_STUB_LIBRARY), so a stray
 * TAIPAN_CUDA_DRIVER setting makes CUDA unavailable rather than silently fake. */
EXPORT CUresult cuInit(unsigned flags) {
  (void)flags;
  const char *wanted = getenv("TAIPAN_CUDA_STUB");
  return wanted && strcmp(wanted, "1") == 0 ? SUCCESS : 34;
}
EXPORT CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return SUCCESS;
}
EXPORT CUresult cuGetErrorName(CUresult code, const char **name) {
  *name = code == SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_STUB_DRIVER";
  return SUCCESS;
}
EXPORT CUresult cuGetErrorString(CUresult code, const char **text) {
  *text = code == SUCCESS ? "no error" : "an error of taipan's stub CUDA driver";
  return SUCCESS;
}
EXPORT CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return SUCCESS;
}
EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return SUCCESS;
}
EXPORT CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  (void)device;
  strncpy(name, "taipan stub CUDA driver (no GPU)", (size_t)length);
  if (length > 0)
    name[length - 1] = '\0';
  return SUCCESS;
}
EXPORT CUresult cuDeviceGetUuid(unsigned char *bytes, CUdevice device) {
  (void)device;
  memset(bytes, 0x5a, 16);
  return SUCCESS;
}
EXPORT CUresult cuDeviceGetUuid_v2(unsigned char *bytes, CUdevice device) {
  return cuDeviceGetUuid(bytes, device);
}

/* An H200's answers (CUdevice_attribute numbers); any other attribute reads 0. */
EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  (void)device;
  switch (attribute) {
  case 1:
  case 2:
  case 3:
    *value = 1024;
    break; /* threads per block, block x/y */
  case 4:
    *value = 64;
    break; /* block z */
  case 5:
    *value = 2147483647;
    break; /* grid x */
  case 6:
  case 7:
    *value = 65535;
    break; /* grid y/z */
  case 8:
    *value = 49152;
    break; /* shared memory per block */
  case 9:
    *value = 65536;
    break; /* constant memory */
  case 10:
    *value = 32;
    break; /* warp size */
  case 12:
    *value = 65536;
    break; /* registers per block */
  case 13:
    *value = 1980000;
    break; /* clock rate, kHz */
  case 16:
    *value = 132;
    break; /* multiprocessors */
  case 19:
  case 31:
  case 41:
  case 83:
  case 95:
  case 115:
    *value = 1;
    break;
  case 39:
    *value = 2048;
    break; /* threads per multiprocessor */
  case 75:
    *value = 9;
    break; /* compute capability 9.0 */
  case 76:
    *value = 0;
    break;
  case 97:
    *value = 232448;
    break; /* opt-in shared memory per block */
  default:
    *value = 0;
    break;
  }
  return SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(Handle *context, CUdevice device) {
  (void)device;
  *context = &contextObject;
  return SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice device) {
  (void)device;
  return SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  (void)device;
  return SUCCESS;
}
EXPORT CUresult cuCtxSetCurrent(Handle context) {
  currentContext = context;
  return SUCCESS;
}
EXPORT CUresult cuCtxGetCurrent(Handle *context) {
  *context = currentContext;
  return SUCCESS;
}
EXPORT CUresult cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return SUCCESS;
}
EXPORT CUresult cuCtxSynchronize(void) { return SUCCESS; }
EXPORT CUresult cuProfilerStart(void) { return SUCCESS; }
EXPORT CUresult cuProfilerStop(void) { return SUCCESS; }

EXPORT CUresult cuMemGetInfo_v2(size_t *available, size_t *total) {
  *total = (size_t)141 << 30;
  *available = (size_t)140 << 30;
  return SUCCESS;
}
EXPORT CUresult cuMemGetInfo(size_t *available, size_t *total) {
  return cuMemGetInfo_v2(available, total);
}
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  void *memory = deviceBytes(bytes);
  *pointer = (CUdeviceptr)(uintptr_t)memory;
  return memory ? SUCCESS : 2; /* CUDA_ERROR_OUT_OF_MEMORY */
}
EXPORT CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  return cuMemAlloc_v2(pointer, bytes);
}
EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  free((void *)(uintptr_t)pointer);
  return SUCCESS;
}
EXPORT CUresult cuMemFree(CUdeviceptr pointer) { return cuMemFree_v2(pointer); }
EXPORT CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned flags) {
  (void)flags;
  return cuMemAlloc_v2(pointer, bytes);
}
EXPORT CUresult cuMemPoolCreate(Handle *pool, const void *properties) {
  (void)properties;
  *pool = &poolObject;
  return SUCCESS;
}
EXPORT CUresult cuMemPoolDestroy(Handle pool) {
  (void)pool;
  return SUCCESS;
}
EXPORT CUresult cuMemPoolSetAttribute(Handle pool, int attribute, void *value) {
  (void)pool, (void)attribute, (void)value;
  return SUCCESS;
}
EXPORT CUresult cuMemPoolTrimTo(Handle pool, size_t keep) {
  (void)pool, (void)keep;
  return SUCCESS;
}
EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *pointer, size_t bytes, Handle pool,
                                        Handle stream) {
  (void)pool, (void)stream;
  return cuMemAlloc_v2(pointer, bytes);
}
EXPORT CUresult cuMemFreeAsync(CUdeviceptr pointer, Handle stream) {
  (void)stream;
  return cuMemFree_v2(pointer);
}

/* Copies and sets between host memory, which is all this driver has; asynchronous ones are
 * done at once. */
#define COPY(name, version, Destination, Source)                                                   \
  EXPORT CUresult name##version(Destination to, Source from, size_t bytes) {                       \
    memcpy((void *)(uintptr_t)to, (const void *)(uintptr_t)from, bytes);                           \
    return SUCCESS;                                                                                \
  }                                                                                                \
  EXPORT CUresult name##Async##version(Destination to, Source from, size_t bytes, Handle stream) { \
    (void)stream;                                                                                  \
    return name##version(to, from, bytes);                                                         \
  }
COPY(cuMemcpyHtoD, _v2, CUdeviceptr, const void *)
COPY(cuMemcpyHtoD, , CUdeviceptr, const void *)
COPY(cuMemcpyDtoH, _v2, void *, CUdeviceptr)
COPY(cuMemcpyDtoH, , void *, CUdeviceptr)
COPY(cuMemcpyDtoD, _v2, CUdeviceptr, CUdeviceptr)
COPY(cuMemcpyDtoD, , CUdeviceptr, CUdeviceptr)
EXPORT CUresult cuMemsetD8_v2(CUdeviceptr to, unsigned char value, size_t bytes) {
  memset((void *)(uintptr_t)to, value, bytes);
  return SUCCESS;
}
EXPORT CUresult cuMemsetD8(CUdeviceptr to, unsigned char value, size_t bytes) {
  return cuMemsetD8_v2(to, value, bytes);
}
EXPORT CUresult cuMemsetD8Async(CUdeviceptr to, unsigned char value, size_t bytes, Handle stream) {
  (void)stream;
  return cuMemsetD8_v2(to, value, bytes);
}

EXPORT CUresult cuMemHostAlloc(void **pointer, size_t bytes, unsigned flags) {
  (void)flags;
  *pointer = deviceBytes(bytes);
  return *pointer ? SUCCESS : 2;
}
EXPORT CUresult cuMemFreeHost(void *pointer) {
  free(pointer);
  return SUCCESS;
}
EXPORT CUresult cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
  (void)pointer, (void)bytes, (void)flags;
  return SUCCESS;
}
EXPORT CUresult cuMemHostRegister(void *pointer, size_t bytes, unsigned flags) {
  return cuMemHostRegister_v2(pointer, bytes, flags);
}
EXPORT CUresult cuMemHostUnregister(void *pointer) {
  (void)pointer;
  return SUCCESS;
}
EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *device, void *host, unsigned flags) {
  (void)flags;
  *device = (CUdeviceptr)(uintptr_t)host;
  return SUCCESS;
}
EXPORT CUresult cuMemHostGetDevicePointer(CUdeviceptr *device, void *host, unsigned flags) {
  return cuMemHostGetDevicePointer_v2(device, host, flags);
}
/* Device ordinal (9) reads 0; the memory type (2) of any pointer is unknown, as plain host
 * memory's is to the real driver, so copies take the pageable path. */
EXPORT CUresult cuPointerGetAttribute(void *value, int attribute, CUdeviceptr pointer) {
  (void)pointer;
  if (attribute != 9)
    return INVALID_VALUE;
  *(int *)value = 0;
  return SUCCESS;
}

/* Modules: any image loads; every function is one handle; a global is fresh zeroed memory
 * (a debug kernel's exception flag then reads "none raised"). */
EXPORT CUresult cuModuleLoadDataEx(Handle *module, const void *image, unsigned count, int *options,
                                   void **values) {
  (void)image, (void)count, (void)options, (void)values;
  *module = deviceBytes(16);
  return SUCCESS;
}
EXPORT CUresult cuModuleUnload(Handle module) {
  free(module);
  return SUCCESS;
}
EXPORT CUresult cuModuleGetFunction(Handle *function, Handle module, const char *name) {
  (void)module, (void)name;
  *function = &functionObject;
  return SUCCESS;
}
EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *pointer, size_t *bytes, Handle module,
                                     const char *name) {
  (void)module, (void)name;
  enum { GlobalBytes = 4096 };
  if (pointer)
    *pointer = (CUdeviceptr)(uintptr_t)deviceBytes(GlobalBytes);
  if (bytes)
    *bytes = GlobalBytes;
  return SUCCESS;
}
EXPORT CUresult cuModuleGetGlobal(CUdeviceptr *pointer, size_t *bytes, Handle module,
                                  const char *name) {
  return cuModuleGetGlobal_v2(pointer, bytes, module, name);
}
EXPORT CUresult cuFuncGetAttribute(int *value, int attribute, Handle function) {
  (void)function;
  *value = attribute == 0 ? 1024 : 0; /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
  return SUCCESS;
}
EXPORT CUresult cuFuncSetAttribute(Handle function, int attribute, int value) {
  (void)function, (void)attribute, (void)value;
  return SUCCESS;
}

EXPORT CUresult cuLaunchKernel(Handle function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shared, Handle stream,
                               void **parameters, void **extra) {
  (void)function, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared;
  (void)stream, (void)parameters, (void)extra;
  return SUCCESS;
}
EXPORT CUresult cuLaunchCooperativeKernel(Handle function, unsigned gx, unsigned gy, unsigned gz,
                                          unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                          Handle stream, void **parameters) {
  return cuLaunchKernel(function, gx, gy, gz, bx, by, bz, shared, stream, parameters, NULL);
}
EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, Handle function,
                                                            int blockSize, size_t shared) {
  (void)function, (void)shared;
  *blocks = blockSize > 0 ? 2048 / blockSize : 0;
  return SUCCESS;
}
EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *minGrid, int *blockSize, Handle function,
                                                 size_t (*sharedOf)(int), size_t shared,
                                                 int limit) {
  (void)function, (void)sharedOf, (void)shared, (void)limit;
  *minGrid = 264;
  *blockSize = 1024;
  return SUCCESS;
}

/* Streams and events: each a small allocation; all work is complete at once. */
EXPORT CUresult cuStreamCreate(Handle *stream, unsigned flags) {
  (void)flags;
  *stream = deviceBytes(16);
  return SUCCESS;
}
EXPORT CUresult cuStreamDestroy_v2(Handle stream) {
  free(stream);
  return SUCCESS;
}
EXPORT CUresult cuStreamDestroy(Handle stream) { return cuStreamDestroy_v2(stream); }
EXPORT CUresult cuStreamSynchronize(Handle stream) {
  (void)stream;
  return SUCCESS;
}
EXPORT CUresult cuStreamQuery(Handle stream) {
  (void)stream;
  return SUCCESS;
}
EXPORT CUresult cuLaunchHostFunc(Handle stream, void (*function)(void *), void *data) {
  (void)stream;
  function(data);
  return SUCCESS;
}
EXPORT CUresult cuEventCreate(Handle *event, unsigned flags) {
  (void)flags;
  *event = deviceBytes(16);
  return SUCCESS;
}
EXPORT CUresult cuEventDestroy_v2(Handle event) {
  free(event);
  return SUCCESS;
}
EXPORT CUresult cuEventDestroy(Handle event) { return cuEventDestroy_v2(event); }
EXPORT CUresult cuEventRecord(Handle event, Handle stream) {
  (void)event, (void)stream;
  return SUCCESS;
}
EXPORT CUresult cuEventSynchronize(Handle event) {
  (void)event;
  return SUCCESS;
}
EXPORT CUresult cuEventQuery(Handle event) {
  (void)event;
  return SUCCESS;
}
EXPORT CUresult cuEventElapsedTime_v2(float *milliseconds, Handle start, Handle end) {
  (void)start, (void)end;
  *milliseconds = 0.001f;
  return SUCCESS;
}
EXPORT CUresult cuEventElapsedTime(float *milliseconds, Handle start, Handle end) {
  return cuEventElapsedTime_v2(milliseconds, start, end);
}

/* The linker: every input accepted; the "image" is a few bytes the stub's loader takes. */
EXPORT CUresult cuLinkCreate_v2(unsigned count, int *options, void **values, Handle *state) {
  (void)count, (void)options, (void)values;
  *state = &linkObject;
  return SUCCESS;
}
EXPORT CUresult cuLinkCreate(unsigned count, int *options, void **values, Handle *state) {
  return cuLinkCreate_v2(count, options, values, state);
}
EXPORT CUresult cuLinkAddData_v2(Handle state, int kind, void *data, size_t bytes, const char *name,
                                 unsigned count, int *options, void **values) {
  (void)state, (void)kind, (void)data, (void)bytes, (void)name, (void)count, (void)options;
  (void)values;
  return SUCCESS;
}
EXPORT CUresult cuLinkAddData(Handle state, int kind, void *data, size_t bytes, const char *name,
                              unsigned count, int *options, void **values) {
  return cuLinkAddData_v2(state, kind, data, bytes, name, count, options, values);
}
EXPORT CUresult cuLinkAddFile_v2(Handle state, int kind, const char *path, unsigned count,
                                 int *options, void **values) {
  (void)state, (void)kind, (void)path, (void)count, (void)options, (void)values;
  return SUCCESS;
}
EXPORT CUresult cuLinkAddFile(Handle state, int kind, const char *path, unsigned count,
                              int *options, void **values) {
  return cuLinkAddFile_v2(state, kind, path, count, options, values);
}
EXPORT CUresult cuLinkComplete(Handle state, void **image, size_t *bytes) {
  (void)state;
  *image = cubinImage;
  *bytes = sizeof cubinImage;
  return SUCCESS;
}
EXPORT CUresult cuLinkDestroy(Handle state) {
  (void)state;
  return SUCCESS;
}
