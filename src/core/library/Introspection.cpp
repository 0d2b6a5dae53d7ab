// Python's builtins that ask about a value's class: isinstance(), decided from the value's type
// when the function compiles (typing/Isinstance.h); type inference types its calls itself
// (its second argument names classes, which are not values) and prunes `if isinstance(...)`.
#include "library/Library.h"

#include "lower/FunctionLowering.h"
#include "support/CompileError.h"

namespace taipan {

void registerIntrospection(Library &library) {
  library.add(
      "isinstance", {{"", false}, {"", false}},
      [](LibraryCall &call) -> const Type * {
        // TypeInference::typeIsinstance records isinstance calls; this rule is never asked.
        throw CompileError(CompileErrorKind::Internal, "isinstance() typed as a library call",
                           call.location);
      },
      [](FunctionLowering &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &) -> llvm::Value * {
        // The value was lowered (evaluated) for its effects; the answer is the recorded one.
        return lowering.irBuilder().getInt1(call.form != 0);
      });
}

} // namespace taipan
