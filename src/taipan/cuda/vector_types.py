"""CUDA's vector types in compiled code (numba-cuda's ``vector_types``): each object of
taipan.cuda.api.vector_types (``cuda.float32x4``...) is the constructor of a user type laid out
as a struct of its elements (``x``, ``y``, ``z``, ``w``, read as attributes), built with the
extension API. A constructor takes numbers (converted to the base type) and vectors of the same
base type, in any mix whose elements add up to the count: an intrinsic copies the elements in
order."""

from taipan import types
from taipan.cuda import api
from taipan.extending import (
    intrinsic,
    make_attribute_wrapper,
    models,
    overload,
    register_model,
)
from taipan.user_type_registry import user_view


class VectorType(types.Type):
    """The type of one vector type's values (numba-cuda's VectorType): ``base_type``,
    ``attr_names``, ``num_elements`` and the object kernels call, ``user_facing_object``."""

    def __init__(self, name, base_type, attr_names, user_facing_object):
        self.base_type = base_type
        self.attr_names = attr_names
        self.user_facing_object = user_facing_object
        super().__init__(name=name)

    @property
    def num_elements(self):
        return len(self.attr_names)


@register_model(VectorType)
class _VectorModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [(name, fe_type.base_type) for name in fe_type.attr_names]
        super().__init__(dmm, fe_type, members)


for _name in api.vector_types.ATTRIBUTES:
    make_attribute_wrapper(VectorType, _name, _name)


def _elements(args, base_type):
    """The element count of a constructor's arguments, or None when one is neither a number
    nor a vector of ``base_type``."""
    count = 0
    for arg in args:
        if isinstance(arg, VectorType) and arg.base_type == base_type:
            count += arg.num_elements
        elif isinstance(arg, (types.Integer, types.Float, types.Boolean)):
            count += 1
        else:
            return None
    return count


def _constructor(vector_type):
    """The overload of ``vector_type.user_facing_object``: its arguments' elements in order."""
    base_type = vector_type.base_type
    count = vector_type.num_elements

    @intrinsic
    def build(typingctx, *args):
        if _elements(args, base_type) != count:
            return None

        def codegen(context, builder, signature, values):
            elements = []
            for arg_type, value in zip(map(user_view, signature.args), values):
                if isinstance(arg_type, VectorType):
                    elements += [
                        builder.extract_value(value, i) for i in range(arg_type.num_elements)
                    ]
                else:
                    elements.append(context.cast(builder, value, arg_type, base_type))
            result = context.get_value_type(vector_type)(None)
            for index, element in enumerate(elements):
                result = builder.insert_value(result, element, index)
            return result

        return vector_type(*args), codegen

    implementations = {
        1: lambda a: build(a),
        2: lambda a, b: build(a, b),
        3: lambda a, b, c: build(a, b, c),
        4: lambda a, b, c, d: build(a, b, c, d),
    }

    @overload(vector_type.user_facing_object)
    def construct(*args):
        if len(args) in implementations and _elements(args, base_type) == count:
            return implementations[len(args)]
        return None


vector_types = {}  # name -> VectorType, as numba-cuda's numba.cuda.vector_types.vector_types
for _name, _object in api.vector_types.VECTOR_TYPES.items():
    _type = VectorType(
        _name, getattr(types, _object.base), api.vector_types.ATTRIBUTES[: _object.count], _object
    )
    vector_types[_name] = _type
    _constructor(_type)
