// The decorator's keywords to CompileOptions, by the options table (syntax/CompileOptions.def),
// and the table itself as Python reads it (taipan._core.compile_option_table).
#pragma once

#include <nanobind/nanobind.h>

#include "syntax/CompileOptions.h"

namespace taipan::bindings {

/// Parses a decorator's options, the one place they are read: every compile job of the function
/// (CPU or CUDA) takes them from its FunctionSource. Keywords the table gives no field are
/// ignored here (the Python side checked and handles them).
CompileOptions readOptions(nanobind::dict options);

/// Adds compile_option_table(), read_options() and function_options() to the module.
void registerOptionTable(nanobind::module_ &module);

} // namespace taipan::bindings
