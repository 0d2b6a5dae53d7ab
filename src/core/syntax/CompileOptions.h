// CompileOptions, the decorator's options as the compiler reads them, and the description of
// the options table (CompileOptions.def) they are generated from, which Python reads too.
#pragma once

#include <string>
#include <vector>

namespace taipan {

/// fastmath=True, or the flags of a set such as {'nnan', 'ninf'}, as Numba accepts.
enum FastmathFlag : unsigned {
  FastmathNoNaNs = 1,
  FastmathNoInfs = 2,
  FastmathNoSignedZeros = 4,
  FastmathAllowReciprocal = 8,
  FastmathAllowContract = 16,
  FastmathApproximateFunctions = 32,
  FastmathAllowReassociation = 64,
  FastmathAll = 127,
};

/// The words of the table's columns (CompileOptions.def explains each column).
namespace option_table {

/// Which code generators honour an option.
enum Target : unsigned { NoTarget = 0, Cpu = 1, Cuda = 2 };

/// Which decorators accept a keyword.
enum Decorator : unsigned {
  Jit = 1,             ///< jit, njit, overload's jit_options
  Vectorize = 2,       ///< vectorize and guvectorize on the CPU
  CudaJit = 4,         ///< cuda.jit (and the simulator's)
  CudaVectorize = 8,   ///< vectorize(target='cuda')
  CudaGuvectorize = 16 ///< guvectorize(target='cuda')
};

/// The decorators' names as Python spells them in taipan.compile_options, by bit.
struct DecoratorName {
  Decorator bit;
  const char *name;
};
inline constexpr DecoratorName decoratorNames[] = {{Jit, "jit"},
                                                   {Vectorize, "vectorize"},
                                                   {CudaJit, "cuda.jit"},
                                                   {CudaVectorize, "cuda.vectorize"},
                                                   {CudaGuvectorize, "cuda.guvectorize"}};

inline constexpr bool InKey = true;
inline constexpr bool NotInKey = false;

/// How a taipan.config attribute (an environment variable) sets an option of CPU functions.
enum class ConfigRule { None, Override, Default };
struct ConfigLink {
  ConfigRule rule = ConfigRule::None;
  const char *attribute = "";
};
inline constexpr ConfigLink NoConfig{};
/// The attribute, when set (not None), wins over the keyword (TAIPAN_BOUNDSCHECK).
constexpr ConfigLink ConfigOverride(const char *attribute) {
  return {ConfigRule::Override, attribute};
}
/// The attribute gives the value when the keyword is not given (TAIPAN_OPT).
constexpr ConfigLink ConfigDefault(const char *attribute) {
  return {ConfigRule::Default, attribute};
}

} // namespace option_table

/// The decorator's options, parsed once (bindings/OptionConversion.cpp) and carried by the
/// FunctionSource into every compile job of the function; each target honours those it has.
/// One field per TAIPAN_OPTION and TAIPAN_DERIVED row of CompileOptions.def, which documents
/// each. Never written during a compile: every specialisation shares them.
struct CompileOptions {
#define TAIPAN_OPTION(field, Type, cppDefault, ...) Type field = cppDefault;
#define TAIPAN_DERIVED(field, Type, cppDefault, ...) Type field = cppDefault;
#include "syntax/CompileOptions.def"

  /// A canonical text of every option the table puts in the cache key, for the job hash.
  std::string fingerprint() const;
};

/// One row of CompileOptions.def, as Python reads it (taipan._core.compile_option_table).
struct OptionRow {
  enum class Kind { Option, Derived, Keyword };
  Kind kind;
  const char *keyword;       ///< the decorator's keyword (a derived field: the one it comes from)
  const char *field;         ///< the CompileOptions field, or "" for a Python-only keyword
  const char *pythonType;    ///< the values the keyword takes, in words ("" when derived)
  const char *pythonDefault; ///< a Python literal: the keyword's value when not given
  const char *conversion;    ///< the bindings' conversion, by name ("" for a keyword)
  unsigned targets;          ///< option_table::Target bits
  unsigned decorators;       ///< option_table::Decorator bits (0 when derived)
  bool cacheKey;
  option_table::ConfigLink config;
  const char *aliases; ///< Numba's other names for the keyword, space-separated
  const char *doc;
};

/// Every row of CompileOptions.def, in its order.
const std::vector<OptionRow> &compileOptionTable();

} // namespace taipan
