// Calls in type inference: library functions and attributes, overloads written in Python,
// intrinsics, foreign functions, named tuple classes and other jitted functions.
#pragma once

#include "typing/TypeInference.h"

#include <optional>
#include <string>
#include <vector>

namespace taipan {

class InferencePass;
class ConstantParametersNeeded;

/// Type inference of calls, beside the InferencePass core.
class CallInference {
public:
  explicit CallInference(InferencePass &pass);

  /// `value.name` implemented in Python (overload_method, overload_attribute): a method is an
  /// Overload the call binds the value to; an attribute is a call of its implementation with
  /// the value. nullptr when there is neither.
  const Type *typeMemberOverload(Expr *expr, const Type *baseType);
  /// A call of a function implemented in Python: its typing functions choose an implementation
  /// for the argument types (`self` first, for a method or attribute), which is then typed as
  /// a call of that jitted function.
  /// With `declined`, a function taipan also implements itself (a builtin, or with `self` a
  /// method of the library) may decline: then it is set and nothing is recorded.
  const Type *typeOverloadCall(Expr *expr, const Type *overload, Expr *self,
                               bool *declined = nullptr);
  /// A read of a library attribute (`a.shape`): a call of its entry with the value, recorded
  /// under the attribute expression.
  const Type *typeLibraryAttribute(Expr *expr, const LibraryFunction *entry);
  /// A library function applied to operands of an expression that is not a call (an attribute
  /// read, the operator `@`), recorded under the expression as a call would be.
  const Type *typeLibraryOperands(Expr *expr, const LibraryFunction *entry,
                                  std::vector<Expr *> operands);
  /// A call of any callee: its arguments typed, then the call typed by what is called.
  const Type *typeCall(Expr *expr);
  /// Whether `expr` is a literal number (int, float, complex or bool).
  static bool isNumberLiteral(const Expr *expr);

private:
  /// A call of a library function: its arguments bound to its parameters (the value a method
  /// is called on first), its constant argument evaluated, then its type rule; the binding and
  /// what the rule decided are kept for lowering.
  const Type *typeLibraryCall(Expr *expr, const LibraryFunction *entry);
  /// A dict view passed to a library function is a list of its items made at the call
  /// (`sorted(d.items())`, `list(d.keys())`, `enumerate(d.values())`; lowering converts it,
  /// FunctionLowering::lowerLibraryCall), except to the functions that read the dict itself
  /// (`len`, `in`, the view's own entries) and those lowering their own arguments. A dict
  /// passed to a function that consumes an iterable whole (list, sorted, sum, any, all) is the
  /// list of its keys, as iterating it gives them.
  static const Type *viewAsList(const Type *type, const LibraryFunction *entry);
  /// A user ufunc's call: its scalar function typed for the loop's input types, and a new
  /// loop's output (a DUFunc's) taken from that function's return type once it is known.
  void typeUfuncElementCallee(LibraryCall &call);
  /// A call of an intrinsic: its typing function gives the signature and the LLVM IR body;
  /// numbers convert to the parameter types as they would through a signature.
  const Type *typeIntrinsicCall(Expr *expr, const Type *intrinsic,
                                const std::vector<const Type *> &arguments);
  /// Whether `callee` is the builtin getattr or hasattr.
  static bool isAttributeQuery(const Type *callee);
  /// getattr(value, 'name'[, default]) and hasattr(value, 'name'): `value.name` typed as if
  /// written so (a synthetic Attribute expression, made once per call). With a default, and for
  /// hasattr, an attribute the value's type lacks is no error: the call is then the default, or
  /// False. Decided per specialisation, as Numba does, and recorded as a library call whose one
  /// argument is the expression chosen (library/Introspection.cpp); hasattr's answer is also a
  /// static condition. The value must be a variable or its attributes: the call may not
  /// evaluate it, so one with effects of its own (a call) is refused.
  const Type *typeAttributeQuery(Expr *expr, const std::string &builtin,
                                 const std::vector<const Type *> &arguments);
  /// `p._replace(x=1)`: a new instance of p's class, the named items replaced and the others
  /// p's (read as `p[i]`, so p must be a variable: it is read once per item).
  const Type *typeNamedTupleReplace(Expr *expr, const std::vector<const Type *> &arguments);
  /// `Point(1, y=2)`, `type(p)(*t)`: a named tuple class called; its arguments bound to the
  /// fields (typing/NamedTupleTyping.h) make the call of "namedtuple.new" (library/Tuples.cpp).
  const Type *typeNamedTupleCall(Expr *expr, const Type *namedClass,
                                 const std::vector<const Type *> &arguments);
  /// The items of `*t` in a call, t a tuple variable: `t[0]`, `t[1]`, ... (typed).
  std::vector<Expr *> spreadStarred(Expr *tuple);
  /// value.method(...): an attribute of a run-time value, not of a module or namespace.
  bool isMethodCall(Expr *callee);
  /// A call of a foreign function: arguments convert to the declared parameter types as for a
  /// signature, and an array passes its data to a pointer parameter of its dtype (or void*).
  const Type *typeExternalCall(Expr *expr, const Type *callee,
                               const std::vector<const Type *> &arguments);
  /// Binds the call's arguments (after `self`, when a method's value comes first) to the
  /// callee's parameters and types the callee for them.
  const Type *typeJitCall(Expr *expr, FunctionSource *callee, Expr *self = nullptr);
  /// The values of the arguments of `binding` a callee needs as constants (`needed`): each a
  /// constant integer or tuple of them here; rethrows `needed` otherwise (or asks this
  /// function's caller for its own parameters, in turn).
  ConstantParameters constantParametersOf(const CallBinding &binding,
                                          const ConstantParametersNeeded &needed);
  /// The argument a call from compiled code passes for the callee's omitted parameter
  /// `index`, whose default is not a constant: a name standing for the default's value, which
  /// the callee's resolver freezes (as a global), made once per call.
  Expr *frozenDefault(Expr *call, const FunctionSource &callee, size_t index);

  InferencePass &pass;
  TypedFunction &function;
  FunctionSource &source;
  CalleeTyper &callees;
};

} // namespace taipan
