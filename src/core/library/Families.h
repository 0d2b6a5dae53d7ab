// The families of library functions (one source file each in src/core/library/) and the helpers
// their entries share; the registry they fill is registry/Library.h.
#pragma once

#include "lower/LoweringApi.h"
#include "registry/Library.h"

#include <string>
#include <vector>

namespace taipan {

/// A ufunc entry: `parameters` (positional-only when names are empty) for the kernel's
/// inputs, and the type rule and scalar lowering every ufunc shares. The type rule records the
/// kernel's loop in the call and gives its output, or an array of it (the broadcast ndim) when
/// an operand is an array; the scalar lowering converts the arguments and runs the kernel.
LibraryFunction makeUfunc(std::string name, UfuncKernel kernel,
                          std::vector<LibraryParameter> parameters = {});

/// Attributes `<owner>.<field>` of a value stored as a struct of int64 fields, in order: each
/// reads its field (range's and slice's start, stop and step).
void addInt64FieldAttributes(Library &library, const std::string &owner,
                             const std::vector<const char *> &fields);

/// Registration of each family (library/<Family>.cpp).
void registerMathFunctions(Library &library);
void registerCmathFunctions(Library &library);
void registerRandomFunctions(Library &library);
void registerBuiltinFunctions(Library &library);
void registerBuiltinIterators(Library &library);
void registerSliceFunctions(Library &library);
void registerThreadFunctions(Library &library);
void registerPrint(Library &library);
void registerCudaFunctions(Library &library);
void registerCudaArrays(Library &library);
void registerCudaAtomics(Library &library);
void registerCudaLibdevice(Library &library);
void registerUfuncs(Library &library);
void registerNumpyCreationFunctions(Library &library);
void registerNumpyShapeFunctions(Library &library);
void registerNumpyReductions(Library &library);
void registerNumpySortFunctions(Library &library);
void registerNumpyLinalgFunctions(Library &library);
void registerNumpyRandomFunctions(Library &library);
void registerArrayAttributes(Library &library);
void registerCArrayFunctions(Library &library);
void registerIntrospection(Library &library);
void registerStringFunctions(Library &library);
void registerListFunctions(Library &library);
void registerDictFunctions(Library &library);
void registerDictViewFunctions(Library &library);
void registerGeneratorMethods(Library &library);
void registerTypedContainerFunctions(Library &library);
void registerSetFunctions(Library &library);
void registerLiteralUnroll(Library &library);
void registerTupleMethods(Library &library);

/// Throws the TypingError "no implementation of <function> for argument types (...)" for a
/// call whose argument types its function does not take.
[[noreturn]] void throwNoOverload(const LibraryCall &call);

/// Adds a function that runs on the CPU only (lists and dicts: they live in the CPU's memory
/// runtime).
void addCpu(Library &library, std::string name, std::vector<LibraryParameter> parameters,
            LibraryTypeRule type, LibraryLowerRule lower);

/// The value of a call that returns None.
llvm::Value *noneValue(LoweringApi &lowering);

} // namespace taipan
