// raise and assert: exception messages built from constants or formatted at run time, and the
// shared raise blocks every check in a function branches to.
#include "lower/FunctionLowering.h"

#include "lower/ExceptionDescriptors.h"
#include "runtime/ExceptionArguments.h"
#include "runtime/FloatFormat.h"
#include "runtime/LoadTimeSymbols.h"
#include "syntax/CaughtExceptions.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include <cstdio>
#include <optional>

namespace taipan {

ExceptionLowering::ExceptionLowering(FunctionLowering &core) : LoweringRoom(core) {}

static std::string pythonStringRepr(const std::string &text) {
  char quote =
      text.find('\'') != std::string::npos && text.find('"') == std::string::npos ? '"' : '\'';
  std::string result(1, quote);
  for (unsigned char c : text) {
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      result += '\\';
      result += static_cast<char>(c);
    } else if (c == '\n') {
      result += "\\n";
    } else if (c == '\t') {
      result += "\\t";
    } else if (c == '\r') {
      result += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      result += escaped;
    } else {
      result += static_cast<char>(c);
    }
  }
  return result + quote;
}

/// str() of a value known while compiling (a literal, a frozen global or a string literal's
/// type); `quoted` gives repr() instead, as a tuple of arguments shows them. nullopt when the
/// value is only known at run time.
static std::optional<std::string> constantText(const Expr *argument, const Type *type,
                                               const TypedFunction &function, bool quoted) {
  if (type && type->kind() == TypeKind::StringLiteral)
    return quoted ? pythonStringRepr(type->text()) : type->text();
  const Constant *constant = nullptr;
  if (argument->kind == ExprKind::Constant) {
    constant = &argument->constant;
  } else {
    auto global = function.globals.find(argument->id);
    if (global != function.globals.end() && global->second.kind == GlobalValue::Kind::Constant)
      constant = &global->second.constant;
  }
  if (!constant)
    return std::nullopt;
  switch (constant->kind) {
  case Constant::Kind::Int:
    return runtime::formatPythonInt(constant->intValue);
  case Constant::Kind::UInt:
    return runtime::formatPythonUInt(static_cast<uint64_t>(constant->intValue));
  case Constant::Kind::Float:
    return type == types::float32()
               ? runtime::formatNumpyFloat32(static_cast<float>(constant->floatValue))
               : runtime::formatPythonFloat(constant->floatValue);
  case Constant::Kind::Complex:
    return runtime::formatPythonComplex(constant->floatValue, constant->imagValue);
  case Constant::Kind::Bool:
    return std::string(constant->intValue ? "True" : "False");
  case Constant::Kind::None:
    return std::string("None");
  case Constant::Kind::String:
    return quoted ? pythonStringRepr(constant->text) : constant->text;
  default:
    return std::nullopt;
  }
}

std::optional<std::string> ExceptionLowering::exceptionMessage(Expr *raised) {
  if (raised->kind != ExprKind::Call)
    return std::string();
  // str() of an exception: its one argument's str(), or the repr() of the tuple of them.
  size_t count = raised->operands.size() - 1;
  std::vector<std::string> parts;
  for (size_t i = 1; i <= count; ++i) {
    Expr *argument = raised->operands[i];
    std::optional<std::string> text =
        constantText(argument, core.typeOf(argument), function, count > 1);
    if (!text)
      return std::nullopt;
    parts.push_back(*text);
  }
  if (count == 1)
    return parts[0];
  std::string joined;
  for (const std::string &part : parts)
    joined += (joined.empty() ? "" : ", ") + part;
  return count == 0 ? "" : "(" + joined + ")";
}

void ExceptionLowering::printExceptionMessage(Expr *raised,
                                              const std::vector<llvm::Value *> &values) {
  size_t count = raised->operands.size() - 1;
  if (count > 1)
    core.strings().printText("(");
  for (size_t i = 1; i <= count; ++i) {
    Expr *argument = raised->operands[i];
    const Type *type = core.typeOf(argument);
    if (i > 1)
      core.strings().printText(", ");
    if (std::optional<std::string> text = constantText(argument, type, function, count > 1))
      core.strings().printText(*text);
    else
      core.strings().printValue(values[i - 1], type);
  }
  if (count > 1)
    core.strings().printText(")");
}

void ExceptionLowering::lowerRaise(Stmt *stmt) {
  if (!stmt->value) {
    if (core.handlerDepth == 0)
      throwUnsupported("a bare 'raise' is supported only inside an except block", stmt->location);
    builder.CreateCall(exceptionRuntime("taipan_reraise"));
    core.exitFunction(builder.getInt32(1));
    return;
  }
  Expr *raised = stmt->value;
  if (isCaughtExceptionName(raised)) { // `raise e` in `except ... as e`: its handled-stack index
    llvm::Value *index = core.lowerExpr(raised);
    builder.CreateCall(moduleLowering.runtimeFunction("taipan_reraise_at", builder.getVoidTy(),
                                                      {builder.getInt64Ty()}),
                       {index});
    core.exitFunction(builder.getInt32(1));
    return;
  }
  const Type *classType =
      raised->kind == ExprKind::Call ? core.typeOf(raised->callee()) : core.typeOf(raised);
  // The arguments are evaluated where a message is made of them at run time; a target that
  // makes none (a kernel: the constant message or none) skips them, so that a message built
  // with an f-string (str.format, which runs on the CPU only) does not stop library code that
  // checks its arguments from compiling there.
  std::vector<llvm::Value *> values;
  if (raised->kind == ExprKind::Call && moduleLowering.target.formatsMessagesAtRunTime())
    for (size_t i = 1; i < raised->operands.size(); ++i)
      values.push_back(core.lowerExpr(raised->operands[i]));
  std::optional<std::string> message = exceptionMessage(raised);
  // A kernel's exception names where it was raised (numba-cuda's "In function 'f', file ...,
  // line n, " before the thread's position): after the message, past a unit separator that the
  // host splits at, so that a message the device's buffer cuts short keeps its text.
  std::string site;
  if (moduleLowering.target.hasThreadHierarchy())
    site = "\x1fIn function '" + function.source->name + "', file " + function.source->filename +
           ", line " + std::to_string(function.source->fileLine(stmt->location.line)) + ", ";
  // Python gets the exception made of its arguments, unless they are one string (which the
  // message rebuilds exactly) or cannot be described.
  std::string descriptor;
  bool keepArguments = !values.empty() && moduleLowering.target.formatsMessagesAtRunTime() &&
                       !moduleLowering.target.hasThreadHierarchy() &&
                       !core.loops().runsOnThreadPool();
  if (keepArguments && values.size() == 1 && core.typeOf(raised->operands[1])->isString())
    keepArguments = false;
  for (size_t i = 1; keepArguments && i < raised->operands.size(); ++i)
    keepArguments = describeExceptionArgument(core.typeOf(raised->operands[i]), descriptor);
  if (!keepArguments) {
    if (message) {
      emitRaise(classType->exceptionId(), *message + site);
      return;
    }
    if (!site.empty()) { // a kernel: no message made at run time
      emitRaise(classType->exceptionId(), "<message made at run time>" + site);
      return;
    }
    emitPrintedRaise(classType->exceptionId(), [&] { printExceptionMessage(raised, values); });
    return;
  }
  llvm::Value *exceptionId = exceptionIdValue(classType->exceptionId());
  if (message) {
    builder.CreateCall(moduleLowering.runtimeFunction("taipan_raise", builder.getVoidTy(),
                                                      {builder.getInt32Ty(), builder.getPtrTy()}),
                       {exceptionId, moduleLowering.stringConstant(*message)});
  } else {
    printExceptionMessage(raised, values);
    builder.CreateCall(moduleLowering.runtimeFunction("taipan_raise_printed", builder.getVoidTy(),
                                                      {builder.getInt32Ty()}),
                       {exceptionId});
  }
  llvm::Type *pointer = builder.getPtrTy();
  llvm::AllocaInst *pointers =
      core.createEntryAlloca(llvm::ArrayType::get(pointer, values.size()), "raise.arguments");
  for (size_t i = 0; i < values.size(); ++i) {
    const Type *type = core.typeOf(raised->operands[i + 1]);
    const Type *boxed = type->kind() == TypeKind::StringLiteral ? types::unicode() : type;
    llvm::Value *value = core.castValue(values[i], type, boxed);
    llvm::AllocaInst *slot = core.createEntryAlloca(memoryType(context, boxed), "raise.argument");
    builder.CreateStore(toMemoryForm(builder, value, boxed), slot);
    builder.CreateStore(slot, builder.CreateConstInBoundsGEP1_64(pointer, pointers, i));
  }
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_keep_exception_arguments",
                                                    builder.getVoidTy(), {pointer, pointer}),
                     {moduleLowering.stringConstant(descriptor), pointers});
  core.exitFunction(builder.getInt32(1));
}

void ExceptionLowering::emitPrintedRaise(int exceptionId, const std::function<void()> &print) {
  if (!moduleLowering.target.formatsMessagesAtRunTime()) {
    emitRaise(exceptionId, "<message made at run time>");
    return;
  }
  print();
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_raise_printed", builder.getVoidTy(),
                                                    {builder.getInt32Ty()}),
                     {exceptionIdValue(exceptionId)});
  core.exitFunction(builder.getInt32(1));
}

void ExceptionLowering::lowerAssert(Stmt *stmt) {
  llvm::Value *condition = core.lowerCondition(stmt->test);
  std::optional<std::string> message = std::string();
  if (stmt->message)
    message = constantText(stmt->message, core.typeOf(stmt->message), function, false);
  if (message) {
    raiseIf(builder.CreateNot(condition), AssertionErrorId, *message);
    return;
  }
  // A message made at run time is evaluated only when the assertion fails, as in Python.
  llvm::BasicBlock *failed = core.newBlock("assert.failed");
  llvm::BasicBlock *passed = core.newBlock("assert.ok");
  builder.CreateCondBr(condition, passed, failed,
                       llvm::MDBuilder(context).createBranchWeights(1 << 20, 1));
  builder.SetInsertPoint(failed);
  emitPrintedRaise(AssertionErrorId, [&] {
    core.strings().printValue(core.lowerExpr(stmt->message), core.typeOf(stmt->message));
  });
  builder.SetInsertPoint(passed);
}

void ExceptionLowering::emitRaise(int exceptionId, const std::string &message) {
  llvm::FunctionCallee raise = moduleLowering.runtimeFunction(
      "taipan_raise", builder.getVoidTy(), {builder.getInt32Ty(), builder.getPtrTy()});
  builder.CreateCall(raise,
                     {exceptionIdValue(exceptionId), moduleLowering.stringConstant(message)});
  core.exitFunction(builder.getInt32(1));
}

llvm::Value *ExceptionLowering::exceptionIdValue(int exceptionId) {
  if (exceptionId < FirstUserException)
    return builder.getInt32(exceptionId);
  bool byName = moduleLowering.target.resolvesSymbolsAtLoad();
  std::string symbol = byName ? runtime::exceptionClassSymbol(exceptionId) : "";
  if (symbol.empty()) { // the id of this process, baked in
    std::string name = runtime::exceptionClassName(exceptionId);
    if (name.empty())
      name = "#" + std::to_string(exceptionId);
    moduleLowering.processSpecific =
        "it uses the exception class " + name +
        (byName ? ", which another process cannot find by its name (define it at the top level "
                  "of a module)"
                : ", whose id this process gave it");
    return builder.getInt32(exceptionId);
  }
  // The cell each process that loads the code fills with the class's id there.
  llvm::GlobalVariable *cell = moduleLowering.module.getGlobalVariable(symbol);
  if (!cell)
    cell = new llvm::GlobalVariable(moduleLowering.module, builder.getInt32Ty(), true,
                                    llvm::GlobalValue::ExternalLinkage, nullptr, symbol);
  return builder.CreateLoad(builder.getInt32Ty(), cell, "exception.id");
}

void ExceptionLowering::raiseIf(llvm::Value *condition, int exceptionId,
                                const std::string &message) {
  // A check that cannot fail (a constant divisor's zero test) costs no block: every block
  // deepens the dominator tree, which some of LLVM's analyses walk.
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(condition); constant && constant->isZero())
    return;
  // One raise block per distinct exception in a function: checks repeat (every // and % has
  // one), and sharing their cold blocks keeps large functions small for LLVM.
  llvm::BasicBlock *&raiseBlock =
      core.raiseBlocks[{exceptionDestination().first, exceptionId, message}];
  if (!raiseBlock) {
    llvm::IRBuilderBase::InsertPointGuard guard(builder);
    raiseBlock = core.newBlock("raise");
    builder.SetInsertPoint(raiseBlock);
    emitRaise(exceptionId, message);
  }
  llvm::BasicBlock *continueBlock = core.newBlock("ok");
  builder.CreateCondBr(condition, raiseBlock, continueBlock,
                       llvm::MDBuilder(context).createBranchWeights(1, 1 << 20));
  builder.SetInsertPoint(continueBlock);
}

} // namespace taipan
