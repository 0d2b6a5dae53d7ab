// SelectIntoOperandTest.cpp - Unit tests of target/SelectIntoOperand.h: which selects of an
// arithmetic result move into the operand (fadd/fsub/fmul, either arm, commuted operands,
// vectors) and which stay (another operation, a second use, x on the wrong side of a
// subtraction, flushed denormals, strict floating point).

#include "target/SelectIntoOperand.h"

#include <gtest/gtest.h>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

using namespace taipan;

namespace {

/// `@f`'s text after the pass ran over the module parsed from `text`.
std::string afterPass(const std::string &text) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  if (!module)
    return "";
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder passes;
  passes.registerFunctionAnalyses(analyses);
  SelectIntoOperandPass pass;
  for (llvm::Function &function : *module)
    if (!function.isDeclaration())
      pass.run(function, analyses);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  std::string printed;
  llvm::raw_string_ostream out(printed);
  module->getFunction("f")->print(out);
  return printed;
}

std::string function(const std::string &type, const std::string &body,
                     const std::string &attributes = "") {
  return "define " + type + " @f(i1 %c, " + type + " %x, " + type + " %y) " + attributes + " {\n" +
         body + "}\n";
}

TEST(SelectIntoOperand, AddInTheTrueArmTakesNegativeZero) {
  std::string text = afterPass(function("double", "  %s = fadd double %x, %y\n"
                                                  "  %r = select i1 %c, double %s, double %x\n"
                                                  "  ret double %r\n"));
  EXPECT_NE(text.find("select i1 %c, double %y, double -0.000000e+00"), std::string::npos) << text;
  EXPECT_NE(text.find("fadd double %x, %r.operand"), std::string::npos) << text;
}

TEST(SelectIntoOperand, CommutedAddInTheFalseArm) {
  std::string text = afterPass(function("double", "  %s = fadd nnan double %y, %x\n"
                                                  "  %r = select i1 %c, double %x, double %s\n"
                                                  "  ret double %r\n"));
  EXPECT_NE(text.find("select i1 %c, double -0.000000e+00, double %y"), std::string::npos) << text;
  EXPECT_NE(text.find("fadd nnan double %r.operand, %x"), std::string::npos) << text;
}

TEST(SelectIntoOperand, SubtractionAndMultiplication) {
  std::string subtraction = afterPass(function("float", "  %s = fsub float %x, %y\n"
                                                        "  %r = select i1 %c, float %s, float %x\n"
                                                        "  ret float %r\n"));
  EXPECT_NE(subtraction.find("select i1 %c, float %y, float 0.000000e+00"), std::string::npos)
      << subtraction;
  std::string product = afterPass(function("double", "  %s = fmul double %y, %x\n"
                                                     "  %r = select i1 %c, double %s, double %x\n"
                                                     "  ret double %r\n"));
  EXPECT_NE(product.find("select i1 %c, double %y, double 1.000000e+00"), std::string::npos)
      << product;
}

TEST(SelectIntoOperand, Vectors) {
  std::string text =
      afterPass("define <2 x double> @f(<2 x i1> %c, <2 x double> %x, <2 x double> %y) {\n"
                "  %s = fadd <2 x double> %x, %y\n"
                "  %r = select <2 x i1> %c, <2 x double> %s, <2 x double> %x\n"
                "  ret <2 x double> %r\n}\n");
  EXPECT_NE(text.find("fadd <2 x double> %x, %r.operand"), std::string::npos) << text;
}

TEST(SelectIntoOperand, LeavesWhatItMustNotChange) {
  const std::string unchanged[] = {
      // x on the right of a subtraction: y - x has no identity for y
      function("double", "  %s = fsub double %y, %x\n"
                         "  %r = select i1 %c, double %s, double %x\n  ret double %r\n"),
      // a division
      function("double", "  %s = fdiv double %x, %y\n"
                         "  %r = select i1 %c, double %s, double %x\n  ret double %r\n"),
      // the sum used twice
      function("double", "  %s = fadd double %x, %y\n"
                         "  %r = select i1 %c, double %s, double %x\n"
                         "  %t = fadd double %r, %s\n  ret double %t\n"),
      // the other arm is not an operand of the sum
      function("double", "  %s = fadd double %x, %y\n"
                         "  %r = select i1 %c, double %s, double 2.0\n  ret double %r\n"),
      // denormals flushed: x + -0.0 would flush a denormal x
      function("double",
               "  %s = fadd double %x, %y\n"
               "  %r = select i1 %c, double %s, double %x\n  ret double %r\n",
               "\"denormal-fp-math\"=\"preserve-sign,preserve-sign\""),
  };
  for (const std::string &text : unchanged) {
    std::string after = afterPass(text);
    EXPECT_EQ(after.find(".operand"), std::string::npos) << after;
  }
}

} // namespace
