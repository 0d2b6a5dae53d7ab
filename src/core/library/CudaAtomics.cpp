// CUDA's atomic operations on array elements, one library entry per function (GPU only):
// cuda.atomic.add, sub, max, min, inc, dec, exch, and_, or_, xor (atomicrmw) and cas (cmpxchg).
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
};

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
    return builder.CreateAtomicRMW(op, address, operand, llvm::MaybeAlign(), ordering);
  };
  library.add(std::move(function));
}

} // namespace

void registerCudaAtomics(Library &library) {
  const AtomicOperation operations[] = {
      {"add", false, Op::Add, Op::Add, Op::FAdd},
      {"sub", false, Op::Sub, Op::Sub, Op::FSub},
      {"max", false, Op::Max, Op::UMax, Op::FMax},
      {"min", false, Op::Min, Op::UMin, Op::FMin},
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
