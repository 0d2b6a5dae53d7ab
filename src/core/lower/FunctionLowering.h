// FunctionLowering: the core of lowering one function body to LLVM IR (statements, values,
// blocks, calls, temporaries and the unwind path); the rooms beside it hold the rest.
#pragma once

#include "lower/ArrayLowering.h"
#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/GeneratorLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "lower/OperatorLowering.h"
#include "lower/StringLowering.h"
#include "target/Target.h"
#include "typing/ParallelLoops.h"
#include "typing/TypeInference.h"

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace taipan {

/// Emits the body of one function: statements (FunctionLowering.cpp), expressions and
/// conversions (LowerExpressions.cpp, LowerOptional.cpp), calls (LowerBuiltins.cpp), temporaries
/// (Temporaries.cpp) and the unwind block every exit goes through. The rooms beside it
/// (ArrayLowering, ContainerLowering, StringLowering, ExceptionLowering, LoopLowering,
/// GeneratorLowering, OperatorLowering) each hold a reference to it and lower their concern;
/// library entries see it through LoweringApi.
class FunctionLowering : public LoweringApi {
public:
  FunctionLowering(ModuleLowering &module, TypedFunction &function, llvm::Function *target);
  void lower();
  /// Emits `target` as the outlined body of the prange loop `loop`, by `plan` (its arguments:
  /// the environment the caller filled, the first and last iteration, the chunk's index).
  void lowerParallelBody(Stmt *loop, const ParallelLoopPlan &plan,
                         llvm::StructType *environmentType);

  // The rooms.
  ArrayLowering &arrays() override { return arrayRoom; }
  ContainerLowering &containers() override { return containerRoom; }
  StringLowering &strings() override { return stringRoom; }
  ExceptionLowering &exceptions() override { return exceptionRoom; }
  LoopLowering &loops() override { return loopRoom; }
  GeneratorLowering &generators() override { return generatorRoom; }
  OperatorLowering &operators() override { return operatorRoom; }

  // LoweringApi (documented there) and the core's own methods.
  llvm::IRBuilder<> &irBuilder() override { return builder; }
  llvm::LLVMContext &llvmContext() override { return context; }
  ModuleLowering &module() override { return moduleLowering; }
  bool useNumpyArithmetic(bool on) override {
    bool previous = insideElementwise;
    insideElementwise = on;
    return previous;
  }
  /// Statements, one at a time; `lowerAssign` stores a value into an assignment's target.
  void lowerBlock(const std::vector<Stmt *> &block);
  void lowerStatement(Stmt *stmt);
  void lowerAssign(Expr *target, llvm::Value *value, const Type *valueType);
  llvm::BasicBlock *newBlock(const char *name) override;
  /// Starts a fresh block when the current one already ends in a terminator.
  void ensureOpenBlock();
  llvm::AllocaInst *createEntryAlloca(llvm::Type *type, const std::string &name) override;
  /// The slot of a variable (made on first use in the entry block).
  llvm::Value *variable(const std::string &name);
  /// The status a segment returns when the function returned (its value in the result slot);
  /// never an exception's (those are positive).
  static constexpr int32_t ReturnedFromSegment = -1;
  /// The status a suspended generator leaves through its unwind block with when destroyed.
  static constexpr int32_t DestroyedGenerator = -2;
  const Type *typeOf(const Expr *expr) const override { return function.typeOf(expr); }
  llvm::Value *lowerExpr(Expr *expr) override;
  llvm::Value *lowerExprAs(Expr *expr, const Type *type) override;
  llvm::Value *lowerTuple(const std::vector<llvm::Value *> &elements, const Type *type) override;
  llvm::Value *tupleElement(llvm::Value *tuple, const Type *tupleType, unsigned index) override;
  llvm::Value *castValue(llvm::Value *value, const Type *from, const Type *to) override;
  llvm::Value *truthValue(llvm::Value *value, const Type *type) override;
  void exitFunction(llvm::Value *status) override;
  void exitIf(llvm::Value *condition, llvm::Value *status) override;
  void incref(llvm::Value *value, const Type *type) override;
  void decref(llvm::Value *value, const Type *type) override;
  void addTemporary(llvm::Value *value, const Type *type) override;
  llvm::Value *takeOwnership(llvm::Value *value, const Type *type) override;
  /// Drops the temporaries made since `mark`.
  void releaseTemporaries(size_t mark);
  /// On a path that jumps out of the statements holding them (break, continue): releases the
  /// temporaries above `mark` and empties their slots, leaving the statements' own releases
  /// for their other paths.
  void releaseTemporariesOnJump(size_t mark);
  void exitUnlessZero(llvm::Value *status) override;
  llvm::Value *callTypedFunction(TypedFunction &callee,
                                 const std::vector<llvm::Value *> &arguments) override;
  /// A call of a library function (src/core/library/), as typing bound it.
  llvm::Value *lowerLibraryCall(const LibraryCall &call);
  llvm::Value *callLibm(const std::string &name, llvm::ArrayRef<llvm::Value *> arguments,
                        const Type *floatType) override;
  llvm::Value *callIntrinsic(llvm::Intrinsic::ID id,
                             llvm::ArrayRef<llvm::Value *> arguments) override;

private:
  friend class LoweringRoom;
  friend class ArrayLowering;
  friend class ContainerLowering;
  friend class StringLowering;
  friend class ExceptionLowering;
  friend class LoopLowering;
  friend class GeneratorLowering;
  friend class OperatorLowering;

  struct LoopTargets {
    llvm::BasicBlock *continueTarget;
    llvm::BasicBlock *breakTarget;
    /// The temporaries pending when the body began: a break or continue releases those made
    /// since (by the statements it leaves unfinished, a for-else's loop included).
    size_t temporaryMark;
  };

  ModuleLowering &moduleLowering;
  TypedFunction &function;
  const CompileOptions &options;
  llvm::Function *target;
  llvm::LLVMContext &context;
  llvm::IRBuilder<> builder;
  /// Each variable's slot: an entry-block alloca, or in a segment (FunctionSegments.cpp) the
  /// address of its parent's.
  std::unordered_map<std::string, llvm::Value *> variables;
  /// Set in a segment of a long function: the variables belong to the parent, which made them
  /// empty and releases them; a return hands its value to the parent.
  bool variablesBorrowed = false;
  std::vector<LoopTargets> loopTargets;
  llvm::DISubprogram *scope = nullptr; ///< set when the function emits line information
  /// Shared raise blocks, by where their exception goes (the unwind block or a try's handlers),
  /// the exception and its message.
  std::map<std::tuple<llvm::BasicBlock *, int, std::string>, llvm::BasicBlock *> raiseBlocks;
  /// A value holding references that a statement made and nobody took over yet. Its blocks are
  /// also stored in slots (entry-block allocas of one pointer, null while free), so the unwind
  /// block can release whatever is alive at any exit without the value dominating it.
  struct Temporary {
    llvm::Value *value;
    const Type *type;
    std::vector<unsigned> slots;
  };
  std::vector<Temporary> temporaries;
  std::vector<llvm::AllocaInst *> temporarySlots;
  std::vector<unsigned> freeTemporarySlots; ///< slots that hold null wherever lowering stands
  /// The one exit of the function: every return, raise and propagated error branches here with
  /// its status; the block releases the variables and live temporaries, then returns it.
  llvm::BasicBlock *unwindBlock = nullptr;
  llvm::PHINode *unwindStatus = nullptr;
  /// A try statement's hold on the exits that leave one of its parts (LowerTry.cpp): failing
  /// statuses branch to `exceptionBlock` (the handlers, a finally's exceptional copy, the end
  /// of a handler) with their status; returns, breaks and continues crossing it first emit
  /// `cleanup` (the finally block, or the end of a handler) with only the outer routes active.
  struct ExitRoute {
    llvm::BasicBlock *exceptionBlock;
    llvm::PHINode *exceptionStatus;
    std::function<void()> cleanup; ///< empty: returns and jumps pass through
    size_t loopDepth;              ///< loops.size() where the route began
  };
  std::vector<ExitRoute> routes;
  /// How many except handlers enclose the statement being lowered (a bare `raise` re-raises).
  int handlerDepth = 0;
  /// Inside an outlined prange body, further prange loops run serially on their thread.
  bool insideParallelBody = false;
  /// Inside an outlined prange body: its scalar float `+=`/`-=` and `*=` reductions, whose
  /// updates may be reassociated (a thread's chunk is summed in vector lanes, as the chunks
  /// already are summed in another order than the serial loop's).
  std::set<std::string> reassociatedReductions;
  /// Inside the loop of an array expression, arithmetic follows NumPy (no ZeroDivisionError).
  bool insideElementwise = false;
  bool numpyErrorModel() const { return options.errorModelNumpy || insideElementwise; }
  /// A generator function's coroutine (LowerGenerators.cpp): its id, frame handle and promise
  /// (the yielded value and the final status), and the blocks suspension and destruction end in.
  struct Coroutine {
    llvm::Value *id = nullptr;
    llvm::Value *handle = nullptr;
    llvm::AllocaInst *promise = nullptr;
    llvm::StructType *promiseType = nullptr;
    llvm::BasicBlock *suspended = nullptr; ///< returns to whoever started or resumed it
    llvm::BasicBlock *cleanup = nullptr;   ///< frees nothing (the block owns the frame), ends it
  };
  std::optional<Coroutine> coroutine;

  llvm::Value *lowerCondition(Expr *test);
  void lowerIf(Stmt *stmt);
  /// Opens the entry block and the unwind block, and empties the array variables.
  void beginBody();
  void lowerReturn(llvm::Value *value, const Type *type);
  /// A long function's body lowered in segments, each an outlined function of its own
  /// (FunctionSegments.cpp); false, emitting nothing, when the body is short enough.
  bool lowerInSegments(const std::vector<Stmt *> &body);
  llvm::Value *lowerConstant(const Constant &constant, const Type *type);
  /// A value frozen at compile time (a global, a closure variable, a default), as `type`.
  llvm::Value *lowerFrozenValue(const GlobalValue &value, const Type *type);
  llvm::Value *lowerBoolOp(Expr *expr);
  llvm::Value *lowerIfExp(Expr *expr);
  llvm::Value *lowerSubscript(Expr *expr);
  llvm::Value *lowerAttribute(Expr *expr);
  /// Conversions to and from Optional (LowerOptional.cpp): a value or None into an optional,
  /// an optional into another, or an optional into its value, raising TypeError when None.
  llvm::Value *castOptional(llvm::Value *value, const Type *from, const Type *to);
  /// `x is None`, `x is not None`, `x == None`, `x != None` of an optional; nullptr for other
  /// comparisons, which compare its value.
  llvm::Value *lowerOptionalComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                                       llvm::Value *right, const Type *rightType);
  /// Fills the unwind block once the body is lowered and every slot is known.
  void emitUnwindBlock();
  void applyFastMath();
  /// The memory blocks (MemInfo pointers) a value refers to: one per array it holds.
  void collectBlocks(llvm::Value *value, const Type *type, std::vector<llvm::Value *> &blocks);
  void decrefBlock(llvm::Value *block);
  /// Calls the runtime function `runtimeName` on a memory block unless the block is null.
  void callUnlessNull(const char *runtimeName, llvm::Value *block);
  /// A free temporary slot (null at this point of the function), made on first need.
  unsigned acquireTemporarySlot();
  /// Forgets a temporary's slots (storing null) and frees them for later temporaries.
  void clearTemporarySlots(const Temporary &temporary);
  /// The address of `p[i]` for a subscript of a pointer (a cfunc's CPointer argument).
  llvm::Value *pointerElementAddress(Expr *subscript);
  llvm::Value *lowerCall(Expr *expr);
  llvm::Value *lowerJitCall(Expr *expr, const CallBinding &binding);
  /// A call of a cuda.declare_device function, by Numba's convention or the plain C one.
  llvm::Value *lowerExternalCall(Expr *expr, const Type *callee);
  /// A call through a first-class function value: its address, by the C convention
  /// (lower/LowerFirstClassFunctions.cpp).
  llvm::Value *lowerFirstClassCall(Expr *expr, const Type *callee);
  /// A function value of type `from` (a C function at an address, a jitted function compiled
  /// to a C entry at typing) as the first-class function value `to`: {address, no object}.
  llvm::Value *firstClassValue(llvm::Value *value, const Type *from, const Type *to);
  llvm::Value *lowerIntrinsicCall(Expr *expr, const IntrinsicBody &body);
  /// Calls an intrinsic's body (linked into the module once, inlined) with argument values
  /// already of its parameter types: an intrinsic call's, or a lower_cast conversion's.
  llvm::Value *emitIntrinsic(const IntrinsicBody &body, std::vector<llvm::Value *> arguments,
                             SourceLocation location);
  /// A call of a builtin: of a library function, or of a NumPy function or array method.
  llvm::Value *lowerBuiltinCall(const std::string &name, Expr *expr);
  /// A read of a library value (cuda.threadIdx.x), after checking the target.
  llvm::Value *lowerLibraryValue(const LibraryValue &value, SourceLocation location);
  /// Throws an UnsupportedError at the call when its function has no implementation here.
  void checkLibraryTarget(const LibraryCall &call);

  // The rooms, made last: each binds references to the state above.
  ArrayLowering arrayRoom{*this};
  ContainerLowering containerRoom{*this};
  StringLowering stringRoom{*this};
  ExceptionLowering exceptionRoom{*this};
  LoopLowering loopRoom{*this};
  GeneratorLowering generatorRoom{*this};
  OperatorLowering operatorRoom{*this};
};

} // namespace taipan
