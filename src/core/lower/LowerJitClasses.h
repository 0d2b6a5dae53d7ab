// Lowering of jitclass instances: a value is one pointer to a block whose data holds the
// fields, laid out as the tuple of their types (runtime/JitClasses.h).
#pragma once

#include "lower/LoweringApi.h"
#include "types/ClassInstanceTypes.h"

namespace taipan {

/// A new instance of `instanceType` with zeroed fields, owned by the current statement.
llvm::Value *newClassInstance(LoweringApi &lowering, const Type *instanceType);
/// Whether `expr` reads a field of a jitclass instance (`p.x`).
bool isClassFieldAccess(const LoweringApi &lowering, const Expr *expr);
/// `p.x`: the field's value (borrowed from the instance).
llvm::Value *lowerClassFieldLoad(LoweringApi &lowering, Expr *expr);
/// `p.x = value`: converted to the field's type; the instance owns a reference to it and the
/// field's old value is released. An array borrowed from Python gets a block keeping it alive.
void storeClassField(LoweringApi &lowering, Expr *target, llvm::Value *value,
                     const Type *valueType);

} // namespace taipan
