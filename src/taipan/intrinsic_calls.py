"""Functions an intrinsic's codegen calls (``context.get_function(fn, sig)``,
``context.compile_internal(builder, impl, sig, args)``). On the CPU taipan compiles each as a
cfunc, and the intrinsic calls its C entry through its address, so the code that uses one is
valid in this process only (never cached on disk). In a CUDA kernel each is compiled as a
device function with the C ABI, whose LLVM IR travels with the intrinsic's module and is
linked into the kernel's (``device_function``). Numbers, booleans and pointers cross the
call."""

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


def _check_signature(sig):
    for t in list(sig.args) + [sig.return_type]:
        if t.kind_name not in ("Boolean", "Integer", "Float", "Complex", "Pointer", "NoneType"):
            raise TypingError(
                f"context.get_function and compile_internal in an intrinsic take and return "
                f"numbers, booleans and pointers, not {t}"
            )


def compiled_address(pyfunc, sig, types):
    """The address of ``pyfunc`` compiled as a cfunc for ``sig``, with the LLVM parameter and
    result types of its C entry (numbers and pointers in their memory form)."""
    from taipan.cfunc import CFunc

    _check_signature(sig)
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


# (code, function id, signature) -> (C symbol, LLVM IR of the device function)
_device_functions = {}

# The CUDA target's compiler of device functions, which taipan.cuda.compiler registers when it
# is imported (every kernel compiles through it): this generic module does not import the
# CUDA target, whose compiler depends on the extension API that depends on this module.
_compile_device_source = None


def use_device_compiler(compile_source):
    """Registers the CUDA target's ``compile_source`` for device functions called from
    intrinsics in kernels (taipan.cuda.compiler calls this once)."""
    global _compile_device_source
    _compile_device_source = compile_source


def device_function(pyfunc, sig):
    """``pyfunc`` compiled for ``sig`` as a CUDA device function with the C ABI (``T
    symbol(args...)``): (its symbol, the LLVM IR module defining it), which the intrinsic's
    module carries to the kernel's (lower/LowerIntrinsics.cpp links it there)."""
    from taipan.frontend import read_function

    compile_source = _compile_device_source
    if compile_source is None:  # no kernel compiled yet: nothing calls this then
        raise TypingError("a device function needs taipan.cuda's compiler, not imported")

    _check_signature(sig)
    key = (getattr(pyfunc, "__code__", pyfunc), id(pyfunc), sig)
    found = _device_functions.get(key)
    if found is None:
        symbol = f"taipan_internal_{len(_device_functions)}_{_symbol_part(pyfunc)}"
        options = {"debug": False, "lineinfo": False, "fastmath": False, "opt": True}
        options.update(error_model="numpy", launch_bounds=None)
        compiled = compile_source(
            read_function(pyfunc, options),
            list(sig.args),
            90,  # LLVM IR, which the kernel's own compute capability compiles on
            device=True,
            keep_llvm=True,
            return_type=sig.return_type,
            c_symbol=symbol,
        )
        found = _device_functions[key] = (symbol, compiled[5], pyfunc)
    return found[0], found[1]


def _symbol_part(pyfunc):
    name = getattr(pyfunc, "__name__", "function")
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in name)
