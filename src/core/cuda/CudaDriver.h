// CudaDriver.h - The CUDA driver API behind @cuda.jit: devices, primary contexts, memory, PTX
// modules, launches, streams and events, through libcuda.so.1 opened with dlopen at first use.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace taipan::cuda {

struct StagingArea;

/// A driver API status (cuda.h's CUresult); 0 is success.
using CUresult = int;
/// A device handle as the driver hands them out.
using CUdevice = int;
/// An address in device memory.
using CUdeviceptr = uint64_t;

/// The CUresult values taipan tests for. The numbering is cuda.h's, which NVIDIA never changes,
/// so these stay valid without the toolkit header.
enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999,
};

/// taipan's own code for "libcuda.so.1 could not be loaded": with no library there is no
/// driver to name the failure, and no CUresult means that.
constexpr CUresult ErrorNoDriver = -1;

/// CUdevice_attribute values, numbered as in cuda.h.
enum DeviceAttribute : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT = 17,
  CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
  CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
  CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
  CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
  CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
  CU_DEVICE_ATTRIBUTE_TCC_DRIVER = 35,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
  CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
  CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
  CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD = 84,
  CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO = 87,
  CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
  CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
  CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
};

/// CUfunction_attribute values, numbered as in cuda.h.
enum FunctionAttribute : int {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
};

/// The legacy default stream, which waits for and holds up every blocking stream of its
/// context. cuda.h spells it CU_STREAM_LEGACY; a macro of that name would clash with ours.
inline void *const StreamLegacy = reinterpret_cast<void *>(std::uintptr_t{1});
/// The calling thread's default stream, ordered only against itself (CU_STREAM_PER_THREAD).
inline void *const StreamPerThread = reinterpret_cast<void *>(std::uintptr_t{2});

/// A failed driver call, or CUDA being unavailable. The message is meant for users.
class CudaError : public std::runtime_error {
public:
  CudaError(CUresult code, std::string errorName, const std::string &message,
            bool unavailable = false)
      : std::runtime_error(message), errorCode(code), name(std::move(errorName)),
        isUnavailable(unavailable) {}

  /// The driver's CUresult, or ErrorNoDriver.
  CUresult code() const { return errorCode; }
  /// The driver's name for the code ("CUDA_ERROR_OUT_OF_MEMORY"); empty where it has none.
  const std::string &errorName() const { return name; }
  /// Set when the error says CUDA cannot be used at all (no driver, no device) rather than that
  /// one call failed, so the bindings can raise Numba's CudaSupportError for it.
  bool unavailable() const { return isUnavailable; }

  /// "NAME: text" from what cuGetErrorName and cuGetErrorString gave for `code`; either may be
  /// null, as they are for codes the driver does not know.
  static std::string describe(int code, const char *name, const char *text);

private:
  CUresult errorCode;
  std::string name;
  bool isUnavailable;
};

/// One input of CudaDriver::link(): a file, or bytes already in memory, and what it holds.
struct LinkInput {
  /// cuda.h's CUjitInputType numbering.
  enum class Kind : int { Cubin = 0, Ptx = 1, Fatbinary = 2, Object = 3, Library = 4 };
  Kind kind = Kind::Ptx;
  /// The file to read, or for bytes the name the linker's messages use.
  std::string name;
  /// The bytes; empty means read the file `name`.
  std::string data;
};

/// The process's CUDA driver. Nothing is loaded until the first call, so importing taipan on a
/// machine without a GPU costs nothing and fails nowhere; every method that needs CUDA throws
/// CudaError, with unavailable() set, when it cannot be had.
///
/// Contexts are the devices' primary contexts, as Numba and the runtime API use, so memory and
/// modules are shared with any library in the process that uses them too. The selected device
/// is process-wide; each call that needs a context first makes that device's primary context
/// current on the calling thread, so any thread may call any method.
///
/// Handles (modules, functions, streams, events) travel as void * and device memory as
/// uint64_t, so callers need no CUDA header. Methods given a null handle to free or destroy do
/// nothing, which keeps destructors safe on machines without CUDA.
class CudaDriver {
public:
  /// The instance taipan uses, loading libcuda.so.1 or the library that the TAIPAN_CUDA_DRIVER
  /// environment variable names (as NUMBA_CUDA_DRIVER does for Numba).
  static CudaDriver &get();

  /// A driver over the library at `libraryPath`, loaded at first use. For tests, which load a
  /// missing or stub library to see how failures read; everything else uses get(). A library
  /// stays loaded, and answers later dlopen calls for its soname: load the toolkit's stub (soname
  /// libcuda.so.1) in a child process, or get() finds it instead of the real driver.
  explicit CudaDriver(std::string libraryPath);
  ~CudaDriver();
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  /// Whether the library loaded, cuInit succeeded and there is at least one device.
  bool available();
  /// Why available() is false, in words for users; empty when it is true.
  std::string unavailableReason();
  /// The number of devices; 0 when CUDA is unavailable, which is an answer rather than a failure.
  int deviceCount();
  /// The driver's CUDA version, 1000 * major + 10 * minor (12040 for 12.4). Known even when
  /// cuInit failed, which helps explain the failure; throws only when no library loaded.
  int driverVersion();

  /// Makes device `ordinal` the current device: retains its primary context and makes it
  /// current on this thread. Other threads switch to it at their next call.
  void selectDevice(int ordinal);
  /// The current device's ordinal, selecting device 0 if none was selected.
  int currentDevice();
  /// The selected device's ordinal without a driver call (launch paths check it per call); -1
  /// before the first selection.
  int selectedOrdinal() const { return selectedDevice.load(std::memory_order_acquire); }
  /// Counts closeAll() calls: handles (modules, functions) from an earlier count are gone.
  unsigned contextEpoch() const { return epoch.load(std::memory_order_acquire); }
  /// The ordinal of the device whose memory holds `address` (device or managed memory).
  int pointerDevice(uint64_t address);
  /// The device's marketing name ("NVIDIA H100 80GB HBM3").
  std::string deviceName(int ordinal);
  /// (major, minor) compute capability.
  std::pair<int, int> computeCapability(int ordinal);
  /// A CU_DEVICE_ATTRIBUTE_* value of the device.
  int deviceAttribute(int ordinal, int attribute);
  /// Waits for all work of the current device.
  void synchronize();
  /// (free, total) bytes of the current device's memory.
  std::pair<size_t, size_t> memoryInfo();
  /// Releases the primary contexts this driver retained; the next call that needs a context
  /// selects device 0 again. Memory, modules, streams and events of the contexts are gone.
  void closeAll();

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
  ///   on synchronize(). A block of 256 MB or more on a default stream, which would be freed at
  ///   once, is instead kept idle for the next allocation of its size, after the same wait for
  ///   the device that cuMemFree makes.
  void freeDeferred(uint64_t address, size_t bytes, int device, void *stream = nullptr);
  /// Frees what freeDeferred() holds whose streams are done with it; with `wait`, waits for
  /// them and frees everything.
  void flushDeferredFrees(bool wait = false);
  /// How many blocks freeDeferred() holds.
  size_t pendingFrees();
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
  void registerHost(void *pointer, size_t bytes);
  /// Undoes registerHost().
  void unregisterHost(void *pointer);
  /// Page-locked host memory that kernels reach directly; `*deviceAddress` receives the address
  /// kernels use for it. Free with freePinned().
  void *allocateMapped(size_t bytes, uint64_t *deviceAddress);
  /// Managed memory, migrated between host and devices on demand and attached globally so any
  /// stream may use it. The address works on the host too. Free with free().
  uint64_t allocateManaged(size_t bytes);

  /// Loads PTX, or a cubin from link(), into the current context, limiting a kernel to
  /// `maxRegisters` registers when positive (max_registers). On failure the CudaError's
  /// message carries the JIT's error log; `log`, when given, receives the JIT's info log
  /// (registers, spills) or, on failure, its error log.
  void *loadModule(const std::string &ptx, int maxRegisters = 0, std::string *log = nullptr);
  /// Links `inputs` into one cubin for the current device with the driver's linker, which
  /// resolves calls between them (a kernel's PTX calling a foreign device function). A failed
  /// link throws CudaError whose message carries the linker's log; `log`, when given, receives
  /// the info log. loadModule() loads the result.
  std::string link(const std::vector<LinkInput> &inputs, int maxRegisters = 0,
                   std::string *log = nullptr);
  void unloadModule(void *module);
  /// The kernel `name` of a loaded module; CUDA_ERROR_NOT_FOUND when it has none.
  void *getFunction(void *module, const std::string &name);
  /// The device address of a module's global variable, and its size in `*size` when given.
  uint64_t getGlobal(void *module, const std::string &name, size_t *size = nullptr);
  /// A CU_FUNC_ATTRIBUTE_* value of a kernel.
  int functionAttribute(void *function, int attribute);
  /// Lets a kernel use `bytes` of dynamic shared memory; more than 48 KiB needs this opt-in.
  void setMaxDynamicSharedMemory(void *function, int bytes);

  /// Launches a kernel. `arguments` holds a pointer to each parameter's value, in order.
  void launch(void *function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
              unsigned blockY, unsigned blockZ, unsigned sharedBytes, void *stream,
              void **arguments);
  /// As launch(), with every block resident at once so that grid-wide synchronisation works;
  /// fails with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE when the grid cannot fit.
  void launchCooperative(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
                         unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                         void *stream, void **arguments);
  /// How many blocks of `blockSize` threads fit on one multiprocessor at once.
  int maxActiveBlocksPerMultiprocessor(void *function, int blockSize, size_t dynamicShared);
  /// (minimum grid size for full occupancy, block size) that maximise occupancy.
  std::pair<int, int> suggestedLaunchConfiguration(void *function, size_t dynamicShared);

  /// A new stream. A non-blocking stream does not wait for the legacy default stream.
  void *createStream(bool nonBlocking = false);
  /// Destroys a stream from createStream(); null and the default-stream handles are ignored.
  void destroyStream(void *stream);
  void synchronizeStream(void *stream);
  /// Whether all work queued on the stream has finished.
  bool queryStream(void *stream);
  /// Queues a host function on a stream: the stream's later work waits until it returns.
  void launchHostFunction(void *stream, void (*function)(void *), void *data);
  /// A new event; only timing events can be passed to elapsedMilliseconds(), and the others
  /// are cheaper to record and wait for.
  void *createEvent(bool timing);
  void destroyEvent(void *event);
  void recordEvent(void *event, void *stream);
  void synchronizeEvent(void *event);
  /// Whether the work before the event's last record has finished.
  bool queryEvent(void *event);
  /// Milliseconds between two recorded timing events.
  float elapsedMilliseconds(void *start, void *end);

private:
  struct Api;

  /// Loads the library and runs cuInit, once.
  void initialise();
  void load();
  /// Throws the unavailable error unless available().
  void requireAvailable();
  /// Makes the current device's primary context current on this thread; returns it.
  void *ensureContext();
  /// Retains `ordinal`'s primary context if needed and makes it the current device's.
  /// Needs contextMutex held.
  void *selectLocked(int ordinal);
  /// The driver's handle of device `ordinal`, after a range check with a readable error.
  CUdevice deviceHandle(int ordinal);

  std::string libraryPath;
  std::once_flag initialised;
  std::unique_ptr<Api> api;
  bool usable = false;
  CUresult failureCode = ErrorNoDriver;
  std::string failureReason;
  int devices = 0;

  std::mutex contextMutex;
  /// A block freeDeferred() holds: where, its device, and the event marking the end of the
  /// stream work that may still use it (null when it can go at once).
  struct DeferredFree {
    uint64_t address;
    int device;
    void *event;
  };
  /// The primary context of `ordinal`, retained if it is not yet, without selecting it.
  void *contextOf(int ordinal);
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
  std::mutex deferredMutex;
  std::vector<DeferredFree> deferredFrees;
  size_t deferredBytes = 0;
  /// Guarded by deferredMutex.
  std::vector<IdleBlock> idleBlocks;
  std::mutex stagingMutex;
  /// By ordinal; null where no staged copy has run.
  std::vector<std::unique_ptr<StagingArea>> stagingAreas;
  std::atomic<unsigned> epoch{0};
  /// Primary contexts retained so far, by ordinal (null where not retained).
  std::vector<void *> primaryContexts;
  /// The memory pool of device `ordinal` for allocate(), made at its first use when `make` is
  /// set; null when the device or the driver has none, or it is not made yet. Keeps what is
  /// freed (no release threshold), so that allocations after the first of a size cost
  /// microseconds: CuPy's pool does the same. closeAll() destroys the pools.
  void *memoryPool(int ordinal, bool make);
  /// Gives the pools' unused memory back to the devices (memory information, out of memory).
  void trimMemoryPools();
  /// By ordinal, guarded by contextMutex: the pool, and whether making it was tried.
  std::vector<void *> memoryPools;
  std::vector<char> memoryPoolTried;
  std::atomic<int> selectedDevice{-1};
  std::atomic<void *> currentContext{nullptr};
};

} // namespace taipan::cuda
