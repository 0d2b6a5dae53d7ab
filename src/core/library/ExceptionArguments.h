// The library family of `e.args` in `except E as e` handlers (library/ExceptionArguments.cpp):
// one entry, the call the handler rewrite makes (syntax/CaughtExceptions.cpp).
#pragma once

namespace taipan {

class Library;

/// Registers `taipan.caught_args`.
void registerExceptionArgumentFunctions(Library &library);

} // namespace taipan
