// Lowering of fixed-width strings: conversions between widths, from literals and string values,
// and to string values (NumPy's truncation and NUL padding; its NUL stripping on reading).
#include "lower/LowerCharSequences.h"

#include "lower/ArrayLowering.h"
#include "lower/StringLowering.h"
#include "support/CompileError.h"
#include "types/CharSequences.h"

#include <llvm/IR/Constants.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace taipan {

namespace {

/// The code points of UTF-8 `text` (the syntax tree's strings are valid UTF-8, lone surrogates
/// written as CPython's surrogatepass writes them).
std::vector<uint32_t> codePointsOf(const std::string &text) {
  std::vector<uint32_t> points;
  for (size_t i = 0; i < text.size();) {
    auto byte = static_cast<unsigned char>(text[i]);
    int extra = byte < 0x80 ? 0 : byte < 0xE0 ? 1 : byte < 0xF0 ? 2 : 3;
    uint32_t point = extra == 0   ? byte
                     : extra == 1 ? byte & 0x1Fu
                     : extra == 2 ? byte & 0x0Fu
                                  : byte & 0x07u;
    for (int k = 1; k <= extra && i + k < text.size(); ++k)
      point = (point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
    points.push_back(point);
    i += static_cast<size_t>(extra) + 1;
  }
  return points;
}

/// A constant fixed-width string of type `to` holding `units` (code points or bytes), cut to
/// its length or padded with NULs.
llvm::Constant *constantCharacters(llvm::LLVMContext &context, const Type *to,
                                   std::vector<uint32_t> units) {
  units.resize(static_cast<size_t>(types::charSequenceLength(to)), 0);
  if (types::isUnicodeCharSequence(to))
    return llvm::ConstantDataArray::get(context, units);
  std::vector<uint8_t> bytes(units.begin(), units.end());
  return llvm::ConstantDataArray::get(context, bytes);
}

/// Runs `step(position, carried)` for positions 0 .. count-1 of a loop carrying one i64 or i32
/// value (`initial`), and returns what the last step gives.
llvm::Value *foldPositions(LoweringApi &core, uint64_t count, llvm::Value *initial,
                           const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &step) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *body = core.newBlock("charseq.loop");
  llvm::BasicBlock *done = core.newBlock("charseq.done");
  builder.CreateBr(body);
  builder.SetInsertPoint(body);
  llvm::PHINode *position = builder.CreatePHI(builder.getInt64Ty(), 2, "position");
  llvm::PHINode *carried = builder.CreatePHI(initial->getType(), 2, "carried");
  position->addIncoming(builder.getInt64(0), before);
  carried->addIncoming(initial, before);
  llvm::Value *next = step(position, carried);
  llvm::Value *following = builder.CreateAdd(position, builder.getInt64(1));
  position->addIncoming(following, builder.GetInsertBlock());
  carried->addIncoming(next, builder.GetInsertBlock());
  builder.CreateCondBr(builder.CreateICmpULT(following, builder.getInt64(count)), body, done);
  builder.SetInsertPoint(done);
  return next;
}

/// `value` (a byte string of at most `count` bytes) in memory, padded with NULs to `count`.
llvm::Value *paddedBytes(LoweringApi &core, llvm::Value *value, uint64_t count) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  llvm::Type *padded = llvm::ArrayType::get(builder.getInt8Ty(), count);
  llvm::Value *memory = core.createEntryAlloca(padded, "charseq.padded");
  builder.CreateStore(llvm::Constant::getNullValue(padded), memory);
  builder.CreateStore(value, memory); // its own bytes first
  return memory;
}

} // namespace

llvm::Value *compareByteStrings(LoweringApi &core, llvm::Value *left, const Type *leftType,
                                llvm::Value *right, const Type *rightType) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  uint64_t count = static_cast<uint64_t>(
      std::max(types::charSequenceLength(leftType), types::charSequenceLength(rightType)));
  llvm::Value *leftBytes = paddedBytes(core, left, count);
  llvm::Value *rightBytes = paddedBytes(core, right, count);
  // Zero-padded to one length, the first differing byte orders them as Python orders the
  // unpadded bytes (neither ends in NUL, so a shorter one is a prefix followed by NULs).
  return foldPositions(core, count, builder.getInt32(0), [&](llvm::Value *at, llvm::Value *order) {
    llvm::Value *a = builder.CreateLoad(builder.getInt8Ty(),
                                        builder.CreateGEP(builder.getInt8Ty(), leftBytes, at));
    llvm::Value *b = builder.CreateLoad(builder.getInt8Ty(),
                                        builder.CreateGEP(builder.getInt8Ty(), rightBytes, at));
    llvm::Value *here = builder.CreateSelect(builder.CreateICmpULT(a, b), builder.getInt32(-1),
                                             builder.getInt32(1));
    llvm::Value *undecided = builder.CreateAnd(builder.CreateICmpEQ(order, builder.getInt32(0)),
                                               builder.CreateICmpNE(a, b));
    return builder.CreateSelect(undecided, here, order);
  });
}

llvm::Value *byteStringLength(LoweringApi &core, llvm::Value *value, const Type *type) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  uint64_t count = static_cast<uint64_t>(types::charSequenceLength(type));
  llvm::Value *bytes = paddedBytes(core, value, count);
  // One past the last byte that is not NUL.
  return foldPositions(core, count, builder.getInt64(0), [&](llvm::Value *at, llvm::Value *end) {
    llvm::Value *byte =
        builder.CreateLoad(builder.getInt8Ty(), builder.CreateGEP(builder.getInt8Ty(), bytes, at));
    return builder.CreateSelect(builder.CreateICmpNE(byte, builder.getInt8(0)),
                                builder.CreateAdd(at, builder.getInt64(1)), end);
  });
}

llvm::Value *bytesLiteralValue(LoweringApi &core, const std::string &bytes) {
  std::vector<uint8_t> units(bytes.begin(), bytes.end());
  if (units.empty()) // `b""`: one NUL, as NumPy's dtype('S') of an empty bytes is S1
    units.push_back(0);
  return llvm::ConstantDataArray::get(core.llvmContext(), units);
}

/// The fixed-width string type of the item or record field `expr` reads or writes (a record's
/// field named by an attribute or a literal), or null.
static const Type *charSequenceSlot(LoweringApi &core, const Expr *expr) {
  if (expr->kind != ExprKind::Subscript && expr->kind != ExprKind::Attribute)
    return nullptr;
  const Type *base = core.typeOf(expr->operands[0]);
  if (base->isRecord()) {
    if (!core.arrays().isRecordAccess(expr))
      return nullptr;
    int index = -1;
    if (expr->kind == ExprKind::Attribute)
      index = base->fieldIndex(expr->name);
    else if (expr->operands[1]->kind == ExprKind::Constant &&
             expr->operands[1]->constant.kind == Constant::Kind::String)
      index = base->fieldIndex(expr->operands[1]->constant.text);
    if (index < 0)
      return nullptr;
    const Type *field = base->fieldTypes()[static_cast<size_t>(index)];
    return types::isCharSequence(field) ? field : nullptr;
  }
  if (expr->kind != ExprKind::Subscript || !base->isArray() ||
      !types::isCharSequence(base->dtype()) || core.typeOf(expr)->isArray() ||
      core.typeOf(expr->operands[1])->isArray() ||
      core.arrays().isAdvancedIndex(const_cast<Expr *>(expr)))
    return nullptr;
  return base->dtype();
}

bool storesCharSequence(LoweringApi &core, const Expr *target) {
  return charSequenceSlot(core, target) != nullptr;
}

llvm::Value *lowerCharSequenceItem(LoweringApi &core, Expr *expr, const Type **type) {
  const Type *slot = charSequenceSlot(core, expr);
  if (!slot)
    return nullptr;
  *type = slot;
  if (core.typeOf(expr->operands[0])->isRecord()) // a field: at any offset
    return core.irBuilder().CreateAlignedLoad(memoryType(core.llvmContext(), slot),
                                              core.arrays().recordFieldAddress(expr),
                                              llvm::Align(1));
  llvm::Value *address = nullptr;
  core.arrays().lowerArrayIndex(expr, &address); // an item: no view
  return core.arrays().loadElement(address, slot);
}

llvm::Value *castCharSequence(LoweringApi &core, llvm::Value *value, const Type *from,
                              const Type *to) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  llvm::LLVMContext &context = core.llvmContext();
  if (types::isCharSequence(to) && from->kind() == TypeKind::StringLiteral) {
    std::vector<uint32_t> points = codePointsOf(from->text());
    return constantCharacters(context, to, points);
  }
  if (types::isCharSequence(to) && types::isCharSequence(from) &&
      types::isUnicodeCharSequence(to) == types::isUnicodeCharSequence(from)) {
    // Through memory: the target's NULs, then as many of the source's characters as fit.
    llvm::Value *source = core.createEntryAlloca(memoryType(context, from), "charseq.source");
    llvm::Value *target = core.createEntryAlloca(memoryType(context, to), "charseq.target");
    builder.CreateStore(value, source);
    builder.CreateStore(llvm::Constant::getNullValue(memoryType(context, to)), target);
    int64_t kept = std::min(types::charSequenceLength(from), types::charSequenceLength(to));
    builder.CreateMemCpy(target, llvm::Align(types::charSequenceWidth(to)), source,
                         llvm::Align(types::charSequenceWidth(from)),
                         builder.getInt64(kept * types::charSequenceWidth(to)));
    return builder.CreateLoad(memoryType(context, to), target);
  }
  if (types::isUnicodeCharSequence(to) && from->isUnicode()) {
    llvm::Value *target = core.createEntryAlloca(memoryType(context, to), "charseq.target");
    core.strings().callStringRuntime(
        "taipan_charseq_from_str", builder.getVoidTy(),
        {value, target, builder.getInt64(types::charSequenceLength(to))});
    return builder.CreateLoad(memoryType(context, to), target);
  }
  if (types::isUnicodeCharSequence(from) && to->isUnicode()) {
    llvm::Value *source = core.createEntryAlloca(memoryType(context, from), "charseq.source");
    builder.CreateStore(value, source);
    return core.strings().callStringFunction(
        "taipan_charseq_to_str", {source, builder.getInt64(types::charSequenceLength(from))});
  }
  if (types::isByteCharSequence(to) && from->isUnicode()) // NumPy would encode it as ASCII
    throw CompileError(CompileErrorKind::Unsupported,
                       "a str value converts to " + to->name() +
                           " only as an argument from Python (compiled code stores bytes "
                           "and constant ASCII strings into it)",
                       SourceLocation{});
  throw CompileError(CompileErrorKind::Internal,
                     "no conversion from " + from->name() + " to " + to->name(), SourceLocation{});
}

} // namespace taipan
