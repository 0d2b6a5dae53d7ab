#include "OptionConversion.h"

#include "syntax/SyntaxTree.h"

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <climits>
#include <map>
#include <string>

namespace nb = nanobind;

namespace taipan::bindings {

namespace {

/// The decorator's keywords, as the conversions read them: None counts as not given.
class Keywords {
public:
  explicit Keywords(nb::dict options) : options(options) {}

  bool given(const char *name) const {
    return options.contains(name) && !nb::object(options[name]).is_none();
  }
  nb::object value(const char *name) const { return options[name]; }
  bool flag(const char *name) const {
    return given(name) && PyObject_IsTrue(value(name).ptr()) == 1;
  }
  std::string text(const char *name) const {
    return given(name) ? nb::cast<std::string>(nb::str(value(name))) : std::string();
  }

private:
  nb::dict options;
};

// The conversions the table's rows name: each gives its field's value from the keywords,
// `current` (the field's default) when its keyword is not given.

bool isFlagCollection(nb::handle value) {
  return PyAnySet_Check(value.ptr()) || PyList_Check(value.ptr()) || PyTuple_Check(value.ptr());
}

/// fastmath: True for every flag, or a set (list, tuple) of LLVM's flag names.
unsigned FastmathFlags(const Keywords &keywords, const char *name, unsigned current) {
  if (!keywords.given(name))
    return current;
  nb::object fastmath = keywords.value(name);
  if (!isFlagCollection(fastmath))
    return keywords.flag(name) ? FastmathAll : current;
  static const std::map<std::string, unsigned> names = {{"nnan", FastmathNoNaNs},
                                                        {"ninf", FastmathNoInfs},
                                                        {"nsz", FastmathNoSignedZeros},
                                                        {"arcp", FastmathAllowReciprocal},
                                                        {"contract", FastmathAllowContract},
                                                        {"afn", FastmathApproximateFunctions},
                                                        {"reassoc", FastmathAllowReassociation},
                                                        {"fast", FastmathAll}};
  unsigned flags = current;
  for (nb::handle item : fastmath) {
    auto found = names.find(nb::cast<std::string>(nb::str(item)));
    if (found == names.end())
      throw nb::value_error(
          ("unknown fastmath flag " + nb::cast<std::string>(nb::str(item))).c_str());
    flags |= found->second;
  }
  return flags;
}

/// fastmath=True itself (not a set of flags) also allows the target's approximate forms.
bool FastmathApproximate(const Keywords &keywords, const char *name, bool current) {
  if (!keywords.given(name) || isFlagCollection(keywords.value(name)))
    return current;
  return keywords.flag(name) || current;
}

/// A keyword read as true or false (Python's truth; None is not given).
bool Truth(const Keywords &keywords, const char *name, bool current) {
  return keywords.given(name) ? keywords.flag(name) : current;
}

/// lineinfo: asked for, or implied by debug=True.
bool TruthOrDebug(const Keywords &keywords, const char *name, bool current) {
  return Truth(keywords, name, current) || keywords.flag("debug");
}

/// A keyword naming one of two choices: whether it names `chosen` (error_model='numpy').
struct TextIs {
  const char *chosen;
  bool operator()(const Keywords &keywords, const char *name, bool current) const {
    return keywords.given(name) ? keywords.text(name) == chosen : current;
  }
};

/// opt: True or False (a kernel's opt=), or a level 0-3 (TAIPAN_OPT, through taipan.config).
int OptimizationLevel(const Keywords &keywords, const char *name, int current) {
  if (!keywords.given(name))
    return current;
  nb::object opt = keywords.value(name);
  if (PyBool_Check(opt.ptr()))
    return opt.ptr() == Py_True ? 3 : 0;
  int level = nb::cast<int>(nb::int_(opt));
  if (level < 0 || level > 3)
    throw nb::value_error("opt must be True, False or an optimisation level from 0 to 3");
  return level;
}

/// max_registers: a number of registers, 0 for no limit.
int RegisterCount(const Keywords &keywords, const char *name, int current) {
  if (!keywords.given(name))
    return current;
  int count = nb::cast<int>(keywords.value(name));
  if (count < 0)
    throw nb::value_error("max_registers must be a positive number of registers");
  return count;
}

/// One item of launch_bounds (an int, or a tuple of one to three ints: the most threads per
/// block, the fewest blocks per multiprocessor, the most blocks per cluster); 0 when the item
/// is not given.
struct LaunchBound {
  size_t index;
  int operator()(const Keywords &keywords, const char *name, int current) const {
    if (!keywords.given(name))
      return current;
    nb::object value = keywords.value(name);
    if (PyLong_Check(value.ptr()))
      value = nb::make_tuple(value);
    PyObject *items = PySequence_Tuple(value.ptr());
    if (!items)
      throw nb::python_error();
    nb::tuple bounds = nb::steal<nb::tuple>(items);
    if (bounds.size() > 3)
      throw nb::value_error(("Got " + std::to_string(bounds.size()) +
                             " launch bounds: " + nb::cast<std::string>(nb::repr(bounds)) +
                             ". A maximum of three are supported: (max_threads_per_block, "
                             "min_blocks_per_sm, max_blocks_per_cluster)")
                                .c_str());
    if (index >= bounds.size())
      return current;
    nb::handle bound = bounds[index];
    if (!PyLong_Check(bound.ptr()) || PyBool_Check(bound.ptr()) || nb::cast<long>(bound) <= 0 ||
        nb::cast<long>(bound) > INT_MAX)
      throw nb::value_error(
          ("launch bounds are positive ints, not " + nb::cast<std::string>(nb::repr(bound)))
              .c_str());
    return nb::cast<int>(bound);
  }
};

/// The fields of `options` by name, as Python values.
nb::dict optionFields(const CompileOptions &options) {
  nb::dict fields;
#define TAIPAN_OPTION(field, ...) fields[#field] = options.field;
#define TAIPAN_DERIVED(field, ...) fields[#field] = options.field;
#include "syntax/CompileOptions.def"
  return fields;
}

nb::tuple bitNames(unsigned bits, std::initializer_list<std::pair<unsigned, const char *>> names) {
  nb::list result;
  for (const auto &[bit, name] : names)
    if (bits & bit)
      result.append(name);
  return nb::tuple(result);
}

nb::dict rowObject(const OptionRow &row) {
  using namespace option_table;
  static const char *kinds[] = {"option", "derived", "keyword"};
  nb::dict object;
  object["kind"] = kinds[static_cast<int>(row.kind)];
  object["name"] = row.keyword;
  object["field"] = *row.field ? nb::object(nb::str(row.field)) : nb::none();
  object["type"] = row.pythonType;
  object["default"] = row.pythonDefault;
  object["conversion"] = row.conversion;
  object["targets"] = bitNames(row.targets, {{Cpu, "cpu"}, {Cuda, "cuda"}});
  nb::list decorators;
  for (const DecoratorName &decorator : decoratorNames)
    if (row.decorators & decorator.bit)
      decorators.append(decorator.name);
  object["decorators"] = nb::tuple(decorators);
  object["cache_key"] = row.cacheKey;
  if (row.config.rule == ConfigRule::None)
    object["config"] = nb::none();
  else
    object["config"] = nb::make_tuple(
        row.config.rule == ConfigRule::Override ? "override" : "default", row.config.attribute);
  object["aliases"] = nb::str(row.aliases).attr("split")();
  object["doc"] = row.doc;
  return object;
}

/// `options`, with a keyword given by one of Numba's other names for it (the table's aliases)
/// under the table's name as well.
nb::dict withAliasesRenamed(nb::dict options) {
  nb::dict renamed = options;
  bool copied = false;
  auto rename = [&](const char *keyword, const char *aliases) {
    for (nb::handle alias : nb::str(aliases).attr("split")()) {
      if (!options.contains(alias) || renamed.contains(keyword))
        continue;
      if (!copied) // the caller's dict stays as given
        renamed = nb::steal<nb::dict>(PyDict_Copy(options.ptr()));
      copied = true;
      renamed[keyword] = options[alias];
    }
  };
#define TAIPAN_OPTION(field, Type, cppDefault, keyword, pythonType, pythonDefault, conversion,     \
                      targets, decorators, cacheKey, config, aliases, doc)                         \
  if (*aliases)                                                                                    \
    rename(keyword, aliases);
#include "syntax/CompileOptions.def"
  return renamed;
}

} // namespace

CompileOptions readOptions(nb::dict options) {
  Keywords keywords(withAliasesRenamed(options));
  CompileOptions result;
#define TAIPAN_OPTION(field, Type, cppDefault, keyword, pythonType, pythonDefault, conversion,     \
                      ...)                                                                         \
  result.field = conversion(keywords, keyword, result.field);
#define TAIPAN_DERIVED(field, Type, cppDefault, keyword, conversion, ...)                          \
  result.field = conversion(keywords, keyword, result.field);
#include "syntax/CompileOptions.def"
  return result;
}

void registerOptionTable(nb::module_ &module) {
  module.def(
      "compile_option_table",
      [] {
        nb::list rows;
        for (const OptionRow &row : compileOptionTable())
          rows.append(rowObject(row));
        return nb::tuple(rows);
      },
      "The rows of the options table (src/core/syntax/CompileOptions.def), as dicts.");
  module.def(
      "read_options", [](nb::dict options) { return optionFields(readOptions(options)); },
      "The CompileOptions fields (by name) the compiler would read from these keywords.");
  module.def(
      "function_options",
      [](std::shared_ptr<FunctionSource> source) { return optionFields(source->options); },
      "The CompileOptions fields (by name) a function read by read_function compiles with.");
  module.def(
      "options_fingerprint",
      [](std::shared_ptr<FunctionSource> source) { return source->options.fingerprint(); },
      "The text of a function's options that enters its job hash.");
}

} // namespace taipan::bindings
