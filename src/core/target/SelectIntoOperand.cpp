// Moves selects of floating-point results into the operands (see SelectIntoOperand.h).
#include "target/SelectIntoOperand.h"

#include <llvm/ADT/FloatingPointMode.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace taipan {
namespace {

/// The constant k with `x op k == x` for every x, or nullptr for operations without one.
llvm::Constant *rightIdentity(const llvm::BinaryOperator &operation) {
  llvm::Type *type = operation.getType();
  switch (operation.getOpcode()) {
  case llvm::Instruction::FAdd:
    return llvm::ConstantFP::getNegativeZero(type);
  case llvm::Instruction::FSub:
    return llvm::ConstantFP::getZero(type);
  case llvm::Instruction::FMul:
    return llvm::ConstantFP::get(type, 1.0);
  default:
    return nullptr;
  }
}

/// Whether x op k gives x bit for bit in `function` for values of `type`: IEEE denormals.
bool keepsDenormals(const llvm::Function &function, llvm::Type *type) {
  const llvm::fltSemantics &semantics = type->getScalarType()->getFltSemantics();
  return function.getDenormalMode(semantics) == llvm::DenormalMode::getIEEE();
}

/// Rewrites `select` when one arm is `x op y` (its only use) and the other is x; true if so.
bool moveIntoOperand(llvm::SelectInst &select) {
  for (bool operationIsTrueArm : {true, false}) {
    llvm::Value *arm = operationIsTrueArm ? select.getTrueValue() : select.getFalseValue();
    llvm::Value *kept = operationIsTrueArm ? select.getFalseValue() : select.getTrueValue();
    auto *operation = llvm::dyn_cast<llvm::BinaryOperator>(arm);
    if (!operation || !operation->hasOneUse())
      continue;
    llvm::Constant *identity = rightIdentity(*operation);
    if (!identity || !keepsDenormals(*select.getFunction(), operation->getType()))
      continue;
    // x is the left operand; fadd and fmul also take it on the right.
    unsigned other;
    if (operation->getOperand(0) == kept)
      other = 1;
    else if (operation->isCommutative() && operation->getOperand(1) == kept)
      other = 0;
    else
      continue;
    llvm::Value *y = operation->getOperand(other);
    auto *operand = llvm::SelectInst::Create(
        select.getCondition(), operationIsTrueArm ? y : identity, operationIsTrueArm ? identity : y,
        select.getName() + ".operand", &select);
    operand->copyMetadata(select); // !unpredictable, branch weights
    llvm::BinaryOperator *moved =
        llvm::BinaryOperator::Create(operation->getOpcode(), other == 1 ? kept : operand,
                                     other == 1 ? operand : kept, operation->getName(), &select);
    moved->copyIRFlags(operation);
    moved->setDebugLoc(operation->getDebugLoc());
    select.replaceAllUsesWith(moved);
    select.eraseFromParent();
    operation->eraseFromParent();
    return true;
  }
  return false;
}

} // namespace

llvm::PreservedAnalyses SelectIntoOperandPass::run(llvm::Function &function,
                                                   llvm::FunctionAnalysisManager &) {
  if (function.hasFnAttribute(llvm::Attribute::StrictFP))
    return llvm::PreservedAnalyses::all();
  llvm::SmallVector<llvm::SelectInst *, 16> selects;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction))
      if (select->getType()->isFPOrFPVectorTy())
        selects.push_back(select);
  bool changed = false;
  for (llvm::SelectInst *select : selects)
    changed |= moveIntoOperand(*select);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace taipan
