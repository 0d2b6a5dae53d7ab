// TieredCompilationTest.cpp - compiler/TieredCompilation.h: which lowered modules may run
// level-0 code first (no loop, no recursion or indirect call, long enough to pay).

#include "compiler/TieredCompilation.h"

#include <gtest/gtest.h>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <memory>
#include <string>

using namespace taipan;

namespace {

/// `count` additions in a row on %a, the last one named %last.
std::string additions(size_t count) {
  std::string text;
  std::string previous = "%a";
  for (size_t i = 0; i < count; ++i) {
    std::string next = "%v" + std::to_string(i);
    text += "  " + next + " = add i64 " + previous + ", " + std::to_string(i) + "\n";
    previous = next;
  }
  return text + "  %last = add i64 " + previous + ", 0\n";
}

bool qualifies(const std::string &text) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module && qualifiesForFirstTier(*module);
}

const size_t Long = FirstTierMinimumInstructions;

} // namespace

TEST(TieredCompilationTest, LongStraightLineCodeQualifies) {
  EXPECT_TRUE(
      qualifies("define i64 @f(i64 %a) {\nentry:\n" + additions(Long) + "  ret i64 %last\n}\n"));
}

TEST(TieredCompilationTest, ShortCodeDoesNot) {
  EXPECT_FALSE(qualifies("define i64 @f(i64 %a) {\nentry:\n" + additions(Long / 4) +
                         "  ret i64 %last\n}\n"));
}

TEST(TieredCompilationTest, ALoopAnywhereDisqualifies) {
  std::string helper = "define i64 @helper(i64 %n) {\nentry:\n  br label %loop\n"
                       "loop:\n  %i = phi i64 [ 0, %entry ], [ %next, %loop ]\n"
                       "  %next = add i64 %i, 1\n  %done = icmp eq i64 %next, %n\n"
                       "  br i1 %done, label %exit, label %loop\nexit:\n  ret i64 %next\n}\n";
  EXPECT_FALSE(qualifies(helper + "define i64 @f(i64 %a) {\nentry:\n" + additions(Long) +
                         "  %r = call i64 @helper(i64 %last)\n  ret i64 %r\n}\n"));
}

TEST(TieredCompilationTest, RecursionDisqualifies) {
  EXPECT_FALSE(qualifies("define i64 @f(i64 %a) {\nentry:\n" + additions(Long) +
                         "  %r = call i64 @g(i64 %last)\n  ret i64 %r\n}\n"
                         "define i64 @g(i64 %a) {\nentry:\n  %r = call i64 @f(i64 %a)\n"
                         "  ret i64 %r\n}\n"));
}

TEST(TieredCompilationTest, AnIndirectCallDisqualifies) {
  EXPECT_FALSE(qualifies("define i64 @f(i64 %a, ptr %callee) {\nentry:\n" + additions(Long) +
                         "  %r = call i64 %callee(i64 %last)\n  ret i64 %r\n}\n"));
}

TEST(TieredCompilationTest, CallsOfDeclaredFunctionsAndAcyclicHelpersAreFine) {
  EXPECT_TRUE(qualifies("declare i64 @runtime(i64)\n"
                        "define i64 @helper(i64 %a) {\nentry:\n  %r = call i64 @runtime(i64 %a)\n"
                        "  ret i64 %r\n}\n"
                        "define i64 @f(i64 %a) {\nentry:\n" +
                        additions(Long) +
                        "  %x = call i64 @helper(i64 %last)\n  %y = call i64 @helper(i64 %x)\n"
                        "  ret i64 %y\n}\n"));
}
