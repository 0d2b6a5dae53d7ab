// Load-time symbols: user exception classes by module and qualified name (the bindings find
// the class), objmode call sites by key, foreign functions by library and exported name
// (dlopen and dlsym).
#include "runtime/LoadTimeSymbols.h"

#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace taipan::runtime {
namespace {

constexpr char ExceptionKind[] = "exception:";
constexpr char ForeignKind[] = "foreign:";
constexpr char ObjectModeKind[] = "objmode:";

struct ExceptionClassPlace {
  std::string module;
  std::string qualifiedName;
  bool findable = false;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<int, ExceptionClassPlace> classes;
  /// Each exception symbol's cell: allocated once, never freed, since loaded code reads it.
  std::map<std::string, std::unique_ptr<int32_t>> cells;
  ExceptionClassFinder finder = nullptr;
  /// Each objmode site symbol's cell (the site's id), as long-lived as the exception cells.
  std::map<std::string, std::unique_ptr<int64_t>> siteCells;
  ObjectModeSiteFinder siteFinder = nullptr;
};

Registry &registry() {
  static Registry instance;
  return instance;
}

std::string exceptionSymbolFor(const ExceptionClassPlace &place) {
  return std::string(LoadTimeSymbolPrefix) + ExceptionKind + place.module + ":" +
         place.qualifiedName;
}

/// The cell of `symbol` holding `id`, made on first use. Callers hold the registry's mutex.
int32_t *cellFor(Registry &state, const std::string &symbol, int id) {
  std::unique_ptr<int32_t> &cell = state.cells[symbol];
  if (!cell)
    cell = std::make_unique<int32_t>(id);
  return cell.get();
}

void *resolveExceptionClass(const std::string &place) {
  size_t colon = place.find(':');
  if (colon == std::string::npos)
    return nullptr;
  std::string symbol = std::string(LoadTimeSymbolPrefix) + ExceptionKind + place;
  Registry &state = registry();
  ExceptionClassFinder finder;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    auto found = state.cells.find(symbol);
    if (found != state.cells.end())
      return found->second.get();
    finder = state.finder;
  }
  // The finder may register the class (describeExceptionClass), so it runs unlocked.
  int id = finder ? finder(place.substr(0, colon), place.substr(colon + 1)) : -1;
  if (id <= 0)
    return nullptr;
  std::lock_guard<std::mutex> lock(state.mutex);
  return cellFor(state, symbol, id);
}

void *resolveObjectModeSite(const std::string &siteKey) {
  Registry &state = registry();
  ObjectModeSiteFinder finder;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    auto found = state.siteCells.find(siteKey);
    if (found != state.siteCells.end())
      return found->second.get();
    finder = state.siteFinder;
  }
  int64_t site = finder ? finder(siteKey) : -1;
  if (site <= 0)
    return nullptr;
  std::lock_guard<std::mutex> lock(state.mutex);
  std::unique_ptr<int64_t> &cell = state.siteCells[siteKey];
  if (!cell)
    cell = std::make_unique<int64_t>(site);
  return cell.get();
}

void *resolveForeignFunction(const std::string &place) {
  size_t colon = place.find(':');
  if (colon == std::string::npos)
    return nullptr;
  std::string name = place.substr(0, colon);
  // Loaded as the process first did (ctypes.CDLL): a library loaded already is found again.
  void *library = dlopen(place.c_str() + colon + 1, RTLD_NOW | RTLD_LOCAL);
  return library ? dlsym(library, name.c_str()) : nullptr;
}

} // namespace

void describeExceptionClass(int id, const std::string &module, const std::string &qualifiedName,
                            bool findable) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  ExceptionClassPlace place{module, qualifiedName, findable};
  if (findable) {
    std::string symbol = exceptionSymbolFor(place);
    auto taken = state.cells.find(symbol);
    if (taken != state.cells.end() && *taken->second != id)
      place.findable = false;
    else
      cellFor(state, symbol, id);
  }
  state.classes[id] = std::move(place);
}

std::string exceptionClassName(int id) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.classes.find(id);
  if (found == state.classes.end())
    return "";
  const ExceptionClassPlace &place = found->second;
  return place.module.empty() ? place.qualifiedName : place.module + "." + place.qualifiedName;
}

std::string exceptionClassSymbol(int id) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.classes.find(id);
  if (found == state.classes.end() || !found->second.findable)
    return "";
  return exceptionSymbolFor(found->second);
}

void setExceptionClassFinder(ExceptionClassFinder finder) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.finder = finder;
}

std::string foreignFunctionSymbol(uint64_t address, const std::string &declaredName) {
  Dl_info info{};
  void *pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  if (!address || !dladdr(pointer, &info) || !info.dli_fname)
    return "";
  char path[PATH_MAX];
  if (!realpath(info.dli_fname, path))
    return "";
  // The name must lead back to this very function where the code is loaded again: the symbol
  // dladdr found there, or else the declared name (an IFUNC such as libm's cos resolves to an
  // implementation, __cos_fma, that the library does not export).
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (!library)
    return "";
  std::string name;
  if (info.dli_sname && info.dli_saddr == pointer && dlsym(library, info.dli_sname) == pointer)
    name = info.dli_sname;
  else if (!declaredName.empty() && dlsym(library, declaredName.c_str()) == pointer)
    name = declaredName;
  dlclose(library); // RTLD_NOLOAD took a reference of its own
  if (name.empty() || name.find(':') != std::string::npos)
    return "";
  return std::string(LoadTimeSymbolPrefix) + ForeignKind + name + ":" + path;
}

std::string objectModeSiteSymbol(const std::string &siteKey) {
  return std::string(LoadTimeSymbolPrefix) + ObjectModeKind + siteKey;
}

void setObjectModeSiteFinder(ObjectModeSiteFinder finder) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.siteFinder = finder;
}

void *resolveLoadTimeSymbol(const std::string &symbol) {
  size_t prefix = sizeof(LoadTimeSymbolPrefix) - 1;
  if (symbol.compare(0, prefix, LoadTimeSymbolPrefix) != 0)
    return nullptr;
  std::string rest = symbol.substr(prefix);
  size_t exceptionKind = sizeof(ExceptionKind) - 1, foreignKind = sizeof(ForeignKind) - 1;
  if (rest.compare(0, exceptionKind, ExceptionKind) == 0)
    return resolveExceptionClass(rest.substr(exceptionKind));
  if (rest.compare(0, foreignKind, ForeignKind) == 0)
    return resolveForeignFunction(rest.substr(foreignKind));
  size_t objectModeKind = sizeof(ObjectModeKind) - 1;
  if (rest.compare(0, objectModeKind, ObjectModeKind) == 0)
    return resolveObjectModeSite(rest.substr(objectModeKind));
  return nullptr;
}

} // namespace taipan::runtime
