// The arguments of a raised exception, kept for Python: `raise E(a, b)` in compiled code gives
// the caller E(a, b) itself (its args), not E rebuilt from the formatted message.
#pragma once

#include <cstdint>

namespace taipan::runtime {

/// Builds the Python exception for the exception pending on this thread from its arguments
/// (described by `descriptor`, one pointer to each value's memory form) and keeps it with the
/// pending class and message (bindings/ObjectModeBlocks.cpp).
using ExceptionArgumentsHook = void (*)(const char *descriptor, void **values);
void setExceptionArgumentsHook(ExceptionArgumentsHook hook);

} // namespace taipan::runtime

extern "C" {
/// Called right after a raise whose arguments are not one string: hands them to the hook,
/// unless the thread is in a parallel region (the message alone then travels, as before).
/// `descriptor` lists the arguments' types by name, tuples in parentheses:
/// "unicode_type int64 ( float64 bool )".
void taipan_keep_exception_arguments(const char *descriptor, void **values);
}
