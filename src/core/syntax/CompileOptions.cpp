#include "syntax/CompileOptions.h"

namespace taipan {

namespace {

std::string fingerprintText(bool value) { return value ? "1" : "0"; }
std::string fingerprintText(int value) { return std::to_string(value); }
std::string fingerprintText(unsigned value) { return std::to_string(value); }

} // namespace

std::string CompileOptions::fingerprint() const {
  std::string text;
  auto add = [&](bool inKey, const char *name, const std::string &value) {
    if (!inKey)
      return;
    if (!text.empty())
      text += ' ';
    text += std::string(name) + "=" + value;
  };
  using namespace option_table;
#define TAIPAN_OPTION(field, Type, cppDefault, keyword, pythonType, pythonDefault, conversion,     \
                      targets, decorators, cacheKey, ...)                                          \
  add(cacheKey, #field, fingerprintText(field));
#define TAIPAN_DERIVED(field, Type, cppDefault, keyword, conversion, cacheKey, doc)                \
  add(cacheKey, #field, fingerprintText(field));
#include "syntax/CompileOptions.def"
  return text;
}

const std::vector<OptionRow> &compileOptionTable() {
  using namespace option_table;
  static const std::vector<OptionRow> rows = {
#define TAIPAN_OPTION(field, Type, cppDefault, keyword, pythonType, pythonDefault, conversion,     \
                      targets, decorators, cacheKey, config, aliases, doc)                         \
  {OptionRow::Kind::Option,                                                                        \
   keyword,                                                                                        \
   #field,                                                                                         \
   pythonType,                                                                                     \
   pythonDefault,                                                                                  \
   #conversion,                                                                                    \
   targets,                                                                                        \
   decorators,                                                                                     \
   cacheKey,                                                                                       \
   config,                                                                                         \
   aliases,                                                                                        \
   doc},
#define TAIPAN_DERIVED(field, Type, cppDefault, keyword, conversion, cacheKey, doc)                \
  {OptionRow::Kind::Derived,                                                                       \
   keyword,                                                                                        \
   #field,                                                                                         \
   "",                                                                                             \
   "",                                                                                             \
   #conversion,                                                                                    \
   0,                                                                                              \
   0,                                                                                              \
   cacheKey,                                                                                       \
   NoConfig,                                                                                       \
   "",                                                                                             \
   doc},
#define TAIPAN_KEYWORD(keyword, pythonType, pythonDefault, targets, decorators, cacheKey, aliases, \
                       doc)                                                                        \
  {OptionRow::Kind::Keyword,                                                                       \
   keyword,                                                                                        \
   "",                                                                                             \
   pythonType,                                                                                     \
   pythonDefault,                                                                                  \
   "",                                                                                             \
   targets,                                                                                        \
   decorators,                                                                                     \
   cacheKey,                                                                                       \
   NoConfig,                                                                                       \
   aliases,                                                                                        \
   doc},
#include "syntax/CompileOptions.def"
  };
  return rows;
}

} // namespace taipan
