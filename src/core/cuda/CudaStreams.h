// CudaStreams.h - Work queued on a device through the CUDA driver: kernel launches and their
// occupancy, streams, host functions on streams, and events.
#pragma once

#include <cstddef>
#include <utility>

namespace taipan::cuda {

class CudaLibrary;
class CudaContexts;
struct CudaApi;

/// Launches, streams and events of the current context. Every call makes the selected device's
/// context current first; handles travel as void *, so callers need no CUDA header. Null and the
/// default-stream handles (StreamLegacy, StreamPerThread) name the default streams; destroying
/// them, or a null event, does nothing.
class CudaStreams {
public:
  CudaStreams(CudaLibrary &library, CudaContexts &contexts)
      : library(library), contexts(contexts) {}
  CudaStreams(const CudaStreams &) = delete;
  CudaStreams &operator=(const CudaStreams &) = delete;

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
  /// Waits for all work queued on the stream.
  void synchronizeStream(void *stream);
  /// Whether all work queued on the stream has finished.
  bool queryStream(void *stream);
  /// Queues a host function on a stream: the stream's later work waits until it returns.
  void launchHostFunction(void *stream, void (*function)(void *), void *data);

  /// A new event; only timing events can be passed to elapsedMilliseconds(), and the others
  /// are cheaper to record and wait for.
  void *createEvent(bool timing);
  /// Destroys an event from createEvent(); null is ignored.
  void destroyEvent(void *event);
  /// Records the event after the work queued on `stream` so far.
  void recordEvent(void *event, void *stream);
  /// Waits until the work before the event's last record has finished.
  void synchronizeEvent(void *event);
  /// Whether the work before the event's last record has finished.
  bool queryEvent(void *event);
  /// Milliseconds between two recorded timing events.
  float elapsedMilliseconds(void *start, void *end);

private:
  /// The library's function table.
  const CudaApi *api() const;

  CudaLibrary &library;
  CudaContexts &contexts;
};

} // namespace taipan::cuda
