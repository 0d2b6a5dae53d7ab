// UnassignedReadsTest.cpp - Unit tests of the reads syntax/VariableVersions.h finds a path may
// reach unassigned: which reads get a flag to check, the flag's assignments, and that reads
// every path assigns first leave the tree unchanged.

#include "../testing/SyntaxBuilder.h"

#include "syntax/VariableVersions.h"

#include <gtest/gtest.h>

using namespace taipan;
using namespace taipan::test;

namespace {

/// Whether `stmt` is `flag = value` with a boolean constant.
bool assignsFlag(const Stmt *stmt, const std::string &flag, bool value) {
  return stmt->kind == StmtKind::Assign && stmt->targets.size() == 1 &&
         stmt->targets[0]->name == flag && stmt->value->kind == ExprKind::Constant &&
         stmt->value->constant.kind == Constant::Kind::Bool &&
         stmt->value->constant.intValue == (value ? 1 : 0);
}

TEST(UnassignedReadsTest, IfWithoutElseFlagsTheRead) {
  SyntaxBuilder b("f", {"c"});
  Expr *read = b.name("x");
  Stmt *branch = b.ifStmt(b.name("c"), {b.assign("x", b.integer(1))});
  b.body({branch, b.ret(read)});
  assignVariableVersions(*b.source);
  EXPECT_EQ(read->boundFlag, "$bound.x");
  ASSERT_EQ(b.source->uninitializedReads.size(), 1u);
  EXPECT_EQ(b.source->uninitializedReads[0].first, "x");
  ASSERT_EQ(b.source->body.size(), 3u); // the flag's start, the if, the return
  EXPECT_TRUE(assignsFlag(b.source->body[0], "$bound.x", false));
  ASSERT_EQ(branch->body.size(), 2u); // x = 1, then the flag
  EXPECT_TRUE(assignsFlag(branch->body[1], "$bound.x", true));
}

TEST(UnassignedReadsTest, EveryPathAssigningLeavesTheTreeAlone) {
  SyntaxBuilder b("f", {"c"});
  Expr *read = b.name("x");
  Stmt *branch =
      b.ifStmt(b.name("c"), {b.assign("x", b.integer(1))}, {b.assign("x", b.integer(2))});
  b.body({branch, b.ret(read)});
  assignVariableVersions(*b.source);
  EXPECT_TRUE(read->boundFlag.empty());
  EXPECT_TRUE(b.source->uninitializedReads.empty());
  EXPECT_EQ(b.source->body.size(), 2u);
  EXPECT_EQ(branch->body.size(), 1u);
  EXPECT_EQ(branch->orelse.size(), 1u);
}

TEST(UnassignedReadsTest, ParametersAreAlwaysAssigned) {
  SyntaxBuilder b("f", {"n"});
  Expr *read = b.name("n");
  b.body({b.ifStmt(b.name("n"), {b.assign("n", b.integer(0))}), b.ret(read)});
  assignVariableVersions(*b.source);
  EXPECT_TRUE(read->boundFlag.empty());
  EXPECT_TRUE(b.source->uninitializedReads.empty());
}

TEST(UnassignedReadsTest, LoopOfNoIterationsLeavesItsVariablesUnassigned) {
  SyntaxBuilder b("f", {"n"});
  Expr *readTarget = b.name("i");
  Expr *readAssigned = b.name("z");
  Stmt *loop =
      b.forLoop(b.name("i"), b.call(b.name("range"), {b.name("n")}), {b.assign("z", b.name("i"))});
  b.body({loop, b.ret(b.tuple({readTarget, readAssigned}))});
  assignVariableVersions(*b.source);
  EXPECT_EQ(readTarget->boundFlag, "$bound.i");
  EXPECT_EQ(readAssigned->boundFlag, "$bound.z");
  // the target's flag first in the body, the assigned name's after its assignment
  ASSERT_EQ(loop->body.size(), 3u);
  EXPECT_TRUE(assignsFlag(loop->body[0], "$bound.i", true));
  EXPECT_TRUE(assignsFlag(loop->body[2], "$bound.z", true));
}

TEST(UnassignedReadsTest, UpdateNoAssignmentReachesJoinsTheFirstVersion) {
  // numba-cuda's test_undefined_var: `c += 1` on a path where c was never assigned
  SyntaxBuilder b("f", {"n"});
  Stmt *update = b.augAssign("c", BinaryOp::Add, b.integer(1));
  Stmt *branch = b.ifStmt(b.name("n"), {b.assign("c", b.integer(0)), b.ret(b.name("c"))},
                          {update, b.ret(b.name("c"))});
  b.body({branch});
  assignVariableVersions(*b.source);
  EXPECT_EQ(update->targets[0]->name, "c"); // typed as the assignment's version
  EXPECT_EQ(update->targets[0]->boundFlag, "$bound.c");
  EXPECT_EQ(b.source->uninitializedReads.size(), 1u);
}

TEST(UnassignedReadsTest, HandlersSeeNamesTheTryBodyAssigns) {
  SyntaxBuilder b("f", {"c"});
  Expr *readInHandler = b.name("v");
  Stmt *attempt = b.simple(StmtKind::Try);
  attempt->body = {b.assign("v", b.integer(3))};
  ExceptHandler handler;
  handler.body = {b.ret(readInHandler)};
  attempt->handlers.push_back(handler);
  Expr *readAfter = b.name("v");
  b.body({attempt, b.ret(readAfter)});
  assignVariableVersions(*b.source);
  EXPECT_EQ(readInHandler->boundFlag, "$bound.v"); // the body may raise before assigning
  EXPECT_TRUE(readAfter->boundFlag.empty());       // the body finished, or the handler returned
}

} // namespace
