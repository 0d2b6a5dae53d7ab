// Type and Signature objects for Python, and typeof.
#include "TypeObjects.h"
#include "compiler/LlvmTypeText.h"

#include "runtime/LoadTimeSymbols.h"
#include "types/ClassInstanceTypes.h"
#include "types/DatetimeUnits.h"
#include "typing/DictTyping.h"
#include "typing/OptionalTyping.h"

#include "Boxing.h"
#include "NamedTupleBoxing.h"
#include "RecordBoxing.h"
#include "UserTypeBoxing.h"

#include <algorithm>
#include <functional>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

std::string signatureText(const SignatureRef &signature) {
  std::string text = "(";
  for (size_t i = 0; i < signature.arguments.size(); ++i)
    text += (i ? ", " : "") + signature.arguments[i]->name();
  text += signature.arguments.size() == 1 ? ",)" : ")"; // a Python tuple, as Numba prints
  if (signature.returnType)
    text += " -> " + signature.returnType->name();
  return text;
}

/// `float64[:]`, `float32[:, ::1]`, `int64[::1, :]`: the array type a subscript spells.
const Type *arrayFromSubscript(const Type *dtype, nb::handle index) {
  std::vector<nb::handle> dimensions;
  if (PyTuple_Check(index.ptr()))
    for (nb::handle item : nb::borrow<nb::tuple>(index))
      dimensions.push_back(item);
  else
    dimensions.push_back(index);
  char layout = 'A';
  for (size_t i = 0; i < dimensions.size(); ++i) {
    if (!PySlice_Check(dimensions[i].ptr()))
      throw nb::type_error("array types are spelled with slices, as in float64[:, ::1]");
    nb::object step = dimensions[i].attr("step");
    if (!step.is_none()) {
      if (!nb::isinstance<nb::int_>(step) || nb::cast<int>(step) != 1)
        throw nb::type_error("only ::1 may mark the contiguous dimension of an array type");
      if (i + 1 == dimensions.size())
        layout = 'C';
      else if (i == 0)
        layout = 'F';
      else
        throw nb::type_error("::1 must mark the first or the last dimension");
    }
  }
  if (dimensions.size() == 1 && layout == 'F')
    layout = 'C';
  return types::array(dtype, static_cast<int>(dimensions.size()), layout, false);
}

/// Numba's FunctionType(result(parameters)), of the values a C function takes and returns:
/// numbers, pointers, arrays (their struct, as a cfunc takes them) and None; a number, a
/// pointer or None returned (first-class functions are called by the C convention).
const Type *firstClassFunctionType(const Type *result,
                                   const std::vector<const Type *> &parameters) {
  for (const Type *parameter : parameters)
    if (!parameter->isNumber() && !parameter->isPointer() && !parameter->isArray() &&
        !parameter->isNone())
      throw nb::type_error(("a first-class function type takes numbers, pointers, arrays and "
                            "None (taipan calls it by the C convention), not " +
                            parameter->name())
                               .c_str());
  if (!result->isNumber() && !result->isPointer() && !result->isNone())
    throw nb::type_error(
        ("a first-class function type returns a number, a pointer or None, not " + result->name())
            .c_str());
  return types::firstClassFunction(parameters, result);
}

/// Whether a user type reaches foreign code as a C value: its data model is a pointer
/// (PointerModel, OpaqueModel) or a number (PrimitiveModel), as the cuRAND binding's state
/// pointer is; a struct's layout is taipan's, which C code cannot be written against.
bool isForeignUserType(const Type *type) {
  const Type *layout = isUserType(type) ? userTypeLayout(type) : nullptr;
  return layout && (layout->isPointer() || layout->isNumber());
}

const Type *typeArgument(nb::handle value) {
  if (nb::isinstance<TypeRef>(value))
    return nb::cast<TypeRef>(value).type;
  throw nb::type_error("expected a taipan type");
}

} // namespace

const Type *typeOfOrRaise(nb::handle value) {
  const Type *type = typeOfValue(value.ptr());
  if (!type) {
    std::string name = Py_TYPE(value.ptr())->tp_name;
    throw nb::value_error(("cannot determine the taipan type of <class '" + name + "'>").c_str());
  }
  return type;
}

/// The name of a type's kind, which taipan.types's classes test (isinstance(t, types.Array)).
static const char *kindName(TypeKind kind) {
  if (kind == UserTypeKind) // a Python subclass of Type (taipan.user_type_registry)
    return "UserType";
  switch (kind) {
  case TypeKind::ClassInstance: // a jitclass instance (types/ClassInstanceTypes.h)
    return "ClassInstanceType";
  case TypeKind::Boolean:
    return "Boolean";
  case TypeKind::Integer:
    return "Integer";
  case TypeKind::Float:
    return "Float";
  case TypeKind::Complex:
    return "Complex";
  case TypeKind::None:
    return "NoneType";
  case TypeKind::Tuple:
    return "Tuple";
  case TypeKind::Array:
    return "Array";
  case TypeKind::Range:
    return "Range";
  case TypeKind::Slice:
    return "SliceType";
  case TypeKind::StringLiteral:
    return "StringLiteral";
  case TypeKind::Unicode:
    return "UnicodeType";
  case TypeKind::Module:
    return "Module";
  case TypeKind::Builtin:
  case TypeKind::JitFunction:
  case TypeKind::ExternalFunction:
  case TypeKind::Overload:
  case TypeKind::Intrinsic:
    return "Function";
  case TypeKind::ExceptionClass:
    return "ExceptionClass";
  case TypeKind::Pointer:
    return "Pointer";
  case TypeKind::Optional:
    return "Optional";
  case TypeKind::Record:
    return "Record";
  case TypeKind::NestedArray:
    return "NestedArray";
  case TypeKind::DType:
    return "DType";
  case TypeKind::List:
    return "List";
  case TypeKind::Generator:
    return "Generator";
  case TypeKind::Set:
    return "Set";
  case TypeKind::Datetime:
    return "NPDatetime";
  case TypeKind::Timedelta:
    return "NPTimedelta";
  case TypeKind::FirstClassFunction:
    return "FunctionType";
  }
  return "Type";
}

/// Numbers, datetime64 and timedelta64: the kinds with a width and a sign.
static bool hasBits(const Type *type) { return type->isNumber() || type->isDatetimeLike(); }

/// Arrays and records' subarray fields: the kinds with ndim and a layout.
static bool hasShape(const Type *type) {
  return type->isArray() || type->kind() == TypeKind::NestedArray;
}

/// What Numba's `.dtype` gives: an array's (or subarray's, or dtype object's) element type, a
/// list's item, a pointer's pointee; an Optional's value and a generator's yield as before.
static const Type *elementTypeOf(const Type *type) {
  switch (type->kind()) {
  case TypeKind::Array:
  case TypeKind::NestedArray:
  case TypeKind::DType:
    return type->dtype();
  case TypeKind::List:
    return type->itemType();
  case TypeKind::Pointer:
    return type->pointee();
  case TypeKind::Optional:
    return type->optionalValue();
  case TypeKind::Generator:
    return type->yieldType();
  default:
    return nullptr;
  }
}

void defineTypeObjects(nb::module_ &module) {
  nb::class_<TypeRef>(module, "Type")
      // A Python subclass (a user-defined type, Numba's extension API) starts as a placeholder;
      // taipan.extending binds it to its user type once its __init__ has run (its key known).
      .def("__init__",
           [](TypeRef *self, nb::args, nb::kwargs) { new (self) TypeRef{types::none()}; })
      .def_prop_ro("registry_id",
                   [](const TypeRef &self) -> nb::object {
                     if (!isUserType(self.type))
                       return nb::none();
                     return nb::int_(self.type->registryId());
                   })
      .def_prop_ro("name", [](const TypeRef &self) { return self.type->name(); })
      .def("__repr__", [](const TypeRef &self) { return self.type->name(); })
      .def("__str__", [](const TypeRef &self) { return self.type->name(); })
      // `other` may be None (`t in (None, types.none)`, as Numba's typing functions write).
      .def(
          "__eq__",
          [](const TypeRef &self, nb::handle other) {
            return nb::isinstance<TypeRef>(other) && nb::cast<TypeRef>(other).type == self.type;
          },
          nb::arg("other").none())
      .def("__hash__", [](const TypeRef &self) { return std::hash<const void *>()(self.type); })
      .def_prop_ro("kind", [](const TypeRef &self) { return static_cast<int>(self.type->kind()); })
      .def_prop_ro("kind_name",
                   [](const TypeRef &self) -> const char * {
                     if (self.type->isList() && !self.type->isReflected())
                       return "ListType"; // Numba's typed list; "List" is its reflected list
                     if (self.type->isLiteralList())
                       return "LiteralList"; // stored as a tuple, but not one (Numba's too)
                     if (self.type->isDict())
                       return "DictType";
                     return kindName(self.type->kind());
                   })
      // Numba's ListType.item_type, DictType.key_type and value_type.
      .def_prop_ro("item_type",
                   [](const TypeRef &self) -> nb::object {
                     if (!self.type->isList() || !self.type->itemType())
                       return nb::none();
                     return nb::cast(TypeRef{self.type->itemType()});
                   })
      .def_prop_ro("key_type",
                   [](const TypeRef &self) -> nb::object {
                     // A set's items are its keys.
                     if (!(self.type->isDict() || self.type->isSet()) || !self.type->keyType())
                       return nb::none();
                     return nb::cast(TypeRef{self.type->keyType()});
                   })
      .def_prop_ro("value_type",
                   [](const TypeRef &self) -> nb::object {
                     if (!self.type->isDict() || !self.type->valueType())
                       return nb::none();
                     return nb::cast(TypeRef{self.type->valueType()});
                   })
      .def_prop_ro("reflected", [](const TypeRef &self) { return self.type->isReflected(); })
      // Each property reads the kinds that have it (types/TypeClasses.h) and gives an empty
      // value for the others, which Python code asks too (`getattr(t, "ndim", 0)`).
      .def_prop_ro(
          "readonly",
          [](const TypeRef &self) { return self.type->isArray() && self.type->isReadonly(); })
      .def_prop_ro("bitwidth",
                   [](const TypeRef &self) { return hasBits(self.type) ? self.type->bits() : 0; })
      // Numba's Complex.underlying_float: the type of either part (complex64 -> float32).
      .def_prop_ro("underlying_float",
                   [](const TypeRef &self) -> nb::object {
                     if (!self.type->isComplex())
                       return nb::none();
                     return nb::cast(
                         TypeRef{self.type->bits() == 64 ? types::float32() : types::float64()});
                   })
      .def_prop_ro("signed",
                   [](const TypeRef &self) { return hasBits(self.type) && self.type->isSigned(); })
      .def_prop_ro("ndim",
                   [](const TypeRef &self) { return hasShape(self.type) ? self.type->ndim() : 0; })
      // Numba's NPDatetime.unit / NPTimedelta.unit ("ns", "" for the generic unit).
      .def_prop_ro("unit",
                   [](const TypeRef &self) -> nb::object {
                     if (!self.type->isDatetimeLike())
                       return nb::none();
                     return nb::str(self.type->text().c_str());
                   })
      // Numba's StringLiteral.literal_value: what typing functions branch on (ord='fro').
      .def_prop_ro("literal_value",
                   [](const TypeRef &self) -> nb::object {
                     if (self.type->kind() != TypeKind::StringLiteral)
                       return nb::none();
                     return nb::str(self.type->text().c_str());
                   })
      .def_prop_ro("layout",
                   [](const TypeRef &self) {
                     return std::string(1, hasShape(self.type) ? self.type->layout() : 'A');
                   })
      // Numba's Array.copy(dtype=, ndim=, layout=, readonly=): the array type with those changed.
      .def(
          "copy",
          [](const TypeRef &self, nb::object dtype, nb::object ndim, nb::object layout,
             nb::object readonly) {
            if (!self.type->isArray())
              throw nb::type_error("only array types have copy()");
            std::string layoutText = layout.is_none() ? std::string(1, self.type->layout())
                                                      : nb::cast<std::string>(layout);
            if (layoutText.size() != 1 ||
                std::string("CFA").find(layoutText[0]) == std::string::npos)
              throw nb::value_error("layout must be 'C', 'F' or 'A'");
            return TypeRef{types::array(
                dtype.is_none() ? self.type->dtype() : nb::cast<TypeRef>(dtype).type,
                ndim.is_none() ? self.type->ndim() : nb::cast<int>(ndim), layoutText[0],
                readonly.is_none() ? self.type->isReadonly() : nb::cast<bool>(readonly))};
          },
          nb::arg("dtype") = nb::none(), nb::arg("ndim") = nb::none(),
          nb::arg("layout") = nb::none(), nb::arg("readonly") = nb::none())
      .def_prop_ro("dtype",
                   [](const TypeRef &self) -> nb::object {
                     // A number type has no dtype, as in Numba (code tells scalars from
                     // arrays by it: `getattr(t, "dtype", t)`).
                     if (self.type->isNumber())
                       throw nb::attribute_error(
                           ("'" + self.type->name() + "' has no attribute 'dtype'").c_str());
                     // Numba's List.dtype is the item type, NumberClass.dtype (the type of
                     // np.float64 as a value) the number type.
                     const Type *dtype = elementTypeOf(self.type);
                     const std::string numpyPrefix = "numpy.";
                     if (self.type->kind() == TypeKind::Builtin &&
                         self.type->text().rfind(numpyPrefix, 0) == 0) {
                       const Type *scalar =
                           types::scalarByName(self.type->text().substr(numpyPrefix.size()));
                       dtype = scalar && scalar->isNumber() ? scalar : nullptr;
                     }
                     if (!dtype)
                       return nb::none();
                     return nb::cast(TypeRef{dtype});
                   })
      // Numba's NamedTuple.instance_class: the class of a named tuple type.
      .def_prop_ro("instance_class",
                   [](const TypeRef &self) -> nb::object {
                     PyObject *namedClass = namedTupleClassObject(self.type);
                     return namedClass ? nb::borrow(namedClass) : nb::none();
                   })
      // Numba's Optional.type: the type of the value when it is not None.
      .def_prop_ro("type",
                   [](const TypeRef &self) -> nb::object {
                     if (!self.type->isOptional())
                       return nb::none();
                     return nb::cast(TypeRef{self.type->optionalValue()});
                   })
      .def_prop_ro("types",
                   [](const TypeRef &self) {
                     std::vector<TypeRef> elements;
                     for (const Type *element : self.type->elements())
                       elements.push_back({element});
                     return elements;
                   })
      .def_prop_ro("count", [](const TypeRef &self) { return self.type->elements().size(); })
      // Numba's Record.fields ({name: (type, offset)}), size and aligned.
      .def_prop_ro("fields",
                   [](const TypeRef &self) {
                     nb::dict fields;
                     if (!self.type->isRecord())
                       return fields;
                     for (size_t i = 0; i < self.type->fieldNames().size(); ++i)
                       PyDict_SetItemString(fields.ptr(), self.type->fieldNames()[i].c_str(),
                                            nb::make_tuple(TypeRef{self.type->fieldTypes()[i]},
                                                           self.type->fieldOffset(i))
                                                .ptr());
                     return fields;
                   })
      .def_prop_ro("size", [](const TypeRef &self) { return self.type->itemSize(); })
      .def("typeof",
           [](const TypeRef &self, const std::string &name) {
             int index = self.type->isRecord() ? self.type->fieldIndex(name) : -1;
             if (index < 0)
               throw nb::key_error(name.c_str());
             return TypeRef{self.type->fieldTypes()[static_cast<size_t>(index)]};
           })
      .def("offset",
           [](const TypeRef &self, const std::string &name) {
             int index = self.type->isRecord() ? self.type->fieldIndex(name) : -1;
             if (index < 0)
               throw nb::key_error(name.c_str());
             return self.type->fieldOffset(static_cast<size_t>(index));
           })
      .def_prop_ro(
          "aligned",
          [](const TypeRef &self) { return self.type->isRecord() && self.type->isAligned(); })
      // Numba's FunctionType.signature.
      .def_prop_ro("signature",
                   [](const TypeRef &self) -> nb::object {
                     if (self.type->kind() != TypeKind::FirstClassFunction)
                       return nb::none();
                     return nb::cast(
                         SignatureRef{self.type->resultType(), self.type->parameterTypes()});
                   })
      .def_prop_ro("shape",
                   [](const TypeRef &self) {
                     nb::list shape;
                     if (self.type->kind() != TypeKind::NestedArray)
                       return nb::tuple(shape);
                     for (int64_t extent : self.type->nestedShape())
                       shape.append(extent);
                     return nb::tuple(shape);
                   })
      .def("__len__",
           [](const TypeRef &self) {
             if (!self.type->isTuple())
               throw nb::type_error(
                   ("object of type " + self.type->name() + " has no len()").c_str());
             return self.type->elements().size();
           })
      .def("__call__",
           [](const TypeRef &self, nb::args arguments) -> nb::object {
             // int32(5) called on a value (not a type) in Python is NumPy's scalar, as in
             // Numba; on types it builds a signature.
             if (arguments.size() == 1 && self.type->isNumber() &&
                 !nb::isinstance<TypeRef>(arguments[0]))
               return nb::module_::import_("numpy").attr(self.type->name().c_str())(arguments[0]);
             SignatureRef signature{self.type, {}};
             for (nb::handle argument : arguments)
               signature.arguments.push_back(typeArgument(argument));
             return nb::cast(signature);
           })
      .def("__getitem__", [](const TypeRef &self, nb::handle index) {
        return TypeRef{arrayFromSubscript(self.type, index)};
      });

  defineUserTypes(module);

  nb::class_<SignatureRef>(module, "Signature")
      .def_prop_ro("return_type",
                   [](const SignatureRef &self) -> nb::object {
                     if (!self.returnType)
                       return nb::none();
                     return nb::cast(TypeRef{self.returnType});
                   })
      .def_prop_ro("args",
                   [](const SignatureRef &self) {
                     nb::list arguments;
                     for (const Type *argument : self.arguments)
                       arguments.append(TypeRef{argument});
                     return nb::tuple(arguments);
                   })
      .def("__repr__", signatureText)
      .def("__str__", signatureText)
      // Numba's Signature.as_type(): the first-class function type of the signature.
      .def("as_type",
           [](const SignatureRef &self) {
             if (!self.returnType)
               throw nb::type_error("a function type needs a signature with a return type");
             return TypeRef{firstClassFunctionType(self.returnType, self.arguments)};
           })
      .def("__eq__", [](const SignatureRef &self, nb::handle other) {
        if (!nb::isinstance<SignatureRef>(other))
          return false;
        const SignatureRef &that = nb::cast<const SignatureRef &>(other);
        return self.returnType == that.returnType && self.arguments == that.arguments;
      });

  // The LLVM type text of a type's value in registers or in memory, for intrinsics that build
  // IR with llvmlite (taipan.intrinsic_builder).
  module.def("llvm_type_text", [](nb::handle type, bool inMemory) {
    return llvmTypeText(typeArgument(type), inMemory);
  });
  module.def("scalar_type", [](const std::string &name) {
    const Type *type = types::scalarByName(name);
    if (!type)
      throw nb::value_error(("unknown type name " + name).c_str());
    return TypeRef{type};
  });
  module.def("array_type", [](const std::string &dtype, int ndim, const std::string &layout,
                              bool readonly) {
    const Type *element = types::scalarByName(dtype);
    if (!element)
      throw nb::value_error(("unsupported dtype " + dtype).c_str());
    return TypeRef{types::array(element, ndim, layout.empty() ? 'A' : layout[0], readonly)};
  });
  module.def("record_type", [](nb::handle dtype) {
    std::string why;
    const Type *record = recordTypeOfDescr(dtype.ptr(), &why);
    if (!record)
      throw nb::type_error(("cannot make a Record type of " +
                            nb::cast<std::string>(nb::str(dtype)) +
                            (why.empty() ? std::string(": it has no fields") : ": " + why))
                               .c_str());
    return TypeRef{record};
  });
  module.def("record_numpy_dtype", [](nb::handle record) {
    const Type *type = typeArgument(record);
    PyObject *descr = type->isRecord() ? descrOfRecord(type) : nullptr;
    if (!descr)
      throw nb::type_error(("not a record type: " + type->name()).c_str());
    return nb::borrow(descr);
  });
  module.def("array_type_of",
             [](nb::handle dtype, int ndim, const std::string &layout, bool readonly) {
               return TypeRef{types::array(typeArgument(dtype), ndim,
                                           layout.empty() ? 'A' : layout[0], readonly)};
             });
  module.def("tuple_type", [](nb::handle elements) {
    std::vector<const Type *> types;
    for (nb::handle element : elements)
      types.push_back(typeArgument(element));
    return TypeRef{types::tuple(types)};
  });
  module.def("datetime_type", [](bool isDatetime, const std::string &unit) {
    int code = datetimeUnitCode(unit);
    if (code < 0)
      throw nb::value_error(("unknown datetime64 unit '" + unit + "'").c_str());
    return TypeRef{isDatetime ? types::datetime(code) : types::timedelta(code)};
  });
  module.def("list_type", [](nb::handle item) { return TypeRef{types::list(typeArgument(item))}; });
  module.def("typed_list_type", [](nb::handle item) {
    const Type *type = typeArgument(item);
    if (!type->isRuntimeValue() || type->isNone() || (type->isList() && type->isReflected()))
      throw nb::type_error(("a typed list cannot hold items of type " + type->name()).c_str());
    return TypeRef{types::typedList(type)};
  });
  module.def("dict_type", [](nb::handle key, nb::handle value) {
    const Type *keyType = typeArgument(key);
    if (keyType->isInteger() && dictKeyType(keyType))
      keyType = dictKeyType(keyType); // integer keys are int64 (uint64 stays), as in a dict
    const Type *valueType = typeArgument(value);
    if (dictKeyType(keyType) != keyType)
      throw nb::type_error(("a typed dict cannot have keys of type " + keyType->name()).c_str());
    if (dictValueType(valueType) != valueType || (valueType->isList() && valueType->isReflected()))
      throw nb::type_error(
          ("a typed dict cannot hold values of type " + valueType->name()).c_str());
    return TypeRef{types::dict(keyType, valueType)};
  });
  module.def("optional_type", [](nb::handle value) {
    const Type *type = typeArgument(value);
    if (type->isOptional() || type->isNone())
      return TypeRef{type}; // Optional(Optional(T)) is Optional(T), as in Numba
    if (!canBeOptional(type))
      throw nb::type_error(
          ("taipan supports Optional of numbers, arrays, strings, lists, dicts, sets and "
           "tuples of them, not " +
           type->name())
              .c_str());
    // A reflected list or set argument is copied in and written back after the call, which an
    // optional argument does not do.
    std::function<bool(const Type *)> reflected = [&](const Type *t) {
      if (t->isTuple())
        return std::any_of(t->elements().begin(), t->elements().end(), reflected);
      return t->isReflected() || t->isSet();
    };
    if (reflected(type))
      throw nb::type_error(("an Optional of " + type->name() +
                            " is not supported (a reflected list or set is written back to the "
                            "caller's; use a typed List)")
                               .c_str());
    return TypeRef{types::optional(type)};
  });
  module.def(
      "pointer_type",
      [](nb::handle pointee) {
        return TypeRef{types::pointer(pointee.is_none() ? nullptr : typeArgument(pointee))};
      },
      nb::arg("pointee").none());
  module.def(
      "external_function_type",
      [](const std::string &symbol, nb::handle parameters, nb::handle result, bool cConvention,
         uint64_t address, bool ownEntry) {
        // Foreign code sees C values: numbers and pointers, not taipan's arrays or tuples. The
        // C entry of a jitted function (own_entry) takes what a cfunc takes: arrays and None too.
        std::vector<const Type *> types;
        for (nb::handle parameter : parameters) {
          const Type *type = typeArgument(parameter);
          if (ownEntry && (type->isArray() || type->isNone())) {
            types.push_back(type);
            continue;
          }
          if (type->isArray())
            throw nb::type_error(("a foreign function cannot take the array type " + type->name() +
                                  ": declare the parameter as CPointer(" + type->dtype()->name() +
                                  ") and pass the array, whose data it receives")
                                     .c_str());
          // a record is passed as the address of its bytes, as numba-cuda passes it
          if (!type->isNumber() && !type->isPointer() && !type->isRecord() &&
              !isForeignUserType(type))
            throw nb::type_error(
                ("a foreign function cannot take a parameter of type " + type->name()).c_str());
          types.push_back(type);
        }
        const Type *returned = typeArgument(result);
        if (!returned->isNumber() && !returned->isNone() && !returned->isPointer() &&
            !isForeignUserType(returned))
          throw nb::type_error(
              ("a foreign function cannot return a value of type " + returned->name()).c_str());
        // A function a library exports is called by a name each process resolves when it
        // loads the code (so the code may be cached and sent to other processes).
        std::string loadSymbol = address ? runtime::foreignFunctionSymbol(address, symbol) : "";
        return TypeRef{
            types::externalFunction(symbol, types, returned, cConvention, address, loadSymbol)};
      },
      nb::arg("symbol"), nb::arg("parameters"), nb::arg("result"), nb::arg("c_convention"),
      nb::arg("address") = 0, nb::arg("own_entry") = false);
  module.def("first_class_function_type", [](nb::handle result, nb::handle parameters) {
    std::vector<const Type *> types;
    for (nb::handle parameter : parameters)
      types.push_back(typeArgument(parameter));
    return TypeRef{firstClassFunctionType(typeArgument(result), types)};
  });
  module.def(
      "signature",
      [](nb::handle returnType, nb::handle arguments) {
        SignatureRef signature{returnType.is_none() ? nullptr : typeArgument(returnType), {}};
        for (nb::handle argument : arguments)
          signature.arguments.push_back(typeArgument(argument));
        return signature;
      },
      nb::arg("return_type").none(), nb::arg("arguments"));
  module.def(
      "typeof", [](nb::handle value) { return TypeRef{typeOfOrRaise(value)}; },
      nb::arg("value").none());
  module.def(
      "typeof_or_none",
      [](nb::handle value) -> nb::object {
        const Type *type = typeOfValue(value.ptr());
        if (!type)
          return nb::none();
        return nb::cast(TypeRef{type});
      },
      nb::arg("value").none());
}

} // namespace taipan::bindings
