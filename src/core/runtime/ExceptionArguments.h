// The arguments of a raised exception, kept for Python: `raise E(a, b)` in compiled code gives
// the caller E(a, b) itself (its args), not E rebuilt from the formatted message.
#pragma once

#include <cstdint>

namespace taipan::runtime {

/// Keeps the arguments of the exception pending on this thread (described by `descriptor`,
/// one pointer to each value's memory form) with its class and message, for the Python
/// exception made of them when Python needs it (bindings/ObjectModeBlocks.cpp). No GIL.
using ExceptionArgumentsHook = void (*)(const char *descriptor, void **values);
void setExceptionArgumentsHook(ExceptionArgumentsHook hook);

/// `e.args` of the handled exception of class `id` and `message`: its arguments (the Python
/// exception kept for it, else those its message stands for) unboxed as the tuple type that
/// `descriptor` names, into `result`. Returns 0, or non-zero with TypeError pending when they
/// do not have that type.
using CaughtArgumentsHook = int32_t (*)(int32_t id, const char *message, const char *descriptor,
                                        void *result);
void setCaughtArgumentsHook(CaughtArgumentsHook hook);

} // namespace taipan::runtime

extern "C" {
/// Called right after a raise whose arguments are not one string: hands them to the hook,
/// unless the thread is in a parallel region (the message alone then travels, as before).
/// `descriptor` lists the arguments' types by name, tuples in parentheses:
/// "unicode_type int64 ( float64 bool )".
void taipan_keep_exception_arguments(const char *descriptor, void **values);
/// `e.args` of the handled exception at `index` (taipan_caught_index), as the tuple type
/// `descriptor` names (its elements), into `result`: 0, or non-zero with an exception pending.
int32_t taipan_caught_args(int64_t index, const char *descriptor, void *result);
}
