// numpy.ufunc objects whose inner loops taipan compiled (@vectorize, @guvectorize), and the
// thread-pool controls (set_num_threads and friends).
#pragma once

#include <nanobind/nanobind.h>

#include <string>

namespace taipan::bindings {

/// The library name compiled code calls the user ufunc `object` by, or nullptr when it is
/// not one (register_user_ufunc).
const std::string *userUfuncName(PyObject *object);

/// Registers make_ufunc and the thread functions on the module.
void defineUfuncBindings(nanobind::module_ &module);

} // namespace taipan::bindings
