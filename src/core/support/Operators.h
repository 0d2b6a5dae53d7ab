// Python's operators as enumerations: the syntax tree records them, and the numeric rules of
// types/ (NumericPromotion) decide their result types, without either depending on the other.
#pragma once

namespace taipan {

enum class BinaryOp {
  Add,
  Sub,
  Mult,
  Div,
  FloorDiv,
  Mod,
  Pow,
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor,
  MatMult
};
enum class UnaryOp { Neg, Pos, Invert, Not };
enum class CompareOp { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

} // namespace taipan
