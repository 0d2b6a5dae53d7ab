// CUDA's atomic operations on array elements, one library entry per function (GPU only):
// cuda.atomic.add, sub, max, min, nanmax, nanmin, inc, dec, exch, and_, or_, xor (atomicrmw; float
// max and min as numba-cuda's compare-and-swap loops) and cas, compare_and_swap (cmpxchg).
#include "library/Families.h"

#include "lower/ArrayLowering.h"
#include "lower/LoweringApi.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

namespace taipan {
namespace {

using Op = llvm::AtomicRMWInst::BinOp;

/// What an atomic operation accepts: every integer and float dtype, or integers only; and how
/// it is emitted for each (for integers by signedness: max and min).
struct AtomicOperation {
  std::string name; ///< after "cuda.atomic."
  bool integerOnly = false;
  Op signedOp = Op::BAD_BINOP;
  Op unsignedOp = Op::BAD_BINOP;
  Op floatOp = Op::BAD_BINOP; ///< BAD_BINOP for cas, which is a compare-and-exchange
  bool ignoresNan = false;    ///< nanmax and nanmin: a NaN operand or element loses
};

/// numba-cuda's atomic max and min of floats, a compare-and-swap loop that stores `value` while
/// the element compares below it (max) or above it (min). max and min change nothing when the
/// value or the element is NaN; nanmax and nanmin ignore a NaN value and replace a NaN element.
/// Returns the element as first read, as numba-cuda's do.
llvm::Value *floatMinMax(LoweringApi &lowering, llvm::Value *address, llvm::Value *value,
                         bool isMax, bool ignoresNan) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *floatType = value->getType();
  llvm::Type *bitsType = builder.getIntNTy(floatType->getPrimitiveSizeInBits());
  auto *first = builder.CreateLoad(floatType, address);
  first->setVolatile(true);
  llvm::Value *skip =
      ignoresNan ? builder.CreateFCmpUNO(value, value) : builder.CreateFCmpUNO(value, first);
  llvm::BasicBlock *entry = builder.GetInsertBlock();
  llvm::BasicBlock *check = lowering.newBlock("atomic.minmax.check");
  llvm::BasicBlock *attempt = lowering.newBlock("atomic.minmax.attempt");
  llvm::BasicBlock *done = lowering.newBlock("atomic.minmax.done");
  builder.CreateCondBr(skip, done, check);
  builder.SetInsertPoint(check);
  llvm::PHINode *current = builder.CreatePHI(floatType, 2);
  current->addIncoming(first, entry);
  // max: element < value (ordered); nanmax: element < value or the element is NaN.
  llvm::CmpInst::Predicate below =
      ignoresNan ? (isMax ? llvm::CmpInst::FCMP_ULT : llvm::CmpInst::FCMP_UGT)
                 : (isMax ? llvm::CmpInst::FCMP_OLT : llvm::CmpInst::FCMP_OGT);
  builder.CreateCondBr(builder.CreateFCmp(below, current, value), attempt, done);
  builder.SetInsertPoint(attempt);
  auto ordering = llvm::AtomicOrdering::Monotonic;
  llvm::Value *pair = builder.CreateAtomicCmpXchg(address, builder.CreateBitCast(current, bitsType),
                                                  builder.CreateBitCast(value, bitsType),
                                                  llvm::MaybeAlign(), ordering, ordering);
  current->addIncoming(builder.CreateBitCast(builder.CreateExtractValue(pair, 0), floatType),
                       attempt);
  builder.CreateBr(check);
  builder.SetInsertPoint(done);
  return first;
}

/// The array (arguments[0]) and index (arguments[1]) an atomic updates: int32, uint32, int64,
/// uint64 (and for most operations float32 and float64) arrays, written, indexed by an int or
/// a tuple of ints.
const Type *typeAtomic(const LibraryCall &call, bool integerOnly) {
  const std::string &name = call.function->name;
  const std::vector<const Type *> &arguments = call.argumentTypes;
  if (!arguments[0]->isArray())
    throwNoOverload(name, arguments, call.location);
  const Type *dtype = arguments[0]->dtype();
  const Type *index = arguments[1];
  bool indexOk =
      index->isIntegerLike() ||
      (index->isTuple() && std::all_of(index->elements().begin(), index->elements().end(),
                                       [](const Type *t) { return t->isIntegerLike(); }));
  bool typeOk = (dtype->isInteger() && dtype->bits() >= 32) || (dtype->isFloat() && !integerOnly);
  if (!indexOk || !typeOk)
    throwTypingError(name + " supports int32, uint32, int64, uint64" +
                         std::string(integerOnly ? "" : ", float32 and float64") +
                         " arrays indexed by an int or a tuple of ints, not " +
                         arguments[0]->name(),
                     call.location);
  if (arguments[0]->isReadonly())
    throwTypingError(name + " cannot update a read-only array", call.location);
  return dtype;
}

/// The address of the element an atomic updates, its indices wrapped and checked.
llvm::Value *elementOf(LoweringApi &lowering, const LibraryCall &call,
                       const std::vector<llvm::Value *> &values) {
  const Type *arrayType = call.argumentTypes[0];
  const Type *indexType = call.argumentTypes[1];
  llvm::Value *array = values[0];
  std::vector<llvm::Value *> indices;
  if (indexType->isTuple()) {
    for (size_t i = 0; i < indexType->elements().size(); ++i)
      indices.push_back(lowering.arrays().checkedIndex(
          lowering.tupleElement(values[1], indexType, static_cast<unsigned>(i)),
          indexType->elements()[i],
          lowering.arrays().arrayField(array, ArrayLayout::Shape, static_cast<int>(i)),
          static_cast<int>(i)));
  } else {
    indices.push_back(lowering.arrays().checkedIndex(
        values[1], indexType, lowering.arrays().arrayField(array, ArrayLayout::Shape, 0), 0));
  }
  if (static_cast<int>(indices.size()) != arrayType->ndim())
    throwTypingError("an atomic operation needs one index per dimension", call.location);
  return lowering.arrays().elementAddress(array, arrayType, indices);
}

void addAtomic(Library &library, const AtomicOperation &operation) {
  bool isCas = operation.name == "cas";
  LibraryFunction function;
  function.name = "cuda.atomic." + operation.name;
  // (array, index, value), or (array, index, old, value) for cas; by position, as in Numba.
  function.parameters.assign(isCas ? 4 : 3, LibraryParameter{"", false});
  function.targets = OnGpu;
  function.type = [integerOnly = operation.integerOnly](const LibraryCall &call) {
    return typeAtomic(call, integerOnly);
  };
  function.lower = [operation, isCas](LoweringApi &lowering, const LibraryCall &call,
                                      const std::vector<llvm::Value *> &values) -> llvm::Value * {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    const Type *dtype = call.resultType;
    llvm::Value *address = elementOf(lowering, call, values);
    llvm::Value *operand = lowering.castValue(values[2], call.argumentTypes[2], dtype);
    auto ordering = llvm::AtomicOrdering::Monotonic;
    if (isCas) {
      llvm::Value *desired = lowering.castValue(values[3], call.argumentTypes[3], dtype);
      llvm::Value *pair = builder.CreateAtomicCmpXchg(address, operand, desired, llvm::MaybeAlign(),
                                                      ordering, ordering);
      return builder.CreateExtractValue(pair, 0);
    }
    Op op = dtype->isFloat()    ? operation.floatOp
            : dtype->isSigned() ? operation.signedOp
                                : operation.unsignedOp;
    if (dtype->isFloat() && (op == Op::FMax || op == Op::FMin))
      return floatMinMax(lowering, address, operand, op == Op::FMax, operation.ignoresNan);
    return builder.CreateAtomicRMW(op, address, operand, llvm::MaybeAlign(), ordering);
  };
  library.add(std::move(function));
}

/// cuda.atomic.compare_and_swap(array, old, value): cas on the array's first element.
void addCompareAndSwap(Library &library) {
  LibraryFunction function;
  function.name = "cuda.atomic.compare_and_swap";
  function.parameters.assign(3, LibraryParameter{"", false});
  function.targets = OnGpu;
  function.type = [](const LibraryCall &call) {
    const Type *array = call.argumentTypes[0];
    if (!array->isArray() || !array->dtype()->isInteger() || array->dtype()->bits() < 32)
      throwTypingError(call.function->name +
                           " supports int32, uint32, int64 and uint64 arrays, not " + array->name(),
                       call.location);
    if (array->isReadonly())
      throwTypingError(call.function->name + " cannot update a read-only array", call.location);
    return array->dtype();
  };
  function.lower = [](LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values) -> llvm::Value * {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    const Type *arrayType = call.argumentTypes[0];
    const Type *dtype = call.resultType;
    std::vector<llvm::Value *> indices;
    for (int i = 0; i < arrayType->ndim(); ++i)
      indices.push_back(lowering.arrays().checkedIndex(
          builder.getInt64(0), types::int64(),
          lowering.arrays().arrayField(values[0], ArrayLayout::Shape, i), i));
    llvm::Value *address = lowering.arrays().elementAddress(values[0], arrayType, indices);
    auto ordering = llvm::AtomicOrdering::Monotonic;
    llvm::Value *pair = builder.CreateAtomicCmpXchg(
        address, lowering.castValue(values[1], call.argumentTypes[1], dtype),
        lowering.castValue(values[2], call.argumentTypes[2], dtype), llvm::MaybeAlign(), ordering,
        ordering);
    return builder.CreateExtractValue(pair, 0);
  };
  library.add(std::move(function));
}

} // namespace

void registerCudaAtomics(Library &library) {
  addCompareAndSwap(library);
  const AtomicOperation operations[] = {
      {"add", false, Op::Add, Op::Add, Op::FAdd},
      {"sub", false, Op::Sub, Op::Sub, Op::FSub},
      {"max", false, Op::Max, Op::UMax, Op::FMax},
      {"min", false, Op::Min, Op::UMin, Op::FMin},
      {"nanmax", false, Op::Max, Op::UMax, Op::FMax, true},
      {"nanmin", false, Op::Min, Op::UMin, Op::FMin, true},
      {"exch", false, Op::Xchg, Op::Xchg, Op::Xchg},
      {"and_", true, Op::And, Op::And},
      {"or_", true, Op::Or, Op::Or},
      {"xor", true, Op::Xor, Op::Xor},
      {"inc", true, Op::UIncWrap, Op::UIncWrap},
      {"dec", true, Op::UDecWrap, Op::UDecWrap},
      {"cas", true},
  };
  for (const AtomicOperation &operation : operations)
    addAtomic(library, operation);
}

} // namespace taipan
