// Python's builtins that ask about a value's class: isinstance(), decided from the value's type
// when the function compiles (typing/Isinstance.h); type inference types its calls itself
// (its second argument names classes, which are not values) and prunes `if isinstance(...)`.
// type(x) is the class as a compile-time value: the conversion builtin of a number or string
// (`type(x)(3)` is float(3) for a float x), or a named tuple's class.
#include "library/Library.h"

#include "lower/FunctionLowering.h"
#include "lower/LowerTypes.h"
#include "support/CompileError.h"

namespace taipan {

void registerIntrospection(Library &library) {
  library.add(
      "isinstance", {{"", false}, {"", false}},
      [](LibraryCall &call) -> const Type * {
        // TypeInference::typeIsinstance records isinstance calls; this rule is never asked.
        throw CompileError(CompileErrorKind::Internal, "isinstance() typed as a library call",
                           call.location);
      },
      [](FunctionLowering &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &) -> llvm::Value * {
        // The value was lowered (evaluated) for its effects; the answer is the recorded one.
        return lowering.irBuilder().getInt1(call.form != 0);
      });
  library.add(
      "type", {{"", false}},
      [](LibraryCall &call) -> const Type * {
        const Type *value = call.argumentTypes[0];
        if (value->isNamedTuple()) // its class, which makes instances when called
          return types::dtypeValue(
              types::namedTuple(value->text(), value->namedTupleClass(), value->fieldNames(), {}));
        std::string name;
        if (value->isBoolean())
          name = "bool";
        else if (value->isInteger())
          name = value == types::int64() ? "int" : "numpy." + value->name();
        else if (value->isFloat())
          name = value == types::float64() ? "float" : "numpy." + value->name();
        else if (value->isComplex())
          name = value == types::complex128() ? "complex" : "numpy." + value->name();
        else if (value->isString())
          name = "str";
        if (name.empty() || !Library::get().find(name))
          throwTypingError("type() of a value of type " + value->name() +
                               " is not supported in compiled code (numbers, strings and named "
                               "tuples only)",
                           call.location);
        return types::builtin(name);
      },
      [](FunctionLowering &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &) -> llvm::Value * {
        // A class known while compiling: no run-time value.
        return llvm::UndefValue::get(valueType(lowering.llvmContext(), call.resultType));
      });
}

} // namespace taipan
