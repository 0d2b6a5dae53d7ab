// CudaDriverApi.h - The driver entry points CudaLibrary resolves with dlsym, and the handle
// types and cuda.h constants they take: private to the files that implement the CUDA driver.
#pragma once

#include "cuda/CudaTypes.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace taipan::cuda {

namespace driver_api {

// Opaque handles, declared here rather than taken from cuda.h so that nothing needs the toolkit.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;
struct CUlinkState_st;
using CUlinkState = CUlinkState_st *;
struct CUmemPoolHandle_st;
using CUmemoryPool = CUmemPoolHandle_st *;

/// CUmemPoolProps as cuda.h lays it out (88 bytes): a pool of device memory on one device.
struct CUmemPoolProps {
  int allocType = 1;    // CU_MEM_ALLOCATION_TYPE_PINNED
  int handleTypes = 0;  // CU_MEM_HANDLE_TYPE_NONE
  int locationType = 1; // CU_MEM_LOCATION_TYPE_DEVICE
  int locationId = 0;   // the device ordinal
  void *win32SecurityAttributes = nullptr;
  size_t maxSize = 0;
  unsigned short usage = 0;
  unsigned char reserved[54] = {};
};
static_assert(sizeof(CUmemPoolProps) == 88, "CUmemPoolProps must match cuda.h");
constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
constexpr int CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 1;
/// CUipcMemHandle and CUmemPoolPtrExportData: 64 opaque bytes each.
struct CUipcMemHandle {
  unsigned char reserved[64];
};
/// CUmemAccessDesc: a location (type, id) and CU_MEM_ACCESS_FLAGS_PROT_READWRITE (3).
struct CUmemAccessDesc {
  int locationType = 1; // CU_MEM_LOCATION_TYPE_DEVICE
  int locationId = 0;
  int flags = 3;
};
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;

// CUjit_option values, numbered as in cuda.h.
constexpr int CU_JIT_MAX_REGISTERS = 0;
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_TARGET = 9;
constexpr int CU_JIT_LOG_VERBOSE = 12;

// Flag values from cuda.h, renamed where cuda.h makes them macros.
constexpr unsigned MemHostAllocDeviceMap = 0x02;    // CU_MEMHOSTALLOC_DEVICEMAP
constexpr unsigned MemHostRegisterDeviceMap = 0x02; // CU_MEMHOSTREGISTER_DEVICEMAP
constexpr unsigned MemAttachGlobal = 0x1;           // CU_MEM_ATTACH_GLOBAL
constexpr unsigned StreamNonBlocking = 0x1;         // CU_STREAM_NON_BLOCKING
constexpr unsigned EventDisableTiming = 0x2;        // CU_EVENT_DISABLE_TIMING

/// Enough for every message ptxas gives on a large kernel; it stops after the first errors.
constexpr size_t JitLogBytes = 64 * 1024;

inline CUstream asStream(void *stream) { return static_cast<CUstream>(stream); }
inline CUevent asEvent(void *event) { return static_cast<CUevent>(event); }
inline CUfunction asFunction(void *function) { return static_cast<CUfunction>(function); }

/// Whether `stream` is null or one of the default-stream handles, which are never destroyed.
inline bool isDefaultStream(void *stream) {
  return stream == nullptr || stream == StreamLegacy || stream == StreamPerThread;
}

/// The text the JIT wrote into a log buffer, without the trailing newlines it tends to leave.
inline std::string logText(const std::vector<char> &buffer) {
  std::string text(buffer.data(), strnlen(buffer.data(), buffer.size()));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}

/// The JIT options module loads and links share (cuModuleLoadDataEx, cuLinkCreate): an info
/// and an error log, each buffer keeping its last byte back from the JIT so that the text
/// always ends in a NUL, and the kernel's max_registers when it has one. Not copyable: the
/// option values point into the buffers.
class JitOptions {
public:
  explicit JitOptions(int maxRegisters = 0) {
    add(CU_JIT_INFO_LOG_BUFFER, info.data());
    add(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, JitLogBytes - 1);
    add(CU_JIT_ERROR_LOG_BUFFER, errors.data());
    add(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JitLogBytes - 1);
    add(CU_JIT_LOG_VERBOSE, 1);
    if (maxRegisters > 0)
      add(CU_JIT_MAX_REGISTERS, static_cast<unsigned>(maxRegisters));
  }
  JitOptions(const JitOptions &) = delete;
  JitOptions &operator=(const JitOptions &) = delete;

  /// Compiles for CUjit_target `target` instead of the context's device (an arch-specific
  /// one, such as sm_90a: CU_COMPUTE_ACCELERATED_TARGET_BASE + 90).
  void setTarget(unsigned target) { add(CU_JIT_TARGET, std::uintptr_t{target}); }

  unsigned count() const { return static_cast<unsigned>(names.size()); }
  int *options() { return names.data(); }
  void **values() { return settings.data(); }
  /// The value given with `option` (integers are passed in the pointer itself), or nullptr.
  void *valueOf(int option) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == option)
        return settings[i];
    return nullptr;
  }

  std::string infoLog() const { return logText(info); }
  /// The error log after a failure, which `log` (the caller's, when given) receives too.
  std::string failureLog(std::string *log) const {
    std::string text = logText(errors);
    if (log)
      *log = text;
    return text;
  }

private:
  void add(int option, void *value) {
    names.push_back(option);
    settings.push_back(value);
  }
  void add(int option, std::uintptr_t value) { add(option, reinterpret_cast<void *>(value)); }

  std::vector<char> info = std::vector<char>(JitLogBytes, '\0');
  std::vector<char> errors = std::vector<char>(JitLogBytes, '\0');
  std::vector<int> names;
  std::vector<void *> settings;
};

/// "12.4" for the driver's 12040.
inline std::string versionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

} // namespace driver_api
using namespace driver_api;

/// The driver's functions, each with the name that error messages use for it. An entry the
/// library lacks stays null and fails when called, so an old driver still runs what it has.
struct CudaApi {
  template <typename... Params> struct Entry {
    CUresult (*function)(Params...) = nullptr;
    const char *name = "";
  };

  void *library = nullptr;
  int version = 0;

  Entry<unsigned> cuInit;
  Entry<int *> cuDriverGetVersion;
  Entry<CUresult, const char **> cuGetErrorName;
  Entry<CUresult, const char **> cuGetErrorString;
  Entry<int *> cuDeviceGetCount;
  Entry<CUdevice *, int> cuDeviceGet;
  Entry<char *, int, CUdevice> cuDeviceGetName;
  Entry<unsigned char *, CUdevice> cuDeviceGetUuid; ///< writes the 16 bytes of a CUuuid
  Entry<int *, int, CUdevice> cuDeviceGetAttribute;
  Entry<CUcontext *, CUdevice> cuDevicePrimaryCtxRetain;
  Entry<CUdevice> cuDevicePrimaryCtxRelease;
  Entry<CUcontext> cuCtxSetCurrent;
  Entry<CUcontext *> cuCtxGetCurrent;
  Entry<CUdevice *> cuCtxGetDevice;
  Entry<> cuProfilerStart;
  Entry<> cuProfilerStop;
  Entry<> cuCtxSynchronize;
  Entry<size_t *, size_t *> cuMemGetInfo;
  Entry<CUdeviceptr *, size_t> cuMemAlloc;
  Entry<CUdeviceptr> cuMemFree;
  Entry<CUdeviceptr, const void *, size_t> cuMemcpyHtoD;
  Entry<CUdeviceptr, const void *, size_t, CUstream> cuMemcpyHtoDAsync;
  Entry<void *, CUdeviceptr, size_t> cuMemcpyDtoH;
  Entry<void *, CUdeviceptr, size_t, CUstream> cuMemcpyDtoHAsync;
  Entry<CUdeviceptr, CUdeviceptr, size_t> cuMemcpyDtoD;
  Entry<CUdeviceptr, CUdeviceptr, size_t, CUstream> cuMemcpyDtoDAsync;
  Entry<CUdeviceptr, unsigned char, size_t> cuMemsetD8;
  Entry<CUdeviceptr, unsigned char, size_t, CUstream> cuMemsetD8Async;
  Entry<void **, size_t, unsigned> cuMemHostAlloc;
  Entry<void *> cuMemFreeHost;
  Entry<void *, size_t, unsigned> cuMemHostRegister;
  Entry<void *> cuMemHostUnregister;
  Entry<CUdeviceptr *, void *, unsigned> cuMemHostGetDevicePointer;
  Entry<CUdeviceptr *, size_t, unsigned> cuMemAllocManaged;
  Entry<CUmemoryPool *, const CUmemPoolProps *> cuMemPoolCreate;
  Entry<CUmemoryPool> cuMemPoolDestroy;
  Entry<CUmemoryPool, int, void *> cuMemPoolSetAttribute;
  Entry<CUmemoryPool, size_t> cuMemPoolTrimTo;
  Entry<CUdeviceptr *, size_t, CUmemoryPool, CUstream> cuMemAllocFromPoolAsync;
  Entry<CUdeviceptr, CUstream> cuMemFreeAsync;
  Entry<void *, CUmemoryPool, int, unsigned long long> cuMemPoolExportToShareableHandle;
  Entry<CUmemoryPool *, void *, int, unsigned long long> cuMemPoolImportFromShareableHandle;
  Entry<CUipcMemHandle *, CUdeviceptr> cuMemPoolExportPointer;
  Entry<CUdeviceptr *, CUmemoryPool, CUipcMemHandle *> cuMemPoolImportPointer;
  Entry<CUmemoryPool, const CUmemAccessDesc *, size_t> cuMemPoolSetAccess;
  Entry<CUipcMemHandle *, CUdeviceptr> cuIpcGetMemHandle;
  Entry<CUdeviceptr *, CUipcMemHandle, unsigned> cuIpcOpenMemHandle;
  Entry<CUdeviceptr> cuIpcCloseMemHandle;
  Entry<CUmodule *, const void *, unsigned, int *, void **> cuModuleLoadDataEx;
  Entry<CUmodule> cuModuleUnload;
  Entry<CUfunction *, CUmodule, const char *> cuModuleGetFunction;
  Entry<CUdeviceptr *, size_t *, CUmodule, const char *> cuModuleGetGlobal;
  Entry<int *, int, CUfunction> cuFuncGetAttribute;
  Entry<CUfunction, int, int> cuFuncSetAttribute;
  Entry<CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
        void **, void **>
      cuLaunchKernel;
  Entry<CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
        void **>
      cuLaunchCooperativeKernel;
  Entry<int *, CUfunction, int, size_t> cuOccupancyMaxActiveBlocksPerMultiprocessor;
  Entry<int *, int *, CUfunction, size_t (*)(int), size_t, int> cuOccupancyMaxPotentialBlockSize;
  Entry<CUstream *, unsigned> cuStreamCreate;
  Entry<CUstream> cuStreamDestroy;
  Entry<CUstream> cuStreamSynchronize;
  Entry<CUstream> cuStreamQuery;
  Entry<unsigned, int *, void **, CUlinkState *> cuLinkCreate;
  Entry<CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **> cuLinkAddData;
  Entry<CUlinkState, int, const char *, unsigned, int *, void **> cuLinkAddFile;
  Entry<CUlinkState, void **, size_t *> cuLinkComplete;
  Entry<CUlinkState> cuLinkDestroy;
  Entry<CUstream, void (*)(void *), void *> cuLaunchHostFunc;
  Entry<void *, int, CUdeviceptr> cuPointerGetAttribute;
  Entry<CUevent *, unsigned> cuEventCreate;
  Entry<CUevent> cuEventDestroy;
  Entry<CUevent, CUstream> cuEventRecord;
  Entry<CUevent> cuEventSynchronize;
  Entry<CUevent> cuEventQuery;
  Entry<float *, CUevent, CUevent> cuEventElapsedTime;

  /// Looks `entry` up as `symbol` (the versioned name cuda.h maps `name` to) or `fallback`,
  /// which older drivers have instead.
  template <typename... Params>
  void resolve(Entry<Params...> &entry, const char *name, const char *symbol = nullptr,
               const char *fallback = nullptr) {
    entry.name = name;
    void *address = dlsym(library, symbol ? symbol : name);
    if (!address && fallback)
      address = dlsym(library, fallback);
    entry.function = reinterpret_cast<decltype(entry.function)>(address);
  }

  void resolveAll() {
    resolve(cuInit, "cuInit");
    resolve(cuDriverGetVersion, "cuDriverGetVersion");
    resolve(cuGetErrorName, "cuGetErrorName");
    resolve(cuGetErrorString, "cuGetErrorString");
    resolve(cuDeviceGetCount, "cuDeviceGetCount");
    resolve(cuDeviceGet, "cuDeviceGet");
    resolve(cuDeviceGetName, "cuDeviceGetName");
    resolve(cuDeviceGetUuid, "cuDeviceGetUuid", "cuDeviceGetUuid_v2", "cuDeviceGetUuid");
    resolve(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    resolve(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    resolve(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2",
            "cuDevicePrimaryCtxRelease");
    resolve(cuCtxSetCurrent, "cuCtxSetCurrent");
    resolve(cuCtxGetCurrent, "cuCtxGetCurrent");
    resolve(cuCtxGetDevice, "cuCtxGetDevice");
    resolve(cuProfilerStart, "cuProfilerStart");
    resolve(cuProfilerStop, "cuProfilerStop");
    resolve(cuCtxSynchronize, "cuCtxSynchronize");
    resolve(cuMemGetInfo, "cuMemGetInfo", "cuMemGetInfo_v2");
    resolve(cuMemAlloc, "cuMemAlloc", "cuMemAlloc_v2");
    resolve(cuMemFree, "cuMemFree", "cuMemFree_v2");
    resolve(cuMemcpyHtoD, "cuMemcpyHtoD", "cuMemcpyHtoD_v2");
    resolve(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync", "cuMemcpyHtoDAsync_v2");
    resolve(cuMemcpyDtoH, "cuMemcpyDtoH", "cuMemcpyDtoH_v2");
    resolve(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync", "cuMemcpyDtoHAsync_v2");
    resolve(cuMemcpyDtoD, "cuMemcpyDtoD", "cuMemcpyDtoD_v2");
    resolve(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync", "cuMemcpyDtoDAsync_v2");
    resolve(cuMemsetD8, "cuMemsetD8", "cuMemsetD8_v2");
    resolve(cuMemsetD8Async, "cuMemsetD8Async");
    resolve(cuMemHostAlloc, "cuMemHostAlloc");
    resolve(cuMemFreeHost, "cuMemFreeHost");
    resolve(cuMemHostRegister, "cuMemHostRegister", "cuMemHostRegister_v2");
    resolve(cuMemHostUnregister, "cuMemHostUnregister");
    resolve(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer", "cuMemHostGetDevicePointer_v2");
    resolve(cuMemAllocManaged, "cuMemAllocManaged");
    resolve(cuMemPoolCreate, "cuMemPoolCreate");
    resolve(cuMemPoolDestroy, "cuMemPoolDestroy");
    resolve(cuMemPoolSetAttribute, "cuMemPoolSetAttribute");
    resolve(cuMemPoolTrimTo, "cuMemPoolTrimTo");
    resolve(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync");
    resolve(cuMemFreeAsync, "cuMemFreeAsync");
    resolve(cuMemPoolExportToShareableHandle, "cuMemPoolExportToShareableHandle");
    resolve(cuMemPoolImportFromShareableHandle, "cuMemPoolImportFromShareableHandle");
    resolve(cuMemPoolExportPointer, "cuMemPoolExportPointer");
    resolve(cuMemPoolImportPointer, "cuMemPoolImportPointer");
    resolve(cuMemPoolSetAccess, "cuMemPoolSetAccess");
    resolve(cuIpcGetMemHandle, "cuIpcGetMemHandle");
    resolve(cuIpcOpenMemHandle, "cuIpcOpenMemHandle", "cuIpcOpenMemHandle_v2",
            "cuIpcOpenMemHandle");
    resolve(cuIpcCloseMemHandle, "cuIpcCloseMemHandle");
    resolve(cuModuleLoadDataEx, "cuModuleLoadDataEx");
    resolve(cuModuleUnload, "cuModuleUnload");
    resolve(cuModuleGetFunction, "cuModuleGetFunction");
    resolve(cuModuleGetGlobal, "cuModuleGetGlobal", "cuModuleGetGlobal_v2");
    resolve(cuFuncGetAttribute, "cuFuncGetAttribute");
    resolve(cuFuncSetAttribute, "cuFuncSetAttribute");
    resolve(cuLaunchKernel, "cuLaunchKernel");
    resolve(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel");
    resolve(cuOccupancyMaxActiveBlocksPerMultiprocessor,
            "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    resolve(cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize");
    resolve(cuStreamCreate, "cuStreamCreate");
    resolve(cuStreamDestroy, "cuStreamDestroy", "cuStreamDestroy_v2");
    resolve(cuStreamSynchronize, "cuStreamSynchronize");
    resolve(cuStreamQuery, "cuStreamQuery");
    resolve(cuLinkCreate, "cuLinkCreate", "cuLinkCreate_v2", "cuLinkCreate");
    resolve(cuLinkAddData, "cuLinkAddData", "cuLinkAddData_v2", "cuLinkAddData");
    resolve(cuLinkAddFile, "cuLinkAddFile", "cuLinkAddFile_v2", "cuLinkAddFile");
    resolve(cuLinkComplete, "cuLinkComplete");
    resolve(cuLinkDestroy, "cuLinkDestroy");
    resolve(cuLaunchHostFunc, "cuLaunchHostFunc");
    resolve(cuPointerGetAttribute, "cuPointerGetAttribute");
    resolve(cuEventCreate, "cuEventCreate");
    resolve(cuEventDestroy, "cuEventDestroy", "cuEventDestroy_v2");
    resolve(cuEventRecord, "cuEventRecord");
    resolve(cuEventSynchronize, "cuEventSynchronize");
    resolve(cuEventQuery, "cuEventQuery");
    // CUDA 12.8 added a _v2 that cuda.h now maps to; drivers before it have only the original.
    resolve(cuEventElapsedTime, "cuEventElapsedTime", "cuEventElapsedTime_v2",
            "cuEventElapsedTime");
  }

  /// Calls `entry`, returning its status; for calls where some failures are answers.
  template <typename... Params, typename... Args>
  CUresult invoke(const Entry<Params...> &entry, Args... arguments) const {
    if (!entry.function)
      missing(entry.name);
    return entry.function(arguments...);
  }

  /// Calls `entry`, throwing CudaError on failure.
  template <typename... Params, typename... Args>
  void call(const Entry<Params...> &entry, Args... arguments) const {
    CUresult result = invoke(entry, arguments...);
    if (result != CUDA_SUCCESS)
      fail(result, entry.name);
  }

  /// The driver's name for `code`, or null.
  const char *errorName(CUresult code) const {
    const char *name = nullptr;
    if (!cuGetErrorName.function || cuGetErrorName.function(code, &name) != CUDA_SUCCESS)
      return nullptr;
    return name;
  }

  std::string describe(CUresult code) const {
    const char *text = nullptr;
    if (!cuGetErrorString.function || cuGetErrorString.function(code, &text) != CUDA_SUCCESS)
      text = nullptr;
    return CudaError::describe(code, errorName(code), text);
  }

  /// Throws the error for `code` returned by `function`. `context` goes inside the parentheses
  /// that name the function; `log` (the JIT's messages) follows on its own lines.
  [[noreturn]] void fail(CUresult code, const char *function, const std::string &context = {},
                         const std::string &log = {}) const {
    const char *name = errorName(code);
    std::string message = describe(code) + " (in " + function + context + ")";
    if (!log.empty())
      message += ":\n" + log;
    throw CudaError(code, name ? name : "", message);
  }

  [[noreturn]] void missing(const char *function) const {
    std::string driver = "the installed CUDA driver";
    if (version)
      driver += " (CUDA " + versionText(version) + ")";
    throw CudaError(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER",
                    driver + " has no " + function + "; a newer NVIDIA driver is needed");
  }
};

} // namespace taipan::cuda
