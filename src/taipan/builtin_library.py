"""Python builtins for compiled code written in Python: ``callable`` (decided from the type, as
Numba does) and ``getattr`` with a constant attribute name (the attribute itself); ``hash`` is
taipan.hashing's. Registered with ``taipan.extending``'s
``overload`` and loaded the first time the resolver meets one of these builtins
(``extending._load_python_library``)."""

import builtins
import keyword

from taipan.errors import TypingError
from taipan.extending import overload

# ---------------------------------------------------------------------------------------------
# callable: decided by the argument's type when the function compiles (isinstance is typed by
# type inference itself, typing/Isinstance.h, so that it prunes branches).


@overload(builtins.callable)
def _callable(value):
    decided = value.kind_name == "Function"  # every kind of function, and builtin classes
    return lambda value: decided


# ---------------------------------------------------------------------------------------------
# getattr with a constant attribute name: the attribute itself.

_getattr_functions = {}


@overload(builtins.getattr)
def _getattr(value, name):
    if name.kind_name != "StringLiteral":
        raise TypingError("getattr() needs a constant attribute name in compiled code")
    attribute = name.literal_value
    if not attribute.isidentifier() or keyword.iskeyword(attribute):
        raise TypingError(f"getattr(): {attribute!r} is not an attribute name")
    function = _getattr_functions.get(attribute)
    if function is None:
        namespace = {}
        text = f"def getattr_constant(value, name):\n    return value.{attribute}\n"
        exec(text, namespace)  # noqa: S102 - an identifier, checked above
        function = _getattr_functions[attribute] = namespace["getattr_constant"]
    return function
