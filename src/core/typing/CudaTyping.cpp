// CUDA builtins. Thread and block indices are int32 as in Numba; grid() and gridsize() are int64
// so index arithmetic on large arrays does not overflow.
#include "typing/CudaTyping.h"

#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/ConstantArguments.h"

#include <algorithm>
#include <map>
#include <set>

namespace taipan {
namespace {

const std::set<std::string> &namespaces() {
  static const std::set<std::string> names = {
      "cuda.threadIdx", "cuda.blockIdx", "cuda.blockDim", "cuda.gridDim", "cuda.shared",
      "cuda.local",     "cuda.const",    "cuda.atomic",   "cuda.cg",      "cuda.cg.grid_group"};
  return names;
}

const std::set<std::string> &functions() {
  static const std::set<std::string> names = {"cuda.grid",
                                              "cuda.gridsize",
                                              "cuda.syncthreads",
                                              "cuda.syncthreads_count",
                                              "cuda.syncthreads_and",
                                              "cuda.syncthreads_or",
                                              "cuda.syncwarp",
                                              "cuda.threadfence",
                                              "cuda.threadfence_block",
                                              "cuda.threadfence_system",
                                              "cuda.shared.array",
                                              "cuda.local.array",
                                              "cuda.atomic.add",
                                              "cuda.atomic.sub",
                                              "cuda.atomic.max",
                                              "cuda.atomic.min",
                                              "cuda.atomic.inc",
                                              "cuda.atomic.dec",
                                              "cuda.atomic.exch",
                                              "cuda.atomic.cas",
                                              "cuda.atomic.and_",
                                              "cuda.atomic.or_",
                                              "cuda.atomic.xor",
                                              "cuda.shfl_sync",
                                              "cuda.shfl_up_sync",
                                              "cuda.shfl_down_sync",
                                              "cuda.shfl_xor_sync",
                                              "cuda.ballot_sync",
                                              "cuda.all_sync",
                                              "cuda.any_sync",
                                              "cuda.eq_sync",
                                              "cuda.match_any_sync",
                                              "cuda.activemask",
                                              "cuda.lanemask_lt",
                                              "cuda.popc",
                                              "cuda.brev",
                                              "cuda.clz",
                                              "cuda.ffs",
                                              "cuda.fma",
                                              "cuda.cbrt",
                                              "cuda.nanosleep",
                                              "cuda.cg.this_grid",
                                              "cuda.const.array_like",
                                              "cuda.cg.grid_group.sync"};
  return names;
}

/// Shared and local arrays are sized when compiling, so their shapes are constants.
const bool arrayShapesDeclaredConstant = [] {
  for (const char *name : {"cuda.shared.array", "cuda.local.array"})
    declareConstantArgument(name, {0, "(shape, dtype) needs a constant shape: an int or a tuple "
                                      "of ints (literals or global constants)"});
  return true;
}();

} // namespace

bool isCudaBuiltin(const std::string &name) {
  return namespaces().count(name) || functions().count(name) || cudaValueType(name);
}

const Type *cudaValueType(const std::string &name) {
  static const std::set<std::string> registers = {"cuda.threadIdx", "cuda.blockIdx",
                                                  "cuda.blockDim", "cuda.gridDim"};
  if (name == "cuda.laneid" || name == "cuda.warpsize")
    return types::integer(32, true);
  size_t dot = name.rfind('.');
  if (dot != std::string::npos && registers.count(name.substr(0, dot))) {
    std::string axis = name.substr(dot + 1);
    if (axis == "x" || axis == "y" || axis == "z")
      return types::integer(32, true);
  }
  return nullptr;
}

const Type *typeCudaCall(const std::string &name, const std::vector<const Type *> &arguments,
                         const std::vector<Expr *> &argumentExprs, SourceLocation location,
                         const std::vector<int64_t> *shape) {
  const Type *i32 = types::integer(32, true);
  const Type *u32 = types::integer(32, false);
  auto expect = [&](size_t count) {
    if (arguments.size() != count)
      throwNoOverload(name, arguments, location);
  };
  if (name == "cuda.grid" || name == "cuda.gridsize") {
    int64_t dimensions = 0;
    if (argumentExprs.size() != 1 || argumentExprs[0]->kind != ExprKind::Constant ||
        argumentExprs[0]->constant.kind != Constant::Kind::Int ||
        (dimensions = argumentExprs[0]->constant.intValue) < 1 || dimensions > 3)
      throwTypingError(name + "() takes a constant 1, 2 or 3", location);
    if (dimensions == 1)
      return types::int64();
    return types::tuple(std::vector<const Type *>(dimensions, types::int64()));
  }
  if (name == "cuda.syncthreads" || name == "cuda.threadfence" ||
      name == "cuda.threadfence_block" || name == "cuda.threadfence_system") {
    expect(0);
    return types::none();
  }
  if (name == "cuda.syncthreads_count" || name == "cuda.syncthreads_and" ||
      name == "cuda.syncthreads_or") {
    expect(1);
    return i32;
  }
  if (name == "cuda.syncwarp") {
    if (arguments.size() > 1 || (arguments.size() == 1 && !arguments[0]->isIntegerLike()))
      throwNoOverload(name, arguments, location);
    return types::none();
  }
  if (name == "cuda.const.array_like") {
    // The argument is a global array, which is already a constant of the module.
    if (arguments.size() != 1 || !arguments[0]->isArray() || !arguments[0]->isReadonly())
      throwTypingError("cuda.const.array_like takes a global NumPy array", location);
    return arguments[0];
  }
  if (name == "cuda.cg.this_grid") {
    expect(0);
    return types::builtin("cuda.cg.grid_group"); // a compile-time handle with .sync()
  }
  if (name == "cuda.cg.grid_group.sync") {
    expect(0);
    return types::none();
  }
  if (name == "cuda.nanosleep") {
    expect(1);
    return types::none();
  }
  if (name == "cuda.shared.array" || name == "cuda.local.array") {
    if (arguments.size() != 2 || !shape)
      throwNoOverload(name, arguments, location);
    const std::vector<int64_t> &extents = *shape;
    const Type *dtype = dtypeFromArgument(arguments[1]);
    if (!dtype)
      throwTypingError(name + "(): the dtype must be a NumPy scalar type, such as np.float32",
                       location);
    for (int64_t extent : extents)
      if (extent < 0 || (extent == 0 && (name == "cuda.local.array" || extents.size() != 1)))
        throwTypingError(name + "(): invalid shape (a dynamic shared array has shape 0)", location);
    return types::array(dtype, static_cast<int>(extents.size()), 'C', false);
  }
  if (name.rfind("cuda.atomic.", 0) == 0) {
    std::string operation = name.substr(12);
    size_t expected = operation == "cas" ? 4 : 3;
    if (arguments.size() != expected || !arguments[0]->isArray())
      throwNoOverload(name, arguments, location);
    const Type *dtype = arguments[0]->dtype();
    const Type *index = arguments[1];
    bool indexOk =
        index->isIntegerLike() ||
        (index->isTuple() && std::all_of(index->elements().begin(), index->elements().end(),
                                         [](const Type *t) { return t->isIntegerLike(); }));
    bool integerOnly = operation == "and_" || operation == "or_" || operation == "xor" ||
                       operation == "inc" || operation == "dec" || operation == "cas";
    bool typeOk = (dtype->isInteger() && dtype->bits() >= 32) ||
                  (dtype->isFloat() && !integerOnly && operation != "exch") ||
                  (dtype->isFloat() && operation == "exch");
    if (!indexOk || !typeOk)
      throwTypingError(name + " supports int32, uint32, int64, uint64" +
                           std::string(integerOnly ? "" : ", float32 and float64") +
                           " arrays indexed by an int or a tuple of ints, not " +
                           arguments[0]->name(),
                       location);
    if (arguments[0]->isReadonly())
      throwTypingError(name + " cannot update a read-only array", location);
    return dtype;
  }
  if (name == "cuda.shfl_sync" || name == "cuda.shfl_up_sync" || name == "cuda.shfl_down_sync" ||
      name == "cuda.shfl_xor_sync") {
    expect(3);
    if (!arguments[1]->isNumber() || arguments[1]->isComplex())
      throwNoOverload(name, arguments, location);
    return arguments[1]->isBoolean() ? i32 : arguments[1];
  }
  if (name == "cuda.ballot_sync" || name == "cuda.match_any_sync") {
    expect(2);
    return u32;
  }
  if (name == "cuda.all_sync" || name == "cuda.any_sync" || name == "cuda.eq_sync") {
    expect(2);
    return i32;
  }
  if (name == "cuda.activemask" || name == "cuda.lanemask_lt") {
    expect(0);
    return u32;
  }
  if (name == "cuda.popc" || name == "cuda.clz" || name == "cuda.ffs" || name == "cuda.brev") {
    expect(1);
    if (!arguments[0]->isInteger())
      throwNoOverload(name, arguments, location);
    if (name == "cuda.brev")
      return arguments[0]->bits() > 32 ? types::uint64() : u32;
    return i32;
  }
  if (name == "cuda.fma") {
    expect(3);
    const Type *common = binaryResultType(BinaryOp::Add, arguments[0], arguments[1]);
    common = common ? binaryResultType(BinaryOp::Add, common, arguments[2]) : nullptr;
    if (!common || !common->isFloat())
      throwNoOverload(name, arguments, location);
    return common;
  }
  if (name == "cuda.cbrt") {
    expect(1);
    return arguments[0]->isFloat() && arguments[0]->bits() == 32 ? types::float32()
                                                                 : types::float64();
  }
  throwUnsupported(name + " is not supported yet", location);
}

void bindCudaKeywords(const std::string &name, Expr &call) {
  if (call.keywordNames.empty())
    return;
  // The parameters of Numba's typing templates; every other builtin is positional only there.
  static const std::map<std::string, std::vector<std::string>> parameters = {
      {"cuda.shared.array", {"shape", "dtype"}},
      {"cuda.local.array", {"shape", "dtype"}},
      {"cuda.const.array_like", {"ndarray"}},
      {"cuda.grid", {"ndim"}},
      {"cuda.gridsize", {"ndim"}},
  };
  auto found = parameters.find(name);
  if (found == parameters.end())
    throwUnsupported(name + "() takes no keyword arguments (as in Numba); pass them by position",
                     call.location);
  const std::vector<std::string> &names = found->second;
  size_t positional = call.positionalCount();
  if (positional > names.size())
    throwTypingError(name + "() takes " + std::to_string(names.size()) + " arguments but " +
                         std::to_string(positional) + " were given",
                     call.location);
  std::vector<Expr *> bound(names.size(), nullptr);
  for (size_t i = 0; i < positional; ++i)
    bound[i] = call.operands[1 + i];
  for (size_t k = 0; k < call.keywordNames.size(); ++k) {
    const std::string &keyword = call.keywordNames[k];
    auto position = std::find(names.begin(), names.end(), keyword);
    if (position == names.end())
      throwTypingError(name + "() got an unexpected keyword argument '" + keyword + "'",
                       call.location);
    Expr *&slot = bound[position - names.begin()];
    if (slot)
      throwTypingError(name + "() got multiple values for argument '" + keyword + "'",
                       call.location);
    slot = call.operands[1 + positional + k];
  }
  for (size_t i = 0; i < bound.size(); ++i)
    if (!bound[i])
      throwTypingError(name + "() missing required argument '" + names[i] + "'", call.location);
  call.operands.resize(1);
  call.operands.insert(call.operands.end(), bound.begin(), bound.end());
  call.keywordNames.clear();
}

} // namespace taipan
