// Load-time symbols: foreign functions found again by library and exported name, user exception
// classes by module and qualified name (only when that name finds the class).
#include "runtime/LoadTimeSymbols.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <string>

namespace taipan::runtime {
namespace {

void *libmFunction(const char *name) {
  void *libm = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  return libm ? dlsym(libm, name) : nullptr;
}

TEST(LoadTimeSymbolsTest, AnExportedFunctionIsNamedByItsLibraryAndResolvesToItself) {
  void *cosine = libmFunction("cos"); // an IFUNC: dladdr names the implementation, not "cos"
  ASSERT_NE(cosine, nullptr);
  std::string symbol = foreignFunctionSymbol(reinterpret_cast<uintptr_t>(cosine), "cos");
  ASSERT_EQ(symbol.rfind("taipan.load:foreign:", 0), 0u) << symbol;
  EXPECT_NE(symbol.find("libm"), std::string::npos) << symbol;
  EXPECT_EQ(resolveLoadTimeSymbol(symbol), cosine);
}

TEST(LoadTimeSymbolsTest, MemoryNoLibraryExportsHasNoSymbol) {
  static int notAFunction = 0;
  EXPECT_EQ(foreignFunctionSymbol(reinterpret_cast<uintptr_t>(&notAFunction), "x"), "");
  EXPECT_EQ(foreignFunctionSymbol(0, "cos"), "");
  // Inside a library, but not where the declared name leads.
  auto *inside = static_cast<char *>(libmFunction("sin")) + 1;
  EXPECT_EQ(foreignFunctionSymbol(reinterpret_cast<uintptr_t>(inside), "sin"), "");
}

TEST(LoadTimeSymbolsTest, AnExceptionClassFoundByNameHasACellHoldingItsId) {
  describeExceptionClass(9001, "mymodule", "Outer.Error", true);
  std::string symbol = exceptionClassSymbol(9001);
  EXPECT_EQ(symbol, "taipan.load:exception:mymodule:Outer.Error");
  EXPECT_EQ(exceptionClassName(9001), "mymodule.Outer.Error");
  auto *cell = static_cast<int32_t *>(resolveLoadTimeSymbol(symbol));
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(*cell, 9001);
  // A second class at the same place (its module reloaded) is not named by it.
  describeExceptionClass(9002, "mymodule", "Outer.Error", true);
  EXPECT_EQ(exceptionClassSymbol(9002), "");
  EXPECT_EQ(*static_cast<int32_t *>(resolveLoadTimeSymbol(symbol)), 9001);
}

TEST(LoadTimeSymbolsTest, AClassNoNameFindsHasNoSymbolAndUnknownNamesDoNotResolve) {
  describeExceptionClass(9003, "mymodule", "f.<locals>.Local", false);
  EXPECT_EQ(exceptionClassSymbol(9003), "");
  EXPECT_EQ(exceptionClassName(9003), "mymodule.f.<locals>.Local");
  // Without the bindings' finder, a class never described here is not found.
  EXPECT_EQ(resolveLoadTimeSymbol("taipan.load:exception:othermodule:Missing"), nullptr);
  EXPECT_EQ(resolveLoadTimeSymbol("taipan.load:foreign:nothing:/no/such/library.so"), nullptr);
  EXPECT_EQ(resolveLoadTimeSymbol("taipan.load:unknown:x"), nullptr);
  EXPECT_EQ(resolveLoadTimeSymbol("cos"), nullptr);
}

} // namespace
} // namespace taipan::runtime
