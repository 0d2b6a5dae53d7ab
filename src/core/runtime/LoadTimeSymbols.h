// Symbols that stand in CPU code for values each process has its own of (a user exception class's
// registry id, an objmode call site's, a foreign function's address): the JIT resolves them when it
// loads the code.
#pragma once

#include <cstdint>
#include <string>

namespace taipan::runtime {

/// The prefix of every load-time symbol. The same object code then runs in every process (the
/// disk cache, pickles sent to other processes): each resolves the names as it loads it.
inline constexpr char LoadTimeSymbolPrefix[] = "taipan.load:";

/// Records user exception class `id` (module and qualified name), found again by that name when
/// `findable` (its module's attribute path leads to it). A second class at a place another
/// already holds (a module reloaded) is not findable: the name stands for the first.
void describeExceptionClass(int id, const std::string &module, const std::string &qualifiedName,
                            bool findable);
/// "module.qualname" of user exception class `id` (for the job hash and messages), or "".
std::string exceptionClassName(int id);
/// The symbol of an int32 holding user exception class `id`'s registry id in each process that
/// loads the code ("taipan.load:exception:" + module + ":" + qualname), or "" when another
/// process could not find the class by name (one defined in a function).
std::string exceptionClassSymbol(int id);
/// Finds the exception class at `module`.`qualifiedName` in this process (importing the
/// module), registers it and returns its id; -1 when there is none. The bindings install it:
/// the classes are Python's.
using ExceptionClassFinder = int (*)(const std::string &module, const std::string &qualifiedName);
void setExceptionClassFinder(ExceptionClassFinder finder);

/// The symbol by which code calls the foreign function at `address` ("taipan.load:foreign:" +
/// its exported name + ":" + the real path of its shared library), when the library exports it
/// under a name (dladdr's, else `declaredName`) that dlsym finds at that address; "" otherwise
/// (a ctypes callback, a function pointer into memory no library maps).
std::string foreignFunctionSymbol(uint64_t address, const std::string &declaredName);

/// The symbol of an int64 holding, in each process that loads the code, the id of the objmode
/// call site that `siteKey` names (typing/ObjectModeBlocks.h: the block's id and content key,
/// the boxed argument types): "taipan.load:objmode:" + siteKey.
std::string objectModeSiteSymbol(const std::string &siteKey);
/// Finds the objmode call site of `siteKey` registered in this process (by typing the function
/// again); -1 when there is none or several. Installed by the bindings.
using ObjectModeSiteFinder = int64_t (*)(const std::string &siteKey);
void setObjectModeSiteFinder(ObjectModeSiteFinder finder);

/// The address a load-time symbol stands for in this process: the cell holding the exception
/// class's id or the objmode site's, or the foreign function (its library loaded if it is not yet);
/// null when this process cannot find it.
void *resolveLoadTimeSymbol(const std::string &symbol);

} // namespace taipan::runtime
