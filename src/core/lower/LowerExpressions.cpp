// Expressions: constants, names, tuples, subscripts, attributes, `and`/`or` and `if`-`else`, the
// truth of values and conversions between types (operators: LowerArithmetic, LowerComparisons).
#include "lower/FunctionLowering.h"
#include "lower/LowerCharSequences.h"
#include "lower/LowerJitClasses.h"
#include "types/CharSequences.h"
#include "types/UserTypes.h"
#include "typing/ConstantArguments.h"
#include "typing/JitClassTyping.h"

#include "lower/LowerDatetime.h"
#include "lower/StringLowering.h"
#include "registry/Library.h"
#include "runtime/PythonDialect.h"
#include "runtime/Runtime.h"
#include "support/CompileError.h"
#include "syntax/VariableVersions.h"
#include "types/NumericPromotion.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>

#include <algorithm>
#include <limits>

namespace taipan {

/// A captured device array (GlobalValue::onDevice) holds a GPU address: only code that runs
/// where device memory is addressed may use it, and such code belongs to this process alone.
static void admitDeviceArray(const GlobalValue &value, const Expr *expr, ModuleLowering &module) {
  if (!value.onDevice)
    return;
  if (!module.target.addressesDeviceMemory())
    throwUnsupported("'" + expr->name +
                         "' is a device array, which only CUDA kernels and device functions can "
                         "use; copy it to the host (copy_to_host()) for other code",
                     expr->location);
  if (module.processSpecific.empty())
    module.processSpecific =
        "it uses global device arrays, whose memory exists in this process only";
}

llvm::Value *FunctionLowering::lowerExprAs(Expr *expr, const Type *type) {
  return castValue(lowerExpr(expr), typeOf(expr), type);
}

llvm::Value *FunctionLowering::lowerConstant(const Constant &constant, const Type *type) {
  llvm::Type *llvmType = valueType(context, type);
  switch (constant.kind) {
  case Constant::Kind::Int:
  case Constant::Kind::UInt:
    return llvm::ConstantInt::get(llvmType, static_cast<uint64_t>(constant.intValue));
  case Constant::Kind::Bool:
    return builder.getInt1(constant.intValue != 0);
  case Constant::Kind::Float:
    return llvm::ConstantFP::get(llvmType, constant.floatValue);
  case Constant::Kind::Complex: {
    llvm::Type *part = llvmType->getStructElementType(0);
    return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(llvmType),
                                     {llvm::ConstantFP::get(part, constant.floatValue),
                                      llvm::ConstantFP::get(part, constant.imagValue)});
  }
  case Constant::Kind::Bytes: // typed [char x n] (types/CharSequences.h)
    return bytesLiteralValue(*this, constant.text);
  default:
    return llvm::UndefValue::get(llvmType);
  }
}

llvm::Value *FunctionLowering::lowerExpr(Expr *expr) {
  // A value of a user type that typing converted to a number (InferencePass::convertToNumber):
  // computed as the user type, then cast by its lower_cast.
  auto conversion = function.convertedExpressions.find(expr->id);
  if (conversion != function.convertedExpressions.end() &&
      function.expressionTypes[expr->id] != conversion->second.first) {
    auto [from, to] = conversion->second;
    function.expressionTypes[expr->id] = from;
    llvm::Value *value = lowerExpr(expr);
    function.expressionTypes[expr->id] = to;
    return castValue(value, from, to);
  }
  const Type *type = typeOf(expr);
  if (arrays().isElementwise(expr))
    return arrays().lowerElementwise(expr);
  if ((expr->kind == ExprKind::BinOp || expr->kind == ExprKind::Compare ||
       expr->kind == ExprKind::Subscript || expr->kind == ExprKind::UnaryOp) &&
      (isClassInstance(typeOf(expr->operands[0])) || isUserType(typeOf(expr->operands[0])) ||
       (expr->kind == ExprKind::Compare && isClassInstance(typeOf(expr->operands.back()))) ||
       (expr->kind != ExprKind::Subscript && isUserType(typeOf(expr->operands.back()))))) {
    auto method = function.calls.find(expr->id); // p + q, p == q, p[i], -p, x in p: a method
    if (method != function.calls.end()) {
      llvm::Value *result = lowerJitCall(expr, method->second);
      if (expr->kind == ExprKind::Compare && expr->compareOps[0] == CompareOp::NotIn)
        return builder.CreateNot(truthValue(result, method->second.callee->returnType));
      if (expr->kind == ExprKind::Compare && expr->compareOps[0] == CompareOp::In)
        return truthValue(result, method->second.callee->returnType);
      return result;
    }
  }
  switch (expr->kind) {
  case ExprKind::Constant:
    return lowerConstant(expr->constant, type);
  case ExprKind::Name: {
    auto global = function.globals.find(expr->id);
    if (global != function.globals.end()) {
      const GlobalValue &value = global->second;
      if (value.kind == GlobalValue::Kind::Constant)
        return lowerConstant(value.constant, type);
      if (value.kind == GlobalValue::Kind::Builtin)
        if (const LibraryValue *libraryValue = Library::get().findValue(value.name))
          return lowerLibraryValue(*libraryValue, expr->location); // cuda.laneid
      admitDeviceArray(value, expr, moduleLowering);
      return lowerFrozenValue(value, type);
    }
    if (!expr->boundFlag.empty()) { // some path reaches this read without assigning the name
      auto flag = function.variableTypes.find(expr->boundFlag);
      if (flag == function.variableTypes.end() || !flag->second)
        throw CompileError(CompileErrorKind::Internal,
                           "the flag of '" + pythonVariableName(expr->name) + "' is untyped",
                           expr->location);
      llvm::Value *bound =
          truthValue(fromMemoryForm(builder,
                                    builder.CreateLoad(memoryType(context, flag->second),
                                                       variable(expr->boundFlag), expr->boundFlag),
                                    flag->second),
                     flag->second);
      // Read from a nested scope (CPython 3.12 inlines comprehensions), the variable is free.
      bool free = expr->readScope == ReadScope::Nested ||
                  (expr->readScope == ReadScope::Comprehension && python::minorVersion() < 12);
      std::string name = pythonVariableName(expr->name);
      exceptions().raiseIf(builder.CreateNot(bound), free ? NameErrorId : UnboundLocalErrorId,
                           free ? python::unboundFreeVariableMessage(name)
                                : python::unboundLocalMessage(name));
    }
    // An optional variable read as its value (typing decided) is checked for None here.
    auto declared = function.variableTypes.find(expr->name);
    const Type *stored =
        declared != function.variableTypes.end() && declared->second ? declared->second : type;
    llvm::Value *loaded =
        builder.CreateLoad(memoryType(context, stored), variable(expr->name), expr->name);
    llvm::Value *value = fromMemoryForm(builder, loaded, stored);
    return stored == type ? value : castValue(value, stored, type);
  }
  case ExprKind::Attribute: {
    // An attribute implemented in Python (overload_attribute) is a call of its implementation.
    auto call = function.calls.find(expr->id);
    return call != function.calls.end() ? lowerJitCall(expr, call->second) : lowerAttribute(expr);
  }
  case ExprKind::BinOp: {
    auto dot = function.libraryCalls.find(expr->id); // `a @ b` of arrays: numpy.dot's entry
    if (dot != function.libraryCalls.end())
      return lowerLibraryCall(dot->second);
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    llvm::Value *leftValue = lowerExpr(left);
    llvm::Value *rightValue = lowerExpr(right);
    return operators().lowerBinary(expr->binaryOp, leftValue, typeOf(left), rightValue,
                                   typeOf(right), type);
  }
  case ExprKind::UnaryOp:
    return operators().lowerUnary(expr);
  case ExprKind::BoolOp:
    return lowerBoolOp(expr);
  case ExprKind::Compare:
    return operators().lowerCompareChain(expr);
  case ExprKind::IfExp:
    return lowerIfExp(expr);
  case ExprKind::List: // a LiteralList ([1, 'a']) is the tuple of its items
    if (!type->isLiteralList())
      return containers().lowerListLiteral(expr);
    [[fallthrough]];
  case ExprKind::Tuple: {
    // Every element is computed before the tuple takes any reference: an element that raises
    // then leaves the earlier ones as temporaries or variables, which the unwind releases.
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < expr->operands.size(); ++i) {
      // A string literal in a tuple is a string value (typing made the element unicode_type).
      Expr *operand = expr->operands[i];
      elements.push_back(castValue(lowerExpr(operand), typeOf(operand), type->elements()[i]));
    }
    for (size_t i = 0; i < elements.size(); ++i)
      elements[i] = takeOwnership(elements[i], type->elements()[i]);
    llvm::Value *tuple = lowerTuple(elements, type);
    addTemporary(tuple, type); // it owns the references of its array elements
    return tuple;
  }
  case ExprKind::Subscript:
    return lowerSubscript(expr);
  case ExprKind::Call:
    return lowerCall(expr);
  case ExprKind::Comprehension:
    return containers().lowerComprehension(expr);
  case ExprKind::Dict: // {k: v, ...}: the "dict.{}" entry (library/Dicts.cpp)
  case ExprKind::Set:  // {a, b, ...}: the "set.{}" entry (library/Sets.cpp)
    return lowerLibraryCall(function.libraryCalls.at(expr->id));
  case ExprKind::Slice: { // p[a:b] of a user type or jitclass: slice(a, b, None) (typeSubscript)
    auto slice = function.libraryCalls.find(expr->id);
    if (slice == function.libraryCalls.end())
      throwUnsupported("this expression is not supported", expr->location);
    return lowerLibraryCall(slice->second);
  }
  default:
    throwUnsupported("this expression is not supported", expr->location);
  }
}

llvm::Value *FunctionLowering::lowerTuple(const std::vector<llvm::Value *> &elements,
                                          const Type *type) {
  llvm::Value *tuple = llvm::UndefValue::get(memoryType(context, type));
  for (size_t i = 0; i < elements.size(); ++i)
    tuple = builder.CreateInsertValue(
        tuple, toMemoryForm(builder, elements[i], type->elements()[i]), static_cast<unsigned>(i));
  return tuple;
}

llvm::Value *FunctionLowering::tupleElement(llvm::Value *tuple, const Type *tupleType,
                                            unsigned index) {
  return fromMemoryForm(builder, builder.CreateExtractValue(tuple, index),
                        tupleType->elements()[index]);
}

/// A float16 converted to an integer in a kernel, as numba-cuda converts it: rounded to the
/// nearest integer (`cvt.rni.s32.f16`), where NumPy and the CPU truncate.
static llvm::Value *halfToIntegerNearest(llvm::IRBuilder<> &builder, llvm::Value *value,
                                         const Type *to) {
  unsigned bits = static_cast<unsigned>(to->bits());
  const char *constraint = bits == 64 ? "=l,h" : bits == 32 ? "=r,h" : bits == 16 ? "=h,h" : "=c,h";
  std::string text = std::string("cvt.rni.") + (to->isSigned() ? "s" : "u") + std::to_string(bits) +
                     ".f16 $0, $1;";
  auto *type = llvm::FunctionType::get(builder.getIntNTy(bits), {builder.getInt16Ty()}, false);
  return builder.CreateCall(llvm::InlineAsm::get(type, text, constraint, false),
                            {builder.CreateBitCast(value, builder.getInt16Ty())});
}

llvm::Value *FunctionLowering::castValue(llvm::Value *value, const Type *from, const Type *to) {
  if (from != to && (from->isOptional() || to->isOptional()))
    return castOptional(value, from, to);
  if (from == to)
    return value;
  if (types::isCharSequence(from) || types::isCharSequence(to)) // NumPy's `<U n`, `S n`
    return castCharSequence(*this, value, from, to);
  if (isUserType(from) && !isUserType(to)) {
    // Numba's lower_cast, registered by typing (InferencePass::userCast): to `to` itself, or
    // to the type's own number, then on from there.
    auto cast = function.userCasts.find({from, to});
    if (cast == function.userCasts.end())
      cast = std::find_if(function.userCasts.begin(), function.userCasts.end(),
                          [from](const auto &entry) { return entry.first.first == from; });
    if (cast == function.userCasts.end())
      throw CompileError(CompileErrorKind::Internal,
                         "no lower_cast from " + from->name() + " to " + to->name() +
                             " was chosen while typing",
                         SourceLocation{});
    llvm::Value *converted = emitIntrinsic(cast->second, {value}, SourceLocation{});
    return castValue(converted, cast->first.second, to);
  }
  if (to->isBoolean())
    return truthValue(value, from);
  if (to->isUnicode() && from->kind() == TypeKind::StringLiteral)
    return strings().lowerStringLiteral(from->text());
  if (to->kind() == TypeKind::FirstClassFunction)
    return firstClassValue(value, from, to);
  llvm::Type *target = valueType(context, to);
  // An address held as a number: Numba's inttoptr (a narrower integer is zero-extended).
  if (to->isPointer() && !to->pointee() && from->isInteger())
    return builder.CreateIntToPtr(value, target);
  if (to->isInteger()) {
    if (from->isBoolean())
      return builder.CreateZExt(value, target);
    if (from->isInteger())
      return builder.CreateIntCast(value, target, from->isSigned());
    if (from->isFloat() && from->bits() == 16 && moduleLowering.target.hasThreadHierarchy())
      return halfToIntegerNearest(builder, value, to);
    if (from->isFloat())
      return to->isSigned() ? builder.CreateFPToSI(value, target)
                            : builder.CreateFPToUI(value, target);
  }
  if (to->isFloat()) {
    if (from->isBoolean())
      return builder.CreateUIToFP(value, target);
    if (from->isInteger())
      return from->isSigned() ? builder.CreateSIToFP(value, target)
                              : builder.CreateUIToFP(value, target);
    if (from->isFloat())
      return builder.CreateFPCast(value, target);
  }
  if (to->isComplex()) {
    const Type *part = types::floating(to->bits() / 2);
    if (from->isComplex()) {
      llvm::Value *imag;
      llvm::Value *real = operators().complexParts(value, imag);
      const Type *fromPart = types::floating(from->bits() / 2);
      return operators().makeComplex(castValue(real, fromPart, part),
                                     castValue(imag, fromPart, part), to);
    }
    if (from->isNumber())
      return operators().makeComplex(castValue(value, from, part),
                                     llvm::ConstantFP::get(valueType(context, part), 0.0), to);
  }
  if (to->isDatetimeLike() && from->kind() == to->kind())
    return convertDatetimeUnit(*this, value, from, to);
  // NumPy's unsafe cast of a complex number to a real one keeps the real part (a.astype(float),
  // sum(dtype=float) of complex items).
  if (from->isComplex() && (to->isFloat() || to->isInteger())) {
    llvm::Value *imag;
    llvm::Value *real = operators().complexParts(value, imag);
    return castValue(real, types::floating(from->bits() / 2), to);
  }
  // NumPy's casts between datetimes and numbers (a.astype(np.int64), a.astype('m8[s]')): the
  // count of units as an int64, NaT being its minimum.
  if (from->isDatetimeLike() && to->isNumber())
    return castValue(value, types::int64(), to);
  if (to->isDatetimeLike() && from->isFloat()) // NaN is NaT
    return builder.CreateSelect(builder.CreateFCmpUNO(value, value),
                                builder.getInt64(std::numeric_limits<int64_t>::min()),
                                castValue(value, from, types::int64()));
  if (to->isDatetimeLike() && (from->isInteger() || from->isBoolean()))
    return castValue(value, from, types::int64());
  if (to->isList() && from->isList())
    return containers().convertList(value, from, to);
  if (to->isDict() && from->isDict())
    return containers().convertDict(value, from, to);
  if (to->isSet() && from->isSet())
    return containers().convertSet(value, from, to);
  if (to->isTuple() && from->isTuple()) {
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < to->elements().size(); ++i)
      elements.push_back(castValue(tupleElement(value, from, static_cast<unsigned>(i)),
                                   from->elements()[i], to->elements()[i]));
    return lowerTuple(elements, to);
  }
  if (from->kind() == TypeKind::Slice && to->kind() == TypeKind::Slice)
    return value; // slice2_type to slice3_type: the same four fields
  // A record where one of its leading fields is expected (record subtyping, conversionKind):
  // the same address.
  if (from->isRecord() && to->isRecord() && conversionKind(from, to) == Conversion::Safe)
    return value;
  // A C or F array where an A array is expected (a variable assigned both): the same value,
  // whose layout is no longer promised.
  if (from->isArray() && to->isArray() && from->dtype() == to->dtype() &&
      from->ndim() == to->ndim() && (to->layout() == 'A' || to->layout() == from->layout()) &&
      (to->isReadonly() || !from->isReadonly()))
    return value;
  if (!from->isRuntimeValue() || !to->isRuntimeValue() || to->isNone())
    return llvm::UndefValue::get(target);
  throw CompileError(CompileErrorKind::Internal,
                     "cannot convert " + from->name() + " to " + to->name(), {});
}

llvm::Value *FunctionLowering::truthValue(llvm::Value *value, const Type *type) {
  switch (type->kind()) {
  case TypeKind::Boolean:
    return value;
  case TypeKind::Integer:
    return builder.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
  case TypeKind::Float:
    return builder.CreateFCmpUNE(value, llvm::ConstantFP::get(value->getType(), 0.0));
  case TypeKind::Complex: {
    llvm::Value *imag;
    llvm::Value *real = operators().complexParts(value, imag);
    llvm::Value *zero = llvm::ConstantFP::get(real->getType(), 0.0);
    return builder.CreateOr(builder.CreateFCmpUNE(real, zero), builder.CreateFCmpUNE(imag, zero));
  }
  case TypeKind::Tuple:
    return builder.getInt1(!type->elements().empty());
  case TypeKind::StringLiteral:
    return builder.getInt1(!type->text().empty());
  case TypeKind::Unicode:
    return builder.CreateICmpNE(strings().stringLength(value), builder.getInt64(0));
  case TypeKind::List:
    return builder.CreateICmpNE(containers().listLength(value), builder.getInt64(0));
  case TypeKind::Dict:
  case TypeKind::DictView: // the dict's block
    return builder.CreateICmpNE(containers().dictLength(value), builder.getInt64(0));
  case TypeKind::Set:
    return builder.CreateICmpNE(containers().setLength(value), builder.getInt64(0));
  case TypeKind::Datetime: // the count: NaT is true, as in NumPy
  case TypeKind::Timedelta:
    return builder.CreateICmpNE(value, builder.getInt64(0));
  case TypeKind::Range: {
    llvm::Value *start = builder.CreateExtractValue(value, 0);
    llvm::Value *stop = builder.CreateExtractValue(value, 1);
    llvm::Value *step = builder.CreateExtractValue(value, 2);
    return builder.CreateSelect(builder.CreateICmpSGT(step, builder.getInt64(0)),
                                builder.CreateICmpSLT(start, stop),
                                builder.CreateICmpSGT(start, stop));
  }
  default:
    return builder.getInt1(false);
  }
}

llvm::Value *FunctionLowering::lowerBoolOp(Expr *expr) {
  // `a and b` is a if a is false, else b; `or` the other way round. The value, not a bool.
  const Type *resultType = typeOf(expr);
  llvm::BasicBlock *end = newBlock("boolop.end");
  std::vector<std::pair<llvm::Value *, llvm::BasicBlock *>> incoming;
  for (size_t i = 0; i < expr->operands.size(); ++i) {
    Expr *operand = expr->operands[i];
    llvm::Value *value = lowerExpr(operand);
    llvm::Value *converted = castValue(value, typeOf(operand), resultType);
    // The last operand, or one whose truth types decided to end the evaluation (the operands
    // after it were not typed).
    if (i + 1 == expr->operands.size() || function.staticConditions.count(operand->id)) {
      incoming.push_back({converted, builder.GetInsertBlock()});
      builder.CreateBr(end);
      break;
    }
    llvm::Value *truth = truthValue(value, typeOf(operand));
    llvm::BasicBlock *next = newBlock("boolop.next");
    incoming.push_back({converted, builder.GetInsertBlock()});
    if (expr->isAnd)
      builder.CreateCondBr(truth, next, end);
    else
      builder.CreateCondBr(truth, end, next);
    builder.SetInsertPoint(next);
  }
  builder.SetInsertPoint(end);
  llvm::PHINode *phi = builder.CreatePHI(valueType(context, resultType), incoming.size());
  for (auto &[value, block] : incoming)
    phi->addIncoming(value, block);
  return phi;
}

llvm::Value *FunctionLowering::lowerIfExp(Expr *expr) {
  const Type *resultType = typeOf(expr);
  auto decided = function.staticConditions.find(expr->operands[0]->id);
  if (decided != function.staticConditions.end()) // the other branch was never typed
    return lowerExprAs(expr->operands[decided->second ? 1 : 2], resultType);
  llvm::Value *test = lowerExpr(expr->operands[0]);
  const Type *testType = typeOf(expr->operands[0]);
  auto truth = function.calls.find(attributeSetterKey(expr->operands[0])); // `x if p else y`
  if (truth != function.calls.end()) {
    test = callTypedFunction(*truth->second.callee, {test});
    testType = truth->second.callee->returnType;
  }
  llvm::Value *condition = truthValue(test, testType);
  llvm::BasicBlock *thenBlock = newBlock("ifexp.then");
  llvm::BasicBlock *elseBlock = newBlock("ifexp.else");
  llvm::BasicBlock *end = newBlock("ifexp.end");
  builder.CreateCondBr(condition, thenBlock, elseBlock);
  builder.SetInsertPoint(thenBlock);
  llvm::Value *thenValue = lowerExprAs(expr->operands[1], resultType);
  llvm::BasicBlock *thenEnd = builder.GetInsertBlock();
  builder.CreateBr(end);
  builder.SetInsertPoint(elseBlock);
  llvm::Value *elseValue = lowerExprAs(expr->operands[2], resultType);
  llvm::BasicBlock *elseEnd = builder.GetInsertBlock();
  builder.CreateBr(end);
  builder.SetInsertPoint(end);
  llvm::PHINode *phi = builder.CreatePHI(valueType(context, resultType), 2);
  phi->addIncoming(thenValue, thenEnd);
  phi->addIncoming(elseValue, elseEnd);
  return phi;
}

llvm::Value *FunctionLowering::pointerElementAddress(Expr *subscript) {
  const Type *pointee = typeOf(subscript->operands[0])->pointee();
  llvm::Value *pointer = lowerExpr(subscript->operands[0]);
  llvm::Value *index = lowerExprAs(subscript->operands[1], types::int64());
  return builder.CreateGEP(memoryType(context, pointee), pointer, index);
}

llvm::Value *FunctionLowering::lowerSubscript(Expr *expr) {
  auto list = function.libraryCalls.find(expr->id); // l[i], l[a:b] (library/Lists.cpp)
  if (list != function.libraryCalls.end())
    return lowerLibraryCall(list->second);
  Expr *base = expr->operands[0];
  Expr *index = expr->operands[1];
  if (arrays().isRecordAccess(expr))
    return arrays().lowerRecordAccess(expr);
  if (typeOf(base)->isArray())
    return arrays().lowerArraySubscript(expr);
  if (typeOf(base)->isString())
    return strings().lowerStringSubscript(expr);
  if (typeOf(base)->isPointer())
    return arrays().loadElement(pointerElementAddress(expr), typeOf(expr));
  const Type *tupleType = typeOf(base);
  llvm::Value *tuple = lowerExpr(base);
  int64_t count = static_cast<int64_t>(tupleType->elements().size());
  std::vector<int64_t> positions;
  if (constantTupleSlice(index, count, function.globals, positions)) {
    std::vector<llvm::Value *> elements;
    for (int64_t position : positions)
      elements.push_back(tupleElement(tuple, tupleType, static_cast<unsigned>(position)));
    return lowerTuple(elements, typeOf(expr));
  }
  if (std::optional<int64_t> constant = constantTupleIndex(index, function.globals)) {
    int64_t position = *constant;
    return tupleElement(tuple, tupleType,
                        static_cast<unsigned>(position < 0 ? position + count : position));
  }
  // A uniform tuple indexed at run time: through a stack copy, with Python's negative indices.
  llvm::Value *position = lowerExprAs(index, types::int64());
  position = builder.CreateSelect(builder.CreateICmpSLT(position, builder.getInt64(0)),
                                  builder.CreateAdd(position, builder.getInt64(count)), position);
  exceptions().raiseIf(builder.CreateICmpUGE(position, builder.getInt64(count)), IndexErrorId,
                       "tuple index out of range");
  const Type *elementType = tupleType->elements().front();
  llvm::AllocaInst *slot = createEntryAlloca(memoryType(context, tupleType), "tuple.copy");
  builder.CreateStore(tuple, slot);
  llvm::Value *address =
      builder.CreateInBoundsGEP(memoryType(context, elementType), slot, position);
  return fromMemoryForm(builder, builder.CreateLoad(memoryType(context, elementType), address),
                        elementType);
}

llvm::Value *FunctionLowering::lowerFrozenValue(const GlobalValue &value, const Type *type) {
  switch (value.kind) {
  case GlobalValue::Kind::Constant:
    if (value.constant.kind == Constant::Kind::String && type->isUnicode())
      return strings().lowerStringLiteral(value.constant.text); // an item of a tuple
    return lowerConstant(value.constant, type);
  case GlobalValue::Kind::ConstantArray:
    if (isUserType(value.arrayType) || value.arrayType->kind() == TypeKind::Slice) {
      // A global of a user-defined type (an enum member) or a slice, frozen as its unboxed
      // bytes (bindings/GlobalResolution): read back in its memory form, as boxing wrote it.
      llvm::Constant *bytes =
          llvm::ConstantDataArray::getRaw(value.bytes, value.bytes.size(), builder.getInt8Ty());
      auto *global = new llvm::GlobalVariable(moduleLowering.module, bytes->getType(), true,
                                              llvm::GlobalValue::PrivateLinkage, bytes,
                                              "taipan_constant_value");
      global->setAlignment(llvm::Align(16));
      llvm::Value *stored =
          builder.CreateAlignedLoad(memoryType(context, type), global, llvm::Align(16));
      return fromMemoryForm(builder, stored, type);
    }
    return arrays().lowerConstantArray(value);
  case GlobalValue::Kind::ConstantTuple: {
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < value.items.size(); ++i) {
      GlobalValue item;
      item.kind = GlobalValue::Kind::Constant;
      item.constant = value.items[i];
      elements.push_back(lowerFrozenValue(item, type->elements()[i]));
    }
    return lowerTuple(elements, type);
  }
  case GlobalValue::Kind::FrozenTuple: {
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < value.elements.size(); ++i)
      elements.push_back(lowerFrozenValue(value.elements[i], type->elements()[i]));
    return lowerTuple(elements, type);
  }
  case GlobalValue::Kind::ExternalFunction: // an item of a tuple of function values
    if (type->kind() == TypeKind::FirstClassFunction)
      return firstClassValue(nullptr, value.functionType, type);
    return llvm::UndefValue::get(valueType(context, type));
  default: // functions, modules, classes: values that hold nothing at run time
    return llvm::UndefValue::get(valueType(context, type));
  }
}

llvm::Value *FunctionLowering::lowerAttribute(Expr *expr) {
  const Type *type = typeOf(expr);
  if (function.globals.count(expr->id)) {
    const GlobalValue &value = function.globals.at(expr->id);
    if (value.kind == GlobalValue::Kind::Constant)
      return lowerConstant(value.constant, type);
    if (value.kind == GlobalValue::Kind::Builtin)
      if (const LibraryValue *libraryValue = Library::get().findValue(value.name))
        return lowerLibraryValue(*libraryValue, expr->location);
    admitDeviceArray(value, expr, moduleLowering);
    return lowerFrozenValue(value, type);
  }
  Expr *base = expr->operands[0];
  const Type *baseType = typeOf(base);
  if (baseType->kind() == TypeKind::Builtin) { // cuda.threadIdx.x and friends
    std::string name = baseType->text() + "." + expr->name;
    const LibraryValue *libraryValue = Library::get().findValue(name);
    if (!libraryValue && type->kind() == TypeKind::Builtin)   // cuda.atomic.add as an argument
      return llvm::UndefValue::get(valueType(context, type)); // it holds nothing at run time
    if (!libraryValue)
      throwUnsupported(name + " is not supported", expr->location);
    return lowerLibraryValue(*libraryValue, expr->location);
  }
  if (isClassFieldAccess(*this, expr)) // p.x of a jitclass instance
    return lowerClassFieldLoad(*this, expr);
  if (arrays().isRecordAccess(expr))
    return arrays().lowerRecordAccess(expr);
  if (baseType->isNamedTuple() && baseType->fieldIndex(expr->name) >= 0) // p.x: an item
    return tupleElement(lowerExpr(base), baseType,
                        static_cast<unsigned>(baseType->fieldIndex(expr->name)));
  if (!type->isRuntimeValue() || type->kind() == TypeKind::Builtin)
    return llvm::UndefValue::get(valueType(context, type)); // a bound method, or a.dtype
  // An attribute the library implements (a.shape...): a call of its entry with the value.
  auto library = function.libraryCalls.find(expr->id);
  if (library != function.libraryCalls.end())
    return lowerLibraryCall(library->second);
  llvm::Value *value = lowerExpr(base);
  if (baseType->isComplex()) {
    llvm::Value *imag;
    llvm::Value *real = operators().complexParts(value, imag);
    return expr->name == "real" ? real : imag;
  }
  if (expr->name == "real")
    return castValue(value, baseType, type);
  return llvm::Constant::getNullValue(valueType(context, type));
}

} // namespace taipan
