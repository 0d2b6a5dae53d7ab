// UfuncCalls: the type rule and lowering every ufunc entry shares (makeUfunc): the inputs'
// loop, output arguments (`np.add(a, b, out)`, `out=`) and two outputs, each call not fused
// into an array expression running its own loop over the broadcast shape.
#include "library/UfuncCalls.h"

#include "library/Families.h"
#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "runtime/Runtime.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

#include <algorithm>
#include <stdexcept>

namespace taipan {
namespace {

/// The ufunc's name as NumPy spells it in messages ("add" for "numpy.add").
std::string ufuncName(const LibraryCall &call) {
  const std::string &name = call.function->name;
  return name.rfind("numpy.", 0) == 0 ? name.substr(6) : name;
}

/// Checks the output arguments against the inputs' ndim and the loop's output types.
void checkOutputArguments(const LibraryCall &call, int inputDimensions) {
  const UfuncKernel &kernel = *call.function->ufunc;
  std::string name = ufuncName(call);
  size_t slots = 0;
  for (size_t i = kernel.inputs; i < call.argumentTypes.size(); ++i) {
    const Type *argument = call.argumentTypes[i];
    if (argument && argument->isTuple()) {
      if (argument->elements().size() != kernel.outputs)
        throwTypingError("ufunc '" + name + "': the 'out' tuple must have exactly one entry per " +
                             "ufunc output (" + std::to_string(kernel.outputs) + ")",
                         call.location);
      slots += argument->elements().size();
    } else {
      ++slots;
    }
  }
  if (slots > kernel.outputs)
    throwTypingError("ufunc '" + name + "': too many arguments (" +
                         std::to_string(kernel.inputs + slots) + " found, " +
                         std::to_string(kernel.inputs + kernel.outputs) + " maximum)",
                     call.location);
  std::vector<const Type *> outputs = ufuncOutputArguments(call);
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Type *output = outputs[k];
    if (!output)
      continue;
    if (!output->isArray())
      throwTypingError("ufunc '" + name + "' called with an explicit output that is not an " +
                           "array (" + output->name() + ")",
                       call.location);
    if (output->isReadonly())
      throwTypingError("ufunc '" + name + "' called with an explicit output that is read-only",
                       call.location);
    if (!output->dtype()->isNumber() && !output->dtype()->isDatetimeLike())
      throwTypingError("ufunc '" + name + "' cannot write into an output of dtype " +
                           output->dtype()->name(),
                       call.location);
    if (output->ndim() < inputDimensions)
      throwTypingError("ufunc '" + name + "': an output of " + std::to_string(output->ndim()) +
                           " dimensions cannot hold the broadcast of inputs of " +
                           std::to_string(inputDimensions) + " (non-broadcastable output operand)",
                       call.location);
    const Type *computed = k == 0 ? call.loop.output : call.loop.secondOutput;
    if (computed && !castsSameKindWithDatetimes(computed, output->dtype()))
      throwTypingError("Cannot cast ufunc '" + name + "' output from dtype('" + computed->name() +
                           "') to dtype('" + output->dtype()->name() +
                           "') with casting rule 'same_kind'",
                       call.location);
  }
}

/// The type rule every ufunc shares: the kernel's loop for the inputs' element types, recorded
/// in the call; the result is its output (ufuncResultType).
const Type *typeUfuncCall(LibraryCall &call) {
  const UfuncKernel &kernel = *call.function->ufunc;
  size_t given = std::count_if(call.argumentTypes.begin(), call.argumentTypes.end(),
                               [](const Type *t) { return t != nullptr; });
  if (call.argumentTypes.size() < kernel.inputs ||
      std::any_of(call.argumentTypes.begin(), call.argumentTypes.begin() + kernel.inputs,
                  [](const Type *t) { return t == nullptr; }))
    throwTypingError("ufunc '" + ufuncName(call) + "': not enough arguments (" +
                         std::to_string(given) + " found, " + std::to_string(kernel.inputs) +
                         " required)",
                     call.location);
  std::vector<const Type *> elements;
  int dimensions = 0;
  for (size_t i = 0; i < kernel.inputs; ++i) {
    const Type *argument = call.argumentTypes[i];
    elements.push_back(argument->isArray() ? argument->dtype() : argument);
    if (argument->isArray())
      dimensions = std::max(dimensions, argument->ndim());
  }
  std::optional<UfuncLoop> loop;
  if (std::all_of(elements.begin(), elements.end(), [&](const Type *t) {
        return t->isNumber() || (kernel.takesDatetimes && t->isDatetimeLike());
      }))
    loop = kernel.selectLoop(elements);
  if (!loop) {
    std::vector<const Type *> inputs(call.argumentTypes.begin(),
                                     call.argumentTypes.begin() + kernel.inputs);
    throwNoOverload(call.function->name, inputs, call.location);
  }
  call.loop = std::move(*loop);
  checkOutputArguments(call, dimensions);
  std::vector<const Type *> outputs = ufuncOutputArguments(call);
  bool anyOutput = std::any_of(outputs.begin(), outputs.end(), [](const Type *t) { return t; });
  if (!anyOutput) { // `out=None`: the call's arguments are its inputs, as fusion reads them
    call.arguments.resize(kernel.inputs);
    call.argumentTypes.resize(kernel.inputs);
  }
  call.form = anyOutput || kernel.outputs > 1 ? UfuncCallWithOwnLoop : FusedUfuncCall;
  return call.loop.output ? ufuncResultType(call) : nullptr; // nullptr: the callee decides
}

/// The output values of a call, one per output (nullptr where the call allocates it).
std::vector<llvm::Value *> outputValues(LoweringApi &lowering, const LibraryCall &call,
                                        const std::vector<llvm::Value *> &values) {
  const UfuncKernel &kernel = *call.function->ufunc;
  std::vector<llvm::Value *> outputs(kernel.outputs, nullptr);
  size_t slot = 0;
  for (size_t i = kernel.inputs; i < values.size() && i < call.argumentTypes.size(); ++i) {
    const Type *type = call.argumentTypes[i];
    if (type && type->isTuple()) {
      for (unsigned e = 0; e < type->elements().size(); ++e, ++slot)
        if (slot < outputs.size() && !type->elements()[e]->isNone())
          outputs[slot] = lowering.tupleElement(values[i], type, e);
      continue;
    }
    if (slot < outputs.size() && type && !type->isNone())
      outputs[slot] = values[i];
    ++slot;
  }
  return outputs;
}

/// Whether writing `output` may change what `input` reads later in the loop: their byte spans
/// overlap and they are not the same items in the same order (identical data, shape and
/// strides, as `np.add(a, b, a)`, which reads each item before writing it).
llvm::Value *mayOverlap(LoweringApi &lowering, llvm::Value *output, const Type *outputType,
                        llvm::Value *input, const Type *inputType) {
  ArrayLowering &arrays = lowering.arrays();
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *zero = builder.getInt64(0);
  auto span = [&](llvm::Value *array, const Type *type, llvm::Value *&low, llvm::Value *&high) {
    llvm::Value *data =
        builder.CreatePtrToInt(arrays.arrayField(array, ArrayLayout::Data), builder.getInt64Ty());
    low = data;
    high = builder.CreateAdd(data, arrays.arrayField(array, ArrayLayout::ItemSize));
    llvm::Value *empty = builder.getFalse();
    for (int axis = 0; axis < type->ndim(); ++axis) {
      llvm::Value *extent = arrays.arrayField(array, ArrayLayout::Shape, axis);
      llvm::Value *reach = builder.CreateMul(builder.CreateSub(extent, builder.getInt64(1)),
                                             arrays.arrayField(array, ArrayLayout::Strides, axis));
      llvm::Value *negative = builder.CreateICmpSLT(reach, zero);
      low = builder.CreateAdd(low, builder.CreateSelect(negative, reach, zero));
      high = builder.CreateAdd(high, builder.CreateSelect(negative, zero, reach));
      empty = builder.CreateOr(empty, builder.CreateICmpSLE(extent, zero));
    }
    high = builder.CreateSelect(empty, low, high);
  };
  llvm::Value *outLow, *outHigh, *inLow, *inHigh;
  span(output, outputType, outLow, outHigh);
  span(input, inputType, inLow, inHigh);
  llvm::Value *overlap = builder.CreateAnd(builder.CreateICmpULT(outLow, inHigh),
                                           builder.CreateICmpULT(inLow, outHigh));
  if (inputType->ndim() != outputType->ndim() || inputType->dtype() != outputType->dtype())
    return overlap;
  llvm::Value *identical = builder.CreateICmpEQ(arrays.arrayField(input, ArrayLayout::Data),
                                                arrays.arrayField(output, ArrayLayout::Data));
  for (int axis = 0; axis < inputType->ndim(); ++axis)
    for (ArrayLayout::Field field : {ArrayLayout::Shape, ArrayLayout::Strides})
      identical = builder.CreateAnd(identical,
                                    builder.CreateICmpEQ(arrays.arrayField(input, field, axis),
                                                         arrays.arrayField(output, field, axis)));
  return builder.CreateAnd(overlap, builder.CreateNot(identical));
}

/// `input`, or a C-contiguous copy of it when writing `output` may overlap it (mayOverlap);
/// `copy` gets an array value whose block (null without a copy) the caller releases.
llvm::Value *readSeparately(LoweringApi &lowering, llvm::Value *output, const Type *outputType,
                            llvm::Value *input, const Type *inputType, const Type **resultType,
                            llvm::Value **copy) {
  ArrayLowering &arrays = lowering.arrays();
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *overlaps = mayOverlap(lowering, output, outputType, input, inputType);
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *copyBlock = lowering.newBlock("ufunc.copy");
  llvm::BasicBlock *done = lowering.newBlock("ufunc.copied");
  builder.CreateCondBr(overlaps, copyBlock, done);
  builder.SetInsertPoint(copyBlock);
  const Type *copyType = types::array(inputType->dtype(), inputType->ndim(), 'C', false);
  llvm::Value *copied = arrays.allocateArray(copyType, arrays.arrayShape(input, inputType));
  lowering.takeOwnership(copied, copyType); // released by the caller, on both paths
  arrays.copyBroadcast(copied, copyType, input, inputType);
  llvm::Value *copiedBlock = arrays.arrayField(copied, ArrayLayout::MemInfo);
  llvm::BasicBlock *copyEnd = builder.GetInsertBlock();
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  *resultType = types::array(inputType->dtype(), inputType->ndim(), 'A', true);
  llvm::PHINode *chosen = builder.CreatePHI(input->getType(), 2);
  chosen->addIncoming(input, before);
  chosen->addIncoming(copied, copyEnd);
  llvm::PHINode *block = builder.CreatePHI(builder.getPtrTy(), 2);
  block->addIncoming(llvm::ConstantPointerNull::get(builder.getPtrTy()), before);
  block->addIncoming(copiedBlock, copyEnd);
  *copy = builder.CreateInsertValue(llvm::Constant::getNullValue(input->getType()), block,
                                    {static_cast<unsigned>(ArrayLayout::MemInfo)});
  return chosen;
}

/// A call with arrays, output arguments or two outputs: one loop over the result's shape (the
/// given output's, or the inputs' broadcast), each item the kernel's on the inputs' items,
/// stored into every output (cast to its dtype). Inputs that may overlap a given output are
/// read from a copy, as NumPy does; a given output is the result.
llvm::Value *lowerUfuncLoop(LoweringApi &lowering, const LibraryCall &call,
                            const std::vector<llvm::Value *> &values) {
  const UfuncKernel &kernel = *call.function->ufunc;
  ArrayLowering &arrays = lowering.arrays();
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  std::vector<llvm::Value *> inputs(values.begin(), values.begin() + kernel.inputs);
  std::vector<const Type *> inputTypes(call.argumentTypes.begin(),
                                       call.argumentTypes.begin() + kernel.inputs);
  std::vector<llvm::Value *> outputs = outputValues(lowering, call, values);
  std::vector<const Type *> givenTypes = ufuncOutputArguments(call);
  std::vector<const Type *> resultTypes = kernel.outputs == 1
                                              ? std::vector<const Type *>{call.resultType}
                                              : call.resultType->elements();
  // The shape: the first given output's (the others must match it), or the inputs' broadcast.
  std::vector<llvm::Value *> shape;
  int given = -1;
  for (size_t k = 0; k < outputs.size(); ++k)
    if (outputs[k] && given < 0)
      given = static_cast<int>(k);
  if (given >= 0) {
    shape = arrays.arrayShape(outputs[given], givenTypes[given]);
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (!outputs[k] || static_cast<int>(k) == given)
        continue;
      if (givenTypes[k]->ndim() != static_cast<int>(shape.size()))
        throwTypingError("ufunc '" + ufuncName(call) + "': the outputs differ in dimensions",
                         call.location);
      for (size_t axis = 0; axis < shape.size(); ++axis)
        lowering.exceptions().raiseIf(
            builder.CreateICmpNE(
                arrays.arrayField(outputs[k], ArrayLayout::Shape, static_cast<int>(axis)),
                shape[axis]),
            ValueErrorId, "non-broadcastable output operand: the outputs' shapes differ");
    }
  } else {
    int ndim = 0;
    for (const Type *type : resultTypes)
      ndim = std::max(ndim, type->isArray() ? type->ndim() : 0);
    shape.assign(ndim, builder.getInt64(1));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputTypes[i]->isArray())
      continue;
    int offset = static_cast<int>(shape.size()) - inputTypes[i]->ndim();
    for (int axis = 0; axis < inputTypes[i]->ndim(); ++axis) {
      llvm::Value *extent = arrays.arrayField(inputs[i], ArrayLayout::Shape, axis);
      llvm::Value *current = shape[offset + axis];
      llvm::Value *isOne = builder.CreateICmpEQ(extent, builder.getInt64(1));
      if (given >= 0) {
        lowering.exceptions().raiseIf(
            builder.CreateAnd(builder.CreateNot(isOne), builder.CreateICmpNE(extent, current)),
            ValueErrorId,
            "non-broadcastable output operand: the inputs do not broadcast to the output's shape");
        continue;
      }
      llvm::Value *merged =
          builder.CreateSelect(builder.CreateICmpEQ(current, builder.getInt64(1)), extent, current);
      lowering.exceptions().raiseIf(
          builder.CreateAnd(builder.CreateNot(isOne), builder.CreateICmpNE(extent, merged)),
          ValueErrorId, "operands could not be broadcast together");
      shape[offset + axis] = merged;
    }
  }
  // Outputs the call makes: new arrays of the shape (a 0-d result stays a scalar).
  std::vector<const Type *> outputTypes(outputs.size());
  for (size_t k = 0; k < outputs.size(); ++k) {
    outputTypes[k] = outputs[k] ? givenTypes[k] : resultTypes[k];
    if (!outputs[k] && resultTypes[k]->isArray())
      outputs[k] = arrays.allocateArray(resultTypes[k], shape);
  }
  // Inputs read through a copy where they may overlap a given output.
  std::vector<std::pair<llvm::Value *, const Type *>> copies;
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (!outputs[k] || !givenTypes[k])
      continue;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!inputTypes[i]->isArray())
        continue;
      if (!lowering.module().target.allocatesArrays()) {
        // No copy can be made (a CUDA kernel): an overlap NumPy would read around is refused.
        lowering.exceptions().raiseIf(
            mayOverlap(lowering, outputs[k], givenTypes[k], inputs[i], inputTypes[i]), ValueErrorId,
            "a ufunc's output overlaps an input here, and GPU code cannot copy the input");
        continue;
      }
      llvm::Value *copy = nullptr;
      const Type *separateType = inputTypes[i];
      inputs[i] = readSeparately(lowering, outputs[k], givenTypes[k], inputs[i], inputTypes[i],
                                 &separateType, &copy);
      inputTypes[i] = separateType;
      copies.emplace_back(copy, separateType);
    }
  }
  std::vector<const Type *> itemTypes;
  for (const Type *type : inputTypes)
    itemTypes.push_back(type->isArray() ? type->dtype() : type);
  // The kernel's results at index `at` of the shape.
  auto itemsAt = [&](const std::vector<llvm::Value *> &at) {
    std::vector<llvm::Value *> items;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!inputTypes[i]->isArray()) {
        items.push_back(inputs[i]);
        continue;
      }
      int offset = static_cast<int>(at.size()) - inputTypes[i]->ndim();
      std::vector<llvm::Value *> index;
      for (int axis = 0; axis < inputTypes[i]->ndim(); ++axis) {
        llvm::Value *extent = arrays.arrayField(inputs[i], ArrayLayout::Shape, axis);
        index.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                             builder.getInt64(0), at[offset + axis]));
      }
      items.push_back(
          arrays.loadElement(arrays.elementAddress(inputs[i], inputTypes[i], index), itemTypes[i]));
    }
    bool saved = lowering.useNumpyArithmetic(true);
    llvm::Value *result = arrays.lowerUfuncElement(call, items, itemTypes);
    lowering.useNumpyArithmetic(saved);
    std::vector<llvm::Value *> results;
    if (kernel.outputs == 1)
      results.push_back(result);
    else
      for (unsigned k = 0; k < kernel.outputs; ++k)
        results.push_back(builder.CreateExtractValue(result, {k}));
    return results;
  };
  auto computedType = [&](size_t k) { return k == 0 ? call.loop.output : call.loop.secondOutput; };
  std::vector<llvm::Value *> scalars(outputs.size(), nullptr);
  auto storeAt = [&](const std::vector<llvm::Value *> &at) {
    std::vector<llvm::Value *> results = itemsAt(at);
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (!outputs[k]) { // a 0-d result the call returns as a scalar
        scalars[k] = lowering.castValue(results[k], computedType(k), outputTypes[k]);
        continue;
      }
      const Type *dtype = outputTypes[k]->dtype();
      arrays.storeElement(arrays.elementAddress(outputs[k], outputTypes[k], at),
                          lowering.castValue(results[k], computedType(k), dtype), dtype);
    }
  };
  if (shape.empty())
    storeAt({});
  else
    arrays.forEachIndex(shape, storeAt);
  for (auto &[copy, type] : copies)
    lowering.decref(copy, type);
  // The results: a given output is borrowed, so the call's result takes a new reference.
  std::vector<llvm::Value *> results;
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (!outputs[k])
      results.push_back(scalars[k]);
    else if (givenTypes[k])
      results.push_back(outputs[k]);
    else
      results.push_back(outputs[k]); // a temporary of this statement
  }
  if (results.size() == 1) {
    if (givenTypes[0]) {
      lowering.incref(results[0], outputTypes[0]);
      lowering.addTemporary(results[0], outputTypes[0]);
    }
    return results[0];
  }
  for (size_t k = 0; k < results.size(); ++k)
    if (outputTypes[k]->isArray())
      results[k] = lowering.takeOwnership(results[k], outputTypes[k]);
  llvm::Value *tuple = lowering.lowerTuple(results, call.resultType);
  lowering.addTemporary(tuple, call.resultType); // it owns its arrays' references
  return tuple;
}

/// The lowering every ufunc shares: a scalar call is the kernel on its values; calls with
/// arrays outside a fused expression (output arguments, two outputs, 0-d arrays) run a loop.
/// Calls whose result is a new array are array expressions, which lower the kernel inside
/// their one loop instead.
llvm::Value *lowerUfuncCall(LoweringApi &lowering, const LibraryCall &call,
                            const std::vector<llvm::Value *> &values) {
  const UfuncKernel &kernel = *call.function->ufunc;
  bool anyArray =
      std::any_of(call.argumentTypes.begin(), call.argumentTypes.begin() + kernel.inputs,
                  [](const Type *t) { return t->isArray(); });
  if (call.form == FusedUfuncCall && !anyArray) {
    // NumPy's arithmetic on scalars too (np.divide(1.0, 0.0) is inf), as Numba's kernels.
    bool saved = lowering.useNumpyArithmetic(true);
    llvm::Value *result = lowering.arrays().lowerUfuncElement(call, values, call.argumentTypes);
    lowering.useNumpyArithmetic(saved);
    return result;
  }
  return lowerUfuncLoop(lowering, call, values);
}

} // namespace

/// Registers ufunc numpy.<name>.
void addUfunc(Library &library, const std::string &name, unsigned inputs, LoopSelection select,
              LibraryLowerRule lowerElement, std::vector<LibraryParameter> parameters) {
  UfuncKernel kernel;
  kernel.inputs = inputs;
  kernel.selectLoop = std::move(select);
  kernel.lowerElement = std::move(lowerElement);
  library.add(makeUfunc("numpy." + name, std::move(kernel), std::move(parameters)));
}

/// An entry registered before the ufuncs (a math or cmath function a kernel lowers through).
const LibraryFunction *ufuncHelperEntry(const Library &library, const std::string &name) {
  const LibraryFunction *found = library.find(name);
  if (!found)
    throw std::logic_error("ufuncs need library function " + name);
  return found;
}

/// A math or cmath entry's lowering on element values of `types`, computing in `result`.
llvm::Value *lowerThrough(const LibraryFunction *function, LoweringApi &lowering,
                          const std::vector<llvm::Value *> &values,
                          const std::vector<const Type *> &types, const Type *result) {
  LibraryCall call;
  call.function = function;
  call.argumentTypes = types;
  call.resultType = result;
  return function->lower(lowering, call, values);
}

/// NumPy's float loop for an input type: floats and complex numbers keep their type; booleans
/// and integers of up to 16 bits compute in float32 (NumPy uses float16 for 8-bit integers,
/// which taipan does not have), wider integers in float64.
const Type *floatLoopType(const Type *type) {
  if (type->isFloat() || type->isComplex())
    return type;
  return type->isBoolean() || type->bits() <= 16 ? types::float32() : types::float64();
}

/// Booleans compute in int8 where NumPy has no bool loop (negative, sign, floor_divide...).
const Type *withoutBool(const Type *type) {
  return type->isBoolean() ? types::integer(8, true) : type;
}

/// Every input and the output in one type.
UfuncLoop uniformLoop(const Type *type, size_t inputs) {
  return UfuncLoop{std::vector<const Type *>(inputs, type), type};
}

/// A loop whose inputs and output share the type `rule` makes of the promoted input types
/// (NumPy's promote_types), or none for complex inputs unless `takesComplex`.
LoopSelection promotedLoop(const Type *(*rule)(const Type *), bool takesComplex) {
  return
      [rule, takesComplex](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
        const Type *common = elements[0];
        for (const Type *element : elements)
          common = promoteDtypes(common, element);
        if (common->isComplex() && !takesComplex)
          return std::nullopt;
        const Type *type = rule(common);
        if (!type)
          return std::nullopt;
        return uniformLoop(type, elements.size());
      };
}

/// No loop for booleans (NumPy refuses negative, positive, sign and subtract of booleans).
const Type *refusingBool(const Type *type) { return type->isBoolean() ? nullptr : type; }

/// The promoted type itself (add, maximum, floor...).
const Type *sameType(const Type *type) { return type; }

/// true_divide: integers and booleans divide in float64.
const Type *divisionType(const Type *type) {
  return type->isInteger() || type->isBoolean() ? types::float64() : type;
}

bool castsSameKind(const Type *from, const Type *to) {
  auto rank = [](const Type *type) {
    if (type->isBoolean())
      return 0;
    if (type->isInteger())
      return type->isSigned() ? 2 : 1;
    return type->isComplex() ? 4 : 3;
  };
  return rank(from) <= rank(to);
}

LibraryFunction makeUfunc(std::string name, UfuncKernel kernel,
                          std::vector<LibraryParameter> parameters) {
  LibraryFunction function;
  function.name = std::move(name);
  if (parameters.empty()) {
    // NumPy's signature: the inputs by position, then the outputs by position or as `out=`
    // (a tuple of them for a ufunc of two outputs).
    parameters.assign(kernel.inputs, LibraryParameter{});
    parameters.push_back(LibraryParameter{"out", true});
    for (unsigned k = 1; k < kernel.outputs; ++k)
      parameters.push_back(LibraryParameter{"", true});
  }
  function.parameters = std::move(parameters);
  function.type = typeUfuncCall;
  function.lower = lowerUfuncCall;
  addDatetimeLoops(function.name, kernel);
  function.ufunc = std::move(kernel);
  return function;
}

} // namespace taipan
