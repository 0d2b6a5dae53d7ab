// Exceptions and print() for compiled code, and the table of runtime symbols the JIT links.
#include "runtime/Runtime.h"

#include "runtime/Cfuncs.h"
#include "runtime/CharSequences.h"
#include "runtime/Dicts.h"
#include "runtime/ExceptionArguments.h"
#include "runtime/ExceptionHandling.h"
#include "runtime/FloatFormat.h"
#include "runtime/Generators.h"
#include "runtime/JitClasses.h"
#include "runtime/Lists.h"
#include "runtime/Matmul.h"
#include "runtime/MemoryRuntime.h"
#include "runtime/NumpyBitgen.h"
#include "runtime/NumpyRandom.h"
#include "runtime/ObjectMode.h"
#include "runtime/ParallelLoops.h"
#include "runtime/Sets.h"
#include "runtime/Sort.h"
#include "runtime/Strings.h"
#include "runtime/UfuncLoops.h"

#include "runtime/PythonMath.h"
#include "runtime/Random.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <utility>

using namespace taipan::runtime;

namespace {
thread_local PendingException pending;
thread_local std::string pendingMessage; // for messages made at run time
thread_local std::string printLine;
std::atomic<PrintSink> printSink{nullptr};

void writeToStdout(const char *text, size_t length) {
  std::fwrite(text, 1, length, stdout);
  std::fflush(stdout);
}
} // namespace

extern "C" {

void taipan_raise(int32_t exceptionId, const char *message) {
  pending.exceptionId = exceptionId;
  pending.message = message;
}

void taipan_raise_index_error(int64_t index, int64_t axis, int64_t size) {
  raiseWithMessage(taipan::IndexErrorId, "index " + std::to_string(index) +
                                             " is out of bounds for axis " + std::to_string(axis) +
                                             " with size " + std::to_string(size));
}

void taipan_print_int64(int64_t value) { printLine += formatPythonInt(value); }
void taipan_print_uint64(uint64_t value) { printLine += formatPythonUInt(value); }
void taipan_print_float64(double value) { printLine += formatPythonFloat(value); }
void taipan_print_float32(float value) { printLine += formatNumpyFloat32(value); }
void taipan_print_complex128(double real, double imag) {
  printLine += formatPythonComplex(real, imag);
}
void taipan_print_bool(int8_t value) { printLine += value ? "True" : "False"; }
void taipan_print_text(const char *text) { printLine += text; }

void taipan_raise_printed(int32_t exceptionId) {
  // The message was printed piece by piece, as print() builds a line.
  std::string message = std::move(printLine);
  printLine.clear();
  raiseWithMessage(exceptionId, std::move(message));
}

void taipan_print_end(void) {
  printLine += '\n';
  PrintSink sink = printSink.load();
  (sink ? sink : writeToStdout)(printLine.data(), printLine.size());
  printLine.clear();
}
}

namespace taipan::runtime {

void raiseWithMessage(int32_t exceptionId, std::string message) {
  pendingMessage = std::move(message);
  pending.exceptionId = exceptionId;
  pending.message = pendingMessage.c_str();
}

PendingException pendingException() { return pending; }

PendingException takePendingException() {
  PendingException result = pending;
  pending = PendingException{};
  return result;
}

void setPrintSink(PrintSink sink) { printSink.store(sink); }

const RuntimeSymbol *runtimeSymbols(size_t &count) {
#define TAIPAN_SYMBOL(name) {#name, reinterpret_cast<void *>(&name)}
  static const RuntimeSymbol symbols[] = {
      TAIPAN_SYMBOL(taipan_raise),
      TAIPAN_SYMBOL(taipan_raise_index_error),
      TAIPAN_SYMBOL(taipan_print_int64),
      TAIPAN_SYMBOL(taipan_print_uint64),
      TAIPAN_SYMBOL(taipan_print_float64),
      TAIPAN_SYMBOL(taipan_print_float32),
      TAIPAN_SYMBOL(taipan_print_complex128),
      TAIPAN_SYMBOL(taipan_print_bool),
      TAIPAN_SYMBOL(taipan_print_text),
      TAIPAN_SYMBOL(taipan_print_end),
      TAIPAN_SYMBOL(taipan_raise_printed),
      TAIPAN_SYMBOL(taipan_exception_matches),
      TAIPAN_SYMBOL(taipan_catch),
      TAIPAN_SYMBOL(taipan_end_catch),
      TAIPAN_SYMBOL(taipan_reraise),
      TAIPAN_SYMBOL(taipan_caught_index),
      TAIPAN_SYMBOL(taipan_objmode_call),
      TAIPAN_SYMBOL(taipan_keep_exception_arguments),
      TAIPAN_SYMBOL(taipan_caught_args),
      TAIPAN_SYMBOL(taipan_caught_message),
      TAIPAN_SYMBOL(taipan_reraise_at),
      TAIPAN_SYMBOL(taipan_ufunc_loop_failed),
      TAIPAN_SYMBOL(taipan_cfunc_failed),
      TAIPAN_SYMBOL(taipan_first_class_enter),
      TAIPAN_SYMBOL(taipan_first_class_leave),
      TAIPAN_SYMBOL(taipan_parallel_for),
      TAIPAN_SYMBOL(taipan_parallel_slot_count),
      TAIPAN_SYMBOL(taipan_get_thread_id),
      TAIPAN_SYMBOL(taipan_get_num_threads),
      TAIPAN_SYMBOL(taipan_nrt_allocate),
      TAIPAN_SYMBOL(taipan_nrt_allocate_with_destructor),
      TAIPAN_SYMBOL(taipan_nrt_allocate_array),
      TAIPAN_SYMBOL(taipan_nrt_incref),
      TAIPAN_SYMBOL(taipan_nrt_decref),
      TAIPAN_SYMBOL(taipan_generator_resume),
      TAIPAN_SYMBOL(taipan_generator_send),
      TAIPAN_SYMBOL(taipan_generator_throw),
      TAIPAN_SYMBOL(taipan_generator_close),
      TAIPAN_SYMBOL(taipan_generator_begin),
      TAIPAN_SYMBOL(taipan_generator_destroy),
      TAIPAN_SYMBOL(taipan_np_random_seed),
      TAIPAN_SYMBOL(taipan_np_random_sample),
      TAIPAN_SYMBOL(taipan_np_random_uniform),
      TAIPAN_SYMBOL(taipan_np_random_standard_normal),
      TAIPAN_SYMBOL(taipan_np_random_normal),
      TAIPAN_SYMBOL(taipan_np_random_randint),
      TAIPAN_SYMBOL(taipan_np_random_interval),
      TAIPAN_SYMBOL(taipan_np_random_shuffle),
      TAIPAN_SYMBOL(taipan_np_random_choice_indexes),
      TAIPAN_SYMBOL(taipan_np_legacy_continuous),
      TAIPAN_SYMBOL(taipan_np_legacy_discrete),
      TAIPAN_SYMBOL(taipan_np_legacy_multinomial),
      TAIPAN_SYMBOL(taipan_np_legacy_dirichlet),
      TAIPAN_SYMBOL(taipan_np_multinomial_check),
      TAIPAN_SYMBOL(taipan_np_dirichlet_check),
      TAIPAN_SYMBOL(taipan_np_generator_continuous),
      TAIPAN_SYMBOL(taipan_np_generator_discrete),
      TAIPAN_SYMBOL(taipan_np_generator_float32),
      TAIPAN_SYMBOL(taipan_np_generator_bounded),
      TAIPAN_SYMBOL(taipan_np_generator_bounded_small),
      TAIPAN_SYMBOL(taipan_np_generator_shuffle_axis),
      TAIPAN_SYMBOL(taipan_sort),
      TAIPAN_SYMBOL(taipan_list_new),
      TAIPAN_SYMBOL(taipan_list_open),
      TAIPAN_SYMBOL(taipan_list_erase),
      TAIPAN_SYMBOL(taipan_list_retain),
      TAIPAN_SYMBOL(taipan_list_release),
      TAIPAN_SYMBOL(taipan_list_adopt),
      TAIPAN_SYMBOL(taipan_dict_adopt),
      TAIPAN_SYMBOL(taipan_jitclass_new),
      TAIPAN_SYMBOL(taipan_jitclass_adopt),
      TAIPAN_SYMBOL(taipan_list_slice),
      TAIPAN_SYMBOL(taipan_list_extend),
      TAIPAN_SYMBOL(taipan_list_reverse),
      TAIPAN_SYMBOL(taipan_list_sort),
      TAIPAN_SYMBOL(taipan_argsort),
      TAIPAN_SYMBOL(taipan_matmul_f64),
      TAIPAN_SYMBOL(taipan_matmul_f32),
      TAIPAN_SYMBOL(taipan_powmod),
      TAIPAN_SYMBOL(taipan_complex_pow),
      TAIPAN_SYMBOL(taipan_numpy_complex_pow),
      TAIPAN_SYMBOL(taipan_numpy_complex_powf),
      TAIPAN_SYMBOL(taipan_round_ndigits),
      TAIPAN_SYMBOL(taipan_math_hypot),
      TAIPAN_SYMBOL(taipan_round_int_ndigits),
      TAIPAN_SYMBOL(taipan_round_uint_ndigits),
      TAIPAN_SYMBOL(taipan_cmath_rect),
      TAIPAN_SYMBOL(taipan_cmath_unary),
      TAIPAN_SYMBOL(taipan_random_state),
      TAIPAN_SYMBOL(taipan_random_refill),
      TAIPAN_SYMBOL(taipan_random_seed),
      TAIPAN_SYMBOL(taipan_random_random),
      TAIPAN_SYMBOL(taipan_random_getrandbits),
      TAIPAN_SYMBOL(taipan_random_randrange),
      TAIPAN_SYMBOL(taipan_random_randint),
      TAIPAN_SYMBOL(taipan_random_uniform),
      TAIPAN_SYMBOL(taipan_random_gauss),
      TAIPAN_SYMBOL(taipan_random_normalvariate),
      TAIPAN_STRING_SYMBOLS,
      TAIPAN_CHARSEQ_SYMBOLS,
      TAIPAN_DICT_SYMBOLS,
      TAIPAN_SET_SYMBOLS,
  };
#undef TAIPAN_SYMBOL
  count = sizeof(symbols) / sizeof(symbols[0]);
  return symbols;
}

} // namespace taipan::runtime
