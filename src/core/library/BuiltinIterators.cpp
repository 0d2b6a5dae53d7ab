// Python's builtins over iterables, one library entry per function: range, enumerate, zip, len
// and sum. A for loop over enumerate() or zip() of arrays or ranges iterates them in step.
#include "library/Families.h"

#include "lower/ArrayLowering.h"
#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/GeneratorLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LowerCharSequences.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "lower/StringLowering.h"
#include "runtime/PythonDialect.h"
#include "runtime/Runtime.h"
#include "types/CharSequences.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"
#include "typing/OptionalTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace taipan {
namespace {

/// The forms of len() its type rule chooses between (LibraryCall::form).
enum LenForm : unsigned { LenOfTuple, LenOfRange, LenOfArray, LenOfString, LenOfList, LenOfBytes };

/// range(stop), range(start, stop), range(start, stop, step): a (start, stop, step) value.
llvm::Value *lowerRange(LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  auto asInt64 = [&](size_t i) {
    return lowering.castValue(values[i], call.argumentTypes[i], types::int64());
  };
  llvm::Value *start = builder.getInt64(0);
  llvm::Value *step = builder.getInt64(1);
  llvm::Value *stop;
  if (values.size() == 1) {
    stop = asInt64(0);
  } else {
    start = asInt64(0);
    stop = asInt64(1);
    if (values.size() == 3) {
      step = asInt64(2);
      lowering.exceptions().raiseIf(builder.CreateICmpEQ(step, builder.getInt64(0)), ValueErrorId,
                                    "range() arg 3 must not be zero");
    }
  }
  llvm::Value *range = llvm::UndefValue::get(valueType(lowering.llvmContext(), call.resultType));
  range = builder.CreateInsertValue(range, start, 0);
  range = builder.CreateInsertValue(range, stop, 1);
  return builder.CreateInsertValue(range, step, 2);
}

/// sum() of a list, a 1-D array or a range: a loop adding each item (a tuple is unrolled).
bool isSummedByLoop(const Type *type) {
  return type->isList() || type->isSet() || type->isGenerator() ||
         (type->isArray() && type->ndim() == 1) || type->kind() == TypeKind::Range;
}

/// CPython's sum() of floats from 3.12 on is Neumaier's compensated sum: each `total + item` of
/// two float64 values (`sum`) adds its rounding error to the compensation, when `counted` (an
/// i1: false for the plain first addition after an int start). Items of other types (ints),
/// and NumPy's float64 scalars (an array's items), are added plainly, as CPython does.
llvm::Value *compensationAfter(LoweringApi &lowering, llvm::Value *total, llvm::Value *item,
                               llvm::Value *sum, llvm::Value *compensation, llvm::Value *counted) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *totalIsLarger =
      builder.CreateFCmpOGE(builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, total),
                            builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, item));
  llvm::Value *error =
      builder.CreateSelect(totalIsLarger, builder.CreateFAdd(builder.CreateFSub(total, sum), item),
                           builder.CreateFAdd(builder.CreateFSub(item, sum), total));
  return builder.CreateSelect(counted, builder.CreateFAdd(compensation, error), compensation);
}

llvm::Value *addCompensated(LoweringApi &lowering, llvm::Value *total, llvm::Value *item,
                            llvm::AllocaInst *compensation, llvm::Value *counted) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *sum = builder.CreateFAdd(total, item);
  llvm::Value *kept = builder.CreateLoad(builder.getDoubleTy(), compensation);
  builder.CreateStore(compensationAfter(lowering, total, item, sum, kept, counted), compensation);
  return sum;
}

/// The compensated sum's result: the compensation added when it is non-zero and finite (it
/// keeps -0.0's sign and never turns an infinite sum into a NaN).
llvm::Value *finishCompensated(LoweringApi &lowering, llvm::Value *total,
                               llvm::Value *compensation) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *finite =
      builder.CreateFCmpOLT(builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, compensation),
                            llvm::ConstantFP::getInfinity(builder.getDoubleTy()));
  llvm::Value *used = builder.CreateAnd(
      finite, builder.CreateFCmpUNE(compensation, llvm::ConstantFP::get(builder.getDoubleTy(), 0)));
  return builder.CreateSelect(used, builder.CreateFAdd(total, compensation), total);
}

/// Whether sum() of `iterable`'s items of `itemType` into a `resultType` total compensates.
bool sumCompensates(const Type *iterable, const Type *itemType, const Type *resultType) {
  return python::sumCompensatesFloats() && resultType == types::float64() &&
         itemType == types::float64() && !iterable->isArray();
}

/// enumerate() and zip(): iterated by a for loop over arrays or ranges, their arguments are
/// iterated in step (nothing is built); over tuples, they build the tuple of tuples they
/// would yield.
void addInStepIterator(Library &library, const std::string &name) {
  bool counted = name == "enumerate";
  std::vector<LibraryParameter> parameters;
  if (counted) {
    parameters.push_back({"iterable", false});
    parameters.push_back({"start", true}); // the first count, 0 when left out
  }
  LibraryFunction function;
  function.name = name;
  function.parameters = std::move(parameters);
  function.variadic = !counted;
  function.iteratesInStep = true;
  function.type = [counted](LibraryCall &call) {
    std::vector<const Type *> arguments = call.argumentTypes;
    if (arguments.empty() && !counted)
      return types::tuple({}); // zip() yields nothing
    if (arguments.empty())
      throwNoOverload(call);
    if (counted && arguments.size() > 1) {
      if (!arguments[1]->isIntegerLike())
        throwTypingError("enumerate()'s start must be an integer, not " + arguments[1]->name(),
                         call.location);
      arguments.pop_back(); // the iterables are the rest
    }
    bool inStep = false;
    for (const Type *argument : arguments) {
      // none: a zip() or enumerate() argument iterated in step itself (LoopInference)
      inStep |= argument->isArray() || argument->isList() || argument->kind() == TypeKind::Range ||
                argument->isGenerator() || argument->isString() || argument->isDict() ||
                argument->isSet() || argument->isNone();
      // A for loop resumes generators in step (FunctionLowering::lowerInStepGeneratorFor).
      if (argument->isGenerator() && !call.iteratedByLoop)
        throwUnsupported(call.function->name +
                             "() of a generator is supported only as the iterable of a for "
                             "loop",
                         call.location);
    }
    if (inStep && call.iteratedByLoop) {
      call.iteration =
          counted ? LibraryIteration::CountedArgumentsInStep : LibraryIteration::ArgumentsInStep;
      return types::none();
    }
    size_t count = SIZE_MAX;
    for (const Type *argument : arguments) {
      if (!argument->isTuple())
        throwUnsupported(call.function->name + "() is supported over tuples only", call.location);
      count = std::min(count, argument->elements().size());
    }
    std::vector<const Type *> items;
    for (size_t i = 0; i < count; ++i) {
      std::vector<const Type *> parts;
      if (counted)
        parts.push_back(types::int64());
      for (const Type *argument : arguments)
        parts.push_back(argument->elements()[i]);
      items.push_back(types::tuple(parts));
    }
    return types::tuple(items);
  };
  function.lower = [counted](LoweringApi &lowering, const LibraryCall &call,
                             const std::vector<llvm::Value *> &values) {
    const Type *result = call.resultType;
    std::vector<llvm::Value *> items;
    size_t iterables = counted ? 1 : values.size();
    llvm::Value *start = counted && values.size() > 1
                             ? lowering.castValue(values[1], call.argumentTypes[1], types::int64())
                             : lowering.irBuilder().getInt64(0);
    for (size_t i = 0; i < result->elements().size(); ++i) {
      std::vector<llvm::Value *> parts;
      if (counted)
        parts.push_back(lowering.irBuilder().CreateAdd(start, lowering.irBuilder().getInt64(i)));
      for (size_t k = 0; k < iterables; ++k)
        parts.push_back(
            lowering.tupleElement(values[k], call.argumentTypes[k], static_cast<unsigned>(i)));
      items.push_back(lowering.lowerTuple(parts, result->elements()[i]));
    }
    return lowering.lowerTuple(items, result);
  };
  library.add(std::move(function));
}

} // namespace

void addInt64FieldAttributes(Library &library, const std::string &owner,
                             const std::vector<const char *> &fields) {
  for (unsigned field = 0; field < fields.size(); ++field) {
    LibraryFunction attribute;
    attribute.name = owner + "." + fields[field];
    attribute.parameters = {{"self"}};
    attribute.isAttribute = true;
    attribute.type = [](const LibraryCall &) { return types::int64(); };
    attribute.lower = [field](LoweringApi &lowering, const LibraryCall &,
                              const std::vector<llvm::Value *> &values) {
      return lowering.irBuilder().CreateExtractValue(values[0], field);
    };
    library.add(std::move(attribute));
  }
}

void registerBuiltinIterators(Library &library) {
  // r.start, r.stop and r.step of a range: its three fields, as it was made.
  addInt64FieldAttributes(library, "range", {"start", "stop", "step"});
  // prange is range to typing and to lowering's value; a for loop over it in a parallel=True
  // function runs on the thread pool (typing/ParallelLoops decides how).
  for (const char *name : {"range", "taipan.prange"})
    library.add(
        name, {{"", false}, {"", true}, {"", true}},
        [](const LibraryCall &call) {
          for (const Type *argument : call.argumentTypes)
            if (!argument->isIntegerLike())
              throwNoOverload(call);
          return types::range();
        },
        lowerRange);
  // The steps of a consumed generator expression's compensated sum (syntax/Comprehensions):
  // whether the start is a float (then the first addition counts), the compensation after
  // `total + item`, and the total with its compensation.
  library.add(
      "taipan.sum_counts", {{"", false}}, [](const LibraryCall &) { return types::boolean(); },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &) {
        return static_cast<llvm::Value *>(
            lowering.irBuilder().getInt1(call.argumentTypes[0] == types::float64()));
      });
  library.add(
      "taipan.sum_compensation", {{"", false}, {"", false}, {"", false}, {"", false}},
      [](const LibraryCall &) { return types::float64(); },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::Value *compensation =
            lowering.castValue(values[1], call.argumentTypes[1], types::float64());
        if (call.argumentTypes[0] != types::float64() || call.argumentTypes[2] != types::float64())
          return compensation; // an int total or item is added plainly
        llvm::Value *sum = lowering.irBuilder().CreateFAdd(values[0], values[2]);
        return compensationAfter(lowering, values[0], values[2], sum, compensation,
                                 lowering.truthValue(values[3], call.argumentTypes[3]));
      });
  library.add(
      "taipan.sum_finish", {{"", false}, {"", false}},
      [](const LibraryCall &call) { return call.argumentTypes[0]; },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        if (call.argumentTypes[0] != types::float64())
          return values[0];
        return finishCompensated(
            lowering, values[0],
            lowering.castValue(values[1], call.argumentTypes[1], types::float64()));
      });
  addInStepIterator(library, "enumerate");
  addInStepIterator(library, "zip");
  library.add(
      "len", {{"", false}},
      [](LibraryCall &call) {
        const Type *argument = call.argumentTypes[0];
        if (argument->isArray()) {
          if (argument->ndim() == 0)
            throwTypingError("len() of unsized object (a 0-d array)", call.location);
          call.form = LenOfArray;
        } else if (argument->kind() == TypeKind::Range) {
          call.form = LenOfRange;
        } else if (argument->isTuple()) {
          call.form = LenOfTuple;
        } else if (argument->isString()) {
          call.form = LenOfString;
        } else if (types::isByteCharSequence(argument)) { // an `S n` item, a bytes literal
          call.form = LenOfBytes;
        } else if (argument->isList() || argument->isDict() || argument->isSet() ||
                   argument->isDictView()) {
          call.form = LenOfList;
        } else {
          throwNoOverload(call);
        }
        return types::int64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        switch (call.form) {
        case LenOfArray:
          return lowering.arrays().arrayField(values[0], ArrayLayout::Shape, 0);
        case LenOfRange: { // CPython's len() refuses a length above sys.maxsize likewise
          llvm::Value *count = lowering.loops().rangeItemCount(values[0]);
          lowering.exceptions().raiseIf(
              lowering.irBuilder().CreateICmpSLT(count, lowering.irBuilder().getInt64(0)),
              OverflowErrorId, "Python int too large to convert to C ssize_t");
          return count;
        }
        case LenOfBytes:
          return byteStringLength(lowering, values[0], call.argumentTypes[0]);
        case LenOfString:
          return lowering.strings().stringLength(
              lowering.strings().asStringValue(values[0], call.argumentTypes[0]));
        case LenOfList:
          if (call.argumentTypes[0]->isSet())
            return call.argumentTypes[0]->keyType() ? lowering.containers().setLength(values[0])
                                                    : lowering.irBuilder().getInt64(0);
          if (call.argumentTypes[0]->isDictView()) // the dict's length now
            return call.argumentTypes[0]->keyType() ? lowering.containers().dictLength(values[0])
                                                    : lowering.irBuilder().getInt64(0);
          return call.argumentTypes[0]->isDict() ? lowering.containers().dictLength(values[0])
                                                 : lowering.containers().listLength(values[0]);
        default:
          return static_cast<llvm::Value *>(
              lowering.irBuilder().getInt64(call.argumentTypes[0]->elements().size()));
        }
      });
  // next() of a generator: resumes it; StopIteration when it is exhausted, or the default.
  addCpu(
      library, "next", {{"", false}, {"", true}},
      [](LibraryCall &call) {
        const Type *generator = call.argumentTypes[0];
        if (!generator->isGenerator())
          throwNoOverload(call);
        if (call.argumentTypes.size() < 2 || !call.arguments[1])
          return generator->yieldType();
        const Type *fallback = call.argumentTypes[1];
        if (fallback->kind() == TypeKind::StringLiteral)
          fallback = types::unicode();
        const Type *result = unifyWithOptional(generator->yieldType(), fallback);
        if (!result)
          throwTypingError("next(): cannot unify the items (" + generator->yieldType()->name() +
                               ") with the default (" + fallback->name() + ")",
                           call.location);
        if (result->holdsReferences())
          throwUnsupported("next() with a default is supported for generators of numbers, not " +
                               result->name(),
                           call.location);
        return result;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *generator = call.argumentTypes[0];
        llvm::BasicBlock *exhausted = lowering.newBlock("next.exhausted");
        if (values.size() < 2 || !call.arguments[1]) {
          llvm::BasicBlock *current = builder.GetInsertBlock();
          builder.SetInsertPoint(exhausted);
          lowering.exceptions().emitRaise(StopIterationId, "");
          builder.SetInsertPoint(current);
          return lowering.generators().nextGeneratorItem(values[0], generator, exhausted);
        }
        llvm::AllocaInst *result = lowering.createEntryAlloca(
            valueType(lowering.llvmContext(), call.resultType), "next.result");
        llvm::BasicBlock *done = lowering.newBlock("next.done");
        llvm::Value *item =
            lowering.generators().nextGeneratorItem(values[0], generator, exhausted);
        builder.CreateStore(lowering.castValue(item, generator->yieldType(), call.resultType),
                            result);
        builder.CreateBr(done);
        builder.SetInsertPoint(exhausted);
        builder.CreateStore(lowering.castValue(values[1], call.argumentTypes[1], call.resultType),
                            result);
        builder.CreateBr(done);
        builder.SetInsertPoint(done);
        return static_cast<llvm::Value *>(builder.CreateLoad(result->getAllocatedType(), result));
      });
  // sum(iterable, start=0) of numbers: a tuple's items added one by one, another iterable's by
  // a loop, from `start` as Python starts.
  library.add(
      "sum", {{"", false}, {"start", true}},
      [](const LibraryCall &call) {
        const Type *tuple = call.argumentTypes[0];
        const Type *start = call.argumentTypes.size() > 1 ? call.argumentTypes[1] : types::int64();
        if (!start->isNumber())
          throwNoOverload(call);
        if (isSummedByLoop(tuple)) { // the start's type, or the items' type when wider
          const Type *item = tuple->isGenerator()                 ? tuple->yieldType()
                             : tuple->isArray()                   ? tuple->dtype()
                             : tuple->kind() == TypeKind::Range   ? types::int64()
                             : tuple->isSet() && tuple->keyType() ? tuple->keyType()
                             : tuple->itemType()                  ? tuple->itemType()
                                                                  : types::int64();
          const Type *result =
              item->isNumber() ? binaryResultType(BinaryOp::Add, start, item) : nullptr;
          if (!result)
            throwNoOverload(call);
          return result;
        }
        if (!tuple->isTuple())
          throwNoOverload(call);
        const Type *result = start;
        for (const Type *element : tuple->elements()) {
          result = element->isNumber() ? binaryResultType(BinaryOp::Add, result, element) : nullptr;
          if (!result)
            throwNoOverload(call);
        }
        return result;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *tupleType = call.argumentTypes[0];
        bool hasStart = call.argumentTypes.size() > 1;
        llvm::Value *start = hasStart ? values[1] : builder.getInt64(0);
        const Type *startType = hasStart ? call.argumentTypes[1] : types::int64();
        if (isSummedByLoop(tupleType)) {
          llvm::AllocaInst *total =
              lowering.createEntryAlloca(valueType(lowering.llvmContext(), call.resultType), "sum");
          builder.CreateStore(lowering.castValue(start, startType, call.resultType), total);
          // From 3.12 a float total compensates its rounding; after an int start, CPython adds
          // the first float plainly (in its loop over ints), then compensates (`compensating`).
          const Type *item = tupleType->isGenerator() ? tupleType->yieldType()
                             : tupleType->isSet()     ? tupleType->keyType()
                             : tupleType->isList()    ? tupleType->itemType()
                                                      : nullptr;
          llvm::AllocaInst *compensation = nullptr, *compensating = nullptr;
          if (sumCompensates(tupleType, item, call.resultType)) {
            compensation = lowering.createEntryAlloca(builder.getDoubleTy(), "sum.compensation");
            builder.CreateStore(llvm::ConstantFP::get(builder.getDoubleTy(), 0.0), compensation);
            compensating = lowering.createEntryAlloca(builder.getInt1Ty(), "sum.compensating");
            builder.CreateStore(builder.getInt1(startType == types::float64()), compensating);
          }
          if (tupleType->isList() ? tupleType->itemType() != nullptr
                                  : !tupleType->isSet() || tupleType->keyType())
            lowering.loops().forEachItem(
                values[0], tupleType, [&](llvm::Value *item, const Type *type) {
                  llvm::Value *current = builder.CreateLoad(total->getAllocatedType(), total);
                  llvm::Value *next =
                      compensation
                          ? addCompensated(lowering, current, item, compensation,
                                           builder.CreateLoad(builder.getInt1Ty(), compensating))
                          : lowering.operators().lowerBinary(BinaryOp::Add, current,
                                                             call.resultType, item, type,
                                                             call.resultType);
                  if (compensating)
                    builder.CreateStore(builder.getInt1(true), compensating);
                  builder.CreateStore(next, total);
                });
          llvm::Value *sum = builder.CreateLoad(total->getAllocatedType(), total);
          if (compensation)
            sum = finishCompensated(lowering, sum,
                                    builder.CreateLoad(builder.getDoubleTy(), compensation));
          return sum;
        }
        llvm::Value *total = start;
        const Type *totalType = startType;
        // A float item onto a float total compensates from 3.12 (addCompensated), except the
        // first float addition after an int start, which CPython's loop over ints makes.
        llvm::AllocaInst *compensation = nullptr;
        bool compensating = startType == types::float64();
        for (size_t i = 0; i < tupleType->elements().size(); ++i) {
          const Type *elementType = tupleType->elements()[i];
          const Type *next = binaryResultType(BinaryOp::Add, totalType, elementType);
          llvm::Value *element =
              lowering.tupleElement(values[0], tupleType, static_cast<unsigned>(i));
          if (python::sumCompensatesFloats() && totalType == types::float64() &&
              elementType == types::float64()) {
            if (!compensation) {
              compensation = lowering.createEntryAlloca(builder.getDoubleTy(), "sum.compensation");
              builder.CreateStore(llvm::ConstantFP::get(builder.getDoubleTy(), 0.0), compensation);
            }
            total = addCompensated(lowering, total, element, compensation,
                                   builder.getInt1(compensating));
          } else {
            total = lowering.operators().lowerBinary(BinaryOp::Add, total, totalType, element,
                                                     elementType, next);
          }
          compensating = compensating || next == types::float64();
          totalType = next;
        }
        if (compensation)
          total = finishCompensated(lowering, total,
                                    builder.CreateLoad(builder.getDoubleTy(), compensation));
        return lowering.castValue(total, totalType, call.resultType);
      });
}

} // namespace taipan
