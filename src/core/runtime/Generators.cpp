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

} // namespace

extern "C" {

int32_t taipan_generator_resume(MemInfo *generator) {
  void *frame = generator->data;
  CoroutineFunction resume = frameFunctions(frame)[0];
  if (!resume)
    return GeneratorExhausted;
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

void *taipan_generator_value(MemInfo *generator) {
  return static_cast<char *>(generator->data) + GeneratorPromiseOffset +
         taipan::runtime::GeneratorValueOffset;
}

void taipan_generator_begin(void * /*frame*/) {}

void taipan_generator_destroy(void *frame, void * /*payload*/) { frameFunctions(frame)[1](frame); }

} // extern "C"
