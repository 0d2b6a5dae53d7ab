// First-class function values (Numba's FunctionType): calls through a function value, and the
// unifications where a jitted function becomes one (compiled to a C entry for the signature).
#pragma once

#include "typing/TypeInference.h"

namespace taipan {

class InferencePass;

/// The result type of calling a first-class function value of type `callee` with `arguments`:
/// positional only, each converting to its parameter safely or better (Numba's rule); a
/// TypingError at the call naming the mismatch otherwise.
const Type *typeFirstClassCall(Expr *call, const Type *callee,
                               const std::vector<const Type *> &arguments);

/// The type a variable or return takes when it is assigned the function values `a` and `b`
/// and at least one of them is a jitted function (or a choice of them): the first-class
/// function type of the other (a FunctionType, or a C function at an address), or of the
/// jitted functions' one explicit signature; else their UndefinedFunction, whose calls decide
/// the signature (typeUndefinedFunctionCall). Each jitted function given a signature is compiled
/// to a C entry for it, recorded in `function.firstClassEntries` for lowering. Null when no
/// such rule applies (the caller then unifies as usual).
const Type *unifyJitFunctionValues(TypedFunction &function, GlobalResolver &resolver, const Type *a,
                                   const Type *b, SourceLocation location);

/// A function value used where a first-class function value of type `target` is expected:
/// stored into a container whose items are such values, or given to a method of one
/// (`fs.append(f)`, `fs[i] = f`, `d[k] = f`). A C function of the signature (a cfunc, a
/// protocol object, a ctypes function) converts as it is; a jitted function is compiled to a C
/// entry for the signature, recorded in `function.firstClassEntries` where lowering's cast
/// (FunctionLowering::firstClassValue) finds it, as Numba's Dispatcher.can_convert_to compiles
/// at once. A tuple converts item by item to a tuple target. Returns `target`; null when `value` is
/// no such function or `target` is not a first-class function type (the caller then refuses the
/// value as before).
const Type *convertFunctionValue(TypedFunction &function, GlobalResolver &resolver,
                                 const Type *value, const Type *target, SourceLocation location);

/// convertFunctionValue for the expression `argument` of type `value`: a variable holding one
/// of several jitted functions (an UndefinedFunction) converts too, its functions compiled for
/// the target's signature and the variable retyped to the target, as a call through it would
/// decide (typeUndefinedFunctionCall).
const Type *convertFunctionArgument(InferencePass &pass, Expr *argument, const Type *value,
                                    const Type *target);

/// A call through a variable holding one of several jitted functions (an UndefinedFunction):
/// each is typed for the argument types, their results unify, and the variable becomes the
/// first-class function type of that signature, as Numba's UndefinedFunctionType does.
const Type *typeUndefinedFunctionCall(InferencePass &pass, Expr *call, const Type *callee,
                                      const std::vector<const Type *> &arguments);

/// A tuple of C functions at addresses (a frozen global tuple of cfuncs, protocol objects or
/// ctypes functions) of one signature and not all the same: UniTuple of its first-class
/// function type, as Numba types it; null otherwise.
const Type *cFunctionTuple(const std::vector<const Type *> &elements);

/// A tuple literal of function values of one signature, as Numba types it: UniTuple of the
/// first-class function type when every item is a function value, not all the same, and one
/// signature serves them all (a FunctionType, a C function at an address, a jitted function of
/// one explicit signature; other jitted functions are compiled for it). Null otherwise.
const Type *unifyFunctionTuple(TypedFunction &function, GlobalResolver &resolver,
                               const std::vector<const Type *> &elements, SourceLocation location);

} // namespace taipan
