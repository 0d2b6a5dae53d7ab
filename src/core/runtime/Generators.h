// Generators: a generator is a reference-counted block whose data is the frame of an LLVM
// coroutine (lower/LowerGenerators.cpp); these functions resume and destroy one.
#pragma once

#include "runtime/MemoryRuntime.h"

#include <cstddef>
#include <cstdint>

namespace taipan::runtime {

/// The frame of a switch-lowered LLVM coroutine starts with its resume and destroy functions
/// (the resume function is null once it reached its final suspension), then the promise, at
/// the offset `llvm.coro.promise` computes for an alignment of at most 16.
constexpr size_t GeneratorPromiseOffset = 16;
/// The promise holds the status the body ended with (an int64: 0, or a pending exception's)
/// and then, at this offset, the value it yielded last in memory form (at most 8-aligned).
constexpr size_t GeneratorValueOffset = 8;
/// What resuming an exhausted generator gives (never an exception's status, which is positive).
constexpr int32_t GeneratorExhausted = -1;

} // namespace taipan::runtime

extern "C" {
/// Resumes the generator once: 0 when it yielded (the value is at
/// taipan_generator_value, owned by the caller now), GeneratorExhausted when it returned or
/// had already ended, or the status of the exception it raised (pending; the generator is
/// exhausted afterwards, as in CPython). A StopIteration leaving the body becomes
/// RuntimeError("generator raised StopIteration"), as PEP 479 has it.
int32_t taipan_generator_resume(taipan::runtime::MemInfo *generator);
/// The address of the value the generator yielded last.
void *taipan_generator_value(taipan::runtime::MemInfo *generator);
/// Called by a generator's ramp with its frame, once the coroutine began; does nothing. An
/// opaque use of the frame, so LLVM keeps the ramp's stores into it (lower/LowerGenerators.cpp).
void taipan_generator_begin(void *frame);
/// The destructor of a generator's block: destroys the coroutine, which releases the
/// references its suspended body holds (locals, arguments, temporaries).
void taipan_generator_destroy(void *frame, void *payload);
}
