// Resuming and destroying generators through their coroutine frames.
#include "runtime/Generators.h"

#include "runtime/ExceptionHandling.h"
#include "runtime/Runtime.h"

using taipan::runtime::GeneratorExhausted;
using taipan::runtime::GeneratorPromiseOffset;
using taipan::runtime::MemInfo;

namespace {

using CoroutineFunction = void (*)(void *frame);

CoroutineFunction *frameFunctions(void *frame) { return static_cast<CoroutineFunction *>(frame); }

int64_t &promiseStatus(void *frame) {
  return *reinterpret_cast<int64_t *>(static_cast<char *>(frame) + GeneratorPromiseOffset);
}

int64_t &promiseControl(void *frame) {
  return *reinterpret_cast<int64_t *>(static_cast<char *>(frame) + GeneratorPromiseOffset +
                                      taipan::runtime::GeneratorControlOffset);
}

/// Resumes with `control` (0, or a thrown exception's status) in the promise.
int32_t resumeWith(MemInfo *generator, int64_t control) {
  void *frame = generator->data;
  CoroutineFunction resume = frameFunctions(frame)[0];
  if (!resume)
    return GeneratorExhausted;
  promiseControl(frame) = control;
  resume(frame);
  if (frameFunctions(frame)[0])
    return 0;
  // The body ended: report its exception once; later resumes find it exhausted.
  int64_t status = promiseStatus(frame);
  promiseStatus(frame) = 0;
  if (!status)
    return GeneratorExhausted;
  // PEP 479: a StopIteration escaping the body (a next() of an exhausted generator inside it)
  // must not read as the end of this one.
  if (taipan_exception_matches(taipan::StopIterationId)) {
    taipan_raise(taipan::RuntimeErrorId, "generator raised StopIteration");
    return 1;
  }
  return static_cast<int32_t>(status);
}

} // namespace

extern "C" {

int32_t taipan_generator_resume(MemInfo *generator) { return resumeWith(generator, 0); }

int32_t taipan_generator_send(MemInfo *generator, int32_t sentValue) {
  void *frame = generator->data;
  if (sentValue && frameFunctions(frame)[0] && promiseStatus(frame) == 0) {
    taipan_raise(taipan::TypeErrorId, "can't send non-None value to a just-started generator");
    return taipan::TypeErrorId;
  }
  return resumeWith(generator, 0);
}

int32_t taipan_generator_throw(MemInfo *generator, int32_t status) {
  if (!frameFunctions(generator->data)[0])
    return status; // exhausted: the exception goes on to the caller
  int32_t result = resumeWith(generator, status);
  return result;
}

void taipan_generator_close(MemInfo *generator) {
  void *frame = generator->data;
  CoroutineFunction destroy = frameFunctions(frame)[1];
  if (!destroy)
    return;
  if (frameFunctions(frame)[0]) // suspended: leaves as a return does, releasing what it holds
    destroy(frame);
  // Exhausted from now on; the block's destructor finds nothing left to destroy.
  frameFunctions(frame)[0] = nullptr;
  frameFunctions(frame)[1] = nullptr;
}

void *taipan_generator_value(MemInfo *generator) {
  return static_cast<char *>(generator->data) + GeneratorPromiseOffset +
         taipan::runtime::GeneratorValueOffset;
}

void taipan_generator_begin(void * /*frame*/) {}

void taipan_generator_destroy(void *frame, void * /*payload*/) {
  if (CoroutineFunction destroy = frameFunctions(frame)[1]) // not closed already
    destroy(frame);
}

} // extern "C"
