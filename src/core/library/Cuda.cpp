// CUDA's thread hierarchy and intrinsics, one library entry per name (all on the GPU only): the
// index registers (values), grid(), barriers, fences, warp votes and shuffles, bit intrinsics.
#include "library/Families.h"

#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace taipan {
namespace {

using namespace llvm::Intrinsic;

const Type *int32Type() { return types::integer(32, true); }
const Type *uint32Type() { return types::integer(32, false); }

/// cuda.<name>, on the GPU only, with `count` positional-only parameters (the last `optional`
/// of them may be left out): Numba takes CUDA's intrinsics by position only.
LibraryFunction gpuFunction(const std::string &name, size_t count, LibraryTypeRule type,
                            LibraryLowerRule lower, size_t optional = 0) {
  LibraryFunction function;
  function.name = "cuda." + name;
  for (size_t i = 0; i < count; ++i)
    function.parameters.push_back({"", i >= count - optional});
  function.targets = OnGpu;
  function.type = std::move(type);
  function.lower = std::move(lower);
  return function;
}

/// A type rule that accepts any arguments and returns `result`.
LibraryTypeRule returns(const Type *result) {
  return [result](const LibraryCall &) { return result; };
}

/// A function of no value: calls the NVVM intrinsic `id` with no arguments.
LibraryLowerRule callsIntrinsic(ID id) {
  return [id](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &) {
    lowering.irBuilder().CreateIntrinsic(id, {}, {});
    return noneValue(lowering);
  };
}

llvm::Value *asUint32(LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values, size_t i) {
  return lowering.castValue(values[i], call.argumentTypes[i], uint32Type());
}

/// A special register read as a value: cuda.threadIdx.x and friends.
void addRegister(Library &library, const std::string &name, ID id) {
  LibraryValue value;
  value.name = "cuda." + name;
  value.type = int32Type();
  value.targets = OnGpu;
  value.lower = [id](LoweringApi &lowering) {
    return lowering.irBuilder().CreateIntrinsic(id, {}, {});
  };
  library.addValue(std::move(value));
}

/// What cuda.grid() and cuda.gridsize() need of their argument; it names Numba's error for it
/// (RequireLiteralValue), which numba-cuda's messages carry.
constexpr const char *GridRequirement =
    "() takes a constant 1, 2 or 3 (RequireLiteralValue: its value must be known when compiling)";

/// cuda.grid(n) and cuda.gridsize(n): the absolute thread index and the grid's extent in
/// threads, per axis, as int64 (index arithmetic on large arrays does not overflow).
void addGrid(Library &library, const std::string &name) {
  bool isIndex = name == "grid";
  LibraryFunction function = gpuFunction(
      name, 1,
      [](const LibraryCall &call) {
        if (call.constants.size() != 1 || call.constants[0] < 1 || call.constants[0] > 3)
          throwTypingError(call.function->name + GridRequirement, call.location);
        size_t dimensions = static_cast<size_t>(call.constants[0]);
        if (dimensions == 1)
          return types::int64();
        return types::tuple(std::vector<const Type *>(dimensions, types::int64()));
      },
      [isIndex](LoweringApi &lowering, const LibraryCall &call,
                const std::vector<llvm::Value *> &) {
        static const ID thread[] = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y,
                                    nvvm_read_ptx_sreg_tid_z};
        static const ID block[] = {nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y,
                                   nvvm_read_ptx_sreg_ctaid_z};
        static const ID blockSize[] = {nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y,
                                       nvvm_read_ptx_sreg_ntid_z};
        static const ID gridSize[] = {nvvm_read_ptx_sreg_nctaid_x, nvvm_read_ptx_sreg_nctaid_y,
                                      nvvm_read_ptx_sreg_nctaid_z};
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Type *i64 = builder.getInt64Ty();
        auto read = [&](ID id) {
          return builder.CreateZExt(builder.CreateIntrinsic(id, {}, {}), i64);
        };
        size_t dimensions = static_cast<size_t>(call.constants[0]);
        std::vector<llvm::Value *> parts;
        for (size_t d = 0; d < dimensions; ++d) {
          llvm::Value *width = read(blockSize[d]);
          if (isIndex)
            parts.push_back(
                builder.CreateAdd(read(thread[d]), builder.CreateMul(read(block[d]), width)));
          else
            parts.push_back(builder.CreateMul(read(gridSize[d]), width));
        }
        return dimensions == 1 ? parts[0] : lowering.lowerTuple(parts, call.resultType);
      });
  function.parameters = {{"ndim", false}};
  function.constantArgument = LibraryConstantArgument{0, GridRequirement};
  function.lowersArguments = true; // the constant is all it needs
  library.add(std::move(function));
}

/// cuda.cg.this_grid().sync(): a grid-wide barrier over a 64-bit arrival counter in global
/// memory: thread 0 of each block arrives and waits for the next multiple of the block count.
/// Blocks must all be resident, which the cooperative launch of kernels using this guarantees.
/// The grid barrier's arrival counter, a visible global: its presence in a kernel's PTX makes
/// the kernel cooperative (dispatcher.Kernel.cooperative).
llvm::GlobalVariable *gridBarrierCounter(LoweringApi &lowering) {
  llvm::Module &module = lowering.module().module;
  llvm::Type *i64 = lowering.irBuilder().getInt64Ty();
  llvm::GlobalVariable *counter = module.getGlobalVariable("taipan_grid_barrier");
  if (!counter)
    counter = new llvm::GlobalVariable(module, i64, false, llvm::GlobalValue::ExternalLinkage,
                                       llvm::ConstantInt::get(i64, 0), "taipan_grid_barrier",
                                       nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  return counter;
}

llvm::Value *lowerGridSync(LoweringApi &lowering, const LibraryCall &,
                           const std::vector<llvm::Value *> &) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::GlobalVariable *counter = gridBarrierCounter(lowering);
  llvm::Value *address = builder.CreateAddrSpaceCast(counter, builder.getPtrTy());
  builder.CreateIntrinsic(nvvm_barrier0, {}, {});
  llvm::Value *first = builder.CreateICmpEQ(
      builder.CreateOr(builder.CreateOr(builder.CreateIntrinsic(nvvm_read_ptx_sreg_tid_x, {}, {}),
                                        builder.CreateIntrinsic(nvvm_read_ptx_sreg_tid_y, {}, {})),
                       builder.CreateIntrinsic(nvvm_read_ptx_sreg_tid_z, {}, {})),
      builder.getInt32(0));
  llvm::BasicBlock *arrive = lowering.newBlock("grid.arrive");
  llvm::BasicBlock *wait = lowering.newBlock("grid.wait");
  llvm::BasicBlock *done = lowering.newBlock("grid.done");
  builder.CreateCondBr(first, arrive, done);
  builder.SetInsertPoint(arrive);
  builder.CreateIntrinsic(nvvm_membar_gl, {}, {});
  auto extent = [&](ID id) { return builder.CreateZExt(builder.CreateIntrinsic(id, {}, {}), i64); };
  llvm::Value *blocks = builder.CreateMul(
      builder.CreateMul(extent(nvvm_read_ptx_sreg_nctaid_x), extent(nvvm_read_ptx_sreg_nctaid_y)),
      extent(nvvm_read_ptx_sreg_nctaid_z));
  llvm::Value *arrived =
      builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, address, builder.getInt64(1),
                              llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
  llvm::Value *target = builder.CreateMul(
      builder.CreateAdd(builder.CreateUDiv(arrived, blocks), builder.getInt64(1)), blocks);
  builder.CreateBr(wait);
  builder.SetInsertPoint(wait);
  auto *current = builder.CreateLoad(i64, address);
  current->setVolatile(true);
  builder.CreateCondBr(builder.CreateICmpULT(current, target), wait, done);
  builder.SetInsertPoint(done);
  builder.CreateIntrinsic(nvvm_membar_gl, {}, {});
  builder.CreateIntrinsic(nvvm_barrier0, {}, {});
  return noneValue(lowering);
}

/// The barriers that also reduce a predicate over the block: count, and, or.
void addReducingBarrier(Library &library, const std::string &name, ID id) {
  library.add(gpuFunction(name, 1, returns(int32Type()),
                          [id](LoweringApi &lowering, const LibraryCall &call,
                               const std::vector<llvm::Value *> &values) {
                            llvm::IRBuilder<> &builder = lowering.irBuilder();
                            llvm::Value *predicate =
                                lowering.truthValue(values[0], call.argumentTypes[0]);
                            return builder.CreateIntrinsic(
                                id, {}, {builder.CreateZExt(predicate, builder.getInt32Ty())});
                          }));
}

/// The warp shuffles: 32-bit moves; 64-bit values go as two halves. The clamp is NVVM's c
/// operand.
void addShuffle(Library &library, const std::string &name, ID id, unsigned clamp) {
  library.add(gpuFunction(
      name, 3,
      [](const LibraryCall &call) {
        const Type *value = call.argumentTypes[1];
        if (!value->isNumber() || value->isComplex())
          throwNoOverload(call);
        return value->isBoolean() ? int32Type() : value;
      },
      [id, clamp](LoweringApi &lowering, const LibraryCall &call,
                  const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Type *i32 = builder.getInt32Ty();
        llvm::Type *i64 = builder.getInt64Ty();
        llvm::Value *mask = asUint32(lowering, call, values, 0);
        llvm::Value *lane = asUint32(lowering, call, values, 2);
        auto shuffle = [&](llvm::Value *word) {
          return builder.CreateIntrinsic(id, {}, {mask, word, lane, builder.getInt32(clamp)});
        };
        llvm::Value *value = lowering.castValue(values[1], call.argumentTypes[1], call.resultType);
        llvm::Type *type = value->getType();
        unsigned bits = type->getPrimitiveSizeInBits();
        llvm::Value *word = builder.CreateBitCast(value, builder.getIntNTy(bits));
        if (bits <= 32) {
          llvm::Value *moved = shuffle(builder.CreateZExt(word, i32));
          return builder.CreateBitCast(builder.CreateTrunc(moved, builder.getIntNTy(bits)), type);
        }
        llvm::Value *low = builder.CreateZExt(shuffle(builder.CreateTrunc(word, i32)), i64);
        llvm::Value *high = builder.CreateZExt(
            shuffle(builder.CreateTrunc(builder.CreateLShr(word, 32), i32)), i64);
        return builder.CreateBitCast(builder.CreateOr(low, builder.CreateShl(high, 32)), type);
      }));
}

/// A warp vote's type rule: the mask an integer and the predicate an integer or a boolean, as
/// numba-cuda checks them (with its messages); `result` otherwise.
LibraryTypeRule typeVote(const Type *result) {
  return [result](const LibraryCall &call) {
    const Type *mask = call.argumentTypes[0];
    const Type *predicate = call.argumentTypes[1];
    if (!mask->isInteger())
      throwTypingError("Mask type must be an integer. Got " + mask->name(), call.location);
    if (!predicate->isInteger() && !predicate->isBoolean())
      throwTypingError("Predicate must be an integer or boolean. Got " + predicate->name(),
                       call.location);
    return result;
  };
}

/// all_sync, any_sync, eq_sync: a vote of the warp's predicates, as int32.
void addVote(Library &library, const std::string &name, ID id) {
  library.add(gpuFunction(name, 2, typeVote(int32Type()),
                          [id](LoweringApi &lowering, const LibraryCall &call,
                               const std::vector<llvm::Value *> &values) {
                            llvm::IRBuilder<> &builder = lowering.irBuilder();
                            llvm::Value *vote = builder.CreateIntrinsic(
                                id, {},
                                {asUint32(lowering, call, values, 0),
                                 lowering.truthValue(values[1], call.argumentTypes[1])});
                            return builder.CreateZExt(vote, builder.getInt32Ty());
                          }));
}

/// match_any_sync's and match_all_sync's type rule: a number compared by its bits (32 or 64 of
/// them), `result` for it.
LibraryTypeRule typeMatch(const Type *result) {
  return [result](const LibraryCall &call) {
    const Type *value = call.argumentTypes[1];
    if (!call.argumentTypes[0]->isIntegerLike() || !value->isNumber() || value->isComplex())
      throwNoOverload(call);
    return result;
  };
}

/// The value a match compares, as the 32- or 64-bit integer of its bits (`wide` for 64): floats
/// by their bit patterns, as numba-cuda's bitcast, smaller integers widened.
llvm::Value *matchOperand(LoweringApi &lowering, const LibraryCall &call,
                          const std::vector<llvm::Value *> &values, bool &wide) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *type = call.argumentTypes[1];
  wide = type->bits() > 32;
  if (type->isFloat()) {
    llvm::Value *value =
        lowering.castValue(values[1], type, wide ? types::float64() : types::float32());
    return builder.CreateBitCast(value, builder.getIntNTy(wide ? 64 : 32));
  }
  return lowering.castValue(values[1], type, types::integer(wide ? 64 : 32, false));
}

/// popc, clz, ffs, brev: of an integer, typed as numba-cuda types them: popc and clz give the
/// argument's type, ffs uint32, brev uint32 or uint64.
void addBitIntrinsic(Library &library, const std::string &name, LibraryLowerRule lower) {
  library.add(gpuFunction(
      name, 1,
      [](const LibraryCall &call) {
        const Type *argument = call.argumentTypes[0];
        if (!argument->isInteger())
          throwNoOverload(call);
        if (call.function->name == "cuda.brev")
          return argument->bits() > 32 ? types::uint64() : uint32Type();
        if (call.function->name == "cuda.ffs")
          return uint32Type();
        return argument;
      },
      std::move(lower)));
}

/// The count of an LLVM bit-counting intrinsic (ctpop, ctlz, cttz) of `value`, as int32.
llvm::Value *countBits(LoweringApi &lowering, ID id, llvm::Value *value) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  std::vector<llvm::Value *> operands = {value};
  if (id != llvm::Intrinsic::ctpop)
    operands.push_back(builder.getFalse()); // zero is defined
  return builder.CreateIntCast(builder.CreateIntrinsic(id, {value->getType()}, operands),
                               builder.getInt32Ty(), false);
}

void addBitIntrinsics(Library &library) {
  addBitIntrinsic(
      library, "popc",
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.castValue(countBits(lowering, llvm::Intrinsic::ctpop, values[0]),
                                  int32Type(), call.resultType);
      });
  addBitIntrinsic(
      library, "clz",
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.castValue(countBits(lowering, llvm::Intrinsic::ctlz, values[0]),
                                  int32Type(), call.resultType);
      });
  // ffs: the 1-based position of the lowest set bit, 0 for 0.
  addBitIntrinsic(
      library, "ffs",
      [](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *value = values[0];
        llvm::Value *trailing = countBits(lowering, llvm::Intrinsic::cttz, value);
        return builder.CreateSelect(
            builder.CreateICmpEQ(value, llvm::ConstantInt::get(value->getType(), 0)),
            builder.getInt32(0), builder.CreateAdd(trailing, builder.getInt32(1)));
      });
  addBitIntrinsic(
      library, "brev",
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::Value *value = lowering.castValue(values[0], call.argumentTypes[0], call.resultType);
        return lowering.irBuilder().CreateIntrinsic(llvm::Intrinsic::bitreverse, {value->getType()},
                                                    {value});
      });
}

} // namespace

void registerCudaFunctions(Library &library) {
  const std::pair<const char *, ID> registers[] = {
      {"threadIdx.x", nvvm_read_ptx_sreg_tid_x},  {"threadIdx.y", nvvm_read_ptx_sreg_tid_y},
      {"threadIdx.z", nvvm_read_ptx_sreg_tid_z},  {"blockIdx.x", nvvm_read_ptx_sreg_ctaid_x},
      {"blockIdx.y", nvvm_read_ptx_sreg_ctaid_y}, {"blockIdx.z", nvvm_read_ptx_sreg_ctaid_z},
      {"blockDim.x", nvvm_read_ptx_sreg_ntid_x},  {"blockDim.y", nvvm_read_ptx_sreg_ntid_y},
      {"blockDim.z", nvvm_read_ptx_sreg_ntid_z},  {"gridDim.x", nvvm_read_ptx_sreg_nctaid_x},
      {"gridDim.y", nvvm_read_ptx_sreg_nctaid_y}, {"gridDim.z", nvvm_read_ptx_sreg_nctaid_z},
      {"laneid", nvvm_read_ptx_sreg_laneid},      {"warpsize", nvvm_read_ptx_sreg_warpsize},
  };
  for (const auto &[name, id] : registers)
    addRegister(library, name, id);
  addGrid(library, "grid");
  addGrid(library, "gridsize");

  library.add(gpuFunction("syncthreads", 0, returns(types::none()), callsIntrinsic(nvvm_barrier0)));
  addReducingBarrier(library, "syncthreads_count", nvvm_barrier0_popc);
  addReducingBarrier(library, "syncthreads_and", nvvm_barrier0_and);
  addReducingBarrier(library, "syncthreads_or", nvvm_barrier0_or);
  library.add(gpuFunction(
      "syncwarp", 1,
      [](const LibraryCall &call) {
        if (call.argumentTypes.size() == 1 && !call.argumentTypes[0]->isIntegerLike())
          throwNoOverload(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *mask =
            values.empty() ? builder.getInt32(0xffffffff) : asUint32(lowering, call, values, 0);
        builder.CreateIntrinsic(nvvm_bar_warp_sync, {}, {mask});
        return noneValue(lowering);
      },
      1));
  library.add(
      gpuFunction("threadfence", 0, returns(types::none()), callsIntrinsic(nvvm_membar_gl)));
  library.add(
      gpuFunction("threadfence_block", 0, returns(types::none()), callsIntrinsic(nvvm_membar_cta)));
  library.add(gpuFunction("threadfence_system", 0, returns(types::none()),
                          callsIntrinsic(nvvm_membar_sys)));
  // A compile-time handle whose sync() is the grid barrier. A kernel taking one is cooperative
  // (numba-cuda's rule), whether or not it synchronises: its barrier counter is defined.
  library.add(gpuFunction(
      "cg.this_grid", 0, returns(types::builtin("cuda.cg.grid_group")),
      [](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &) {
        gridBarrierCounter(lowering);
        return noneValue(lowering);
      }));
  library.add(gpuFunction("cg.grid_group.sync", 0, returns(types::none()), lowerGridSync));
  library.add(gpuFunction(
      "nanosleep", 1, returns(types::none()),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        lowering.irBuilder().CreateIntrinsic(nvvm_nanosleep, {},
                                             {asUint32(lowering, call, values, 0)});
        return noneValue(lowering);
      }));

  addShuffle(library, "shfl_sync", nvvm_shfl_sync_idx_i32, 0x1f);
  addShuffle(library, "shfl_up_sync", nvvm_shfl_sync_up_i32, 0);
  addShuffle(library, "shfl_down_sync", nvvm_shfl_sync_down_i32, 0x1f);
  addShuffle(library, "shfl_xor_sync", nvvm_shfl_sync_bfly_i32, 0x1f);
  library.add(gpuFunction(
      "ballot_sync", 2, typeVote(uint32Type()),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.irBuilder().CreateIntrinsic(
            nvvm_vote_ballot_sync, {},
            {asUint32(lowering, call, values, 0),
             lowering.truthValue(values[1], call.argumentTypes[1])});
      }));
  addVote(library, "all_sync", nvvm_vote_all_sync);
  addVote(library, "any_sync", nvvm_vote_any_sync);
  addVote(library, "eq_sync", nvvm_vote_uni_sync);
  library.add(gpuFunction(
      "match_any_sync", 2, typeMatch(uint32Type()),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        bool wide = false;
        llvm::Value *value = matchOperand(lowering, call, values, wide);
        return lowering.irBuilder().CreateIntrinsic(
            wide ? nvvm_match_any_sync_i64 : nvvm_match_any_sync_i32, {},
            {asUint32(lowering, call, values, 0), value});
      }));
  // match_all_sync(mask, value) -> (mask, pred): the lanes of `mask` when all hold one value.
  library.add(gpuFunction(
      "match_all_sync", 2, typeMatch(types::tuple({uint32Type(), types::boolean()})),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        bool wide = false;
        llvm::Value *value = matchOperand(lowering, call, values, wide);
        llvm::Value *pair =
            builder.CreateIntrinsic(wide ? nvvm_match_all_sync_i64p : nvvm_match_all_sync_i32p, {},
                                    {asUint32(lowering, call, values, 0), value});
        return lowering.lowerTuple(
            {builder.CreateExtractValue(pair, 0), builder.CreateExtractValue(pair, 1)},
            call.resultType);
      }));
  // NVVM's intrinsic, which is convergent: LLVM merges inline assembly read in both arms of a
  // branch into one read after it, where the whole warp is active again.
  library.add(gpuFunction(
      "activemask", 0, returns(uint32Type()),
      [](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &) {
        return lowering.irBuilder().CreateIntrinsic(nvvm_activemask, {}, {});
      }));
  library.add(gpuFunction(
      "lanemask_lt", 0, returns(uint32Type()),
      [](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &) {
        return lowering.irBuilder().CreateIntrinsic(nvvm_read_ptx_sreg_lanemask_lt, {}, {});
      }));

  addBitIntrinsics(library);
  library.add(gpuFunction(
      "fma", 3,
      [](const LibraryCall &call) {
        const std::vector<const Type *> &arguments = call.argumentTypes;
        const Type *common = binaryResultType(BinaryOp::Add, arguments[0], arguments[1]);
        common = common ? binaryResultType(BinaryOp::Add, common, arguments[2]) : nullptr;
        if (!common || common->isComplex())
          throwNoOverload(call);
        // numba-cuda's float32 and float64 forms: integers convert safely to float64 only.
        return common->isFloat() && common->bits() == 32 ? types::float32() : types::float64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        std::vector<llvm::Value *> operands;
        for (size_t i = 0; i < 3; ++i)
          operands.push_back(lowering.castValue(values[i], call.argumentTypes[i], call.resultType));
        return lowering.irBuilder().CreateIntrinsic(llvm::Intrinsic::fma, {operands[0]->getType()},
                                                    operands);
      }));
  // selp(test, a, b): a or b by the test, of one type among those PTX's selp takes.
  library.add(gpuFunction(
      "selp", 3,
      [](const LibraryCall &call) {
        const Type *a = call.argumentTypes[1];
        bool selectable = (a->isFloat() && a->bits() >= 32) || (a->isInteger() && a->bits() >= 16);
        if (a != call.argumentTypes[2] || !selectable)
          throwNoOverload(call);
        return a;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.irBuilder().CreateSelect(
            lowering.truthValue(values[0], call.argumentTypes[0]), values[1], values[2]);
      }));
  library.add(gpuFunction(
      "cbrt", 1,
      [](const LibraryCall &call) {
        const Type *argument = call.argumentTypes[0];
        return argument->isFloat() && argument->bits() == 32 ? types::float32() : types::float64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.callLibm(
            "cbrt", {lowering.castValue(values[0], call.argumentTypes[0], call.resultType)},
            call.resultType);
      }));
}

} // namespace taipan
