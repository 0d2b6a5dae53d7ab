// jitclass instances made in compiled code: `taipan.jitclass.allocate(instance_type)`, which
// a class's constructor (written in Python by taipan.jitclass) calls before its __init__.
#include "library/Families.h"

#include "lower/LowerJitClasses.h"
#include "lower/LoweringApi.h"

namespace taipan {

void registerJitClassFunctions(Library &library); // called by Library's constructor

void registerJitClassFunctions(Library &library) {
  addCpu(
      library, "taipan.jitclass.allocate", {{"instance_type", false}},
      [](LibraryCall &call) -> const Type * {
        const Type *argument = call.argumentTypes.empty() ? nullptr : call.argumentTypes[0];
        if (!argument || argument->kind() != TypeKind::DType || !isClassInstance(argument->dtype()))
          throwNoOverload(call);
        const Type *instance = argument->dtype();
        if (!classFieldsLayout(instance))
          throwTypingError("the jitclass " + instance->text() + " has no fields defined yet",
                           call.location);
        return instance;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &) {
        return newClassInstance(lowering, call.resultType);
      });
}

} // namespace taipan
