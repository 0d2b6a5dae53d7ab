// Python's print(), one library entry: through the runtime's printing functions on the CPU, and
// as one vprintf per call on targets that print through the device's printf (CUDA).
#include "library/Families.h"

#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "lower/StringLowering.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

namespace taipan {
namespace {

/// Numbers, None, constant strings and tuples (named ones too) of numbers and None; not
/// literal lists, which would print as lists.
const Type *typePrint(const LibraryCall &call) {
  for (size_t i = 0; i < call.argumentTypes.size(); ++i) {
    const Type *type = call.argumentTypes[i];
    bool printable = type->isNumber() || type->isNone() || type->isString() ||
                     (type->isTuple() && !type->isLiteralList() &&
                      std::all_of(type->elements().begin(), type->elements().end(),
                                  [](const Type *t) { return t->isNumber() || t->isNone(); }));
    if (!printable)
      throwTypingError("print() cannot print a value of type " + type->name(),
                       call.arguments[i]->location);
  }
  return types::none();
}

/// The CPU: each value through the runtime (repr's formatting), then the end of the line.
void printOnHost(LoweringApi &lowering, const LibraryCall &call) {
  for (size_t i = 0; i < call.arguments.size(); ++i) {
    if (i)
      lowering.strings().printText(" ");
    const Type *type = call.argumentTypes[i];
    if (type->kind() == TypeKind::StringLiteral) {
      lowering.strings().printText(type->text());
      continue;
    }
    lowering.strings().printValue(lowering.lowerExpr(call.arguments[i]), type);
  }
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  builder.CreateCall(
      lowering.module().runtimeFunction("taipan_print_end", builder.getVoidTy(), {}));
}

/// A device: one vprintf per print(), so lines from different threads do not interleave
/// mid-line: a format string and a buffer of the values, each 8 bytes as C's varargs promote
/// them.
void printOnDevice(LoweringApi &lowering, const LibraryCall &call) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  std::string format;
  std::vector<llvm::Value *> values;
  for (size_t i = 0; i < call.arguments.size(); ++i) {
    if (i)
      format += " ";
    Expr *argument = call.arguments[i];
    const Type *type = call.argumentTypes[i];
    if (type->kind() == TypeKind::StringLiteral) {
      for (char c : type->text())
        format += c == '%' ? std::string("%%") : std::string(1, c);
      continue;
    }
    llvm::Value *value = lowering.lowerExpr(argument);
    if (type->isFloat()) {
      format += "%f";
      values.push_back(lowering.castValue(value, type, types::float64()));
    } else if (type->isInteger() || type->isBoolean()) {
      format += type->isInteger() && !type->isSigned() ? "%llu" : "%lld";
      values.push_back(lowering.castValue(
          value, type, type->isBoolean() ? types::int64() : types::integer(64, type->isSigned())));
    } else if (type->isNone()) {
      format += "None";
    } else {
      throwUnsupported("print() in CUDA kernels takes numbers and constant strings, not " +
                           type->name(),
                       argument->location);
    }
  }
  format += "\n";
  std::vector<llvm::Type *> fields;
  for (llvm::Value *value : values)
    fields.push_back(value->getType());
  llvm::Value *buffer = llvm::ConstantPointerNull::get(builder.getPtrTy());
  if (!values.empty()) {
    auto *layout = llvm::StructType::get(lowering.llvmContext(), fields);
    llvm::AllocaInst *slot = lowering.createEntryAlloca(layout, "printf.arguments");
    for (size_t i = 0; i < values.size(); ++i)
      builder.CreateStore(values[i], builder.CreateStructGEP(layout, slot, i));
    buffer = slot;
  }
  // The format lives in the device's constant memory (address space 4), as numba-cuda's does:
  // the kernel's constant size (get_const_mem_size) counts it.
  constexpr unsigned ConstantAddressSpace = 4;
  llvm::Constant *text = llvm::ConstantDataArray::getString(lowering.llvmContext(), format);
  auto *global = new llvm::GlobalVariable(
      lowering.module().module, text->getType(), true, llvm::GlobalValue::PrivateLinkage, text,
      "printf.format", nullptr, llvm::GlobalValue::NotThreadLocal, ConstantAddressSpace);
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  builder.CreateCall(lowering.module().runtimeFunction("vprintf", builder.getInt32Ty(),
                                                       {builder.getPtrTy(), builder.getPtrTy()}),
                     {builder.CreateAddrSpaceCast(global, builder.getPtrTy()), buffer});
}

} // namespace

void registerPrint(Library &library) {
  LibraryFunction print;
  print.name = "print";
  print.variadic = true;
  // Each argument is lowered as it is formatted; a constant string is never lowered.
  print.lowersArguments = true;
  print.type = typePrint;
  print.lower = [](LoweringApi &lowering, const LibraryCall &call,
                   const std::vector<llvm::Value *> &) {
    if (lowering.module().target.printsThroughDevicePrintf())
      printOnDevice(lowering, call);
    else
      printOnHost(lowering, call);
    return llvm::UndefValue::get(valueType(lowering.llvmContext(), call.resultType));
  };
  library.add(std::move(print));
}

} // namespace taipan
