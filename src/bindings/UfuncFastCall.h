// The direct call path of taipan's numpy.ufunc objects: a call on same-shaped, contiguous,
// native arrays of one of its loops' exact types runs that loop without NumPy's dispatch.
#pragma once

#include <Python.h>

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace taipan::bindings {

/// What a ufunc's direct path needs: NumPy's own call for everything else, its loops and the
/// loop NumPy resolves for each tuple of input types seen so far (filled under the GIL).
struct UfuncFastCall {
  /// The most inputs the direct path takes (its operand pointers live on the stack).
  static constexpr size_t MaximumInputs = 8;
  /// A call's input type numbers (-1 past the inputs).
  using InputTypes = std::array<int, MaximumInputs>;

  vectorcallfunc numpyCall = nullptr;
  int inputs = 0;
  /// The loops as NumPy holds them (views of the ufunc's storage): loop k's NumPy type numbers,
  /// the inputs then the one output, at `types[k * (inputs + 1)...]`, its function and its data.
  std::span<const char> types;
  std::span<void (*const)(char **, const intptr_t *, const intptr_t *, void *)> loops;
  std::span<void *const> data;
  /// Input type numbers and the loop NumPy runs for them without casting, or -1 when NumPy
  /// would cast or finds no loop (its own path then runs and says so).
  std::vector<std::pair<InputTypes, int>> resolved;
};

/// Whether the running NumPy has what the direct path needs (NumPy 2's C API).
bool directCallsAvailable();

/// Calls `ufunc` (one output, no core dimensions) as NumPy would: directly when every argument
/// is a positional, exactly-typed, aligned, native, C-contiguous ndarray of one shape (ndim >= 1)
/// and NumPy resolves their types to a loop without casting; else through `fast.numpyCall`.
/// Floating-point errors are reported under np.errstate as NumPy reports them, and a failed
/// element's exception is raised.
PyObject *callUfunc(UfuncFastCall &fast, PyObject *ufunc, PyObject *const *arguments,
                    size_t argumentCount, PyObject *keywordNames);

} // namespace taipan::bindings
