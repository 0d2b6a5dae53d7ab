// Registration of every family of library functions, and the helpers their entries share.
#include "library/Families.h"
#include "library/ExceptionArguments.h"
#include "library/ObjectMode.h"

#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"

#include "typing/BuiltinTyping.h"

namespace taipan {

void registerJitClassFunctions(Library &library); // library/JitClasses.cpp

void registerLibraryFamilies(Library &library) {
  registerMathFunctions(library);
  registerCmathFunctions(library);
  registerRandomFunctions(library);
  registerBuiltinFunctions(library);
  registerBuiltinIterators(library);
  registerSliceFunctions(library);
  registerThreadFunctions(library);
  registerPrint(library);
  registerCudaFunctions(library);
  registerCudaArrays(library);
  registerCudaAtomics(library);
  registerCudaLibdevice(library);
  registerUfuncs(library); // after math and cmath, whose entries the ufuncs lower through
  registerNumpyCreationFunctions(library);
  registerNumpyShapeFunctions(library);
  registerNumpyReductions(library);
  registerNumpySortFunctions(library);
  registerNumpyLinalgFunctions(library);
  registerNumpyRandomFunctions(library);
  registerArrayAttributes(library);
  registerCArrayFunctions(library);
  registerIntrospection(library);
  registerStringFunctions(library);
  registerListFunctions(library);
  registerDictFunctions(library);
  registerDictViewFunctions(library);
  registerGeneratorMethods(library);
  registerSetFunctions(library);
  registerJitClassFunctions(library);
  registerLiteralUnroll(library);
  registerTupleMethods(library);
  registerTypedContainerFunctions(library); // after lists, whose list() it reuses
  registerObjectModeFunctions(library);
  registerExceptionArgumentFunctions(library);
}

void addCpu(Library &library, std::string name, std::vector<LibraryParameter> parameters,
            LibraryTypeRule type, LibraryLowerRule lower) {
  LibraryFunction function;
  function.name = std::move(name);
  function.parameters = std::move(parameters);
  function.targets = OnCpu;
  function.type = std::move(type);
  function.lower = std::move(lower);
  library.add(std::move(function));
}

llvm::Value *noneValue(LoweringApi &lowering) {
  return llvm::UndefValue::get(valueType(lowering.llvmContext(), types::none()));
}

void throwNoOverload(const LibraryCall &call) {
  throwNoOverload(call.function->name, call.argumentTypes, call.location);
}

} // namespace taipan
