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
/// The promise is `{int64 status, int64 control, T value, Optional(T) sent}`. `status`: while the
/// body is suspended, 0 before its first resume and 1 after (how send() knows a just-started
/// generator); once it ended, the status it ended with (0, or a pending exception's). `control`,
/// written by the resumer before each resume: 0, or the status of an exception thrown into the
/// body (throw(): pending, raised at the yield). `value` (at this offset, at most 8-aligned): the
/// value yielded last, in memory form. `sent` (generators whose yield expressions have values,
/// `x = yield v`): what send() passed, None for next(); the body clears it when it reads it.
constexpr size_t GeneratorControlOffset = 8;
constexpr size_t GeneratorValueOffset = 16;
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
/// send(): resumes as taipan_generator_resume does, after the caller stored the value in the
/// promise's `sent`; `sentValue` says it is not None. A just-started generator takes only None:
/// TypeError otherwise, as in CPython, and it stays unstarted.
int32_t taipan_generator_send(taipan::runtime::MemInfo *generator, int32_t sentValue);
/// throw(): the exception (pending, of status `status`) is raised in the body where it is
/// suspended; the result is the resume's. An exhausted or just-started generator raises it
/// without running anything (the just-started one is finished then), as in CPython.
int32_t taipan_generator_throw(taipan::runtime::MemInfo *generator, int32_t status);
/// close(): a suspended generator is destroyed now (its finally blocks run, its references go);
/// afterwards it is exhausted. Does nothing to an exhausted one.
void taipan_generator_close(taipan::runtime::MemInfo *generator);
/// Called by a generator's ramp with its frame, once the coroutine began; does nothing. An
/// opaque use of the frame, so LLVM keeps the ramp's stores into it (lower/LowerGenerators.cpp).
void taipan_generator_begin(void *frame);
/// The destructor of a generator's block: destroys the coroutine, which releases the
/// references its suspended body holds (locals, arguments, temporaries).
void taipan_generator_destroy(void *frame, void *payload);
}
