// Python's builtins that ask about a value's class or attributes, decided from its type when
// the function compiles: isinstance() (typing/Isinstance.h) and getattr()/hasattr() with a
// constant name; type inference types these calls itself (isinstance's second argument names
// classes, which are not values) and prunes `if isinstance(...)` and `if hasattr(...)`.
// type(x) is the class as a compile-time value: the conversion builtin of a number or string
// (`type(x)(3)` is float(3) for a float x), or a named tuple's class.
#include "library/Families.h"

#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "support/CompileError.h"
#include "typing/Isinstance.h"

namespace taipan {

void registerIntrospection(Library &library) {
  library.add(
      "isinstance", {{"", false}, {"", false}},
      [](LibraryCall &call) -> const Type * {
        // TypeInference::typeIsinstance records isinstance calls; this rule is never asked.
        throw CompileError(CompileErrorKind::Internal, "isinstance() typed as a library call",
                           call.location);
      },
      [](LoweringApi &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &arguments) -> llvm::Value * {
        // The value was lowered (evaluated) for its effects; the answer is the recorded one,
        // or an optional's flag (typing/Isinstance.h).
        auto answer = static_cast<IsinstanceAnswer>(call.form);
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        if (answer == IsinstanceAnswer::True || answer == IsinstanceAnswer::False)
          return builder.getInt1(answer == IsinstanceAnswer::True);
        llvm::Value *present =
            builder.CreateICmpNE(builder.CreateExtractValue(arguments[0], 0), builder.getInt8(0));
        return answer == IsinstanceAnswer::WhenNotNone ? present : builder.CreateNot(present);
      });
  // getattr(value, 'name'[, default]) and hasattr(value, 'name'): TypeInference's
  // typeAttributeQuery types `value.name` and records the expression the call stands for (the
  // attribute or the default) as getattr's one argument, and hasattr's answer as its form.
  library.add(
      "getattr", {{"", false}, {"", false}, {"", true}},
      [](LibraryCall &call) -> const Type * {
        throw CompileError(CompileErrorKind::Internal, "getattr() typed as a library call",
                           call.location);
      },
      [](LoweringApi &, const LibraryCall &,
         const std::vector<llvm::Value *> &arguments) -> llvm::Value * { return arguments[0]; });
  library.add(
      "hasattr", {{"", false}, {"", false}},
      [](LibraryCall &call) -> const Type * {
        throw CompileError(CompileErrorKind::Internal, "hasattr() typed as a library call",
                           call.location);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &)
          -> llvm::Value * { return lowering.irBuilder().getInt1(call.form != 0); });
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
      [](LoweringApi &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &) -> llvm::Value * {
        // A class known while compiling: no run-time value.
        return llvm::UndefValue::get(valueType(lowering.llvmContext(), call.resultType));
      });
}

} // namespace taipan
