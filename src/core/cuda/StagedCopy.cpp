// StagedCopy.cpp - The copy team, and CudaMemory's staged copies: host memory moves through
// page-locked buffers in chunks, the host copy of one chunk overlapping the DMA of another.

#include "cuda/StagedCopy.h"
#include "cuda/CudaContexts.h"
#include "cuda/CudaDriverApi.h"
#include "cuda/CudaMemory.h"

#include <algorithm>
#include <cstring>

namespace taipan::cuda {

CopyTeam::CopyTeam(unsigned threads) {
  for (unsigned part = 1; part < threads; ++part)
    workers.emplace_back([this, part] { work(part); });
}

CopyTeam::~CopyTeam() {
  {
    std::lock_guard<std::mutex> lock(wakeMutex);
    stopping.store(true, std::memory_order_release);
  }
  wake.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

unsigned CopyTeam::defaultSize() {
  unsigned cores = std::thread::hardware_concurrency();
  return std::clamp(cores, 1u, 4u);
}

void CopyTeam::copy(void *to, const void *from, size_t count) {
  destination = static_cast<char *>(to);
  source = static_cast<const char *>(from);
  bytes = count;
  remaining.store(static_cast<unsigned>(workers.size()), std::memory_order_relaxed);
  {
    // Under the lock, so that a worker about to sleep either sees the new generation or is
    // woken by the notification.
    std::lock_guard<std::mutex> lock(wakeMutex);
    generation.fetch_add(1, std::memory_order_release); // publishes the fields above
  }
  wake.notify_all();
  copyPart(0);
  while (remaining.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
}

void CopyTeam::work(unsigned part) {
  // Some tens of microseconds of yields: the next chunk usually comes sooner than a sleeping
  // thread would wake.
  constexpr unsigned SpinsBeforeSleeping = 256;
  unsigned seen = 0;
  while (true) {
    unsigned spins = 0;
    while (generation.load(std::memory_order_acquire) == seen &&
           !stopping.load(std::memory_order_acquire) && spins++ < SpinsBeforeSleeping)
      std::this_thread::yield();
    {
      std::unique_lock<std::mutex> lock(wakeMutex);
      wake.wait(lock, [&] {
        return generation.load(std::memory_order_acquire) != seen ||
               stopping.load(std::memory_order_acquire);
      });
    }
    if (generation.load(std::memory_order_acquire) == seen)
      return; // stopping, with no copy outstanding
    seen = generation.load(std::memory_order_acquire);
    copyPart(part);
    remaining.fetch_sub(1, std::memory_order_acq_rel);
  }
}

void CopyTeam::copyPart(unsigned part) {
  size_t parts = workers.size() + 1;
  // Page-aligned shares, so that no two threads touch the same page.
  constexpr size_t Page = 4096;
  size_t share = (bytes / parts + Page - 1) / Page * Page;
  size_t begin = std::min(bytes, share * part);
  size_t end = part + 1 == parts ? bytes : std::min(bytes, begin + share);
  if (end > begin)
    std::memcpy(destination + begin, source + begin, end - begin);
}

StagingArea &CudaMemory::stagingArea() {
  int ordinal = contexts.currentDevice();
  std::lock_guard<std::mutex> lock(stagingMutex);
  if (stagingAreas.size() <= static_cast<size_t>(ordinal))
    stagingAreas.resize(static_cast<size_t>(ordinal) + 1);
  std::unique_ptr<StagingArea> &area = stagingAreas[static_cast<size_t>(ordinal)];
  if (!area) {
    auto made = std::make_unique<StagingArea>();
    for (unsigned b = 0; b < StagingArea::Buffers; ++b) {
      made->buffers[b] = allocatePinned(StagingArea::ChunkBytes);
      CUevent event = nullptr;
      api()->call(api()->cuEventCreate, &event, EventDisableTiming);
      made->events[b] = event;
    }
    area = std::move(made);
  }
  return *area;
}

void CudaMemory::releaseStagingAreas() {
  std::lock_guard<std::mutex> lock(stagingMutex);
  for (std::unique_ptr<StagingArea> &area : stagingAreas) {
    if (!area)
      continue;
    for (unsigned b = 0; b < StagingArea::Buffers; ++b) {
      if (area->inFlight[b])
        api()->invoke(api()->cuEventSynchronize, asEvent(area->events[b]));
      api()->invoke(api()->cuEventDestroy, asEvent(area->events[b]));
      api()->invoke(api()->cuMemFreeHost, area->buffers[b]);
    }
  }
  stagingAreas.clear();
}

bool CudaMemory::isPageable(const void *host) {
  unsigned memoryType = 0;
  constexpr int MemoryTypeAttribute = 2; // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
  // Pinned, registered, mapped and managed memory answer; plain host memory is unknown to the
  // driver and gives CUDA_ERROR_INVALID_VALUE.
  return api()->invoke(api()->cuPointerGetAttribute, static_cast<void *>(&memoryType),
                       MemoryTypeAttribute,
                       CUdeviceptr{reinterpret_cast<uintptr_t>(host)}) != CUDA_SUCCESS;
}

void CudaMemory::stagedCopyToDevice(uint64_t destination, const void *source, size_t bytes,
                                    void *stream) {
  StagingArea &area = stagingArea();
  std::lock_guard<std::mutex> lock(area.mutex);
  // Without a stream the copy is synchronous, on the legacy default stream as cuMemcpyHtoD.
  CUstream queue = asStream(stream ? stream : StreamLegacy);
  CopyTeam team(CopyTeam::defaultSize());
  const char *from = static_cast<const char *>(source);
  unsigned last = 0;
  for (size_t offset = 0, chunk = 0; offset < bytes; offset += StagingArea::ChunkBytes, ++chunk) {
    unsigned b = static_cast<unsigned>(chunk % StagingArea::Buffers);
    size_t length = std::min(StagingArea::ChunkBytes, bytes - offset);
    if (area.inFlight[b])
      api()->call(api()->cuEventSynchronize, asEvent(area.events[b]));
    area.inFlight[b] = false;
    team.copy(area.buffers[b], from + offset, length);
    api()->call(api()->cuMemcpyHtoDAsync, CUdeviceptr{destination + offset}, area.buffers[b],
                length, queue);
    api()->call(api()->cuEventRecord, asEvent(area.events[b]), queue);
    area.inFlight[b] = true;
    last = b;
  }
  // The source is consumed; a synchronous copy also waits for the data to arrive.
  if (!stream) {
    api()->call(api()->cuEventSynchronize, asEvent(area.events[last]));
    std::fill(std::begin(area.inFlight), std::end(area.inFlight), false);
  }
}

void CudaMemory::stagedCopyToHost(void *destination, uint64_t source, size_t bytes, void *stream) {
  StagingArea &area = stagingArea();
  std::lock_guard<std::mutex> lock(area.mutex);
  CUstream queue = asStream(stream ? stream : StreamLegacy);
  CopyTeam team(CopyTeam::defaultSize());
  char *to = static_cast<char *>(destination);
  size_t chunks = (bytes + StagingArea::ChunkBytes - 1) / StagingArea::ChunkBytes;
  auto length = [&](size_t chunk) {
    return std::min(StagingArea::ChunkBytes, bytes - chunk * StagingArea::ChunkBytes);
  };
  auto fetch = [&](size_t chunk) {
    unsigned b = static_cast<unsigned>(chunk % StagingArea::Buffers);
    if (area.inFlight[b]) // an earlier asynchronous upload may still be reading it
      api()->call(api()->cuEventSynchronize, asEvent(area.events[b]));
    api()->call(api()->cuMemcpyDtoHAsync, area.buffers[b],
                CUdeviceptr{source + chunk * StagingArea::ChunkBytes}, length(chunk), queue);
    api()->call(api()->cuEventRecord, asEvent(area.events[b]), queue);
    area.inFlight[b] = true;
  };
  for (size_t chunk = 0; chunk < std::min<size_t>(chunks, StagingArea::Buffers); ++chunk)
    fetch(chunk);
  for (size_t chunk = 0; chunk < chunks; ++chunk) {
    unsigned b = static_cast<unsigned>(chunk % StagingArea::Buffers);
    api()->call(api()->cuEventSynchronize, asEvent(area.events[b]));
    area.inFlight[b] = false;
    team.copy(to + chunk * StagingArea::ChunkBytes, area.buffers[b], length(chunk));
    if (chunk + StagingArea::Buffers < chunks)
      fetch(chunk + StagingArea::Buffers);
  }
}

} // namespace taipan::cuda
