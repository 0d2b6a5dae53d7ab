// Reads a function's Python `ast` tree (a FunctionDef or Lambda node) into the compiler's own
// syntax tree, rejecting unsupported syntax with the location of the offending node.
#pragma once

#include <nanobind/nanobind.h>

#include "syntax/SyntaxTree.h"

#include <memory>
#include <string>
#include <vector>

namespace taipan::bindings {

/// Builds the FunctionSource of `function` from its parsed definition `node`, whose line numbers
/// are the file's. `lines` are the original source lines of the definition, `firstLine` the file
/// line of lines[0] and `columnOffset` the indentation removed before parsing (0 when the node's
/// columns are the file's).
std::shared_ptr<FunctionSource> readFunction(nanobind::handle function, nanobind::handle node,
                                             std::vector<std::string> lines,
                                             const std::string &filename, int firstLine,
                                             int columnOffset, const CompileOptions &options);

} // namespace taipan::bindings
