// cuda.libdevice: libdevice's __nv_* functions called by name from kernels, typed as numba-cuda
// types them (its libdevicefuncs table); outputs through pointers come back in a tuple.
#include "library/Families.h"

#include "lower/LoweringApi.h"

#include <llvm/IR/Module.h>

namespace taipan {
namespace {

/// One libdevice function: its name without `__nv_`, and its prototype as letters: the
/// return type, then each parameter; `&` before a parameter makes it an output pointer.
/// i: int32, l: int64, h: int16, f: float32, d: float64, v: void.
struct LibdeviceFunction {
  const char *name;
  const char *prototype;
};

// The table numba-cuda 0.30's libdevicefuncs declares (libdevice 10's public functions less
// the few it leaves out), with its types: libdevice's unsigned parameters are signed there.
const LibdeviceFunction libdeviceFunctions[] = {
#include "library/CudaLibdeviceTable.inc"
};

const Type *typeOfLetter(char letter) {
  switch (letter) {
  case 'i':
    return types::integer(32, true);
  case 'l':
    return types::integer(64, true);
  case 'h':
    return types::integer(16, true);
  case 'f':
    return types::float32();
  case 'd':
    return types::float64();
  default:
    return types::none();
  }
}

/// A prototype read from its letters.
struct Prototype {
  const Type *result = nullptr;         ///< none for void
  std::vector<const Type *> inputs;     ///< the parameters passed by value
  std::vector<const Type *> parameters; ///< every parameter, outputs included
  std::vector<bool> isOutput;           ///< per parameter
  const Type *callResult = nullptr;     ///< what the Python call returns
};

Prototype readPrototype(const char *letters) {
  Prototype prototype;
  prototype.result = typeOfLetter(letters[0]);
  std::vector<const Type *> results;
  if (letters[0] != 'v')
    results.push_back(prototype.result);
  for (const char *c = letters + 1; *c; ++c) {
    bool output = *c == '&';
    if (output)
      ++c;
    const Type *type = typeOfLetter(*c);
    prototype.parameters.push_back(type);
    prototype.isOutput.push_back(output);
    (output ? results : prototype.inputs).push_back(type);
  }
  prototype.callResult = results.size() == 1 ? results[0] : types::tuple(results);
  return prototype;
}

llvm::Type *llvmTypeOf(llvm::LLVMContext &context, const Type *type) {
  if (type->isFloat())
    return type->bits() == 32 ? llvm::Type::getFloatTy(context) : llvm::Type::getDoubleTy(context);
  if (type->isInteger())
    return llvm::Type::getIntNTy(context, type->bits());
  return llvm::Type::getVoidTy(context);
}

void addLibdeviceFunction(Library &library, const LibdeviceFunction &entry) {
  auto prototype = std::make_shared<Prototype>(readPrototype(entry.prototype));
  std::string symbol = std::string("__nv_") + entry.name;
  LibraryFunction function;
  function.name = std::string("cuda.libdevice.") + entry.name;
  for (size_t i = 0; i < prototype->inputs.size(); ++i)
    function.parameters.push_back({"", false});
  function.targets = OnGpu;
  // As numba-cuda's one concrete signature: any real number converts to a parameter's type.
  function.type = [prototype](const LibraryCall &call) {
    for (const Type *argument : call.argumentTypes)
      if (!argument || !argument->isReal())
        throwNoOverload(call);
    return prototype->callResult;
  };
  function.lower = [prototype, symbol](LoweringApi &lowering, const LibraryCall &call,
                                       const std::vector<llvm::Value *> &values) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    llvm::LLVMContext &context = lowering.llvmContext();
    std::vector<llvm::Type *> parameterTypes;
    for (size_t i = 0; i < prototype->parameters.size(); ++i)
      parameterTypes.push_back(prototype->isOutput[i]
                                   ? static_cast<llvm::Type *>(builder.getPtrTy())
                                   : llvmTypeOf(context, prototype->parameters[i]));
    auto *functionType =
        llvm::FunctionType::get(llvmTypeOf(context, prototype->result), parameterTypes, false);
    llvm::FunctionCallee callee =
        builder.GetInsertBlock()->getModule()->getOrInsertFunction(symbol, functionType);
    std::vector<llvm::Value *> operands;
    std::vector<std::pair<llvm::AllocaInst *, llvm::Type *>> outputs;
    size_t input = 0;
    for (size_t i = 0; i < prototype->parameters.size(); ++i) {
      if (prototype->isOutput[i]) {
        llvm::Type *type = llvmTypeOf(context, prototype->parameters[i]);
        llvm::AllocaInst *slot = lowering.createEntryAlloca(type, "libdevice.out");
        outputs.emplace_back(slot, type);
        operands.push_back(slot);
      } else {
        operands.push_back(
            lowering.castValue(values[input], call.argumentTypes[input], prototype->inputs[input]));
        ++input;
      }
    }
    llvm::Value *returned = builder.CreateCall(callee, operands);
    if (outputs.empty())
      return returned;
    std::vector<llvm::Value *> elements;
    if (!prototype->result->isNone())
      elements.push_back(returned);
    for (const auto &[slot, type] : outputs)
      elements.push_back(builder.CreateLoad(type, slot));
    if (elements.size() == 1)
      return elements[0];
    return lowering.lowerTuple(elements, call.resultType);
  };
  library.add(std::move(function));
}

} // namespace

void registerCudaLibdevice(Library &library) {
  for (const LibdeviceFunction &entry : libdeviceFunctions)
    addLibdeviceFunction(library, entry);
}

} // namespace taipan
