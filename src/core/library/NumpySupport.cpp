// Helpers the NumPy families of the library share: registration of numpy.<name> with its
// array.<name> twin, shape and dtype arguments, and views (reshape, transpose) and copies.
#include "library/NumpySupport.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/StringLowering.h"
#include "runtime/Runtime.h"
#include "runtime/Sort.h"
#include "types/CharSequences.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/ImpreciseValues.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

namespace taipan {

void addNumpyFunction(Library &library, const std::string &name,
                      std::vector<LibraryParameter> parameters, LibraryTypeRule type,
                      LibraryLowerRule lower, bool withMethod, bool lowersArguments) {
  LibraryFunction function;
  function.name = "numpy." + name;
  function.lowersArguments = lowersArguments;
  function.parameters = std::move(parameters);
  function.type = std::move(type);
  function.lower = std::move(lower);
  if (withMethod) {
    LibraryFunction method = function;
    method.name = "array." + name;
    library.add(std::move(method));
  }
  library.add(std::move(function));
}

const Type *newArrayType(const Type *dtype, int ndim) {
  return types::array(dtype, ndim, 'C', false);
}

const Type *keptOrderCopyType(const Type *dtype, const Type *array) {
  return types::array(dtype, array->ndim(), array->layout() == 'F' ? 'F' : 'C', false);
}

int shapeDimensions(const Type *shape) {
  if (shape->isIntegerLike())
    return 1;
  if (shape->isTuple() && std::all_of(shape->elements().begin(), shape->elements().end(),
                                      [](const Type *t) { return t->isIntegerLike(); }))
    return static_cast<int>(shape->elements().size());
  return -1;
}

bool isGiven(const LibraryCall &call, size_t index) {
  return index < call.argumentTypes.size() && call.argumentTypes[index] &&
         !call.argumentTypes[index]->isNone();
}

const Type *dtypeArgument(const LibraryCall &call, size_t index, const Type *fallback) {
  if (!isGiven(call, index))
    return fallback;
  const Type *given = call.argumentTypes[index];
  const Type *dtype = dtypeFromArgument(given);
  // Numba's messages for strings: a string known only at run time, and one naming no dtype.
  std::string function = call.function->name.substr(call.function->name.find('.') + 1);
  if (!dtype && given->isUnicode())
    throwTypingError("If np." + function + " dtype is a string it must be a string constant.",
                     call.location);
  if (!dtype && given->kind() == TypeKind::StringLiteral && namesObjectDtype(given->text())) {
    // An array of Python objects: Numba types it and cannot type the variable holding it
    // (typing/ImpreciseValues.h). Its dimensions: the shape's, or the array argument's.
    const Type *first = call.argumentTypes.empty() ? nullptr : call.argumentTypes[0];
    int ndim = !first ? -1 : first->isArray() ? first->ndim() : shapeDimensions(first);
    throw ImpreciseValue(
        ndim < 0 ? "pyobject" : "array(pyobject, " + std::to_string(ndim) + "d, C)", call.location);
  }
  if (!dtype && given->kind() == TypeKind::StringLiteral)
    throwTypingError("Invalid NumPy dtype specified: '" + given->text() + "'", call.location);
  if (!dtype)
    throwTypingError("dtype must be a NumPy scalar type such as np.float64, not " + given->name(),
                     call.location);
  if (types::isCharSequence(dtype)) {
    // Fixed-width strings: arrays made empty or zeroed (NULs), views, and copies of strings of
    // the same kind; no number converts to one.
    const std::string &name = call.function->name;
    const Type *source = call.argumentTypes.empty() ? nullptr : call.argumentTypes[0];
    bool fromText =
        source && source->isArray() && types::isCharSequence(source->dtype()) &&
        types::isUnicodeCharSequence(source->dtype()) == types::isUnicodeCharSequence(dtype);
    if (name != "numpy.empty" && name != "numpy.zeros" && name != "numpy.empty_like" &&
        name != "numpy.zeros_like" && name != "array.view" && !(name == "array.astype" && fromText))
      throwUnsupported(name + " with the dtype " + dtype->name() + " is not supported",
                       call.location);
  }
  return dtype;
}

const Type *transposedType(const Type *array) {
  int ndim = array->ndim();
  char layout = array->layout() == 'C' ? 'F' : array->layout() == 'F' ? 'C' : 'A';
  return types::array(array->dtype(), ndim, ndim <= 1 ? array->layout() : layout,
                      array->isReadonly());
}

void throwNoImplementation(const LibraryCall &call) {
  std::vector<const Type *> given;
  for (const Type *argument : call.argumentTypes)
    if (argument)
      given.push_back(argument);
  throwNoOverload(call.function->name, given, call.location);
}

const Type *arrayArgument(const LibraryCall &call) {
  if (call.argumentTypes.empty() || !call.argumentTypes[0]->isArray())
    throwNoImplementation(call);
  return call.argumentTypes[0];
}

llvm::Value *int64Argument(LoweringApi &lowering, const LibraryCall &call,
                           const std::vector<llvm::Value *> &values, size_t index) {
  return lowering.castValue(values[index], call.argumentTypes[index], types::int64());
}

std::vector<llvm::Value *> shapeExtents(LoweringApi &lowering, llvm::Value *shape,
                                        const Type *shapeType) {
  std::vector<llvm::Value *> extents;
  if (!shapeType->isTuple())
    return {lowering.castValue(shape, shapeType, types::int64())};
  for (size_t i = 0; i < shapeType->elements().size(); ++i)
    extents.push_back(
        lowering.castValue(lowering.tupleElement(shape, shapeType, static_cast<unsigned>(i)),
                           shapeType->elements()[i], types::int64()));
  return extents;
}

llvm::Value *contiguous(LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
                        const Type **resultType) {
  if (arrayType->layout() == 'C') {
    *resultType = arrayType;
    return array;
  }
  *resultType = types::array(arrayType->dtype(), arrayType->ndim(), 'C', false);
  llvm::Value *copy =
      lowering.arrays().allocateArray(*resultType, lowering.arrays().arrayShape(array, arrayType));
  lowering.arrays().copyBroadcast(copy, *resultType, array, arrayType);
  return copy;
}

llvm::Value *reshapeArray(LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
                          std::vector<llvm::Value *> extents, const Type *resultType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::LLVMContext &context = lowering.llvmContext();
  // A non-contiguous source is copied first; a C-contiguous one is viewed.
  llvm::Value *source = array;
  if (arrayType->layout() != 'C') {
    const Type *contiguous = types::array(arrayType->dtype(), arrayType->ndim(), 'C', false);
    source =
        lowering.arrays().allocateArray(contiguous, lowering.arrays().arrayShape(array, arrayType));
    lowering.arrays().copyBroadcast(source, contiguous, array, arrayType);
  }
  llvm::Value *count = lowering.arrays().arrayField(source, ArrayLayout::ItemCount);
  // One extent may be -1: it is whatever makes the counts agree.
  llvm::Value *known = builder.getInt64(1);
  llvm::Value *unknownCount = builder.getInt64(0);
  for (llvm::Value *extent : extents) {
    llvm::Value *isUnknown = builder.CreateICmpEQ(extent, builder.getInt64(-1));
    known = builder.CreateMul(known, builder.CreateSelect(isUnknown, builder.getInt64(1), extent));
    unknownCount =
        builder.CreateAdd(unknownCount, builder.CreateZExt(isUnknown, builder.getInt64Ty()));
  }
  lowering.exceptions().raiseIf(builder.CreateICmpUGT(unknownCount, builder.getInt64(1)),
                                ValueErrorId, "can only specify one unknown dimension");
  llvm::Value *safeKnown = builder.CreateSelect(builder.CreateICmpEQ(known, builder.getInt64(0)),
                                                builder.getInt64(1), known);
  llvm::Value *inferred = builder.CreateSDiv(count, safeKnown);
  for (llvm::Value *&extent : extents)
    extent =
        builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(-1)), inferred, extent);
  llvm::Value *product = builder.getInt64(1);
  for (llvm::Value *extent : extents)
    product = builder.CreateMul(product, extent);
  lowering.exceptions().raiseIf(builder.CreateICmpNE(product, count), ValueErrorId,
                                "cannot reshape array into the requested shape");
  llvm::Value *view = llvm::UndefValue::get(valueType(context, resultType));
  for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount,
                     ArrayLayout::ItemSize, ArrayLayout::Data})
    view =
        lowering.arrays().withArrayField(view, field, lowering.arrays().arrayField(source, field));
  llvm::Value *stride = lowering.arrays().arrayField(source, ArrayLayout::ItemSize);
  for (size_t i = extents.size(); i-- > 0;) {
    view =
        lowering.arrays().withArrayField(view, ArrayLayout::Shape, extents[i], static_cast<int>(i));
    view =
        lowering.arrays().withArrayField(view, ArrayLayout::Strides, stride, static_cast<int>(i));
    stride = builder.CreateMul(stride, extents[i]);
  }
  lowering.incref(view, resultType);
  lowering.addTemporary(view, resultType);
  return view;
}

llvm::Value *transposeArray(LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
                            const Type *resultType) {
  llvm::LLVMContext &context = lowering.llvmContext();
  llvm::Value *result = llvm::UndefValue::get(valueType(context, resultType));
  for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount,
                     ArrayLayout::ItemSize, ArrayLayout::Data})
    result =
        lowering.arrays().withArrayField(result, field, lowering.arrays().arrayField(array, field));
  int ndim = arrayType->ndim();
  for (int i = 0; i < ndim; ++i) {
    result = lowering.arrays().withArrayField(
        result, ArrayLayout::Shape,
        lowering.arrays().arrayField(array, ArrayLayout::Shape, ndim - 1 - i), i);
    result = lowering.arrays().withArrayField(
        result, ArrayLayout::Strides,
        lowering.arrays().arrayField(array, ArrayLayout::Strides, ndim - 1 - i), i);
  }
  lowering.incref(result, resultType);
  lowering.addTemporary(result, resultType);
  return result;
}

int sortDtypeCode(const Type *dtype) {
  if (dtype->isBoolean())
    return 0;
  if (dtype->isDatetimeLike()) // NaT last (runtime/Sort.h)
    return runtime::SortDatetime;
  if (dtype->isComplex())
    return dtype->bits() == 64 ? 11 : 12;
  if (dtype->isFloat())
    return dtype->bits() == 32 ? 9 : 10;
  int base = dtype->bits() == 8 ? 1 : dtype->bits() == 16 ? 3 : dtype->bits() == 32 ? 5 : 7;
  return base + (dtype->isSigned() ? 0 : 1);
}

void raiseAxisErrorIf(LoweringApi &lowering, llvm::Value *outOfRange, llvm::Value *axis, int ndim) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::BasicBlock *bad = lowering.newBlock("axis.bad");
  llvm::BasicBlock *good = lowering.newBlock("axis.ok");
  builder.CreateCondBr(outOfRange, bad, good);
  builder.SetInsertPoint(bad);
  lowering.exceptions().emitPrintedRaise(AxisErrorId, [&] {
    lowering.strings().printText("axis ");
    lowering.strings().printValue(axis, types::int64());
    lowering.strings().printText(" is out of bounds for array of dimension " +
                                 std::to_string(ndim));
  });
  builder.SetInsertPoint(good);
}

} // namespace taipan
