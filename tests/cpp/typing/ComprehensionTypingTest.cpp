// ComprehensionTypingTest.cpp - Unit tests of syntax/Comprehensions.h and their typing: the loop
// a comprehension is read as, its hidden variables' types, and the check of a consumer's name.

#include "../testing/SyntaxBuilder.h"

#include "syntax/Comprehensions.h"
#include "typing/TypeInference.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace taipan;
using namespace taipan::test;

namespace {

class ThrowingCalleeTyper : public CalleeTyper {
public:
  TypedFunction *typeCallee(FunctionSource *, const std::vector<const Type *> &, SourceLocation,
                            const ConstantParameters &) override {
    throw std::logic_error("unexpected call to a jitted function");
  }
};

TypedFunction infer(SyntaxBuilder &builder, const std::vector<const Type *> &argumentTypes) {
  TypedFunction function;
  function.source = builder.source.get();
  function.argumentTypes = argumentTypes;
  ThrowingCalleeTyper callees;
  inferTypes(function, callees);
  inferTypesOnce(function, callees, true);
  return function;
}

/// `consumer(element for $1.i in range(n) [for $1.j in range(n)])`, as the reader builds it.
Expr *comprehension(SyntaxBuilder &b, Accumulation accumulation, const char *consumer,
                    Expr *element, bool twoClauses = false) {
  std::vector<ComprehensionClause> clauses = {
      {b.name("$1.i"), b.call(b.name("range"), {b.name("n")}), {}}};
  if (twoClauses)
    clauses.push_back({b.name("$1.j"), b.call(b.name("range"), {b.name("n")}), {}});
  return buildComprehension(*b.source, {2, 4}, "$1", accumulation, clauses, element,
                            consumer ? b.name(consumer) : nullptr, nullptr);
}

} // namespace

TEST(ComprehensionTypingTest, SumAccumulatesInTheWiderType) {
  // return sum(i * 0.5 for i in range(n))
  SyntaxBuilder b("sums", {"n"});
  b.resolver->names["range"] = builtinValue("range");
  b.resolver->names["sum"] = builtinValue("sum");
  Expr *sum = comprehension(b, Accumulation::Sum, "sum",
                            b.binary(BinaryOp::Mult, b.name("$1.i"), b.floating(0.5)));
  b.body({b.ret(sum)});
  ASSERT_EQ(sum->statements.size(), 2u); // $1 = 0; for $1.i in range(n): $1 = $1 + ...
  EXPECT_EQ(sum->statements[0]->kind, StmtKind::Assign);
  EXPECT_EQ(sum->statements[1]->kind, StmtKind::For);
  TypedFunction function = infer(b, {types::int64()});
  EXPECT_EQ(function.variableTypes.at("$1"), types::float64());
  EXPECT_EQ(function.variableTypes.at("$1.i"), types::int64());
  EXPECT_EQ(function.returnType, types::float64());
}

TEST(ComprehensionTypingTest, AnyLeavesEveryClauseOnceDecided) {
  // any(i == j for i in range(n) for j in range(n))
  SyntaxBuilder b("anyEqual", {"n"});
  b.resolver->names["range"] = builtinValue("range");
  b.resolver->names["any"] = builtinValue("any");
  Expr *any = comprehension(b, Accumulation::Any, "any",
                            b.compare(CompareOp::Eq, b.name("$1.i"), b.name("$1.j")), true);
  b.body({b.ret(any)});
  const Stmt *outer = any->statements[1];
  ASSERT_EQ(outer->kind, StmtKind::For);
  ASSERT_EQ(outer->body.size(), 2u); // the inner loop, then `if $1: break`
  EXPECT_EQ(outer->body[0]->kind, StmtKind::For);
  EXPECT_EQ(outer->body[1]->kind, StmtKind::If);
  EXPECT_EQ(outer->body[1]->body[0]->kind, StmtKind::Break);
  TypedFunction function = infer(b, {types::int64()});
  EXPECT_EQ(function.returnType, types::boolean());
}

TEST(ComprehensionTypingTest, ListComprehensionIsAListOfItsElements) {
  // return [i * 0.5 for i in range(n)]
  SyntaxBuilder b("halves", {"n"});
  b.resolver->names["range"] = builtinValue("range");
  Expr *list = comprehension(b, Accumulation::List, nullptr,
                             b.binary(BinaryOp::Mult, b.name("$1.i"), b.floating(0.5)));
  b.body({b.ret(list)});
  TypedFunction function = infer(b, {types::int64()});
  EXPECT_EQ(function.returnType, types::list(types::float64()));
}

TEST(ComprehensionTypingTest, ConsumerMustBeTheBuiltin) {
  // sum = n; return sum(i for i in range(n)): not the builtin, so unsupported
  SyntaxBuilder b("shadowed", {"n"});
  b.resolver->names["range"] = builtinValue("range");
  Expr *sum = comprehension(b, Accumulation::Sum, "sum", b.name("$1.i"));
  b.body({b.assign("sum", b.name("n")), b.ret(sum)});
  try {
    infer(b, {types::int64()});
    ADD_FAILURE() << "type inference did not fail";
  } catch (const CompileError &error) {
    EXPECT_EQ(error.kind, CompileErrorKind::Unsupported);
    EXPECT_NE(std::string(error.what()).find("builtin sum()"), std::string::npos);
  }
}
