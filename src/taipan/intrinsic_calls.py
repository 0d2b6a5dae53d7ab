"""Functions an intrinsic's codegen calls (``context.get_function(fn, sig)``,
``context.compile_internal(builder, impl, sig, args)``): taipan compiles each as a cfunc, and
the intrinsic calls its C entry through its address, so the code that uses one is valid in
this process only (never cached on disk). Numbers, booleans and pointers cross the call."""

from taipan.errors import TypingError

# (function, signature) -> the compiled cfunc, kept alive as long as the process.
_compiled = {}


def function_for(fn, count):
    """A Python function of ``count`` parameters calling ``fn`` (which may be a builtin such as
    ``math.atan`` or a jitted function), whose source taipan can read."""
    if count == 0:

        def call():
            return fn()

    elif count == 1:

        def call(a):
            return fn(a)

    elif count == 2:

        def call(a, b):
            return fn(a, b)

    elif count == 3:

        def call(a, b, c):
            return fn(a, b, c)

    elif count == 4:

        def call(a, b, c, d):
            return fn(a, b, c, d)

    else:

        def call(*args):
            return fn(*args)

    call.__name__ = getattr(fn, "__name__", "call")
    return call


def compiled_address(pyfunc, sig, types):
    """The address of ``pyfunc`` compiled as a cfunc for ``sig``, with the LLVM parameter and
    result types of its C entry (numbers and pointers in their memory form)."""
    from taipan.cfunc import CFunc

    for t in list(sig.args) + [sig.return_type]:
        if t.kind_name not in ("Boolean", "Integer", "Float", "Complex", "Pointer", "NoneType"):
            raise TypingError(
                f"context.get_function and compile_internal in an intrinsic take and return "
                f"numbers, booleans and pointers, not {t}"
            )
    key = (getattr(pyfunc, "__code__", pyfunc), id(pyfunc), sig)
    compiled = _compiled.get(key)
    if compiled is None:
        compiled = _compiled[key] = (CFunc(pyfunc, sig, {}), pyfunc)
    address = compiled[0].address
    parameters = [types.data(t) for t in sig.args]
    if sig.return_type.kind_name == "NoneType":
        result = types.ir.VoidType()
    else:
        result = types.data(sig.return_type)
    return address, parameters, result
