// TypeInferenceTest.cpp - Unit tests of typing/TypeInference.h on syntax trees built by hand:
// variable and return types found by the fixpoint, globals through the resolver, typing errors.

#include "../testing/SyntaxBuilder.h"
#include "../testing/TypePrinter.h"

#include "typing/TypeInference.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace taipan;
using namespace taipan::test;

namespace {

/// The tests compile single functions; a call to another jitted function is a test failure.
class ThrowingCalleeTyper : public CalleeTyper {
public:
  TypedFunction *typeCallee(FunctionSource *, const std::vector<const Type *> &, SourceLocation,
                            const ConstantParameters &) override {
    throw std::logic_error("unexpected call to a jitted function");
  }
};

/// Runs inference as the compiler does: passes until nothing changes, then a reporting pass.
TypedFunction infer(SyntaxBuilder &builder, const std::vector<const Type *> &argumentTypes) {
  TypedFunction function;
  function.source = builder.source.get();
  function.argumentTypes = argumentTypes;
  ThrowingCalleeTyper callees;
  inferTypes(function, callees);
  inferTypesOnce(function, callees, true);
  return function;
}

/// Infers and returns the CompileError it must throw.
CompileError inferError(SyntaxBuilder &builder, const std::vector<const Type *> &argumentTypes) {
  try {
    infer(builder, argumentTypes);
  } catch (const CompileError &error) {
    return error;
  }
  ADD_FAILURE() << "type inference did not fail";
  return CompileError(CompileErrorKind::Internal, "", {});
}

/// A resolver that knows a few builtins and the math module.
void addBuiltins(SyntaxBuilder &builder) {
  builder.resolver->names["range"] = builtinValue("range");
  builder.resolver->names["abs"] = builtinValue("abs");
  builder.resolver->names["math"] = moduleValue("math");
  builder.resolver->attributes["math.sqrt"] = builtinValue("math.sqrt");
  builder.resolver->attributes["math.floor"] = builtinValue("math.floor");
  builder.resolver->attributes["math.pi"] = constantValue(floatConstant(3.141592653589793));
}

TEST(TypeInferenceTest, VariableWidensToFloat) {
  // x = 1; x = x + 2.5; return x
  SyntaxBuilder b("widen");
  Expr *sum = b.binary(BinaryOp::Add, b.name("x"), b.floating(2.5));
  Expr *returned = b.name("x");
  b.body({b.assign("x", b.integer(1)), b.assign("x", sum), b.ret(returned)});
  TypedFunction function = infer(b, {});
  EXPECT_EQ(function.variableTypes.at("x"), types::float64());
  EXPECT_EQ(function.returnType, types::float64());
  EXPECT_EQ(function.typeOf(sum), types::float64());
  EXPECT_EQ(function.typeOf(returned), types::float64());
}

TEST(TypeInferenceTest, ParametersTakeArgumentTypes) {
  // def f(a, b): c = a * b; return c
  SyntaxBuilder b("params", {"a", "b"});
  b.body({b.assign("c", b.binary(BinaryOp::Mult, b.name("a"), b.name("b"))), b.ret(b.name("c"))});
  TypedFunction function = infer(b, {types::integer(32, true), types::integer(32, true)});
  EXPECT_EQ(function.variableTypes.at("a"), types::integer(32, true));
  EXPECT_EQ(function.variableTypes.at("c"), types::int64());
  EXPECT_EQ(function.returnType, types::int64());

  TypedFunction floats = infer(b, {types::float32(), types::integer(8, true)});
  EXPECT_EQ(floats.returnType, types::float32());
}

TEST(TypeInferenceTest, TrueDivisionOfIntegersIsFloat) {
  SyntaxBuilder b("divide", {"a", "b"});
  b.body({b.ret(b.binary(BinaryOp::Div, b.name("a"), b.name("b")))});
  EXPECT_EQ(infer(b, {types::int64(), types::int64()}).returnType, types::float64());
}

TEST(TypeInferenceTest, ReturnsATuple) {
  // def f(a, b): t = (a, b); return (t[1], a > 0, t)
  SyntaxBuilder b("pack", {"a", "b"});
  b.body({b.assign("t", b.tuple({b.name("a"), b.name("b")})),
          b.ret(b.tuple({b.subscript(b.name("t"), b.integer(1)),
                         b.compare(CompareOp::Gt, b.name("a"), b.integer(0)), b.name("t")}))});
  TypedFunction function = infer(b, {types::int64(), types::float64()});
  const Type *pair = types::tuple({types::int64(), types::float64()});
  EXPECT_EQ(function.variableTypes.at("t"), pair);
  EXPECT_EQ(function.returnType, types::tuple({types::float64(), types::boolean(), pair}));
  EXPECT_EQ(function.returnType->name(), "Tuple(float64, bool, Tuple(int64, float64))");
}

TEST(TypeInferenceTest, TupleUnpacking) {
  // a, b = (1, 2.0); return a
  SyntaxBuilder b("unpack");
  b.body({b.assign(b.tuple({b.name("a"), b.name("b")}), b.tuple({b.integer(1), b.floating(2.0)})),
          b.ret(b.name("a"))});
  TypedFunction function = infer(b, {});
  EXPECT_EQ(function.variableTypes.at("a"), types::int64());
  EXPECT_EQ(function.variableTypes.at("b"), types::float64());
  EXPECT_EQ(function.returnType, types::int64());
}

TEST(TypeInferenceTest, LoopOverRange) {
  // s = 0; for i in range(n): s = s + i * 0.5; return s
  SyntaxBuilder b("loop", {"n"});
  addBuiltins(b);
  Expr *rangeCall = b.call(b.name("range"), {b.name("n")});
  b.body(
      {b.assign("s", b.integer(0)),
       b.forLoop(b.name("i"), rangeCall,
                 {b.assign("s", b.binary(BinaryOp::Add, b.name("s"),
                                         b.binary(BinaryOp::Mult, b.name("i"), b.floating(0.5))))}),
       b.ret(b.name("s"))});
  TypedFunction function = infer(b, {types::integer(32, true)});
  EXPECT_EQ(function.typeOf(rangeCall), types::range());
  EXPECT_EQ(function.variableTypes.at("i"), types::int64());
  EXPECT_EQ(function.variableTypes.at("s"), types::float64());
  EXPECT_EQ(function.returnType, types::float64());
}

TEST(TypeInferenceTest, LoopOverUniformTuple) {
  // total = 0; for v in (1.5, 2.5): total += v; return total
  SyntaxBuilder b("tupleLoop");
  b.body({b.assign("total", b.integer(0)),
          b.forLoop(b.name("v"), b.tuple({b.floating(1.5), b.floating(2.5)}),
                    {b.augAssign("total", BinaryOp::Add, b.name("v"))}),
          b.ret(b.name("total"))});
  TypedFunction function = infer(b, {});
  EXPECT_EQ(function.variableTypes.at("v"), types::float64());
  EXPECT_EQ(function.variableTypes.at("total"), types::float64());
}

TEST(TypeInferenceTest, WhileLoopWithAugmentedAssignment) {
  // i = 0; while i < n: i += 1; return i
  SyntaxBuilder b("count", {"n"});
  b.body({b.assign("i", b.integer(0)),
          b.whileLoop(b.compare(CompareOp::Lt, b.name("i"), b.name("n")),
                      {b.augAssign("i", BinaryOp::Add, b.integer(1))}),
          b.ret(b.name("i"))});
  TypedFunction function = infer(b, {types::int64()});
  EXPECT_EQ(function.variableTypes.at("i"), types::int64());
  EXPECT_EQ(function.returnType, types::int64());
}

TEST(TypeInferenceTest, ReturnTypesOfBranchesUnify) {
  // if a: return 1 else: return 2.5
  SyntaxBuilder b("branches", {"a"});
  b.body({b.ifStmt(b.name("a"), {b.ret(b.integer(1))}, {b.ret(b.floating(2.5))})});
  EXPECT_EQ(infer(b, {types::boolean()}).returnType, types::float64());
}

TEST(TypeInferenceTest, FunctionWithoutReturnReturnsNone) {
  SyntaxBuilder b("nothing", {"a"});
  b.body({b.assign("x", b.name("a")), b.simple(StmtKind::Pass)});
  EXPECT_EQ(infer(b, {types::int64()}).returnType, types::none());
}

TEST(TypeInferenceTest, ReturnOnOneBranchAlsoReturnsNone) {
  // if a: return 1   (falls off the end otherwise): an optional int, as in Numba
  SyntaxBuilder b("partial", {"a"});
  b.body({b.ifStmt(b.name("a"), {b.ret(b.integer(1))})});
  EXPECT_EQ(infer(b, {types::boolean()}).returnType, types::optional(types::int64()));
}

TEST(TypeInferenceTest, GlobalsResolveThroughTheResolver) {
  // return math.sqrt(x) + math.pi + abs(-x)
  SyntaxBuilder b("globals", {"x"});
  addBuiltins(b);
  Expr *math = b.name("math");
  Expr *sqrt = b.attribute(math, "sqrt");
  Expr *pi = b.attribute(b.name("math"), "pi");
  Expr *absCall = b.call(b.name("abs"), {b.unary(UnaryOp::Neg, b.name("x"))});
  b.body({b.ret(
      b.binary(BinaryOp::Add, b.binary(BinaryOp::Add, b.call(sqrt, {b.name("x")}), pi), absCall))});
  TypedFunction function = infer(b, {types::int64()});
  EXPECT_EQ(function.typeOf(math), types::module("math"));
  EXPECT_EQ(function.typeOf(sqrt), types::builtin("math.sqrt"));
  EXPECT_EQ(function.typeOf(pi), types::float64());
  EXPECT_EQ(function.typeOf(absCall), types::int64());
  EXPECT_EQ(function.returnType, types::float64());
  ASSERT_TRUE(function.globals.count(sqrt->id));
  EXPECT_EQ(function.globals.at(sqrt->id).kind, GlobalValue::Kind::Builtin);
  EXPECT_EQ(function.globals.at(sqrt->id).name, "math.sqrt");
  EXPECT_EQ(function.globals.at(math->id).kind, GlobalValue::Kind::Module);
}

TEST(TypeInferenceTest, MathFloorReturnsInt) {
  SyntaxBuilder b("floor", {"x"});
  addBuiltins(b);
  b.body({b.ret(b.call(b.attribute(b.name("math"), "floor"), {b.name("x")}))});
  EXPECT_EQ(infer(b, {types::float64()}).returnType, types::int64());
}

TEST(TypeInferenceTest, TupleOperandIsATypingErrorAtTheOperator) {
  // line 3: return a + (1, 2)
  SyntaxBuilder b("bad", {"a"});
  b.at(3, 4);
  Stmt *statement = b.ret(nullptr);
  b.at(3, 11);
  Expr *left = b.name("a");
  Expr *sum = b.binary(BinaryOp::Add, left, nullptr);
  b.at(3, 15);
  sum->operands[1] = b.tuple({b.integer(1), b.integer(2)});
  statement->value = sum;
  b.body({statement});
  const CompileError error = inferError(b, {types::int64()});
  EXPECT_EQ(error.kind, CompileErrorKind::Typing);
  EXPECT_EQ(error.location.line, 3);
  EXPECT_EQ(error.location.column, 11);
  EXPECT_NE(std::string(error.what()).find("unsupported operand types for +"), std::string::npos)
      << error.what();
  EXPECT_NE(std::string(error.what()).find("int64 and UniTuple(int64 x 2)"), std::string::npos)
      << error.what();
}

TEST(TypeInferenceTest, UndefinedNameIsATypingError) {
  SyntaxBuilder b("undefined");
  b.at(2, 11);
  b.body({b.ret(b.name("y"))});
  const CompileError error = inferError(b, {});
  EXPECT_EQ(error.kind, CompileErrorKind::Typing);
  EXPECT_EQ(error.location.line, 2);
  EXPECT_EQ(error.location.column, 11);
  EXPECT_STREQ(error.what(), "NameError: name 'y' is not defined");
}

TEST(TypeInferenceTest, MissingModuleAttributeIsATypingError) {
  SyntaxBuilder b("attribute");
  addBuiltins(b);
  b.at(4, 7);
  b.body({b.ret(b.attribute(b.name("math"), "nosuch"))});
  const CompileError error = inferError(b, {});
  EXPECT_EQ(error.location.line, 4);
  EXPECT_STREQ(error.what(), "module 'math' has no attribute 'nosuch'");
}

TEST(TypeInferenceTest, IncompatibleAssignmentsAreATypingError) {
  // x = 1; x = (1, 2)
  SyntaxBuilder b("unify");
  b.body({b.assign("x", b.integer(1))});
  b.at(2, 0);
  b.body({b.assign("x", b.tuple({b.integer(1), b.integer(2)}))});
  const CompileError error = inferError(b, {});
  EXPECT_EQ(error.kind, CompileErrorKind::Typing);
  EXPECT_EQ(error.location.line, 2);
  EXPECT_NE(std::string(error.what()).find("variable 'x'"), std::string::npos) << error.what();
}

TEST(TypeInferenceTest, ComplexOrderingIsATypingError) {
  SyntaxBuilder b("order", {"z"});
  b.at(5, 9);
  b.body({b.ret(b.compare(CompareOp::Lt, b.name("z"), b.integer(0)))});
  const CompileError error = inferError(b, {types::complex128()});
  EXPECT_EQ(error.location.line, 5);
  EXPECT_EQ(error.location.column, 9);
  EXPECT_NE(std::string(error.what()).find("cannot compare complex128 < int64"), std::string::npos)
      << error.what();
}

TEST(TypeInferenceTest, CallsToJittedFunctionsGoThroughTheCalleeTyper) {
  SyntaxBuilder callee("helper", {"v"});
  callee.body({callee.ret(callee.name("v"))});
  SyntaxBuilder b("caller");
  GlobalValue helper;
  helper.kind = GlobalValue::Kind::JitFunction;
  helper.name = "helper";
  helper.function = callee.source;
  b.resolver->names["helper"] = helper;
  b.body({b.ret(b.call(b.name("helper"), {b.integer(1)}))});
  EXPECT_THROW(infer(b, {}), std::logic_error);
}

TEST(TypeInferenceTest, AssignmentsAreRecordedByLine) {
  SyntaxBuilder b("lines");
  b.at(2);
  b.body({b.assign("x", b.integer(1))});
  b.at(3);
  b.body({b.assign("y", b.floating(1.0)), b.assign("x", b.integer(2))});
  TypedFunction function = infer(b, {});
  EXPECT_EQ(function.assignmentsByLine.at(2), std::vector<std::string>{"x"});
  EXPECT_EQ(function.assignmentsByLine.at(3), (std::vector<std::string>{"y", "x"}));
}

} // namespace
