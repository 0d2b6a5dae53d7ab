// builtins.compile, exec and eval, wrapped so that every code object they compile from text
// remembers that text (taipan.source_texts), where the front end finds exec'd functions' source.
#pragma once

#include <nanobind/nanobind.h>

namespace taipan::bindings {

/// Registers install_source_recorder on the module: it replaces builtins.compile, exec and eval
/// by wrappers that call the originals and pass each code object compiled from text, with the
/// text, to a Python callable.
void defineSourceTextBindings(nanobind::module_ &module);

} // namespace taipan::bindings
