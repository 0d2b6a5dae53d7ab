// CudaMemory.h - Device and host memory through the CUDA driver: allocation (stream-ordered
// pools where the device has them), deferred frees, copies, memset and page-locked host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace taipan::cuda {

class CudaLibrary;
class CudaContexts;
struct StagingArea;
struct CudaApi;

/// Memory of the devices and page-locked host memory. Every call makes the selected device's
/// context current first (CudaContexts::ensureContext()); addresses travel as uint64_t, so
/// callers need no CUDA header. Frees given a null address do nothing, which keeps destructors
/// safe on machines without CUDA.
class CudaMemory {
public:
  CudaMemory(CudaLibrary &library, CudaContexts &contexts);
  ~CudaMemory();
  CudaMemory(const CudaMemory &) = delete;
  CudaMemory &operator=(const CudaMemory &) = delete;

  /// Device memory of `bytes` bytes, for use on `stream` (null: the default streams). 0 bytes
  /// gives address 0, which the frees accept, because the driver refuses empty allocations and
  /// empty arrays are common. Where the device has memory pools (CUDA 11.2 on), the memory
  /// comes from taipan's own stream-ordered pool of that device (memoryPool()): a block freed
  /// with freeDeferred() is reused by later allocations in stream order, with no cuMemAlloc,
  /// cuMemFree or wait for the device. Elsewhere it is cuMemAlloc's.
  uint64_t allocate(size_t bytes, void *stream = nullptr);
  /// Frees memory from allocate() or allocateManaged() at once, after the device's work (which
  /// cuMemFree waits for itself, except for memory from a pool).
  void free(uint64_t address);
  /// Whether allocate() on device `ordinal` takes memory from a stream-ordered pool.
  bool usesMemoryPool(int ordinal) { return memoryPool(ordinal, true) != nullptr; }
  /// Frees memory from allocate(). `device` is the ordinal it was allocated on, and `stream`
  /// the stream its work was queued on (null: the default streams, whose legacy stream orders
  /// after the work of every blocking stream).
  /// - With a memory pool, the block goes back to the pool once the work queued on `stream` so
  ///   far has finished (cuMemFreeAsync): nothing waits.
  /// - Without one, frees go in batches: freeing right after allocating costs tens of
  ///   microseconds each, a batch about one. With a stream that is not a default one, the
  ///   memory stays until the work queued on it so far has finished, which an event recorded
  ///   now tells. Batches go when enough is pending, when an allocation runs out of memory, and
  ///   on CudaDriver::synchronize(). A block of 256 MB or more on a default stream, which would
  ///   be freed at once, is instead kept idle for the next allocation of its size, after the
  ///   same wait for the device that cuMemFree makes.
  void freeDeferred(uint64_t address, size_t bytes, int device, void *stream = nullptr);
  /// Frees what freeDeferred() holds whose streams are done with it; with `wait`, waits for
  /// them and frees everything. Runs even while releases are deferred (out of memory, closing).
  void flushDeferredFrees(bool wait = false);
  /// How many blocks freeDeferred() holds (numba-cuda's `len(deallocations)`).
  size_t pendingFrees();
  /// Their bytes (numba-cuda's `deallocations._size`).
  size_t pendingFreeBytes();

  /// numba-cuda's pending deallocations: the frees freeDeferred() holds go when more than
  /// `count` blocks are pending or their bytes pass `ratio` of the device's memory (its
  /// CUDA_DEALLOCS_COUNT and CUDA_DEALLOCS_RATIO), on releasePending(), on synchronize, when an
  /// allocation runs out of memory, and at closing. Process-wide; callable before CUDA starts.
  static void setReleaseLimits(size_t count, double ratio);
  /// Enters (`defer`) or leaves a region where the pending frees are kept whatever their count
  /// (cuda.defer_cleanup(), nestable); out of memory and closing still free them.
  void deferReleases(bool defer);
  /// Frees every pending block unless deferred (numba-cuda's `deallocations.clear()`), with
  /// `wait` waiting for the streams using them, else leaving those whose streams still run.
  void releasePending(bool wait = true);
  /// (free, total) bytes of the current device's memory, counting blocks kept for reuse (idle
  /// blocks, a pool's unused memory) as free.
  std::pair<size_t, size_t> memoryInfo();

  /// What replaces the synchronous copies between host and device while set:
  /// `copy(context, toDevice, deviceAddress, hostAddress, bytes)`, which returns whether it
  /// copied (false: the driver copies, as for a direction not replaced). numba-cuda's tests assign
  /// their driver object's cuMemcpyHtoD/cuMemcpyDtoH to see which calls copy; null restores
  /// the driver's copies. Process-wide; asynchronous copies (with a stream) are not replaced,
  /// as numba-cuda's cuMemcpy*Async are other functions.
  using CopyReplacement = bool (*)(void *context, bool toDevice, uint64_t device, void *host,
                                   size_t bytes);
  static void replaceCopies(CopyReplacement copy, void *context);

  /// Host to device; asynchronous on `stream` when one is given, synchronous otherwise.
  void copyToDevice(uint64_t destination, const void *source, size_t bytes, void *stream = nullptr);
  /// Device to host; asynchronous on `stream` when one is given, synchronous otherwise.
  void copyToHost(void *destination, uint64_t source, size_t bytes, void *stream = nullptr);
  /// Device to device; asynchronous on `stream` when one is given.
  void copyDeviceToDevice(uint64_t destination, uint64_t source, size_t bytes,
                          void *stream = nullptr);
  /// Sets `bytes` bytes to `value`; asynchronous on `stream` when one is given.
  void memset(uint64_t destination, unsigned char value, size_t bytes, void *stream = nullptr);

  /// Page-locked host memory, which copies reach at full speed and which asynchronous copies
  /// need to overlap with the host. Null for 0 bytes.
  void *allocatePinned(size_t bytes);
  /// Frees memory from allocatePinned() or allocateMapped().
  void freePinned(void *pointer);
  /// Page-locks existing host memory (cuda.pinned()) so copies from and to it are asynchronous.
  /// With `mapped`, the memory is also mapped into the device's address space (cuda.mapped()):
  /// the address kernels use is returned (0 otherwise).
  uint64_t registerHost(void *pointer, size_t bytes, bool mapped = false);
  /// Undoes registerHost().
  void unregisterHost(void *pointer);
  /// Page-locked host memory that kernels reach directly; `*deviceAddress` receives the address
  /// kernels use for it. Free with freePinned().
  void *allocateMapped(size_t bytes, uint64_t *deviceAddress);
  /// Managed memory, migrated between host and devices on demand and attached globally so any
  /// stream may use it. The address works on the host too. Free with free().
  uint64_t allocateManaged(size_t bytes);

  /// Before the contexts are released (CudaDriver::closeAll()): frees what is deferred or
  /// idle, the staging buffers and the memory pools. Call only with CUDA available.
  void releaseAll();

  // --- Sharing device memory with other processes ---
  /// What another process needs to open the allocation holding `address`: its base and size,
  /// and 64 bytes: a pool's export data (cuMemPoolExportPointer) when the memory is from a
  /// memory pool (`pooled`; the importer also needs the pool, exportPool()), else the legacy
  /// IPC handle (cuIpcGetMemHandle, cuMemAlloc'd memory).
  struct IpcExport {
    bool pooled = false;
    uint64_t base = 0;
    size_t size = 0;
    unsigned char data[64] = {};
  };
  /// `allocationStart`: the allocation's first byte when the caller knows it (0: not known).
  IpcExport exportIpc(uint64_t address, uint64_t allocationStart = 0);
  /// A POSIX file descriptor of device `ordinal`'s pool, for another process to import it
  /// (importPool()), exported once; the pools are made exportable where the driver can.
  /// Throws CudaError when this pool is not.
  int exportPool(int ordinal);
  /// The pool another process exported as `fd`, made accessible from the current device.
  void *importPool(int fd);
  /// The address, in this process, of memory another process exported (exportIpc()); `pool`
  /// is its imported pool when `pooled`. Undo with closeIpc().
  uint64_t openIpc(bool pooled, const unsigned char (&data)[64], void *pool);
  void closeIpc(bool pooled, uint64_t address);

private:
  /// A block freeDeferred() holds: where, its device, and the event marking the end of the
  /// stream work that may still use it (null when it can go at once). A `pooled` block goes
  /// back to its device's pool in the legacy default stream's order (cuMemFreeAsync).
  struct DeferredFree {
    uint64_t address;
    int device;
    void *event;
    bool pooled = false;
  };
  /// A large block whose users have all finished, kept so that an allocation of the same size
  /// takes it back: allocating and freeing hundreds of megabytes costs a fraction of a
  /// millisecond each way, and fresh memory is slower to fill at first.
  struct IdleBlock {
    uint64_t address;
    size_t bytes;
    int device;
  };
  /// Takes an idle block of exactly `bytes` on `device`; 0 when there is none.
  uint64_t takeIdleBlock(size_t bytes, int device);
  /// Hands the idle blocks to the deferred frees, for the next flush (out of memory, memory
  /// information, closing); whether there were any.
  bool retireIdleBlocks();
  /// Whether `host` is memory the driver does not know (not pinned, registered or managed).
  bool isPageable(const void *host);
  /// The current device's staging area, made at its first use.
  StagingArea &stagingArea();
  /// Frees every device's staging buffers and events.
  void releaseStagingAreas();
  /// Copies through staging buffers, for pageable host memory (see StagedCopy.h). Without a
  /// stream, synchronous; with one, they return once the host memory has been read or written.
  void stagedCopyToDevice(uint64_t destination, const void *source, size_t bytes, void *stream);
  void stagedCopyToHost(void *destination, uint64_t source, size_t bytes, void *stream);
  /// The memory pool of device `ordinal` for allocate(), made at its first use when `make` is
  /// set; null when the device or the driver has none, or it is not made yet. Keeps what is
  /// freed (no release threshold), so that allocations after the first of a size cost
  /// microseconds: CuPy's pool does the same. releaseAll() destroys the pools.
  void *memoryPool(int ordinal, bool make);
  /// Gives the pools' unused memory back to the devices (memory information, out of memory).
  void trimMemoryPools();
  /// Whether the pending frees, with deferredFrees holding `count` blocks of `bytes`, are due
  /// (numba-cuda's thresholds, or the batch limits of cuMemFree'd memory when `unpooled`).
  bool releaseDue(size_t count, size_t bytes, bool unpooled);

  /// The library's function table.
  const CudaApi *api() const;

  CudaLibrary &library;
  CudaContexts &contexts;
  std::mutex deferredMutex;
  std::vector<DeferredFree> deferredFrees;
  size_t deferredBytes = 0;
  /// cuda.defer_cleanup() regions entered (guarded by deferredMutex).
  int releaseDeferrals = 0;
  /// The device memory the ratio of setReleaseLimits() applies to: the first device's total,
  /// asked at the first pending free (guarded by deferredMutex).
  size_t releaseCapacity = 0;
  /// Guarded by deferredMutex.
  std::vector<IdleBlock> idleBlocks;
  std::mutex stagingMutex;
  /// By ordinal; null where no staged copy has run.
  std::vector<std::unique_ptr<StagingArea>> stagingAreas;
  std::mutex poolMutex;
  /// By ordinal, guarded by poolMutex: the pool, whether making it was tried, and whether it
  /// can be exported to other processes (made with a POSIX file descriptor handle type).
  std::vector<void *> memoryPools;
  std::vector<char> memoryPoolTried;
  std::vector<char> memoryPoolExportable;
  /// By ordinal, guarded by poolMutex: cuMemPoolCreate's result for an exportable pool, and
  /// the pool's exported descriptor (-1 until exportPool()).
  std::vector<int> memoryPoolExportRefusal;
  std::vector<int> memoryPoolDescriptors;
};

} // namespace taipan::cuda
