// DeviceMemoryRuntime.h - The memory runtime (NRT) on CUDA devices: reference-counted blocks
// from the device's malloc heap, counted with atomics, and the statistics the host reads.
#pragma once

#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace taipan::cuda {

/// The device global (a pointer) that the host sets, when it loads a module defining it, to its
/// context's DeviceMemoryStatistics (DeviceMemorySystem.h); while it is null nothing is counted.
inline constexpr const char *DeviceMemorySystemGlobal = "taipan_nrt_memsys";

/// What that pointer designates, in global memory: numba-cuda's NRT_MemSys counters (raw
/// allocations and frees, blocks made and released), counted while `enabled` is not zero.
struct DeviceMemoryStatistics {
  uint64_t alloc;
  uint64_t free;
  uint64_t miAlloc;
  uint64_t miFree;
  uint32_t enabled;
  uint32_t reserved;
};

/// Gives the memory runtime's calls that `module` declares (taipan_nrt_allocate,
/// taipan_nrt_allocate_with_destructor, taipan_nrt_allocate_array, taipan_nrt_incref,
/// taipan_nrt_decref) their device definitions, with the host's contract (MemoryRuntime.h): a
/// block is the host's MemInfo header, its data 64 bytes after its start, from the device's
/// `malloc`; counts change atomically; the last decrement runs the block's destructor and frees
/// it; a failed allocation returns null with the exception recorded through `taipan_raise`
/// (declared here, defined with the rest of the device runtime). The functions stay out of
/// line, as numba-cuda's linked runtime is, and its names are those of numba-cuda's
/// (NRT_MemInfo_alloc_aligned, NRT_Allocate, NRT_Free; finishDeviceMemoryRuntime gives the
/// counting calls theirs once RefcountPruning, which knows them by taipan's, is done).
/// Declares the memsys global when a definition counts.
void defineDeviceMemoryRuntime(llvm::Module &module);

/// After optimisation: taipan_nrt_incref and taipan_nrt_decref take numba-cuda's names,
/// NRT_incref and NRT_decref, so the PTX reads as numba-cuda's does; the memsys global goes
/// when no code that counts is left.
void finishDeviceMemoryRuntime(llvm::Module &module);

} // namespace taipan::cuda
