// The exception-argument descriptor, "unicode_type int64 ( float64 bool ) ": one name a value,
// tuples in parentheses, each name followed by a space (runtime/ExceptionArguments.h).
#include "lower/ExceptionDescriptors.h"

namespace taipan {

bool describeExceptionArgument(const Type *type, std::string &descriptor) {
  if (type->kind() == TypeKind::StringLiteral)
    type = types::unicode();
  if (type->isTuple()) {
    descriptor += "( ";
    for (const Type *element : type->elements())
      if (!describeExceptionArgument(element, descriptor))
        return false;
    descriptor += ") ";
    return true;
  }
  if (types::scalarByName(type->name()) != type)
    return false;
  descriptor += type->name() + " ";
  return true;
}

} // namespace taipan
