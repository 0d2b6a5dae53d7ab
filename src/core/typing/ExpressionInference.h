// Expressions in type inference: names, globals, attributes, subscripts, operators, literals
// and comprehensions, each computed here and recorded by the core's typeExpr.
#pragma once

#include "typing/TypeInference.h"

#include <optional>
#include <string>
#include <vector>

namespace taipan {

class InferencePass;

/// Type inference of expressions, beside the InferencePass core.
class ExpressionInference {
public:
  explicit ExpressionInference(InferencePass &pass);

  /// The type of `expr` of any kind, its operands typed first; the core's typeExpr records it.
  const Type *computeType(Expr *expr);

private:
  /// `p[i]`, `p + q`, `p == q` with a jitclass instance `p` on the left (its operands typed):
  /// a call of the class's method (`__getitem__`, `__add__`, `__eq__`), self first.
  const Type *typeClassOperator(Expr *expr, const std::string &method, const std::string &what);
  /// `x in p` / `x not in p` of a jitclass instance: a call of its __contains__(self, x), bound
  /// to the operands in that order (lowering negates it for `not in`).
  const Type *typeClassContains(Expr *expr, const Type *instance, const Type *item);
  /// The type of a global the resolver found: a constant, array, tuple, function or module.
  const Type *globalType(Expr *expr, const GlobalValue &value);
  /// A name: a local variable's type, or a global's.
  const Type *typeName(Expr *expr);
  /// `value.name`: a module's member, a field, a library attribute or an overloaded one.
  const Type *typeAttribute(Expr *expr);
  /// `a.dtype.itemsize`, `.kind`, `.char`, `.name`, `.str`, `.alignment` (constants known
  /// while typing) and `.type` (the scalar class) of a dtype, which compiled code holds as its
  /// scalar class `className`; null for another attribute.
  const Type *typeDtypeAttribute(Expr *expr, const std::string &className);
  /// A comprehension's loop is typed where it stands; its value is its hidden variable's. A
  /// generator expression's consumer must be the builtin it was read as.
  const Type *typeComprehension(Expr *expr);
  /// `value[index]`: an array, list, dict, tuple, string, record or jitclass item.
  const Type *typeSubscript(Expr *expr);
  /// `t * n` and `n * t` of a tuple, `n` known while typing: the tuple's items n times.
  const Type *typeTupleRepetition(Expr *expr, const Type *tuple);

  InferencePass &pass;
  TypedFunction &function;
  FunctionSource &source;
  CalleeTyper &callees;
};

} // namespace taipan
