// UfuncCalls: what every ufunc entry shares (NumPy's and a user's @vectorize): the type rule of
// a call (inputs, output arguments, casting), its lowering outside fusion, and makeUfunc.
#pragma once

#include "registry/Library.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace taipan {

/// NumPy's "same_kind" casting between numbers: bool, unsigned, signed, float and complex in
/// that order, each casting to its own kind and the kinds after it (uint8 to int8 too).
bool castsSameKind(const Type *from, const Type *to);

/// The loop a ufunc runs for its inputs' element types, or none (UfuncKernel::selectLoop).
using LoopSelection = std::function<std::optional<UfuncLoop>(const std::vector<const Type *> &)>;

/// NumPy's datetime64/timedelta64 loops of ufunc `name` ("numpy.maximum"), when it has some,
/// added to `kernel` (UfuncsDatetime.cpp): datetime-like inputs select them, numbers keep the
/// kernel's own loops. makeUfunc calls it for every ufunc.
void addDatetimeLoops(const std::string &name, UfuncKernel &kernel);
/// castsSameKind extended to datetime-like types as NumPy's can_cast(..., "same_kind"): a
/// datetime to a datetime, a timedelta to a timedelta (not between years or months and week-
/// or day-based units), an integer or boolean to a timedelta.
bool castsSameKindWithDatetimes(const Type *from, const Type *to);

/// Registers ufunc numpy.<name> of `inputs` inputs and one output.
void addUfunc(Library &library, const std::string &name, unsigned inputs, LoopSelection select,
              LibraryLowerRule lowerElement, std::vector<LibraryParameter> parameters = {});

/// An entry registered before the ufuncs (a math or cmath function a kernel lowers through).
const LibraryFunction *ufuncHelperEntry(const Library &library, const std::string &name);

/// A math or cmath entry's lowering on element values of `types`, computing in `result`.
llvm::Value *lowerThrough(const LibraryFunction *function, LoweringApi &lowering,
                          const std::vector<llvm::Value *> &values,
                          const std::vector<const Type *> &types, const Type *result);

// Loop selection. NumPy casts each input to its loop's type, as taipan's loops do.

/// NumPy's float loop for an input type: floats and complex numbers keep their type; booleans
/// and integers of up to 16 bits compute in float32 (NumPy uses float16 for 8-bit integers,
/// which taipan does not have), wider integers in float64.
const Type *floatLoopType(const Type *type);
/// Booleans compute in int8 where NumPy has no bool loop (negative, sign, floor_divide...).
const Type *withoutBool(const Type *type);
/// Every input and the output in one type.
UfuncLoop uniformLoop(const Type *type, size_t inputs);
/// A loop whose inputs and output share the type `rule` makes of the promoted input types
/// (NumPy's promote_types), or none for complex inputs unless `takesComplex` or when `rule`
/// gives nullptr.
LoopSelection promotedLoop(const Type *(*rule)(const Type *), bool takesComplex);
/// No loop for booleans (NumPy refuses negative, positive, sign and subtract of booleans).
const Type *refusingBool(const Type *type);
/// The promoted type itself (add, maximum, floor...).
const Type *sameType(const Type *type);
/// true_divide: integers and booleans divide in float64.
const Type *divisionType(const Type *type);

/// Registers the ufuncs of issue 31 beyond Ufuncs.cpp's: comparisons, logical and bitwise
/// functions, shifts, gcd and lcm, logaddexp, float_power, conj, nextafter, ldexp, spacing and
/// the ufuncs of two outputs (UfuncsMore.cpp).
void registerMoreUfuncs(Library &library);

} // namespace taipan
