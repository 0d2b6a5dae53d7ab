// Python's str in compiled code: the str() constructor, ord, chr, hash, and the methods of
// strings ("str.upper", ...), each lowered to a call of the string runtime (runtime/Strings.h).
#include "library/Families.h"

#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/StringLowering.h"
#include "runtime/Lists.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// Parameters taken by position only (as str's methods take them).
std::vector<LibraryParameter> positional(size_t required, size_t optional = 0) {
  std::vector<LibraryParameter> parameters(required + optional);
  for (size_t i = required; i < parameters.size(); ++i)
    parameters[i].optional = true;
  return parameters;
}

bool isString(const LibraryCall &call, size_t i) {
  return i < call.argumentTypes.size() && call.argumentTypes[i] &&
         call.argumentTypes[i]->isString();
}

/// An optional argument that is absent or None.
bool isAbsent(const LibraryCall &call, size_t i) {
  return i >= call.argumentTypes.size() || !call.argumentTypes[i] ||
         call.argumentTypes[i]->isNone();
}

/// Checks each argument: 's' a string, 'i' an integer, 'n' an integer or None (optional ones may
/// be left out), 'S' a string or None.
void expect(const LibraryCall &call, const std::string &kinds) {
  for (size_t i = 0; i < call.argumentTypes.size(); ++i) {
    const Type *type = call.argumentTypes[i];
    if (!type)
      continue;
    char kind = i < kinds.size() ? kinds[i] : '?';
    bool ok = kind == 's'   ? type->isString()
              : kind == 'i' ? type->isIntegerLike()
              : kind == 'n' ? type->isIntegerLike() || type->isNone()
              : kind == 'S' ? type->isString() || type->isNone()
                            : false;
    if (!ok)
      throwNoOverload(call);
  }
}

llvm::Value *stringArgument(LoweringApi &lowering, const LibraryCall &call, const Values &values,
                            size_t i) {
  return lowering.strings().asStringValue(values[i], call.argumentTypes[i]);
}

llvm::Value *integerArgument(LoweringApi &lowering, const LibraryCall &call, const Values &values,
                             size_t i, int64_t absent = 0) {
  if (isAbsent(call, i))
    return lowering.irBuilder().getInt64(absent);
  return lowering.castValue(values[i], call.argumentTypes[i], types::int64());
}

/// A string or a null pointer for an absent (or None) optional string.
llvm::Value *optionalString(LoweringApi &lowering, const LibraryCall &call, const Values &values,
                            size_t i) {
  if (isAbsent(call, i))
    return llvm::ConstantPointerNull::get(lowering.irBuilder().getPtrTy());
  return stringArgument(lowering, call, values, i);
}

/// The mask of the optional bounds given at positions `first` and `first + 1`.
llvm::Value *boundsGiven(LoweringApi &lowering, const LibraryCall &call, size_t first) {
  int32_t given = (isAbsent(call, first) ? 0 : 1) | (isAbsent(call, first + 1) ? 0 : 2);
  return lowering.irBuilder().getInt32(given);
}

void addMethod(Library &library, const std::string &name, std::vector<LibraryParameter> parameters,
               const std::string &kinds, const Type *result, LibraryLowerRule lower) {
  LibraryFunction function;
  function.name = "str." + name;
  function.parameters = std::move(parameters);
  function.targets = OnCpu;
  function.type = [kinds, result](LibraryCall &call) {
    expect(call, kinds);
    return result;
  };
  function.lower = std::move(lower);
  library.add(std::move(function));
}

void addFunction(Library &library, const std::string &name,
                 std::vector<LibraryParameter> parameters, LibraryTypeRule type,
                 LibraryLowerRule lower) {
  LibraryFunction function;
  function.name = name;
  function.parameters = std::move(parameters);
  function.targets = OnCpu;
  function.type = std::move(type);
  function.lower = std::move(lower);
  library.add(std::move(function));
}

/// A predicate of the runtime: 0 or 1, -1 with an exception pending.
llvm::Value *predicate(LoweringApi &lowering, llvm::Value *string, int32_t operation) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *result = lowering.strings().callStringRuntime(
      "taipan_str_predicate", builder.getInt32Ty(), {string, builder.getInt32(operation)});
  lowering.exitIf(builder.CreateICmpSLT(result, builder.getInt32(0)), builder.getInt32(1));
  return builder.CreateICmpNE(result, builder.getInt32(0));
}

/// str(value) of a number or a string.
llvm::Value *stringOf(LoweringApi &lowering, llvm::Value *value, const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (type->isString())
    return lowering.strings().asStringValue(value, type);
  if (type->isBoolean())
    return builder.CreateSelect(value, lowering.strings().lowerStringLiteral("True"),
                                lowering.strings().lowerStringLiteral("False"));
  if (type->isInteger())
    return type->isSigned()
               ? lowering.strings().callStringFunction(
                     "taipan_str_from_int64", {lowering.castValue(value, type, types::int64())})
               : lowering.strings().callStringFunction(
                     "taipan_str_from_uint64", {lowering.castValue(value, type, types::uint64())});
  // str() of a float32 is NumPy's ('1.1'), not the double's ('1.100000023841858').
  if (type == types::float32())
    return lowering.strings().callStringFunction("taipan_str_from_float32", {value});
  return lowering.strings().callStringFunction("taipan_str_from_float64",
                                               {lowering.castValue(value, type, types::float64())});
}

/// One replacement field of str.format: `value` converted (!r, !s) and formatted by `spec`.
llvm::Value *formatField(LoweringApi &lowering, llvm::Value *value, const Type *type,
                         char conversion, const std::string &spec) {
  if (conversion == 'r' && type->isString()) {
    value = lowering.strings().callStringFunction("taipan_str_repr",
                                                  {lowering.strings().asStringValue(value, type)});
    type = types::unicode();
  } else if (conversion == 'r' || conversion == 's') {
    value = stringOf(lowering, value, type);
    type = types::unicode();
  }
  // format(x, '') of a NumPy float32 formats float(x): '1.100000023841858', not str()'s '1.1'.
  if (spec.empty() && type == types::float32())
    return stringOf(lowering, lowering.castValue(value, type, types::float64()), types::float64());
  if (spec.empty())
    return stringOf(lowering, value, type);
  llvm::Value *specValue = lowering.strings().lowerStringLiteral(spec);
  if (type->isString())
    return lowering.strings().callStringFunction(
        "taipan_str_format_str", {lowering.strings().asStringValue(value, type), specValue});
  if (type->isIntegerLike())
    return lowering.strings().callStringFunction(
        "taipan_str_format_int", {lowering.castValue(value, type, types::int64()), specValue});
  return lowering.strings().callStringFunction(
      "taipan_str_format_float", {lowering.castValue(value, type, types::float64()), specValue});
}

/// A piece of a format template: literal text, or a field (argument, conversion, spec).
struct FormatPiece {
  std::string text;
  int argument = -1;
  char conversion = 0;
  std::string spec;
};

/// Parses a str.format template of positional fields ("{}", "{0}", "{!r}", "{:>8.3f}").
std::vector<FormatPiece> parseTemplate(const std::string &text, size_t arguments,
                                       SourceLocation location) {
  std::vector<FormatPiece> pieces;
  std::string literal;
  int next = 0;
  bool numbered = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        literal += '}';
        ++i;
        continue;
      }
      throwTypingError("Single '}' encountered in format string", location);
    }
    if (c != '{') {
      literal += c;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{';
      ++i;
      continue;
    }
    size_t close = text.find('}', i);
    if (close == std::string::npos)
      throwTypingError("Single '{' encountered in format string", location);
    std::string field = text.substr(i + 1, close - i - 1);
    if (field.find('{') != std::string::npos)
      throwUnsupported("nested replacement fields in format specs are not supported", location);
    FormatPiece piece;
    size_t colon = field.find(':');
    if (colon != std::string::npos) {
      piece.spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    size_t bang = field.find('!');
    if (bang != std::string::npos) {
      if (bang + 2 != field.size() || (field[bang + 1] != 'r' && field[bang + 1] != 's'))
        throwUnsupported("format conversions other than !r and !s are not supported", location);
      piece.conversion = field[bang + 1];
      field = field.substr(0, bang);
    }
    if (field.empty()) {
      if (numbered)
        throwTypingError("cannot switch from manual field specification to automatic field "
                         "numbering",
                         location);
      piece.argument = next++;
    } else if (field.find_first_not_of("0123456789") == std::string::npos) {
      numbered = true;
      if (next)
        throwTypingError("cannot switch from automatic field numbering to manual field "
                         "specification",
                         location);
      piece.argument = std::stoi(field);
    } else {
      throwUnsupported("format fields by name or attribute ('{" + field +
                           "}') are not supported; give positions",
                       location);
    }
    if (piece.argument >= static_cast<int>(arguments))
      throwTypingError("Replacement index " + std::to_string(piece.argument) +
                           " out of range for positional args tuple",
                       location);
    if (!literal.empty()) {
      pieces.push_back(FormatPiece{literal});
      literal.clear();
    }
    pieces.push_back(piece);
    i = close;
  }
  if (!literal.empty())
    pieces.push_back(FormatPiece{literal});
  return pieces;
}

/// Joins string values (already temporaries or borrowed) with `separator`.
llvm::Value *joinValues(LoweringApi &lowering, llvm::Value *separator, const Values &items) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *array = llvm::ArrayType::get(builder.getPtrTy(), std::max<size_t>(1, items.size()));
  llvm::AllocaInst *slots = lowering.createEntryAlloca(array, "str.items");
  for (size_t i = 0; i < items.size(); ++i)
    builder.CreateStore(items[i], builder.CreateConstInBoundsGEP2_64(array, slots, 0, i));
  return lowering.strings().callStringFunction("taipan_str_join",
                                               {separator, slots, builder.getInt64(items.size())});
}

void registerConstructors(Library &library) {
  // repr() of a number or a string: what f"{x!r}" gives.
  addFunction(
      library, "repr", positional(1),
      [](LibraryCall &call) {
        if (!call.argumentTypes[0]->isReal() && !call.argumentTypes[0]->isString())
          throwNoOverload(call);
        return types::unicode();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        return formatField(lowering, values[0], call.argumentTypes[0], 'r', "");
      });
  addFunction(
      library, "str", {{"object", true}},
      [](LibraryCall &call) {
        if (!call.argumentTypes.empty() && !call.argumentTypes[0]->isReal() &&
            !call.argumentTypes[0]->isString())
          throwNoOverload(call);
        return types::unicode();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        if (values.empty())
          return lowering.strings().lowerStringLiteral("");
        return stringOf(lowering, values[0], call.argumentTypes[0]);
      });
  // `except ... as e` (syntax/CaughtExceptions.h): the handled-stack index of the caught
  // exception, and str(e).
  addFunction(
      library, "taipan.caught_index", positional(0), [](LibraryCall &) { return types::int64(); },
      [](LoweringApi &lowering, const LibraryCall &, const Values &) {
        return lowering.strings().callStringRuntime("taipan_caught_index",
                                                    lowering.irBuilder().getInt64Ty(), {});
      });
  addFunction(
      library, "taipan.caught_message", positional(1),
      [](LibraryCall &) { return types::unicode(); },
      [](LoweringApi &lowering, const LibraryCall &, const Values &values) {
        return lowering.strings().callStringFunction("taipan_caught_message", {values[0]});
      });
  addFunction(
      library, "ord", positional(1),
      [](LibraryCall &call) {
        expect(call, "s");
        return types::int64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *code = lowering.strings().callStringRuntime(
            "taipan_str_ord", builder.getInt64Ty(), {stringArgument(lowering, call, values, 0)});
        lowering.exitIf(builder.CreateICmpSLT(code, builder.getInt64(0)), builder.getInt32(1));
        return code;
      });
  addFunction(
      library, "chr", positional(1),
      [](LibraryCall &call) {
        expect(call, "i");
        return types::unicode();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        return lowering.strings().callStringFunction("taipan_str_chr",
                                                     {integerArgument(lowering, call, values, 0)});
      });
  addFunction(
      library, "hash", positional(1),
      [](LibraryCall &call) {
        expect(call, "s");
        return types::int64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        return lowering.strings().callStringRuntime("taipan_str_hash",
                                                    lowering.irBuilder().getInt64Ty(),
                                                    {stringArgument(lowering, call, values, 0)});
      });
}

void registerMethods(Library &library) {
  const Type *unicode = types::unicode();
  const Type *boolean = types::boolean();
  const Type *int64 = types::int64();
  static const char *const caseMappings[] = {"upper", "lower",      "swapcase",
                                             "title", "capitalize", "casefold"};
  for (int32_t operation = 0; operation < 6; ++operation)
    addMethod(library, caseMappings[operation], positional(1), "s", unicode,
              [operation](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
                return lowering.strings().callStringFunction(
                    "taipan_str_case", {stringArgument(lowering, call, values, 0),
                                        lowering.irBuilder().getInt32(operation)});
              });
  static const char *const predicates[] = {"isdigit", "isalpha", "isspace",      "isupper",
                                           "islower", "isalnum", "isdecimal",    "isnumeric",
                                           "istitle", "isascii", "isidentifier", "isprintable"};
  for (int32_t operation = 0; operation < 12; ++operation)
    addMethod(library, predicates[operation], positional(1), "s", boolean,
              [operation](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
                return predicate(lowering, stringArgument(lowering, call, values, 0), operation);
              });
  static const std::pair<const char *, int32_t> strips[] = {
      {"strip", 3}, {"lstrip", 1}, {"rstrip", 2}};
  for (auto [name, sides] : strips)
    addMethod(
        library, name, positional(1, 1), "sS", unicode,
        [sides = sides](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          return lowering.strings().callStringFunction("taipan_str_strip",
                                                       {stringArgument(lowering, call, values, 0),
                                                        optionalString(lowering, call, values, 1),
                                                        lowering.irBuilder().getInt32(sides)});
        });
  // find, rfind, index, rindex: the position, or -1 (find) or ValueError (index).
  for (const char *name : {"find", "rfind", "index", "rindex"})
    addMethod(
        library, name, positional(2, 2), "ssnn", int64,
        [name = std::string(name)](LoweringApi &lowering, const LibraryCall &call,
                                   const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          bool reverse = name[0] == 'r';
          llvm::Value *position = lowering.strings().callStringRuntime(
              "taipan_str_find", builder.getInt64Ty(),
              {stringArgument(lowering, call, values, 0), stringArgument(lowering, call, values, 1),
               integerArgument(lowering, call, values, 2),
               integerArgument(lowering, call, values, 3), boundsGiven(lowering, call, 2),
               builder.getInt32(reverse)});
          if (name.find("index") != std::string::npos)
            lowering.exceptions().raiseIf(builder.CreateICmpSLT(position, builder.getInt64(0)),
                                          ValueErrorId, "substring not found");
          return position;
        });
  addMethod(library, "count", positional(2, 2), "ssnn", int64,
            [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
              return lowering.strings().callStringRuntime(
                  "taipan_str_count", lowering.irBuilder().getInt64Ty(),
                  {stringArgument(lowering, call, values, 0),
                   stringArgument(lowering, call, values, 1),
                   integerArgument(lowering, call, values, 2),
                   integerArgument(lowering, call, values, 3), boundsGiven(lowering, call, 2)});
            });
  // startswith/endswith of a string, or of a tuple of strings (any of them).
  for (const char *name : {"startswith", "endswith"})
    addFunction(
        library, std::string("str.") + name, positional(2, 2),
        [](LibraryCall &call) {
          const Type *affix = call.argumentTypes[1];
          if (affix && affix->isTuple() &&
              std::all_of(affix->elements().begin(), affix->elements().end(),
                          [](const Type *t) { return t->isString(); })) {
            LibraryCall rest = call;
            rest.argumentTypes[1] = types::unicode();
            expect(rest, "ssnn");
          } else {
            expect(call, "ssnn");
          }
          return types::boolean();
        },
        [suffix = name[0] == 'e'](LoweringApi &lowering, const LibraryCall &call,
                                  const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          auto test = [&](llvm::Value *affix) {
            llvm::Value *result = lowering.strings().callStringRuntime(
                "taipan_str_startswith", builder.getInt8Ty(),
                {stringArgument(lowering, call, values, 0), affix,
                 integerArgument(lowering, call, values, 2),
                 integerArgument(lowering, call, values, 3), boundsGiven(lowering, call, 2),
                 builder.getInt32(suffix)});
            return builder.CreateICmpNE(result, builder.getInt8(0));
          };
          const Type *affixType = call.argumentTypes[1];
          if (!affixType->isTuple())
            return test(stringArgument(lowering, call, values, 1));
          llvm::Value *any = builder.getInt1(false);
          for (size_t i = 0; i < affixType->elements().size(); ++i)
            any = builder.CreateOr(
                any, test(lowering.strings().asStringValue(
                         lowering.tupleElement(values[1], affixType, static_cast<unsigned>(i)),
                         affixType->elements()[i])));
          return any;
        });
  addMethod(library, "replace", positional(3, 1), "sssi", unicode,
            [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
              return lowering.strings().callStringFunction(
                  "taipan_str_replace", {stringArgument(lowering, call, values, 0),
                                         stringArgument(lowering, call, values, 1),
                                         stringArgument(lowering, call, values, 2),
                                         integerArgument(lowering, call, values, 3, -1)});
            });
  addMethod(library, "zfill", positional(2), "si", unicode,
            [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
              return lowering.strings().callStringFunction(
                  "taipan_str_zfill", {stringArgument(lowering, call, values, 0),
                                       integerArgument(lowering, call, values, 1)});
            });
  addMethod(library, "expandtabs", {{"", false}, {"tabsize", true}}, "si", unicode,
            [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
              return lowering.strings().callStringFunction(
                  "taipan_str_expandtabs", {stringArgument(lowering, call, values, 0),
                                            integerArgument(lowering, call, values, 1, 8)});
            });
  static const std::pair<const char *, int32_t> pads[] = {
      {"ljust", 0}, {"rjust", 1}, {"center", 2}};
  for (auto [name, alignment] : pads)
    addMethod(library, name, positional(2, 1), "sis", unicode,
              [alignment = alignment](LoweringApi &lowering, const LibraryCall &call,
                                      const Values &values) {
                return lowering.strings().callStringFunction(
                    "taipan_str_pad", {stringArgument(lowering, call, values, 0),
                                       integerArgument(lowering, call, values, 1),
                                       optionalString(lowering, call, values, 2),
                                       lowering.irBuilder().getInt32(alignment)});
              });
  // sep.join(items) of a tuple of strings or of a string (its characters).
  LibraryFunction join;
  join.name = "str.join";
  join.parameters = positional(2);
  join.targets = OnCpu;
  join.type = [](LibraryCall &call) {
    const Type *items = call.argumentTypes[1];
    bool tupleOfStrings =
        items->isTuple() && std::all_of(items->elements().begin(), items->elements().end(),
                                        [](const Type *t) { return t->isString(); });
    bool listOfStrings = items->isList() && (!items->itemType() || items->itemType()->isString());
    if (!call.argumentTypes[0]->isString() ||
        (!tupleOfStrings && !listOfStrings && !items->isString()))
      throwNoOverload(call);
    return types::unicode();
  };
  join.lower = [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
    llvm::Value *separator = stringArgument(lowering, call, values, 0);
    const Type *items = call.argumentTypes[1];
    if (items->isString()) {
      // The characters of a string, with the separator between them.
      llvm::Value *string = stringArgument(lowering, call, values, 1);
      return lowering.strings().callStringFunction("taipan_str_join_characters",
                                                   {separator, string});
    }
    if (items->isList()) {
      // The list's item buffer is an array of string blocks, as taipan_str_join takes them.
      llvm::IRBuilder<> &builder = lowering.irBuilder();
      return lowering.strings().callStringFunction(
          "taipan_str_join", {separator,
                              lowering.containers().listHeaderField(
                                  values[1], runtime::ListItemsOffset, builder.getPtrTy()),
                              lowering.containers().listLength(values[1])});
    }
    Values pieces;
    for (size_t i = 0; i < items->elements().size(); ++i)
      pieces.push_back(lowering.strings().asStringValue(
          lowering.tupleElement(values[1], items, static_cast<unsigned>(i)), items->elements()[i]));
    return joinValues(lowering, separator, pieces);
  };
  library.add(std::move(join));
  // template.format(*values): the template is a constant (f-strings are read as this call).
  LibraryFunction format;
  format.name = "str.format";
  format.parameters = positional(1);
  format.variadic = true;
  format.targets = OnCpu;
  format.type = [](LibraryCall &call) {
    if (call.argumentTypes[0]->kind() != TypeKind::StringLiteral)
      throwUnsupported("str.format() needs a constant format string", call.location);
    for (size_t i = 1; i < call.argumentTypes.size(); ++i)
      if (!call.argumentTypes[i]->isReal() && !call.argumentTypes[i]->isString())
        throwUnsupported("str.format() cannot format a value of type " +
                             call.argumentTypes[i]->name(),
                         call.arguments[i]->location);
    parseTemplate(call.argumentTypes[0]->text(), call.argumentTypes.size() - 1, call.location);
    return types::unicode();
  };
  format.lower = [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
    std::vector<FormatPiece> pieces =
        parseTemplate(call.argumentTypes[0]->text(), call.argumentTypes.size() - 1, call.location);
    Values parts;
    for (const FormatPiece &piece : pieces) {
      if (piece.argument < 0) {
        parts.push_back(lowering.strings().lowerStringLiteral(piece.text));
        continue;
      }
      size_t index = static_cast<size_t>(piece.argument) + 1;
      parts.push_back(formatField(lowering, values[index], call.argumentTypes[index],
                                  piece.conversion, piece.spec));
    }
    return joinValues(lowering, lowering.strings().lowerStringLiteral(""), parts);
  };
  library.add(std::move(format));
  // partition, rpartition: (head, sep, tail) from one find and two slices; when sep is absent,
  // (s, "", "") or ("", "", s).
  for (const char *name : {"partition", "rpartition"}) {
    LibraryFunction partition;
    partition.name = std::string("str.") + name;
    partition.parameters = positional(2);
    partition.targets = OnCpu;
    partition.type = [](LibraryCall &call) -> const Type * {
      expect(call, "ss");
      return types::tuple({types::unicode(), types::unicode(), types::unicode()});
    };
    partition.lower = [reverse = name[0] == 'r'](LoweringApi &lowering, const LibraryCall &call,
                                                 const Values &values) {
      llvm::IRBuilder<> &builder = lowering.irBuilder();
      llvm::Value *string = stringArgument(lowering, call, values, 0);
      llvm::Value *separator = stringArgument(lowering, call, values, 1);
      llvm::Value *separatorLength = lowering.strings().stringLength(separator);
      lowering.exceptions().raiseIf(builder.CreateICmpEQ(separatorLength, builder.getInt64(0)),
                                    ValueErrorId, "empty separator");
      llvm::Value *zero = builder.getInt64(0);
      llvm::Value *position = lowering.strings().callStringRuntime(
          "taipan_str_find", builder.getInt64Ty(),
          {string, separator, zero, zero, builder.getInt32(0), builder.getInt32(reverse)});
      llvm::Value *found = builder.CreateICmpSGE(position, zero);
      llvm::Value *cut = builder.CreateSelect(
          found, position, reverse ? zero : lowering.strings().stringLength(string));
      llvm::Value *middleLength = builder.CreateSelect(found, separatorLength, zero);
      llvm::Value *middle =
          builder.CreateSelect(found, separator, lowering.strings().lowerStringLiteral(""));
      llvm::Value *head = lowering.strings().callStringFunction(
          "taipan_str_slice",
          {string, zero, cut, builder.getInt64(1), builder.getInt32(2)}); // s[:cut]
      llvm::Value *tail = lowering.strings().callStringFunction(
          "taipan_str_slice", {string, builder.CreateAdd(cut, middleLength), zero,
                               builder.getInt64(1), builder.getInt32(1)});
      const Type *unicode = types::unicode();
      const Type *type = types::tuple({unicode, unicode, unicode});
      llvm::Value *tuple = lowering.lowerTuple({lowering.takeOwnership(head, unicode),
                                                lowering.takeOwnership(middle, unicode),
                                                lowering.takeOwnership(tail, unicode)},
                                               type);
      lowering.addTemporary(tuple, type); // it owns the references of its strings
      return tuple;
    };
    library.add(std::move(partition));
  }
  // split, rsplit and splitlines: a new list of strings, filled by the runtime in place.
  for (int mode : {0, 1, 2}) {
    LibraryFunction listMethod;
    listMethod.name = mode == 0 ? "str.split" : mode == 1 ? "str.rsplit" : "str.splitlines";
    listMethod.parameters =
        mode == 2 ? std::vector<LibraryParameter>{{"", false}, {"keepends", true}}
                  : std::vector<LibraryParameter>{{"", false}, {"sep", true}, {"maxsplit", true}};
    listMethod.targets = OnCpu;
    listMethod.type = [mode](LibraryCall &call) -> const Type * {
      expect(call, mode == 2 ? "si" : "sSi");
      return types::list(types::unicode());
    };
    listMethod.lower = [mode](LoweringApi &lowering, const LibraryCall &call,
                              const Values &values) {
      llvm::IRBuilder<> &builder = lowering.irBuilder();
      llvm::Value *string = stringArgument(lowering, call, values, 0);
      llvm::Value *separator = mode == 2 ? llvm::ConstantPointerNull::get(builder.getPtrTy())
                                         : optionalString(lowering, call, values, 1);
      llvm::Value *limit = mode == 2 ? integerArgument(lowering, call, values, 1, 0)
                                     : integerArgument(lowering, call, values, 2, -1);
      llvm::Value *modeValue = builder.getInt32(mode);
      llvm::Value *count = lowering.strings().callStringRuntime(
          "taipan_str_split_count", builder.getInt64Ty(), {string, separator, limit, modeValue});
      lowering.exitIf(builder.CreateICmpSLT(count, builder.getInt64(0)), builder.getInt32(1));
      llvm::Value *list = lowering.containers().newList(call.resultType, count);
      llvm::Value *items =
          lowering.containers().listHeaderField(list, runtime::ListItemsOffset, builder.getPtrTy());
      lowering.exitUnlessZero(lowering.strings().callStringRuntime(
          "taipan_str_split", builder.getInt32Ty(), {string, separator, limit, modeValue, items}));
      return list;
    };
    library.add(std::move(listMethod));
  }
}

} // namespace

void registerStringFunctions(Library &library) {
  registerConstructors(library);
  registerMethods(library);
}

} // namespace taipan
