// The C functions compiled code calls for what is not worth emitting inline: raising
// exceptions, printing, and the allocation counters. One state per thread where it matters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace taipan {

/// Registry ids of the exceptions compiled code raises by itself; the bindings map them to the
/// Python classes of the same name. User classes get ids from FirstUserException up.
enum BuiltinExceptionId : int {
  ExceptionNone = 0,
  ZeroDivisionErrorId = 1,
  ValueErrorId,
  IndexErrorId,
  AssertionErrorId,
  OverflowErrorId,
  TypeErrorId,
  RuntimeErrorId,
  KeyErrorId,
  StopIterationId,
  MemoryErrorId,
  /// numpy.exceptions.AxisError (a ValueError and an IndexError), for NumPy's axis checks;
  /// the bindings import its class the first time it is raised (import taipan imports no NumPy)
  AxisErrorId,
  /// A local read on a path that never assigned it (syntax/VariableVersions.h guards the read)
  UnboundLocalErrorId,
  /// The same read made from a nested scope (a free variable), and other NameErrors
  NameErrorId,
  FirstUserException = 64,
};

} // namespace taipan

extern "C" {
/// Records the exception compiled code is raising; the function then returns status 1.
void taipan_raise(int32_t exceptionId, const char *message);
/// Raises IndexError with NumPy's message, naming the index, the axis and its size.
void taipan_raise_index_error(int64_t index, int64_t axis, int64_t size);

/// print(): pieces are appended to a per-thread line, which taipan_print_end hands to the sink.
void taipan_print_int64(int64_t value);
void taipan_print_uint64(uint64_t value);
void taipan_print_float64(double value);
void taipan_print_float32(float value);
void taipan_print_complex128(double real, double imag);
void taipan_print_bool(int8_t value);
void taipan_print_text(const char *text);
void taipan_print_end(void);
/// Raises `exceptionId` with the text printed since the last line ended as its message: how
/// messages made of run-time values (`raise ValueError("bad", x)`) are built.
void taipan_raise_printed(int32_t exceptionId);
}

namespace taipan::runtime {

/// The exception pending on this thread after compiled code returned a non-zero status.
struct PendingException {
  int32_t exceptionId = 0;
  const char *message = nullptr;
};

/// Records an exception whose message is made at run time (kept until the next raise).
void raiseWithMessage(int32_t exceptionId, std::string message);

/// Takes (and clears) this thread's pending exception.
PendingException takePendingException();
/// This thread's pending exception, left pending.
PendingException pendingException();

/// Where print() output goes. The bindings install one that writes to sys.stdout.
using PrintSink = void (*)(const char *text, size_t length);
void setPrintSink(PrintSink sink);

/// A runtime symbol the JIT must resolve: its name and address.
struct RuntimeSymbol {
  const char *name;
  void *address;
};

/// Every function compiled code may call by name, for the JIT's symbol table.
const RuntimeSymbol *runtimeSymbols(size_t &count);

} // namespace taipan::runtime
