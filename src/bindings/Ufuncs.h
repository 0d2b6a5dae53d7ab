// numpy.ufunc objects whose inner loops taipan compiled (@vectorize, @guvectorize), and the
// thread-pool controls (set_num_threads and friends).
#pragma once

#include <nanobind/nanobind.h>

namespace taipan::bindings {

/// Registers make_ufunc and the thread functions on the module.
void defineUfuncBindings(nanobind::module_ &module);

} // namespace taipan::bindings
