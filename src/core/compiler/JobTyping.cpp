// Typing a compile job: the session that types the root and its callees until nothing changes
// (recursion included), the checks of the root's result against the job, and the job hash.
#include "compiler/JobTyping.h"

#include "compiler/JobHash.h"
#include "types/NumericPromotion.h"
#include "types/UserTypes.h"
#include "typing/ConstantArguments.h"
#include "typing/InferencePass.h"

#include <algorithm>
#include <functional>
#include <sstream>

namespace taipan {
namespace {

/// How many scalar leaves a type has, stopping early once it is large.
size_t typeSize(const Type *type) {
  if (!type->isTuple())
    return 1;
  size_t size = 0;
  for (const Type *element : type->elements()) {
    size += typeSize(element);
    if (size > 4096)
      break;
  }
  return size;
}

/// The values of constant parameters as text, part of a specialisation's key.
std::string constantsKey(const ConstantParameters &constants) {
  std::string key;
  for (const auto &[index, value] : constants) {
    key += std::to_string(index) + "=";
    if (value.kind == GlobalValue::Kind::ConstantTuple) {
      key += "(";
      for (const Constant &item : value.items)
        key += std::to_string(item.intValue) + ",";
      key += ")";
    } else {
      key += std::to_string(value.constant.intValue);
    }
    key += ";";
  }
  return key;
}

} // namespace

TypedFunction *CompileSession::typeCallee(FunctionSource *callee,
                                          const std::vector<const Type *> &argumentTypes,
                                          SourceLocation location,
                                          const ConstantParameters &constants) {
  auto key = std::make_tuple(callee, argumentTypes, constantsKey(constants));
  auto found = instances.find(key);
  if (found != instances.end())
    return found->second;
  if (++depth > 200)
    throwTypingError("calls between jitted functions nest too deeply", location);
  // Recursion that builds ever larger argument types (f((x, x), n - 1)) never settles.
  for (const Type *argument : argumentTypes)
    if (typeSize(argument) > 1024)
      throwTypingError("the argument types of " + callee->name +
                           "() grow without bound through recursion (" +
                           argument->name().substr(0, 80) + "...)",
                       location);
  size_t typed = functions.size();
  TypedFunction &function = functions.emplace_back();
  function.source = callee;
  function.argumentTypes = argumentTypes;
  function.constantParameters = constants;
  for (const auto &[index, value] : constants) {
    bool assigned = false;
    for (Expr *read : readsOfName(*callee, callee->parameters[index].name, assigned))
      function.globals[read->id] = value;
  }
  instances.emplace(key, &function);
  function.inProgress = true;
  try {
    inferTypes(function, *this);
  } catch (ConstantParametersNeeded &needed) {
    // The caller types it again with constants: this attempt, and what it typed, go.
    if (!needed.function)
      needed.function = callee;
    forgetFrom(typed);
    --depth;
    throw;
  } catch (CompileError &error) {
    if (!error.function)
      error.function = callee;
    // A caller may type it again (with constant arguments): nothing of this attempt remains.
    forgetFrom(typed);
    --depth;
    throw;
  }
  function.inProgress = false;
  --depth;
  return &function;
}

TypedFunction &CompileSession::typeRoot(FunctionSource *root,
                                        const std::vector<const Type *> &argumentTypes) {
  TypedFunction *function = typeCallee(root, argumentTypes, root->definitionLocation);
  auto converge = [&] {
    for (int round = 0; round < 64; ++round) {
      bool changed = false;
      for (size_t i = 0; i < functions.size(); ++i)
        changed |= runAttributed(functions[i], false);
      if (!changed)
        break;
    }
  };
  converge();
  // A variable read where it may be unassigned, whose every assignment a constant condition
  // pruned, is still untyped: such reads always raise, so it gets a type, and the rest settles
  // again. Only functions with such reads (syntax/VariableVersions.h) pay for the pass.
  bool settled = false;
  for (size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].source->uninitializedReads.empty())
      continue;
    InferencePass pass(functions[i], *this, false);
    pass.typesUnassignedReads = true;
    try {
      settled |= pass.run();
    } catch (CompileError &error) {
      if (!error.function)
        error.function = functions[i].source;
      throw;
    }
  }
  if (settled)
    converge();
  for (size_t i = 0; i < functions.size(); ++i)
    runAttributed(functions[i], true);
  return *function;
}

TypedFunction *CompileSession::typeVariant(FunctionSource *root,
                                           const std::vector<const Type *> &argumentTypes) {
  size_t typed = functions.size();
  int savedDepth = depth;
  try {
    return &typeRoot(root, argumentTypes);
  } catch (CompileError &) {
    forgetFrom(typed);
    depth = savedDepth;
    return nullptr;
  }
}

void CompileSession::forgetFrom(size_t typed) {
  while (functions.size() > typed) {
    const TypedFunction &last = functions.back();
    instances.erase(
        std::make_tuple(last.source, last.argumentTypes, constantsKey(last.constantParameters)));
    functions.pop_back();
  }
}

std::string CompileSession::nameFunctions(TypedFunction &root) {
  FunctionDigests digests;
  std::string rootDigest = digests.of(root);
  for (TypedFunction &function : functions)
    function.symbolName = symbolFor(function.source->name, digests.of(function));
  return rootDigest;
}

bool CompileSession::runAttributed(TypedFunction &function, bool reportUnknown) {
  try {
    return inferTypesOnce(function, *this, reportUnknown);
  } catch (CompileError &error) {
    if (!error.function)
      error.function = function.source;
    throw;
  }
}

std::string annotateTypes(const TypedFunction &function) {
  const FunctionSource &source = *function.source;
  std::ostringstream text;
  text << source.name << " (";
  for (size_t i = 0; i < function.argumentTypes.size(); ++i)
    text << (i ? ", " : "") << function.argumentTypes[i]->name();
  text << ") -> " << function.returnType->name() << "\n"
       << std::string(80, '-') << "\n# File: " << source.filename << "\n";
  for (size_t line = 1; line <= source.sourceLines.size(); ++line) {
    text << "# --- LINE " << source.fileLine(static_cast<int>(line)) << " --- \n";
    auto assigned = function.assignmentsByLine.find(static_cast<int>(line));
    if (line == static_cast<size_t>(source.definitionLocation.line))
      for (size_t i = 0; i < source.parameters.size(); ++i)
        text << "#   " << source.parameters[i].name << " = arg(" << i
             << ", name=" << source.parameters[i].name
             << ")  :: " << function.argumentTypes[i]->name() << "\n";
    bool isDefinition = line == static_cast<size_t>(source.definitionLocation.line);
    if (assigned != function.assignmentsByLine.end() && !isDefinition)
      for (const std::string &name : assigned->second)
        text << "#   " << name << "  :: " << function.variableTypes.at(name)->name() << "\n";
    text << "\n" << source.sourceLines[line - 1] << "\n\n";
  }
  text << std::string(80, '=') << "\n";
  return text.str();
}

namespace {
/// Whether a value of `type` may be, hold or view an array (conservative: only numbers,
/// strings, None and tuples of those certainly do not).
bool mayHoldArray(const Type *type) {
  if (!type || type->isNumber() || type->isString() || type->isNone() || type->isDatetimeLike())
    return false;
  if (type->isTuple())
    return std::any_of(type->elements().begin(), type->elements().end(), mayHoldArray);
  return true;
}

/// A NumPy dtype as compiled code holds it, carrying nothing at run time: a scalar class
/// (a.dtype, np.float32) or a dtype object (a record's). Returned, Python gets a np.dtype, as
/// Numba boxes its DType and NumberClass (bindings/Boxing.cpp: boxDtype).
bool isReturnableDtype(const Type *type) {
  if (type->isTuple() && !type->elements().empty()) // (a.shape, a.dtype)
    return std::all_of(type->elements().begin(), type->elements().end(), [](const Type *item) {
      return item->isRuntimeValue() || isReturnableDtype(item);
    });
  if (type->kind() == TypeKind::DType)
    return type->dtype() && (type->dtype()->isRecord() || type->dtype()->isNumber() ||
                             type->dtype()->isBoolean() || type->dtype()->isDatetimeLike());
  if (type->kind() != TypeKind::Builtin || type->text().rfind("numpy.", 0) != 0)
    return false;
  std::string name = type->text().substr(6);
  if (name.rfind("datetime64[", 0) == 0 || name.rfind("timedelta64[", 0) == 0)
    return true; // a datetime array's a.dtype, which names its unit
  const Type *scalar = types::scalarByName(name);
  return scalar && (scalar->isNumber() || scalar->isBoolean());
}
} // namespace

std::vector<std::string> arrayHoldingVariables(const TypedFunction &function) {
  std::vector<std::string> names;
  for (const auto &[name, type] : function.variableTypes) {
    if (!mayHoldArray(type))
      continue;
    names.push_back(name);
    // A name typing made for one assignment of a source variable (`x.2`) counts for `x`.
    size_t identifier =
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (identifier != std::string::npos && identifier > 0)
      names.push_back(name.substr(0, identifier));
  }
  return names;
}

std::string typeJob(const CompileJob &job, const Target &target, CompileSession &session,
                    TypedFunction *&rootOut, std::vector<TypedFunction *> *variants) {
  const std::shared_ptr<FunctionSource> &source = job.source;
  const std::vector<const Type *> &argumentTypes = job.argumentTypes;
  if (argumentTypes.size() != source->parameters.size())
    throwTypingError(source->name + "() takes " + std::to_string(source->parameters.size()) +
                         " arguments but " + std::to_string(argumentTypes.size()) + " were given",
                     source->definitionLocation);
  TypedFunction *typedRoot = nullptr;
  try {
    typedRoot = &session.typeRoot(source.get(), argumentTypes);
  } catch (LiteralParametersNeeded &needed) {
    // Only the root's parameters are the dispatcher's to specialise (ForceLiteralArg).
    if (needed.source == source.get())
      throw;
    throw CompileError(CompileErrorKind::Typing, needed.what(), needed.location, needed.function);
  }
  TypedFunction &root = *typedRoot;
  const Type *declaredReturnType = job.declaredReturnType;
  if (declaredReturnType && declaredReturnType != root.returnType) {
    InferencePass::checkDeclaredReturn(root, source->name + "()", root.returnType,
                                       declaredReturnType, source->definitionLocation);
    root.returnType = declaredReturnType;
  }
  // A jitted function returned carries nothing at run time; Python gets its dispatcher.
  bool returnsDispatcher = root.returnType->kind() == TypeKind::JitFunction && source->resolver &&
                           source->resolver->hasDispatcher(*root.returnType->function());
  if (!root.returnType->isRuntimeValue() && !returnsDispatcher &&
      !isReturnableDtype(root.returnType))
    throw CompileError(CompileErrorKind::Conversion,
                       "cannot convert native " + root.returnType->name() +
                           " to Python object: the function cannot return a value of type " +
                           root.returnType->name(),
                       source->definitionLocation);
  rootOut = &root;
  if (variants)
    for (const std::vector<const Type *> &types : target.entryVariants(root))
      variants->push_back(session.typeVariant(source.get(), types));
  return jobHash(job, target, session.nameFunctions(root));
}

} // namespace taipan
