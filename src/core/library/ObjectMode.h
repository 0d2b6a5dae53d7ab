// The library family of `with objmode(...)` blocks (library/ObjectMode.cpp): one entry, the
// call a rewritten block makes.
#pragma once

namespace taipan {

class Library;

/// Registers `taipan.objmode_call` (typing/ObjectModeBlocks.h).
void registerObjectModeFunctions(Library &library);

} // namespace taipan
