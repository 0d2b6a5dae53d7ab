// CompilerTest.cpp - End-to-end tests of compiler/Compiler.h: hand-built functions are compiled
// by the JIT and called through their entry points, checking results, exceptions and inspection.

#include "../testing/SyntaxBuilder.h"
#include "../testing/TypePrinter.h"

#include "compiler/Compiler.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace taipan;
using namespace taipan::test;

namespace {

/// Calls a compiled function on scalar arguments of one C++ type and returns its status.
template <typename Result, typename... Arguments>
int32_t call(const CompiledFunction &compiled, Result &result, Arguments... arguments) {
  void *pointers[] = {static_cast<void *>(&arguments)..., nullptr};
  return compiled.entry(pointers, &result);
}

/// A function `name(a, b)` returning `a op b`.
std::shared_ptr<FunctionSource> binaryFunction(const std::string &name, BinaryOp op) {
  SyntaxBuilder b(name, {"a", "b"});
  b.body({b.ret(b.binary(op, b.name("a"), b.name("b")))});
  return b.source;
}

TEST(CompilerTest, AddsTwoFloats) {
  CompiledFunction compiled =
      compileFunction(binaryFunction("add", BinaryOp::Add), {types::float64(), types::float64()});
  ASSERT_NE(compiled.entry, nullptr);
  EXPECT_EQ(compiled.returnType, types::float64());
  double result = 0.0;
  EXPECT_EQ(call(compiled, result, 1.5, 2.25), 0);
  EXPECT_EQ(result, 3.75);
  EXPECT_EQ(call(compiled, result, -1e300, 1e300), 0);
  EXPECT_EQ(result, 0.0);
}

TEST(CompilerTest, MixedIntegerAndFloatArguments) {
  CompiledFunction compiled =
      compileFunction(binaryFunction("mul", BinaryOp::Mult), {types::int64(), types::float32()});
  EXPECT_EQ(compiled.returnType, types::float64());
  double result = 0.0;
  EXPECT_EQ(call(compiled, result, int64_t{3}, 0.5f), 0);
  EXPECT_EQ(result, 1.5);
}

TEST(CompilerTest, Float32StaysFloat32) {
  CompiledFunction compiled =
      compileFunction(binaryFunction("add32", BinaryOp::Add), {types::float32(), types::float32()});
  EXPECT_EQ(compiled.returnType, types::float32());
  float result = 0.0f;
  EXPECT_EQ(call(compiled, result, 1.25f, 2.5f), 0);
  EXPECT_EQ(result, 3.75f);
}

TEST(CompilerTest, SmallIntegerArgumentsWiden) {
  CompiledFunction compiled = compileFunction(binaryFunction("add8", BinaryOp::Add),
                                              {types::integer(8, true), types::integer(8, true)});
  EXPECT_EQ(compiled.returnType, types::int64());
  int64_t result = 0;
  EXPECT_EQ(call(compiled, result, int8_t{100}, int8_t{100}), 0);
  EXPECT_EQ(result, 200); // no int8 overflow: Numba computes in int64
  EXPECT_EQ(call(compiled, result, int8_t{-128}, int8_t{-1}), 0);
  EXPECT_EQ(result, -129);
}

TEST(CompilerTest, JobsCompiledTogetherMatchJobsCompiledAlone) {
  // compileFunctions generates code on several threads: each job must still get its own
  // types, entry point and object code, in the order given.
  auto source = binaryFunction("mul_all", BinaryOp::Mult);
  std::vector<CompileJob> jobs;
  for (const Type *type : {types::float64(), types::float32(), types::int64(), types::float64()})
    jobs.push_back(CompileJob{source, {type, type}, nullptr, JobTarget::Cpu});
  jobs[1].keepObjectCode = true;
  std::vector<CompiledFunction> compiled = compileFunctions(jobs);
  ASSERT_EQ(compiled.size(), jobs.size());
  EXPECT_EQ(compiled[0].returnType, types::float64());
  EXPECT_EQ(compiled[1].returnType, types::float32());
  EXPECT_EQ(compiled[2].returnType, types::int64());
  EXPECT_FALSE(compiled[1].objectCode.empty()) << "kept: the job asked for it";
  EXPECT_TRUE(compiled[0].objectCode.empty()) << "not asked for";
  EXPECT_EQ(compiled[0].hash, compiled[3].hash);
  EXPECT_NE(compiled[0].entry, compiled[3].entry) << "each job loads its own code";
  double wide = 0.0;
  float narrow = 0.0f;
  int64_t whole = 0;
  EXPECT_EQ(call(compiled[0], wide, 1.5, -4.0), 0);
  EXPECT_EQ(wide, -6.0);
  EXPECT_EQ(call(compiled[1], narrow, 1.5f, 3.0f), 0);
  EXPECT_EQ(narrow, 4.5f);
  EXPECT_EQ(call(compiled[2], whole, int64_t{1} << 40, int64_t{3}), 0);
  EXPECT_EQ(whole, int64_t{3} << 40);
  EXPECT_EQ(call(compiled[3], wide, 0.25, 8.0), 0);
  EXPECT_EQ(wide, 2.0);
  CompiledFunction alone = compileFunction(jobs[1]);
  EXPECT_EQ(alone.hash, compiled[1].hash);
}

TEST(CompilerTest, UnsignedArithmetic) {
  CompiledFunction compiled =
      compileFunction(binaryFunction("addu", BinaryOp::Add),
                      {types::integer(32, false), types::integer(32, false)});
  EXPECT_EQ(compiled.returnType, types::uint64());
  uint64_t result = 0;
  EXPECT_EQ(call(compiled, result, uint32_t{4000000000u}, uint32_t{4000000000u}), 0);
  EXPECT_EQ(result, 8000000000ull);
}

TEST(CompilerTest, Complex64ArithmeticStaysComplex64) {
  CompiledFunction compiled = compileFunction(binaryFunction("addc64", BinaryOp::Add),
                                              {types::complex(64), types::complex(64)});
  // Checked before the call: the result buffer below holds one complex64.
  ASSERT_EQ(compiled.returnType, types::complex(64));
  float a[2] = {1.0f, 2.0f}, b[2] = {0.5f, -4.0f}, result[2] = {};
  void *arguments[] = {a, b};
  EXPECT_EQ(compiled.entry(arguments, result), 0);
  EXPECT_EQ(result[0], 1.5f);
  EXPECT_EQ(result[1], -2.0f);
}

TEST(CompilerTest, Complex128Arithmetic) {
  CompiledFunction compiled = compileFunction(binaryFunction("mulc128", BinaryOp::Mult),
                                              {types::complex128(), types::complex128()});
  ASSERT_EQ(compiled.returnType, types::complex128());
  double a[2] = {1.0, 2.0}, b[2] = {3.0, -1.0}, result[2] = {};
  void *arguments[] = {a, b};
  EXPECT_EQ(compiled.entry(arguments, result), 0);
  EXPECT_EQ(result[0], 5.0); // (1 + 2j) * (3 - 1j) = 5 + 5j
  EXPECT_EQ(result[1], 5.0);
}

struct DivisionCase {
  int64_t a, b, quotient, remainder;
};

TEST(CompilerTest, IntegerFloorDivisionAndModuloFollowPython) {
  CompiledFunction floorDiv = compileFunction(binaryFunction("floordiv", BinaryOp::FloorDiv),
                                              {types::int64(), types::int64()});
  CompiledFunction mod =
      compileFunction(binaryFunction("mod", BinaryOp::Mod), {types::int64(), types::int64()});
  EXPECT_EQ(floorDiv.returnType, types::int64());
  EXPECT_EQ(mod.returnType, types::int64());
  const int64_t minimum = std::numeric_limits<int64_t>::min();
  const int64_t maximum = std::numeric_limits<int64_t>::max();
  const DivisionCase cases[] = {
      {-7, 2, -4, 1},
      {7, -2, -4, -1},
      {7, 2, 3, 1},
      {-7, -2, 3, -1},
      {-8, 2, -4, 0},
      {8, -2, -4, 0},
      {0, -5, 0, 0},
      {1, 7, 0, 1},
      {-1, 7, -1, 6},
      {1, -7, -1, -6},
      {-1, -7, 0, -1},
      {7, 1, 7, 0},
      {7, -1, -7, 0},
      {-7, -1, 7, 0},
      {maximum, -1, -maximum, 0},
      {minimum, 2, minimum / 2, 0},
      {minimum, 3, -3074457345618258603LL, 1},
      {maximum, minimum, -1, -1},
      {minimum, maximum, -2, maximum - 1},
      // Python gives 2**63 here; Numba (and taipan) wrap to INT64_MIN.
      {minimum, -1, minimum, 0},
  };
  for (const DivisionCase &c : cases) {
    int64_t result = 12345;
    EXPECT_EQ(call(floorDiv, result, c.a, c.b), 0);
    EXPECT_EQ(result, c.quotient) << c.a << " // " << c.b;
    result = 12345;
    EXPECT_EQ(call(mod, result, c.a, c.b), 0);
    EXPECT_EQ(result, c.remainder) << c.a << " % " << c.b;
  }
}

TEST(CompilerTest, UnsignedFloorDivisionAndModulo) {
  CompiledFunction floorDiv = compileFunction(binaryFunction("floordivu", BinaryOp::FloorDiv),
                                              {types::uint64(), types::uint64()});
  CompiledFunction mod =
      compileFunction(binaryFunction("modu", BinaryOp::Mod), {types::uint64(), types::uint64()});
  uint64_t result = 0;
  EXPECT_EQ(call(floorDiv, result, uint64_t{18446744073709551615ull}, uint64_t{2}), 0);
  EXPECT_EQ(result, 9223372036854775807ull);
  EXPECT_EQ(call(mod, result, uint64_t{18446744073709551615ull}, uint64_t{10}), 0);
  EXPECT_EQ(result, 5u);
}

TEST(CompilerTest, FloatFloorDivisionAndModuloFollowPython) {
  CompiledFunction floorDiv = compileFunction(binaryFunction("ffloordiv", BinaryOp::FloorDiv),
                                              {types::float64(), types::float64()});
  CompiledFunction mod =
      compileFunction(binaryFunction("fmod", BinaryOp::Mod), {types::float64(), types::float64()});
  struct Case {
    double a, b, quotient, remainder;
  };
  const Case cases[] = {
      {-7.0, 2.0, -4.0, 1.0},    {7.0, -2.0, -4.0, -1.0}, {7.5, 2.0, 3.0, 1.5},
      {7.5, -2.0, -4.0, -0.5},   {-7.5, -2.0, 3.0, -1.5}, {1.0, 0.1, 9.0, 0.09999999999999995},
      {-1e-300, 1.0, -1.0, 1.0},
  };
  for (const Case &c : cases) {
    double result = 0.0;
    EXPECT_EQ(call(floorDiv, result, c.a, c.b), 0);
    EXPECT_EQ(result, c.quotient) << c.a << " // " << c.b;
    EXPECT_EQ(call(mod, result, c.a, c.b), 0);
    EXPECT_EQ(result, c.remainder) << c.a << " % " << c.b;
  }
  // Zero results take the divisor's sign: -4.0 % 2.0 == 0.0 and 4.0 % -2.0 == -0.0.
  double result = 1.0;
  EXPECT_EQ(call(mod, result, -4.0, 2.0), 0);
  EXPECT_EQ(result, 0.0);
  EXPECT_FALSE(std::signbit(result));
  EXPECT_EQ(call(mod, result, 4.0, -2.0), 0);
  EXPECT_EQ(result, 0.0);
  EXPECT_TRUE(std::signbit(result));
}

TEST(CompilerTest, TrueDivisionOfIntegers) {
  CompiledFunction compiled =
      compileFunction(binaryFunction("truediv", BinaryOp::Div), {types::int64(), types::int64()});
  EXPECT_EQ(compiled.returnType, types::float64());
  double result = 0.0;
  EXPECT_EQ(call(compiled, result, int64_t{-7}, int64_t{2}), 0);
  EXPECT_EQ(result, -3.5);
}

TEST(CompilerTest, IntegerPower) {
  CompiledFunction compiled =
      compileFunction(binaryFunction("power", BinaryOp::Pow), {types::int64(), types::int64()});
  int64_t result = 0;
  EXPECT_EQ(call(compiled, result, int64_t{3}, int64_t{13}), 0);
  EXPECT_EQ(result, 1594323);
  EXPECT_EQ(call(compiled, result, int64_t{-2}, int64_t{0}), 0);
  EXPECT_EQ(result, 1);
  EXPECT_EQ(call(compiled, result, int64_t{-2}, int64_t{63}), 0);
  EXPECT_EQ(result, std::numeric_limits<int64_t>::min());
}

TEST(CompilerTest, IntegerDivisionByZeroRaises) {
  CompiledFunction floorDiv = compileFunction(binaryFunction("divzero", BinaryOp::FloorDiv),
                                              {types::int64(), types::int64()});
  runtime::takePendingException(); // start clean
  int64_t result = 0;
  EXPECT_EQ(call(floorDiv, result, int64_t{7}, int64_t{0}), 1);
  runtime::PendingException pending = runtime::takePendingException();
  EXPECT_EQ(pending.exceptionId, ZeroDivisionErrorId);
  ASSERT_NE(pending.message, nullptr);
  EXPECT_STREQ(pending.message, "integer division or modulo by zero");
  // Taking the exception clears it.
  EXPECT_EQ(runtime::takePendingException().exceptionId, ExceptionNone);

  CompiledFunction mod =
      compileFunction(binaryFunction("modzero", BinaryOp::Mod), {types::int64(), types::int64()});
  EXPECT_EQ(call(mod, result, int64_t{7}, int64_t{0}), 1);
  pending = runtime::takePendingException();
  EXPECT_EQ(pending.exceptionId, ZeroDivisionErrorId);
  ASSERT_NE(pending.message, nullptr);
  EXPECT_STREQ(pending.message, "integer modulo by zero");

  // A successful call leaves no exception behind.
  EXPECT_EQ(call(floorDiv, result, int64_t{7}, int64_t{3}), 0);
  EXPECT_EQ(result, 2);
  EXPECT_EQ(runtime::takePendingException().exceptionId, ExceptionNone);
}

TEST(CompilerTest, FloatDivisionByZeroRaises) {
  CompiledFunction compiled = compileFunction(binaryFunction("fdivzero", BinaryOp::Div),
                                              {types::float64(), types::float64()});
  double result = 0.0;
  EXPECT_EQ(call(compiled, result, 1.0, 0.0), 1);
  runtime::PendingException pending = runtime::takePendingException();
  EXPECT_EQ(pending.exceptionId, ZeroDivisionErrorId);
  ASSERT_NE(pending.message, nullptr);
  EXPECT_STREQ(pending.message, "division by zero");
}

TEST(CompilerTest, WhileLoop) {
  // def total(n): s = 0; i = 0; while i < n: i += 1; s += i * i; return s
  SyntaxBuilder b("total", {"n"});
  b.body({b.assign("s", b.integer(0)), b.assign("i", b.integer(0)),
          b.whileLoop(b.compare(CompareOp::Lt, b.name("i"), b.name("n")),
                      {b.augAssign("i", BinaryOp::Add, b.integer(1)),
                       b.augAssign("s", BinaryOp::Add,
                                   b.binary(BinaryOp::Mult, b.name("i"), b.name("i")))}),
          b.ret(b.name("s"))});
  CompiledFunction compiled = compileFunction(b.source, {types::int64()});
  EXPECT_EQ(compiled.returnType, types::int64());
  int64_t result = -1;
  EXPECT_EQ(call(compiled, result, int64_t{10}), 0);
  EXPECT_EQ(result, 385);
  EXPECT_EQ(call(compiled, result, int64_t{0}), 0);
  EXPECT_EQ(result, 0);
  EXPECT_EQ(call(compiled, result, int64_t{-5}), 0);
  EXPECT_EQ(result, 0);
}

TEST(CompilerTest, WhileLoopWithBreakAndContinue) {
  // def collatz(n):
  //   steps = 0
  //   while True:
  //     if n == 1: break
  //     steps += 1
  //     if n % 2 == 0: n = n // 2; continue
  //     n = 3 * n + 1
  //   return steps
  SyntaxBuilder b("collatz", {"n"});
  b.body({b.assign("steps", b.integer(0)),
          b.whileLoop(
              b.boolean(true),
              {b.ifStmt(b.compare(CompareOp::Eq, b.name("n"), b.integer(1)),
                        {b.simple(StmtKind::Break)}),
               b.augAssign("steps", BinaryOp::Add, b.integer(1)),
               b.ifStmt(b.compare(CompareOp::Eq, b.binary(BinaryOp::Mod, b.name("n"), b.integer(2)),
                                  b.integer(0)),
                        {b.assign("n", b.binary(BinaryOp::FloorDiv, b.name("n"), b.integer(2))),
                         b.simple(StmtKind::Continue)}),
               b.assign("n",
                        b.binary(BinaryOp::Add, b.binary(BinaryOp::Mult, b.integer(3), b.name("n")),
                                 b.integer(1)))}),
          b.ret(b.name("steps"))});
  CompiledFunction compiled = compileFunction(b.source, {types::int64()});
  int64_t result = -1;
  EXPECT_EQ(call(compiled, result, int64_t{27}), 0);
  EXPECT_EQ(result, 111);
  EXPECT_EQ(call(compiled, result, int64_t{1}), 0);
  EXPECT_EQ(result, 0);
}

TEST(CompilerTest, ForLoopOverRangeWithNegativeStep) {
  // def f(a, b, c): s = 0; for i in range(a, b, c): s += i; return s
  SyntaxBuilder b("rangesum", {"a", "b", "c"});
  b.resolver->names["range"] = builtinValue("range");
  b.body({b.assign("s", b.integer(0)),
          b.forLoop(b.name("i"), b.call(b.name("range"), {b.name("a"), b.name("b"), b.name("c")}),
                    {b.augAssign("s", BinaryOp::Add, b.name("i"))}),
          b.ret(b.name("s"))});
  CompiledFunction compiled =
      compileFunction(b.source, {types::int64(), types::int64(), types::int64()});
  int64_t result = -1;
  EXPECT_EQ(call(compiled, result, int64_t{10}, int64_t{0}, int64_t{-3}), 0);
  EXPECT_EQ(result, 10 + 7 + 4 + 1);
  EXPECT_EQ(call(compiled, result, int64_t{0}, int64_t{10}, int64_t{3}), 0);
  EXPECT_EQ(result, 0 + 3 + 6 + 9);
  EXPECT_EQ(call(compiled, result, int64_t{5}, int64_t{5}, int64_t{1}), 0);
  EXPECT_EQ(result, 0);
  EXPECT_EQ(call(compiled, result, int64_t{0}, int64_t{10}, int64_t{0}), 1);
  runtime::PendingException pending = runtime::takePendingException();
  EXPECT_EQ(pending.exceptionId, ValueErrorId);
  EXPECT_STREQ(pending.message, "range() arg 3 must not be zero");
}

TEST(CompilerTest, ReturnsATupleInMemoryLayout) {
  // def divmod_(a, b): return (a // b, a % b)
  SyntaxBuilder b("divmod_", {"a", "b"});
  b.body({b.ret(b.tuple({b.binary(BinaryOp::FloorDiv, b.name("a"), b.name("b")),
                         b.binary(BinaryOp::Mod, b.name("a"), b.name("b"))}))});
  CompiledFunction compiled = compileFunction(b.source, {types::int64(), types::int64()});
  const Type *returnType = compiled.returnType;
  ASSERT_EQ(returnType, types::tuple({types::int64(), types::int64()}));
  ASSERT_EQ(returnType->storageSize(), 16u);
  alignas(16) unsigned char memory[16] = {};
  EXPECT_EQ(call(compiled, memory, int64_t{-7}, int64_t{2}), 0);
  int64_t quotient, remainder;
  std::memcpy(&quotient, memory + returnType->elementOffset(0), sizeof quotient);
  std::memcpy(&remainder, memory + returnType->elementOffset(1), sizeof remainder);
  EXPECT_EQ(quotient, -4);
  EXPECT_EQ(remainder, 1);
}

TEST(CompilerTest, ReturnsAMixedTupleWithABoolean) {
  // def sign(a): return (a > 0, a * 0.5)
  SyntaxBuilder b("sign", {"a"});
  b.body({b.ret(b.tuple({b.compare(CompareOp::Gt, b.name("a"), b.integer(0)),
                         b.binary(BinaryOp::Mult, b.name("a"), b.floating(0.5))}))});
  CompiledFunction compiled = compileFunction(b.source, {types::int64()});
  const Type *returnType = compiled.returnType;
  ASSERT_EQ(returnType, types::tuple({types::boolean(), types::float64()}));
  ASSERT_EQ(returnType->elementOffset(1), 8u);
  alignas(16) unsigned char memory[16];
  std::memset(memory, 0xAB, sizeof memory);
  EXPECT_EQ(call(compiled, memory, int64_t{5}), 0);
  double half;
  std::memcpy(&half, memory + returnType->elementOffset(1), sizeof half);
  EXPECT_EQ(memory[0], 1);
  EXPECT_EQ(half, 2.5);
  EXPECT_EQ(call(compiled, memory, int64_t{-3}), 0);
  std::memcpy(&half, memory + returnType->elementOffset(1), sizeof half);
  EXPECT_EQ(memory[0], 0);
  EXPECT_EQ(half, -1.5);
}

TEST(CompilerTest, BooleanAndTupleArguments) {
  // def pick(flag, t): if flag: return t[0] else: return t[1]
  SyntaxBuilder b("pick", {"flag", "t"});
  b.body({b.ifStmt(b.name("flag"), {b.ret(b.subscript(b.name("t"), b.integer(0)))},
                   {b.ret(b.subscript(b.name("t"), b.integer(1)))})});
  const Type *pair = types::tuple({types::boolean(), types::float64()});
  CompiledFunction compiled = compileFunction(b.source, {types::boolean(), pair});
  EXPECT_EQ(compiled.returnType, types::float64());
  alignas(16) unsigned char tuple[16] = {};
  tuple[pair->elementOffset(0)] = 1;
  double value = 6.25;
  std::memcpy(tuple + pair->elementOffset(1), &value, sizeof value);
  bool flag = true;
  void *arguments[] = {&flag, tuple};
  double result = 0.0;
  EXPECT_EQ(compiled.entry(arguments, &result), 0);
  EXPECT_EQ(result, 1.0);
  flag = false;
  EXPECT_EQ(compiled.entry(arguments, &result), 0);
  EXPECT_EQ(result, 6.25);
}

TEST(CompilerTest, RecursiveFunction) {
  // def fib(n): if n < 2: return n; return fib(n - 1) + fib(n - 2)
  SyntaxBuilder b("fib", {"n"});
  b.resolver->selfName = "fib";
  b.body({b.ifStmt(b.compare(CompareOp::Lt, b.name("n"), b.integer(2)), {b.ret(b.name("n"))}),
          b.ret(b.binary(
              BinaryOp::Add,
              b.call(b.name("fib"), {b.binary(BinaryOp::Sub, b.name("n"), b.integer(1))}),
              b.call(b.name("fib"), {b.binary(BinaryOp::Sub, b.name("n"), b.integer(2))})))});
  CompiledFunction compiled = compileFunction(b.source, {types::int64()});
  EXPECT_EQ(compiled.returnType, types::int64());
  int64_t result = 0;
  EXPECT_EQ(call(compiled, result, int64_t{20}), 0);
  EXPECT_EQ(result, 6765);
}

TEST(CompilerTest, DeclaredReturnTypeConvertsTheResult) {
  CompiledFunction compiled = compileFunction(binaryFunction("addint", BinaryOp::Add),
                                              {types::int64(), types::int64()}, types::float64());
  EXPECT_EQ(compiled.returnType, types::float64());
  double result = 0.0;
  EXPECT_EQ(call(compiled, result, int64_t{2}, int64_t{3}), 0);
  EXPECT_EQ(result, 5.0);
}

TEST(CompilerTest, TypingErrorsSurfaceAsCompileErrors) {
  SyntaxBuilder b("broken", {"a"});
  b.at(2, 4);
  b.body({b.ret(b.name("undefined_name"))});
  try {
    compileFunction(b.source, {types::int64()});
    FAIL() << "compiling should fail";
  } catch (const CompileError &error) {
    EXPECT_EQ(error.kind, CompileErrorKind::Typing);
    EXPECT_EQ(error.location.line, 2);
    EXPECT_EQ(error.location.column, 4);
    EXPECT_EQ(error.function, b.source.get());
    EXPECT_STREQ(error.what(), "NameError: name 'undefined_name' is not defined");
  }
}

TEST(CompilerTest, WrongArgumentCountIsATypingError) {
  EXPECT_THROW(compileFunction(binaryFunction("two", BinaryOp::Add), {types::int64()}),
               CompileError);
}

TEST(CompilerTest, InspectOptimizedIR) {
  std::string ir =
      inspectFunction(binaryFunction("inspected", BinaryOp::Add),
                      {types::float64(), types::float64()}, InspectionKind::OptimizedIR);
  EXPECT_NE(ir.find("define"), std::string::npos);
  EXPECT_NE(ir.find("fadd"), std::string::npos);
  EXPECT_NE(ir.find("inspected"), std::string::npos);

  std::string unoptimized =
      inspectFunction(binaryFunction("raw", BinaryOp::Add), {types::int64(), types::int64()},
                      InspectionKind::UnoptimizedIR);
  EXPECT_NE(unoptimized.find("define"), std::string::npos);
  EXPECT_NE(unoptimized.find("alloca"), std::string::npos);
}

TEST(CompilerTest, InspectAssembly) {
  std::string assembly =
      inspectFunction(binaryFunction("asm", BinaryOp::Mult), {types::int64(), types::int64()},
                      InspectionKind::Assembly);
  EXPECT_NE(assembly.find("asm"), std::string::npos);
  EXPECT_FALSE(assembly.empty());
}

} // namespace

TEST(CompilerTest, ReportsTheTimeOfEachStage) {
  CompiledFunction compiled =
      compileFunction(binaryFunction("timed", BinaryOp::Add), {types::int64(), types::int64()});
  std::vector<std::string> stages;
  for (const auto &[stage, seconds] : compiled.times.stages()) {
    stages.push_back(stage);
    EXPECT_GE(seconds, 0.0) << stage;
  }
  for (const char *expected : {"type inference", "lowering", "target finalization",
                               "optimization: instcombine", "code generation and loading"})
    EXPECT_NE(std::find(stages.begin(), stages.end(), expected), stages.end()) << expected;
  // Exclusive pass times add up to no more than the whole compilation took.
  EXPECT_GT(compiled.times.total(), 0.0);
  EXPECT_LT(compiled.times.total(), 10.0);
}

TEST(CompilerTest, StageTimesAccumulateAStageEnteredTwice) {
  StageTimes times;
  times.add("lowering", 0.25);
  times.add("type inference", 0.5);
  times.add("lowering", 0.25);
  ASSERT_EQ(times.stages().size(), 2u);
  EXPECT_EQ(times.stages()[0].first, "lowering");
  EXPECT_DOUBLE_EQ(times.stages()[0].second, 0.5);
  EXPECT_DOUBLE_EQ(times.total(), 1.0);
  EXPECT_NE(times.report().find("total"), std::string::npos);
}

TEST(CompilerTest, UfuncLoopWalksStridedOperands) {
  CompileJob job{binaryFunction("ufunc_add", BinaryOp::Add),
                 {types::float64(), types::float64()},
                 nullptr,
                 JobTarget::UfuncLoop};
  CompiledFunction compiled = compileFunction(job);
  using Loop = void (*)(char **, const int64_t *, const int64_t *, void *);
  auto loop = reinterpret_cast<Loop>(compiled.entry);
  double a[6] = {1, 100, 2, 100, 3, 100}; // every other element
  double b = 0.5;                         // broadcast: step 0
  double out[3] = {};
  char *args[] = {reinterpret_cast<char *>(a), reinterpret_cast<char *>(&b),
                  reinterpret_cast<char *>(out)};
  int64_t count = 3;
  int64_t steps[] = {2 * sizeof(double), 0, sizeof(double)};
  loop(args, &count, steps, nullptr);
  EXPECT_EQ(out[0], 1.5);
  EXPECT_EQ(out[1], 2.5);
  EXPECT_EQ(out[2], 3.5);
}

TEST(CompilerTest, UfuncLoopRefusesArrayArguments) {
  SyntaxBuilder b("first", {"a"});
  b.body({b.ret(b.name("a"))});
  CompileJob job{
      b.source, {types::array(types::float64(), 1, 'C', false)}, nullptr, JobTarget::UfuncLoop};
  EXPECT_THROW(compileFunction(job), CompileError);
}
