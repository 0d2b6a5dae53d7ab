"""Data models of user-defined types (Numba's ``numba.core.datamodel.models``, imported as
``taipan.extending.models``): how a value of a type is laid out in compiled code.

``register_model(TypeClass)`` (or ``models.register_default``) registers a model class for the
instances of a type class. The model becomes the C++ type's layout
(``_core.define_user_model``, types/UserTypes.h): a ``StructModel``'s members are laid out as
the tuple of their types (the same LLVM struct taipan gives that tuple), an ``OpaqueModel`` and
a ``PointerModel`` are a ``void*``, a ``PrimitiveModel`` is the taipan type of its LLVM type.
Lowering (lower/LowerTypes) and boxing then treat the user type through that layout, so there
is one data model.
"""

import threading

from taipan import _core, user_type_registry

_lock = threading.RLock()
_models = {}  # type class -> model class


class DataModel:
    """The base of the models: ``fe_type`` is the taipan type it lays out."""

    def __init__(self, dmm, fe_type):
        self._dmm = dmm
        self._fe_type = fe_type

    @property
    def fe_type(self):
        return self._fe_type

    def _layout(self):
        raise NotImplementedError


class StructModel(DataModel):
    """A struct of named members ``[(name, type), ...]``, in order."""

    def __init__(self, dmm, fe_type, members):
        super().__init__(dmm, fe_type)
        self._members = [(str(name), member_type) for name, member_type in members]

    @property
    def _fields(self):
        return tuple(name for name, _ in self._members)

    @property
    def _members_types(self):
        return tuple(member_type for _, member_type in self._members)

    def get_field_position(self, field):
        return self._fields.index(field)

    def get_member_fe_type(self, name):
        return self._members_types[self.get_field_position(name)]

    def _layout(self):
        return self._fields, _core.tuple_type(list(self._members_types))


class OpaqueModel(DataModel):
    """An address taipan does not look into (``void*``)."""

    def _layout(self):
        return (), _core.pointer_type(None)


class PointerModel(DataModel):
    """Numba's model of a pointer type, whose ``dtype`` is what it points to: an address
    (``void*``; foreign functions declared with the type receive it as a pointer)."""

    def _layout(self):
        return (), _core.pointer_type(None)


class PrimitiveModel(DataModel):
    """A value of one LLVM type ``be_type`` (an llvmlite type): an integer, a float or a
    pointer."""

    def __init__(self, dmm, fe_type, be_type):
        super().__init__(dmm, fe_type)
        self._be_type = be_type

    def _layout(self):
        text = str(self._be_type)
        if text.endswith("*"):
            return (), _core.pointer_type(None)
        names = {"double": "float64", "float": "float32", "half": "float16", "i1": "boolean"}
        name = names.get(text) or (f"int{text[1:]}" if text.startswith("i") else None)
        if name is None:
            raise TypeError(f"a PrimitiveModel of the LLVM type {text} is not supported")
        return (), _core.scalar_type(name)


class _DataModelManager:
    """The ``dmm`` a model's constructor receives: ``lookup(fe_type)`` gives a type's model."""

    def lookup(self, fe_type):
        return model_of(fe_type)

    __getitem__ = lookup


_DMM = _DataModelManager()


def _model_class(type_class):
    with _lock:
        for cls in type_class.__mro__:
            if cls in _models:
                return _models[cls]
    return None


def model_of(fe_type):
    """The model instance of a user type, or None when none is registered for its class."""
    fe_type = user_type_registry.user_view(fe_type)
    model_class = _model_class(type(fe_type))
    return None if model_class is None else model_class(_DMM, fe_type)


def struct_member_names(fe_type):
    """A StructModel's member names, for struct proxies; None for other models."""
    model = model_of(fe_type)
    return model._fields if isinstance(model, StructModel) else None


def _define(instance):
    model = model_of(instance)
    if model is not None:
        names, layout = model._layout()
        _core.define_user_model(instance, list(names), layout)


def register_model(type_class):
    """Numba's ``register_model(TypeClass)``: a decorator registering a model class for the
    instances of ``type_class``."""

    def decorate(model_class):
        with _lock:
            _models[type_class] = model_class
        for instance in user_type_registry.instances_of(type_class):
            _define(instance)
        return model_class

    return decorate


register_default = register_model
user_type_registry._model_hooks.append(_define)
