// CudaMemory.cpp - Device and host memory: allocation, frees deferred until streams are done,
// large blocks kept for reuse, copies between host and device, and IPC export and import.

#include "cuda/CudaMemory.h"
#include "cuda/CudaContexts.h"
#include "cuda/CudaDriverApi.h"
#include "cuda/CudaLibrary.h"
#include "cuda/StagedCopy.h"

#include <atomic>
#include <cstring>

namespace taipan::cuda {

namespace {

// The batch limits of memory freed with cuMemFree (devices without memory pools), under
// numba-cuda's thresholds below: pending cuMemFree'd memory is held from every allocation.
constexpr size_t MaxPendingBlocks = 32;
constexpr size_t MaxPendingBytes = size_t{256} << 20;
/// Enough for a loop that uploads an input and downloads an output of the same sizes.
constexpr size_t MaxIdleBlocks = 2;

/// CudaMemory::replaceCopies(): the replacement and its context.
std::atomic<CudaMemory::CopyReplacement> copyReplacement{nullptr};
std::atomic<void *> copyReplacementContext{nullptr};

/// numba-cuda's CUDA_DEALLOCS_COUNT and CUDA_DEALLOCS_RATIO (setReleaseLimits()).
std::atomic<size_t> releaseCountLimit{10};
std::atomic<double> releaseRatio{0.2};

} // namespace

CudaMemory::CudaMemory(CudaLibrary &library, CudaContexts &contexts)
    : library(library), contexts(contexts) {}

// Here, where StagingArea is complete. Memory still held is left to the contexts' release.
CudaMemory::~CudaMemory() = default;

const CudaApi *CudaMemory::api() const { return library.api(); }

void *CudaMemory::memoryPool(int ordinal, bool make) {
  std::lock_guard<std::mutex> lock(poolMutex);
  size_t index = static_cast<size_t>(ordinal);
  if (memoryPools.size() <= index) {
    memoryPools.resize(index + 1, nullptr);
    memoryPoolTried.resize(index + 1, 0);
    memoryPoolExportable.resize(index + 1, 0);
    memoryPoolExportRefusal.resize(index + 1, 0);
    memoryPoolDescriptors.resize(index + 1, -1);
  }
  if (make && !memoryPoolTried[index]) {
    memoryPoolTried[index] = 1;
    int supported = 0;
    bool present = api()->cuMemPoolCreate.function && api()->cuMemAllocFromPoolAsync.function &&
                   api()->cuMemFreeAsync.function && api()->cuMemPoolTrimTo.function &&
                   api()->cuMemPoolSetAttribute.function && api()->cuMemPoolDestroy.function;
    if (present &&
        api()->invoke(api()->cuDeviceGetAttribute, &supported,
                      CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                      contexts.deviceHandle(ordinal)) == CUDA_SUCCESS &&
        supported) {
      CUmemPoolProps properties;
      properties.locationId = ordinal;
      // Exportable where the driver can (other processes open its memory: cuda IPC handles);
      // else a pool of this process alone.
      properties.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
      CUmemoryPool pool = nullptr;
      CUresult exportable = api()->invoke(api()->cuMemPoolCreate, &pool, &properties);
      memoryPoolExportRefusal[index] = exportable;
      if (exportable == CUDA_SUCCESS) {
        memoryPoolExportable[index] = 1;
      } else {
        properties.handleTypes = 0;
        pool = nullptr;
      }
      if (pool || api()->invoke(api()->cuMemPoolCreate, &pool, &properties) == CUDA_SUCCESS) {
        uint64_t keepEverything = UINT64_MAX;
        api()->invoke(api()->cuMemPoolSetAttribute, pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                      static_cast<void *>(&keepEverything));
        memoryPools[index] = pool;
      }
    }
  }
  return memoryPools[index];
}

void CudaMemory::trimMemoryPools() {
  std::lock_guard<std::mutex> lock(poolMutex);
  for (void *pool : memoryPools)
    if (pool)
      api()->call(api()->cuMemPoolTrimTo, static_cast<CUmemoryPool>(pool), size_t{0});
}

uint64_t CudaMemory::allocate(size_t bytes, void *stream) {
  contexts.ensureContext();
  if (bytes == 0)
    return 0;
  if (void *pool = memoryPool(contexts.selectedOrdinal(), true)) {
    CUdeviceptr address = 0;
    auto take = [&] {
      return api()->invoke(api()->cuMemAllocFromPoolAsync, &address, bytes,
                           static_cast<CUmemoryPool>(pool), asStream(stream));
    };
    CUresult result = take();
    if (result == cuda::CUDA_ERROR_OUT_OF_MEMORY) {
      // Pending frees, memory the pools keep, and blocks freed with cuMemFree's batches before,
      // go back to the device once the work using them is done.
      retireIdleBlocks();
      flushDeferredFrees(true);
      api()->call(api()->cuCtxSynchronize);
      trimMemoryPools();
      result = take();
    }
    if (result != CUDA_SUCCESS)
      api()->fail(result, api()->cuMemAllocFromPoolAsync.name);
    return address;
  }
  if (bytes >= MaxPendingBytes)
    if (uint64_t idle = takeIdleBlock(bytes, contexts.selectedOrdinal()))
      return idle;
  CUdeviceptr address = 0;
  CUresult result = api()->invoke(api()->cuMemAlloc, &address, bytes);
  if (result == cuda::CUDA_ERROR_OUT_OF_MEMORY) {
    retireIdleBlocks();
    flushDeferredFrees(true);
    result = api()->invoke(api()->cuMemAlloc, &address, bytes);
  }
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuMemAlloc.name);
  return address;
}

void CudaMemory::freeDeferred(uint64_t address, size_t bytes, int device, void *stream) {
  if (address == 0)
    return;
  if (memoryPool(device, false) && (stream == nullptr || stream == StreamLegacy) &&
      bytes < MaxPendingBytes) {
    // numba-cuda's pending deallocations: the block waits in the queue, and goes back to its
    // pool in the legacy default stream's order, which is after the work queued so far. A
    // block of 256 MB or more goes back at once (below), so that the next allocation of its
    // size takes it rather than fresh memory, which is slower to fill at first.
    bool due;
    {
      std::lock_guard<std::mutex> lock(deferredMutex);
      deferredFrees.push_back({address, device, nullptr, true});
      deferredBytes += bytes;
      due = releaseDue(deferredFrees.size(), deferredBytes, false);
    }
    if (due)
      flushDeferredFrees();
    return;
  }
  if (memoryPool(device, false)) {
    // A block used on another stream (which may be gone when the queue is flushed, or be the
    // calling thread's own) returns to its device's pool at once, in that stream's order,
    // from that device's context: nothing waits. Blocks of an epoch before closeAll() find no
    // pool and take the batched frees below.
    void *current = contexts.ensureContext();
    void *context = contexts.contextOf(device);
    if (context != current)
      api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(context));
    CUresult result = api()->invoke(api()->cuMemFreeAsync, CUdeviceptr{address}, asStream(stream));
    if (context != current)
      api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(current));
    if (result != CUDA_SUCCESS)
      api()->fail(result, api()->cuMemFreeAsync.name);
    return;
  }
  if (isDefaultStream(stream) && bytes >= MaxPendingBytes && device == contexts.selectedOrdinal()) {
    // This block would be freed at once, and cuMemFree waits for the device: the same wait
    // here lets the block be used again without a free and an allocation.
    contexts.ensureContext();
    api()->call(api()->cuCtxSynchronize);
    bool evicted = false;
    {
      std::lock_guard<std::mutex> lock(deferredMutex);
      idleBlocks.push_back({address, bytes, device});
      if (idleBlocks.size() > MaxIdleBlocks) {
        deferredFrees.push_back({idleBlocks.front().address, idleBlocks.front().device, nullptr});
        idleBlocks.erase(idleBlocks.begin());
        evicted = true;
      }
    }
    if (evicted)
      flushDeferredFrees();
    return;
  }
  void *event = nullptr;
  if (!isDefaultStream(stream)) {
    // Work on the default streams needs no event: cuMemFree waits for the device.
    contexts.ensureContext();
    CUevent made = nullptr;
    api()->call(api()->cuEventCreate, &made, EventDisableTiming);
    event = made;
    api()->call(api()->cuEventRecord, asEvent(event), asStream(stream));
  }
  bool flush;
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    deferredFrees.push_back({address, device, event});
    deferredBytes += bytes;
    flush = releaseDue(deferredFrees.size(), deferredBytes, true);
  }
  if (flush)
    flushDeferredFrees();
}

uint64_t CudaMemory::takeIdleBlock(size_t bytes, int device) {
  std::lock_guard<std::mutex> lock(deferredMutex);
  for (auto block = idleBlocks.begin(); block != idleBlocks.end(); ++block)
    if (block->bytes == bytes && block->device == device) {
      uint64_t address = block->address;
      idleBlocks.erase(block);
      return address;
    }
  return 0;
}

bool CudaMemory::retireIdleBlocks() {
  std::lock_guard<std::mutex> lock(deferredMutex);
  for (const IdleBlock &block : idleBlocks)
    deferredFrees.push_back({block.address, block.device, nullptr});
  bool any = !idleBlocks.empty();
  idleBlocks.clear();
  return any;
}

size_t CudaMemory::pendingFrees() {
  std::lock_guard<std::mutex> lock(deferredMutex);
  return deferredFrees.size();
}

size_t CudaMemory::pendingFreeBytes() {
  std::lock_guard<std::mutex> lock(deferredMutex);
  return deferredBytes;
}

void CudaMemory::setReleaseLimits(size_t count, double ratio) {
  releaseCountLimit.store(count);
  releaseRatio.store(ratio);
}

bool CudaMemory::releaseDue(size_t count, size_t bytes, bool unpooled) {
  if (releaseDeferrals > 0)
    return false;
  if (releaseCapacity == 0) {
    contexts.ensureContext(); // a collected array's free may run on a thread without one
    size_t freeBytes = 0;
    if (api()->invoke(api()->cuMemGetInfo, &freeBytes, &releaseCapacity) != CUDA_SUCCESS)
      releaseCapacity = 0;
  }
  // numba-cuda: more than the count, or more bytes than the ratio of the memory (floored).
  auto limitBytes = static_cast<size_t>(static_cast<double>(releaseCapacity) * releaseRatio.load());
  if (count > releaseCountLimit.load() || (releaseCapacity && bytes > limitBytes))
    return true;
  return unpooled && (count >= MaxPendingBlocks || bytes >= MaxPendingBytes);
}

void CudaMemory::deferReleases(bool defer) {
  std::lock_guard<std::mutex> lock(deferredMutex);
  releaseDeferrals += defer ? 1 : -1;
}

void CudaMemory::releasePending(bool wait) {
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    if (releaseDeferrals > 0)
      return;
  }
  flushDeferredFrees(wait);
}

void CudaMemory::flushDeferredFrees(bool wait) {
  std::vector<DeferredFree> pending;
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    pending.swap(deferredFrees);
    deferredBytes = 0;
  }
  if (pending.empty())
    return;
  void *current = contexts.ensureContext();
  std::vector<DeferredFree> kept;
  // Free all that can go before reporting a failure, so one bad address leaks nothing else.
  CUresult firstFailure = CUDA_SUCCESS;
  const char *failedCall = api()->cuMemFree.name;
  void *bound = current;
  for (const DeferredFree &block : pending) {
    if (block.pooled) {
      void *context = contexts.contextOf(block.device);
      if (context != bound) {
        api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(context));
        bound = context;
      }
      CUresult result =
          api()->invoke(api()->cuMemFreeAsync, CUdeviceptr{block.address}, asStream(StreamLegacy));
      if (result != CUDA_SUCCESS && firstFailure == CUDA_SUCCESS) {
        firstFailure = result;
        failedCall = api()->cuMemFreeAsync.name;
      }
      continue;
    }
    if (block.event) {
      CUresult state = wait ? api()->invoke(api()->cuEventSynchronize, asEvent(block.event))
                            : api()->invoke(api()->cuEventQuery, asEvent(block.event));
      if (state == CUDA_ERROR_NOT_READY) {
        kept.push_back(block);
        continue;
      }
      api()->invoke(api()->cuEventDestroy, asEvent(block.event));
    }
    // Memory is freed in the context it came from, which with several GPUs need not be the
    // current one.
    void *context = contexts.contextOf(block.device);
    if (context != bound) {
      api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(context));
      bound = context;
    }
    CUresult result = api()->invoke(api()->cuMemFree, CUdeviceptr{block.address});
    if (result != CUDA_SUCCESS && firstFailure == CUDA_SUCCESS)
      firstFailure = result;
  }
  if (bound != current)
    api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(current));
  if (!kept.empty()) {
    std::lock_guard<std::mutex> lock(deferredMutex);
    deferredFrees.insert(deferredFrees.end(), kept.begin(), kept.end());
  }
  if (firstFailure != CUDA_SUCCESS)
    api()->fail(firstFailure, failedCall);
}

void CudaMemory::free(uint64_t address) {
  if (address == 0)
    return;
  contexts.ensureContext();
  if (memoryPool(contexts.selectedOrdinal(), false))
    api()->call(api()->cuCtxSynchronize);
  api()->call(api()->cuMemFree, CUdeviceptr{address});
}

void CudaMemory::replaceCopies(CopyReplacement copy, void *context) {
  copyReplacementContext.store(context);
  copyReplacement.store(copy);
}

void CudaMemory::copyToDevice(uint64_t destination, const void *source, size_t bytes,
                              void *stream) {
  contexts.ensureContext();
  if (bytes == 0)
    return;
  if (CopyReplacement copy = stream ? nullptr : copyReplacement.load())
    if (copy(copyReplacementContext.load(), true, destination, const_cast<void *>(source), bytes))
      return;
  if (bytes >= StagedCopyMinimum && isPageable(source))
    return stagedCopyToDevice(destination, source, bytes, stream);
  if (stream)
    api()->call(api()->cuMemcpyHtoDAsync, CUdeviceptr{destination}, source, bytes,
                asStream(stream));
  else
    api()->call(api()->cuMemcpyHtoD, CUdeviceptr{destination}, source, bytes);
}

void CudaMemory::copyToHost(void *destination, uint64_t source, size_t bytes, void *stream) {
  contexts.ensureContext();
  if (bytes == 0)
    return;
  if (CopyReplacement copy = stream ? nullptr : copyReplacement.load())
    if (copy(copyReplacementContext.load(), false, source, destination, bytes))
      return;
  if (bytes >= StagedCopyMinimum && isPageable(destination))
    return stagedCopyToHost(destination, source, bytes, stream);
  if (stream)
    api()->call(api()->cuMemcpyDtoHAsync, destination, CUdeviceptr{source}, bytes,
                asStream(stream));
  else
    api()->call(api()->cuMemcpyDtoH, destination, CUdeviceptr{source}, bytes);
}

void CudaMemory::copyDeviceToDevice(uint64_t destination, uint64_t source, size_t bytes,
                                    void *stream) {
  contexts.ensureContext();
  if (bytes == 0)
    return;
  if (stream)
    api()->call(api()->cuMemcpyDtoDAsync, CUdeviceptr{destination}, CUdeviceptr{source}, bytes,
                asStream(stream));
  else
    api()->call(api()->cuMemcpyDtoD, CUdeviceptr{destination}, CUdeviceptr{source}, bytes);
}

void CudaMemory::memset(uint64_t destination, unsigned char value, size_t bytes, void *stream) {
  contexts.ensureContext();
  if (bytes == 0)
    return;
  if (stream)
    api()->call(api()->cuMemsetD8Async, CUdeviceptr{destination}, value, bytes, asStream(stream));
  else
    api()->call(api()->cuMemsetD8, CUdeviceptr{destination}, value, bytes);
}

void *CudaMemory::allocatePinned(size_t bytes) {
  contexts.ensureContext();
  if (bytes == 0)
    return nullptr;
  void *pointer = nullptr;
  api()->call(api()->cuMemHostAlloc, &pointer, bytes, 0u);
  return pointer;
}

void CudaMemory::freePinned(void *pointer) {
  if (!pointer)
    return;
  contexts.ensureContext();
  api()->call(api()->cuMemFreeHost, pointer);
}

uint64_t CudaMemory::registerHost(void *pointer, size_t bytes, bool mapped) {
  contexts.ensureContext();
  if (!pointer || !bytes)
    return 0;
  api()->call(api()->cuMemHostRegister, pointer, bytes, mapped ? MemHostRegisterDeviceMap : 0u);
  if (!mapped)
    return 0;
  CUdeviceptr address = 0;
  CUresult result = api()->invoke(api()->cuMemHostGetDevicePointer, &address, pointer, 0u);
  if (result != CUDA_SUCCESS) {
    api()->invoke(api()->cuMemHostUnregister, pointer);
    api()->fail(result, api()->cuMemHostGetDevicePointer.name);
  }
  return address;
}

void CudaMemory::unregisterHost(void *pointer) {
  contexts.ensureContext();
  if (pointer)
    api()->call(api()->cuMemHostUnregister, pointer);
}

void *CudaMemory::allocateMapped(size_t bytes, uint64_t *deviceAddress) {
  contexts.ensureContext();
  if (deviceAddress)
    *deviceAddress = 0;
  if (bytes == 0)
    return nullptr;
  void *pointer = nullptr;
  api()->call(api()->cuMemHostAlloc, &pointer, bytes, MemHostAllocDeviceMap);
  CUdeviceptr address = 0;
  CUresult result = api()->invoke(api()->cuMemHostGetDevicePointer, &address, pointer, 0u);
  if (result != CUDA_SUCCESS) {
    api()->invoke(api()->cuMemFreeHost, pointer);
    api()->fail(result, api()->cuMemHostGetDevicePointer.name);
  }
  if (deviceAddress)
    *deviceAddress = address;
  return pointer;
}

uint64_t CudaMemory::allocateManaged(size_t bytes) {
  contexts.ensureContext();
  if (bytes == 0)
    return 0;
  CUdeviceptr address = 0;
  api()->call(api()->cuMemAllocManaged, &address, bytes, MemAttachGlobal);
  return address;
}

std::pair<size_t, size_t> CudaMemory::memoryInfo() {
  contexts.ensureContext();
  // Blocks kept for reuse are free memory as far as the user is concerned.
  if (retireIdleBlocks())
    flushDeferredFrees();
  if (usesMemoryPool(contexts.selectedOrdinal())) {
    // A pool gives back only blocks whose stream-ordered frees have run.
    api()->call(api()->cuCtxSynchronize);
    trimMemoryPools();
  }
  size_t freeBytes = 0, totalBytes = 0;
  api()->call(api()->cuMemGetInfo, &freeBytes, &totalBytes);
  return {freeBytes, totalBytes};
}

void CudaMemory::releaseAll() {
  try {
    // Another library may keep a primary context alive, and its memory with it.
    retireIdleBlocks();
    flushDeferredFrees(true);
  } catch (const CudaError &) {
    // Memory a failed context held went with it.
  }
  // Staging buffers belong to the contexts; later copies make new ones. This never throws.
  releaseStagingAreas();
  std::lock_guard<std::mutex> lock(poolMutex);
  // A pool with blocks still allocated goes once they are freed (cuMemPoolDestroy's rule).
  for (void *pool : memoryPools)
    if (pool)
      api()->invoke(api()->cuMemPoolDestroy, static_cast<CUmemoryPool>(pool));
  memoryPools.clear();
  memoryPoolTried.clear();
  memoryPoolExportable.clear();
  memoryPoolExportRefusal.clear();
  memoryPoolDescriptors.clear(); // the descriptors stay open: other processes may hold them
}

namespace {

// --- Sharing device memory with other processes (numba-cuda's IPC handles): memory from
// taipan's pools through the pool's exported handle and pointer export data, cuMemAlloc'd
// memory through the legacy IPC handles.

// CUpointer_attribute values, numbered as in cuda.h.
constexpr int PointerRangeStartAddress = 11; // CU_POINTER_ATTRIBUTE_RANGE_START_ADDR
constexpr int PointerRangeSize = 12;         // CU_POINTER_ATTRIBUTE_RANGE_SIZE
constexpr int PointerMemoryPool = 17;        // CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE
constexpr unsigned IpcLazyEnablePeerAccess = 0x1;

} // namespace

CudaMemory::IpcExport CudaMemory::exportIpc(uint64_t address, uint64_t allocationStart) {
  contexts.ensureContext();
  IpcExport exported;
  CUdeviceptr base = 0;
  api()->call(api()->cuPointerGetAttribute, static_cast<void *>(&base), PointerRangeStartAddress,
              CUdeviceptr{address});
  size_t size = 0;
  api()->call(api()->cuPointerGetAttribute, static_cast<void *>(&size), PointerRangeSize,
              CUdeviceptr{address});
  exported.base = base;
  exported.size = size;
  CUmemoryPool pool = nullptr;
  // Drivers before pools do not know the attribute: such memory is cuMemAlloc's.
  if (api()->invoke(api()->cuPointerGetAttribute, static_cast<void *>(&pool), PointerMemoryPool,
                    CUdeviceptr{address}) != CUDA_SUCCESS)
    pool = nullptr;
  CUipcMemHandle data;
  if (!pool) {
    api()->call(api()->cuIpcGetMemHandle, &data, base);
    std::memcpy(exported.data, data.reserved, sizeof exported.data);
    return exported;
  }
  exported.pooled = true;
  int ordinal = contexts.pointerDevice(address);
  if (static_cast<void *>(pool) != memoryPool(ordinal, false))
    throw CudaError(CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED",
                    "this memory comes from another library's memory pool, which taipan cannot "
                    "share with other processes");
  // The pool is shared before its allocations are ("an already shared memory pool").
  exportPool(ordinal);
  // The allocation's start: the caller's when it knows it (a range query may give the start of
  // the pool's mapping instead), else the address, else the range's start.
  CUresult result = CUDA_ERROR_INVALID_VALUE;
  for (uint64_t candidate : {allocationStart, address, uint64_t{base}}) {
    if (!candidate)
      continue;
    result = api()->invoke(api()->cuMemPoolExportPointer, &data, CUdeviceptr{candidate});
    if (result == CUDA_SUCCESS) {
      exported.base = candidate;
      break;
    }
  }
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuMemPoolExportPointer.name);
  std::memcpy(exported.data, data.reserved, sizeof exported.data);
  return exported;
}

int CudaMemory::exportPool(int ordinal) {
  void *pool = memoryPool(ordinal, true);
  std::lock_guard<std::mutex> lock(poolMutex);
  auto index = static_cast<size_t>(ordinal);
  if (!pool || !memoryPoolExportable[index])
    throw CudaError(CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED",
                    "the memory pool of this device cannot be shared with other processes: the "
                    "driver refused a pool with a POSIX file descriptor handle type (" +
                        std::to_string(memoryPoolExportRefusal[index]) + ")");
  if (memoryPoolDescriptors[index] < 0) {
    int descriptor = -1;
    api()->call(api()->cuMemPoolExportToShareableHandle, static_cast<void *>(&descriptor),
                static_cast<CUmemoryPool>(pool), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0ull);
    memoryPoolDescriptors[index] = descriptor;
  }
  return memoryPoolDescriptors[index];
}

void *CudaMemory::importPool(int fd) {
  contexts.ensureContext();
  CUmemoryPool pool = nullptr;
  api()->call(api()->cuMemPoolImportFromShareableHandle, &pool,
              reinterpret_cast<void *>(static_cast<intptr_t>(fd)),
              CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0ull);
  // An imported pool's memory is reachable from the devices it is made accessible to. The
  // device that owns the pool has access already, and the driver may refuse to set it again:
  // a device without access fails at the pointer's import, with the driver's error.
  CUmemAccessDesc access;
  access.locationId = contexts.currentDevice();
  api()->invoke(api()->cuMemPoolSetAccess, pool, &access, size_t{1});
  return pool;
}

uint64_t CudaMemory::openIpc(bool pooled, const unsigned char (&data)[64], void *pool) {
  contexts.ensureContext();
  CUipcMemHandle handle;
  std::memcpy(handle.reserved, data, sizeof handle.reserved);
  CUdeviceptr address = 0;
  if (pooled)
    api()->call(api()->cuMemPoolImportPointer, &address, static_cast<CUmemoryPool>(pool), &handle);
  else
    api()->call(api()->cuIpcOpenMemHandle, &address, handle, IpcLazyEnablePeerAccess);
  return address;
}

void CudaMemory::closeIpc(bool pooled, uint64_t address) {
  contexts.ensureContext();
  if (!pooled) {
    api()->call(api()->cuIpcCloseMemHandle, CUdeviceptr{address});
    return;
  }
  // Imported pool memory is freed by the importer, before the exporter frees it: after the
  // work queued on it so far.
  api()->call(api()->cuMemFreeAsync, CUdeviceptr{address}, asStream(StreamLegacy));
  api()->call(api()->cuCtxSynchronize);
}

} // namespace taipan::cuda
