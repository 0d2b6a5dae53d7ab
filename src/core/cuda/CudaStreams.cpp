// CudaStreams.cpp - Kernel launches, occupancy queries, streams and events: each a driver call
// made in the selected device's context.

#include "cuda/CudaStreams.h"
#include "cuda/CudaContexts.h"
#include "cuda/CudaDriverApi.h"
#include "cuda/CudaLibrary.h"

namespace taipan::cuda {

const CudaApi *CudaStreams::api() const { return library.api(); }

void CudaStreams::launch(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
                         unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                         void *stream, void **arguments) {
  contexts.ensureContext();
  api()->call(api()->cuLaunchKernel, asFunction(function), gridX, gridY, gridZ, blockX, blockY,
              blockZ, sharedBytes, asStream(stream), arguments, static_cast<void **>(nullptr));
}

void CudaStreams::launchCooperative(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
                                    unsigned blockX, unsigned blockY, unsigned blockZ,
                                    unsigned sharedBytes, void *stream, void **arguments) {
  contexts.ensureContext();
  api()->call(api()->cuLaunchCooperativeKernel, asFunction(function), gridX, gridY, gridZ, blockX,
              blockY, blockZ, sharedBytes, asStream(stream), arguments);
}

int CudaStreams::maxActiveBlocksPerMultiprocessor(void *function, int blockSize,
                                                  size_t dynamicShared) {
  contexts.ensureContext();
  int blocks = 0;
  api()->call(api()->cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, asFunction(function),
              blockSize, dynamicShared);
  return blocks;
}

std::pair<int, int> CudaStreams::suggestedLaunchConfiguration(void *function,
                                                              size_t dynamicShared) {
  contexts.ensureContext();
  int minGridSize = 0, blockSize = 0;
  api()->call(api()->cuOccupancyMaxPotentialBlockSize, &minGridSize, &blockSize,
              asFunction(function), static_cast<size_t (*)(int)>(nullptr), dynamicShared, 0);
  return {minGridSize, blockSize};
}

void *CudaStreams::createStream(bool nonBlocking) {
  contexts.ensureContext();
  CUstream stream = nullptr;
  api()->call(api()->cuStreamCreate, &stream, nonBlocking ? StreamNonBlocking : 0u);
  return stream;
}

void CudaStreams::destroyStream(void *stream) {
  if (isDefaultStream(stream))
    return;
  contexts.ensureContext();
  api()->call(api()->cuStreamDestroy, asStream(stream));
}

void CudaStreams::synchronizeStream(void *stream) {
  contexts.ensureContext();
  api()->call(api()->cuStreamSynchronize, asStream(stream));
}

bool CudaStreams::queryStream(void *stream) {
  contexts.ensureContext();
  CUresult result = api()->invoke(api()->cuStreamQuery, asStream(stream));
  if (result == CUDA_ERROR_NOT_READY)
    return false;
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuStreamQuery.name);
  return true;
}

void CudaStreams::launchHostFunction(void *stream, void (*function)(void *), void *data) {
  contexts.ensureContext();
  api()->call(api()->cuLaunchHostFunc, asStream(stream), function, data);
}

void *CudaStreams::createEvent(bool timing) {
  contexts.ensureContext();
  CUevent event = nullptr;
  api()->call(api()->cuEventCreate, &event, timing ? 0u : EventDisableTiming);
  return event;
}

void CudaStreams::destroyEvent(void *event) {
  if (!event)
    return;
  contexts.ensureContext();
  api()->call(api()->cuEventDestroy, asEvent(event));
}

void CudaStreams::recordEvent(void *event, void *stream) {
  contexts.ensureContext();
  api()->call(api()->cuEventRecord, asEvent(event), asStream(stream));
}

void CudaStreams::synchronizeEvent(void *event) {
  contexts.ensureContext();
  api()->call(api()->cuEventSynchronize, asEvent(event));
}

bool CudaStreams::queryEvent(void *event) {
  contexts.ensureContext();
  CUresult result = api()->invoke(api()->cuEventQuery, asEvent(event));
  if (result == CUDA_ERROR_NOT_READY)
    return false;
  if (result != CUDA_SUCCESS)
    api()->fail(result, api()->cuEventQuery.name);
  return true;
}

float CudaStreams::elapsedMilliseconds(void *start, void *end) {
  contexts.ensureContext();
  float milliseconds = 0;
  api()->call(api()->cuEventElapsedTime, &milliseconds, asEvent(start), asEvent(end));
  return milliseconds;
}

} // namespace taipan::cuda
