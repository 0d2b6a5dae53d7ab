// Statements in type inference: assignments to every kind of target, yield, raise, try, and the
// stores into arrays, records and jitclass instances they check.
#pragma once

#include "typing/TypeInference.h"

#include <optional>
#include <string>
#include <vector>

namespace taipan {

class InferencePass;

/// Type inference of statements, beside the InferencePass core.
class StatementInference {
public:
  explicit StatementInference(InferencePass &pass);

  /// Types one statement of any kind, its nested blocks through the core's typeBlock.
  void typeStatement(Stmt *stmt);
  /// An argument of a raised exception: a constant, a number, None or a string.
  void typeExceptionArgument(Expr *argument);
  /// Assigns `value` to a target: a variable, a tuple unpacked, or a store into an array,
  /// list, dict, record or jitclass instance (checked to fit).
  void assignTarget(Expr *target, const Type *value);

private:
  /// `yield value`: the generator's items are the unification of every value it yields.
  void typeYield(Stmt *stmt);
  /// Every block of a try statement is typed: any statement of the body may raise, so each
  /// handler is reachable. An except clause names exception classes only.
  void typeTry(Stmt *stmt);
  /// `raise value`: an exception class, an instance made by calling one, or a caught one.
  void typeRaised(Expr *value);
  /// `x += y` (any augmented operator) where x or y is of a user type: the binary operator's
  /// overload, recorded under the target name's expression for lowering.
  void typeUserTypeInPlace(Stmt *stmt, Expr *target, const Type *current, const Type *value);
  /// The value of assignment `stmt`; a value of an imprecise type (typing/ImpreciseValues.h)
  /// assigned to a variable is Numba's error naming that variable.
  const Type *typeAssignedValue(Stmt *stmt);
  /// `x += y` of a variable x (the Name target of an augmented assignment).
  void typeNameUpdate(Stmt *stmt);
  /// `x += y` updating x in place (an array, a list, a set) where it reads one version of x
  /// and starts another (syntax/VariableVersions.h): the two take one type.
  void keepOneType(Expr *read, Expr *target);
  /// `p[i] = value` of a jitclass instance: a call of its __setitem__(self, i, value), recorded
  /// under attributeSetterKey as a property's setter is.
  void typeClassItemStore(Expr *target, const Type *instance, const Type *value);
  /// `p.name = value` of a jitclass instance: into a field (converted as classFieldAccepts
  /// allows), or a call of the property's setter, recorded under attributeSetterKey.
  void typeClassAttributeStore(Expr *target, const Type *instance, const Type *value);
  /// `record.name = value` or `record['name'] = value`: a number into a number field, a record
  /// into a nested record of its type (copied). Subarray fields are assigned per element.
  void checkRecordStore(Expr *target, const Type *base, const Type *slot, const Type *value);
  /// `array[index] = value`: a number into an element, or a number or array broadcast into a view.
  void checkArrayStore(Expr *target, const Type *slot, const Type *value);
  /// `array[index] = [x, y]` or `= (x, (y, z))`: a list of numbers or (nested) tuples of
  /// numbers stored into a view by basic indexing, as NumPy converts it to an array first.
  void checkSequenceStore(Expr *target, const Type *slot, const Type *value);

  InferencePass &pass;
  TypedFunction &function;
  FunctionSource &source;
  CalleeTyper &callees;
};

} // namespace taipan
