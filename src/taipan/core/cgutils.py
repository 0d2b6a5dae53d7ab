"""Numba's ``numba.core.cgutils``: helpers that intrinsics' codegen functions call on an
llvmlite ``ir.IRBuilder`` (``alloca_once``, ``for_range``, ``if_likely``, ``pack_array``,
``printf``, struct proxies...). Importing it imports llvmlite, which comes with numba."""

import collections
import functools
from contextlib import contextmanager

try:
    from llvmlite import ir
except ImportError as error:  # pragma: no cover - llvmlite comes with numba
    raise ImportError(
        "taipan.core.cgutils builds LLVM IR with llvmlite, which is not installed "
        "(pip install llvmlite; it comes with numba)"
    ) from error

bool_t = ir.IntType(1)
int1_t = bool_t
int8_t = ir.IntType(8)
int16_t = ir.IntType(16)
int32_t = ir.IntType(32)
int64_t = ir.IntType(64)
intp_t = int64_t
voidptr_t = int8_t.as_pointer()
MACHINE_BITS = 64

true_bit = bool_t(1)
false_bit = bool_t(0)
true_byte = int8_t(1)
false_byte = int8_t(0)

Loop = collections.namedtuple("Loop", ("index", "do_break"))


def as_bool_bit(builder, value):
    """``value`` as an ``i1``: true when it is not zero."""
    if value.type == bool_t:
        return value
    return builder.icmp_unsigned("!=", value, value.type(0))


def make_anonymous_struct(builder, values, struct_type=None):
    """A struct value of ``values`` (of ``struct_type`` if given)."""
    if struct_type is None:
        struct_type = ir.LiteralStructType([v.type for v in values])
    struct = struct_type(ir.Undefined)
    for index, value in enumerate(values):
        struct = builder.insert_value(struct, value, index)
    return struct


pack_struct = make_anonymous_struct


def make_bytearray(buf):
    """A constant ``[n x i8]`` of the bytes ``buf``."""
    data = bytearray(buf)
    return ir.Constant(ir.ArrayType(int8_t, len(data)), data)


def append_basic_block(builder, name=""):
    return builder.append_basic_block(name=name)


def terminate(builder, bbend):
    """Branches to ``bbend`` unless the current block already ends."""
    if not builder.basic_block.is_terminated:
        builder.branch(bbend)


def get_null_value(ltype):
    return ltype(None)


def is_null(builder, val):
    return builder.icmp_unsigned("==", get_null_value(val.type), val)


def is_not_null(builder, val):
    return builder.icmp_unsigned("!=", get_null_value(val.type), val)


@contextmanager
def early_exit_if(builder, stack, cond):
    """Numba's ``early_exit_if``: the body runs when ``cond`` holds; the code after the ``with``
    runs, inside ``stack``'s ExitStack, only when it does not."""
    then, otherwise = stack.enter_context(builder.if_else(cond, likely=False))
    with then:
        yield
    stack.enter_context(otherwise)


def early_exit_if_null(builder, stack, obj):
    """Numba's ``early_exit_if_null``: ``early_exit_if`` the pointer ``obj`` is null."""
    return early_exit_if(builder, stack, is_null(builder, obj))


def if_unlikely(builder, pred):
    return builder.if_then(pred, likely=False)


def if_likely(builder, pred):
    return builder.if_then(pred, likely=True)


def ifnot(builder, pred):
    return builder.if_then(builder.not_(pred))


def increment_index(builder, val):
    """``val + 1`` (no signed wrap)."""
    return builder.add(val, val.type(1), flags=["nsw"])


def alloca_once(builder, ty, size=None, name="", zfill=False):
    """Stack memory for ``size`` (default 1) values of LLVM type ``ty``, allocated once in the
    function's entry block, so that it lives as long as the calling function's frame; the
    first element is zeroed there (and again here with ``zfill``)."""
    if isinstance(size, int):
        size = ir.Constant(intp_t, size)
    with builder.goto_entry_block():
        ptr = builder.alloca(ty, size=size, name=name)
        builder.store(ty(None), ptr)
    if zfill:
        builder.store(ptr.type.pointee(None), ptr)
    return ptr


def alloca_once_value(builder, value, name="", zfill=False):
    """Stack memory (``alloca_once``) holding ``value``."""
    storage = alloca_once(builder, value.type, name=name, zfill=zfill)
    builder.store(value, storage)
    return storage


def sizeof(builder, ptr_type):
    """The size of ``ptr_type``'s pointee, computed with a GEP (a constant to LLVM)."""
    offset = ptr_type(None).gep([int32_t(1)])
    return builder.ptrtoint(offset, intp_t)


def get_or_insert_function(module, fnty, name):
    """The function ``name`` of ``module``, declared with ``fnty`` if absent."""
    fn = module.globals.get(name, None)
    if fn is None:
        fn = ir.Function(module, fnty, name)
    return fn


def insert_pure_function(module, fnty, name):
    """A declaration of a function that reads no memory and does not throw."""
    fn = get_or_insert_function(module, fnty, name)
    fn.attributes.add("readonly")
    fn.attributes.add("nounwind")
    return fn


def add_global_variable(module, ty, name, addrspace=0):
    return ir.GlobalVariable(module, ty, module.get_unique_name(name), addrspace)


def global_constant(builder_or_module, name, value, linkage="internal"):
    """A constant global variable initialised to ``value``."""
    if isinstance(builder_or_module, ir.Module):
        module = builder_or_module
    else:
        module = builder_or_module.module
    data = add_global_variable(module, value.type, name)
    data.linkage = linkage
    data.global_constant = True
    data.initializer = value
    return data


@contextmanager
def for_range(builder, count, start=None, intp=None):
    """A loop of ``index`` from ``start`` (default 0) while below ``count``; yields a
    ``Loop(index, do_break)``."""
    if intp is None:
        intp = count.type
    if start is None:
        start = intp(0)
    stop = count
    bbcond = append_basic_block(builder, "for.cond")
    bbbody = append_basic_block(builder, "for.body")
    bbend = append_basic_block(builder, "for.end")

    def do_break():
        builder.branch(bbend)

    bbstart = builder.basic_block
    builder.branch(bbcond)
    with builder.goto_block(bbcond):
        index = builder.phi(intp, name="loop.index")
        pred = builder.icmp_signed("<", index, stop)
        builder.cbranch(pred, bbbody, bbend)
    with builder.goto_block(bbbody):
        yield Loop(index, do_break)
        bbbody = builder.basic_block  # the body may have opened other blocks
        incr = increment_index(builder, index)
        terminate(builder, bbcond)
    index.add_incoming(start, bbstart)
    index.add_incoming(incr, bbbody)
    builder.position_at_end(bbend)


@contextmanager
def for_range_slice(builder, start, stop, step, intp=None, inc=True):
    """A loop of ``index`` from ``start`` by ``step`` while below (``inc``) or above ``stop``;
    yields ``(index, count)``, count the iterations so far."""
    if intp is None:
        intp = start.type
    bbcond = append_basic_block(builder, "for.cond")
    bbbody = append_basic_block(builder, "for.body")
    bbend = append_basic_block(builder, "for.end")
    bbstart = builder.basic_block
    builder.branch(bbcond)
    with builder.goto_block(bbcond):
        index = builder.phi(intp, name="loop.index")
        count = builder.phi(intp, name="loop.count")
        pred = builder.icmp_signed("<" if inc else ">", index, stop)
        builder.cbranch(pred, bbbody, bbend)
    with builder.goto_block(bbbody):
        yield index, count
        bbbody = builder.basic_block
        incr = builder.add(index, step)
        next_count = increment_index(builder, count)
        terminate(builder, bbcond)
    index.add_incoming(start, bbstart)
    index.add_incoming(incr, bbbody)
    count.add_incoming(ir.Constant(intp, 0), bbstart)
    count.add_incoming(next_count, bbbody)
    builder.position_at_end(bbend)


@contextmanager
def loop_nest(builder, shape, intp, order="C"):
    """Nested ``for_range`` loops over ``shape``; yields the tuple of indices."""
    assert order in "CF"
    if not shape:
        yield ()
        return
    swap = (lambda x: x[::-1]) if order == "F" else (lambda x: x)
    with _loop_nest(builder, swap(shape), intp) as indices:
        yield swap(indices)


@contextmanager
def _loop_nest(builder, shape, intp):
    with for_range(builder, shape[0], intp=intp) as loop:
        if len(shape) > 1:
            with _loop_nest(builder, shape[1:], intp) as indices:
                yield (loop.index,) + indices
        else:
            yield (loop.index,)


def pack_array(builder, values, ty=None):
    """An LLVM array value ``[n x T]`` of ``values``."""
    if ty is None:
        ty = values[0].type
    array = ir.ArrayType(ty, len(values))(ir.Undefined)
    for index, value in enumerate(values):
        array = builder.insert_value(array, value, index)
    return array


def unpack_tuple(builder, tup, count=None):
    """The elements of an LLVM struct or array value."""
    if count is None:
        count = len(tup.type.elements) if hasattr(tup.type, "elements") else tup.type.count
    return [builder.extract_value(tup, i) for i in range(count)]


def gep(builder, ptr, *inds, name="", inbounds=False):
    indices = [int32_t(i) if isinstance(i, int) else i for i in inds]
    return builder.gep(ptr, indices, name=name, inbounds=inbounds)


def gep_inbounds(builder, ptr, *inds, name=""):
    return gep(builder, ptr, *inds, name=name, inbounds=True)


def pointer_add(builder, ptr, offset, return_type=None):
    """``ptr`` plus ``offset`` bytes, as ``return_type`` (default ``ptr``'s type)."""
    address = builder.ptrtoint(ptr, intp_t)
    if isinstance(offset, int):
        offset = intp_t(offset)
    address = builder.add(address, offset)
    return builder.inttoptr(address, return_type or ptr.type)


def memset(builder, ptr, size, value):
    """Fills ``size`` bytes at ``ptr`` with the byte ``value``."""
    fn = builder.module.declare_intrinsic("llvm.memset", (voidptr_t, size.type))
    if isinstance(value, int):
        value = int8_t(value)
    builder.call(fn, [builder.bitcast(ptr, voidptr_t), value, size, bool_t(0)])


def _raw_memcpy(builder, func_name, dst, src, count, itemsize, align):
    size_t = count.type
    if isinstance(itemsize, int):
        itemsize = ir.Constant(size_t, itemsize)
    fn = builder.module.declare_intrinsic(func_name, [voidptr_t, voidptr_t, size_t])
    builder.call(
        fn,
        [
            builder.bitcast(dst, voidptr_t),
            builder.bitcast(src, voidptr_t),
            builder.mul(count, itemsize),
            false_bit,
        ],
    )


def raw_memcpy(builder, dst, src, count, itemsize, align=1):
    """Copies ``count`` items of ``itemsize`` bytes (the areas must not overlap)."""
    return _raw_memcpy(builder, "llvm.memcpy", dst, src, count, itemsize, align)


def raw_memmove(builder, dst, src, count, itemsize, align=1):
    return _raw_memcpy(builder, "llvm.memmove", dst, src, count, itemsize, align)


def memcpy(builder, dst, src, count):
    """Copies ``count`` elements of ``dst``'s pointee type."""
    return _raw_memcpy(builder, "llvm.memcpy", dst, src, count, sizeof(builder, dst.type), 1)


def cbranch_or_continue(builder, cond, bbtrue):
    """Branches to ``bbtrue`` when ``cond``, else continues in a new block."""
    bbcont = builder.append_basic_block(".continue")
    builder.cbranch(cond, bbtrue, bbcont)
    builder.position_at_end(bbcont)
    return bbcont


def _scalar_pred_against_zero(builder, value, fpred, icond):
    zero = value.type(0)
    if isinstance(value.type, (ir.HalfType, ir.FloatType, ir.DoubleType)):
        return fpred(value, zero)
    if isinstance(value.type, ir.IntType):
        return builder.icmp_signed(icond, value, zero)
    raise TypeError(f"unexpected value type {value.type}")


def is_scalar_zero(builder, value):
    return _scalar_pred_against_zero(
        builder, value, functools.partial(builder.fcmp_ordered, "=="), "=="
    )


def is_not_scalar_zero(builder, value):
    return _scalar_pred_against_zero(
        builder, value, functools.partial(builder.fcmp_unordered, "!="), "!="
    )


def is_scalar_zero_or_nan(builder, value):
    return _scalar_pred_against_zero(
        builder, value, functools.partial(builder.fcmp_unordered, "=="), "=="
    )


@contextmanager
def if_zero(builder, value, likely=False):
    with builder.if_then(is_scalar_zero(builder, value), likely=likely):
        yield


def printf(builder, format, *args):
    """Calls C's ``printf`` with the format ``format`` (a str) and LLVM values ``args``."""
    assert isinstance(format, str)
    module = builder.module
    fmt = global_constant(module, "printf_format", make_bytearray((format + "\0").encode()))
    fnty = ir.FunctionType(int32_t, [voidptr_t], var_arg=True)
    fn = get_or_insert_function(module, fnty, "printf")
    return builder.call(fn, [builder.bitcast(fmt, voidptr_t)] + list(args))


def get_item_pointer2(
    context, builder, data, shape, strides, layout, inds, wraparound=False, boundscheck=False
):
    """The address of the element at indices ``inds`` of an array's ``data`` (no bounds check)."""
    if wraparound:
        indices = []
        for ind, extent in zip(inds, shape):
            negative = builder.icmp_signed("<", ind, ind.type(0))
            indices.append(builder.select(negative, builder.add(extent, ind), ind))
    else:
        indices = list(inds)
    if not indices:
        return builder.gep(data, [int32_t(0)])
    intp = indices[0].type
    if layout in "CF":
        steps = []
        for i in range(len(shape)):
            step = intp(1)
            for extent in shape[i + 1 :] if layout == "C" else shape[:i]:
                step = builder.mul(step, extent)
            steps.append(step)
        offset = intp(0)
        for index, step in zip(indices, steps):
            offset = builder.add(offset, builder.mul(index, step))
        return builder.gep(data, [offset])
    offsets = [builder.mul(stride, index) for stride, index in zip(strides, indices)]
    return pointer_add(builder, data, functools.reduce(builder.add, offsets))


def get_item_pointer(context, builder, aryty, ary, inds, wraparound=False, boundscheck=False):
    """The address of the element at ``inds`` of the array ``ary`` (a struct proxy)."""
    shape = unpack_tuple(builder, ary.shape, count=aryty.ndim)
    strides = unpack_tuple(builder, ary.strides, count=aryty.ndim)
    return get_item_pointer2(
        context, builder, ary.data, shape, strides, aryty.layout, inds, wraparound=wraparound
    )


# Struct proxies: a value of a struct type in stack memory, its fields as attributes.

_STRUCT_FIELDS = {
    "Array": ("meminfo", "parent", "nitems", "itemsize", "data", "shape", "strides"),
    "Complex": ("real", "imag"),
}


class _StructProxy:
    """Numba's struct proxy: ``proxy.field`` loads a field, ``proxy.field = v`` stores it,
    ``_getvalue()`` gives the struct value and ``_getpointer()`` its address."""

    _fe_type = None
    _fields = ()

    def __init__(self, context, builder, value=None, ref=None):
        object.__setattr__(self, "_context", context)
        object.__setattr__(self, "_builder", builder)
        be_type = context.get_value_type(self._fe_type)
        object.__setattr__(self, "_be_type", be_type)
        if ref is None:
            ref = alloca_once(builder, be_type, zfill=True)
            if value is not None:
                builder.store(value, ref)
        object.__setattr__(self, "_value", ref)

    def _field_pointer(self, name):
        index = self._fields.index(name)
        return self._builder.gep(self._value, [int32_t(0), int32_t(index)], inbounds=True)

    def __getattr__(self, name):
        if name in self._fields:
            return self._builder.load(self._field_pointer(name))
        raise AttributeError(name)

    def __setattr__(self, name, value):
        if name not in self._fields:
            raise AttributeError(f"{self._fe_type} has no field {name}")
        pointer = self._field_pointer(name)
        if value.type == bool_t and pointer.type.pointee == int8_t:  # a boolean member's byte
            value = self._builder.zext(value, int8_t)
        if value.type != pointer.type.pointee and value.type.is_pointer:
            value = self._builder.bitcast(value, pointer.type.pointee)
        self._builder.store(value, pointer)

    def __getitem__(self, index):
        return getattr(self, self._fields[index])

    def __setitem__(self, index, value):
        setattr(self, self._fields[index], value)

    def _getvalue(self):
        return self._builder.load(self._value)

    def _setvalue(self, value):
        self._builder.store(value, self._value)

    def _getpointer(self):
        return self._value

    def _get_ptr_by_name(self, name):
        """The address of the field ``name`` (Numba's)."""
        return self._field_pointer(name)


def create_struct_proxy(fe_type, kind="value"):
    """The struct proxy class of a taipan type laid out as a struct: arrays (Numba's fields
    meminfo, parent, nitems, itemsize, data, shape, strides), complex numbers (real, imag) and
    user-defined types with a ``StructModel`` (its members)."""
    fields = _STRUCT_FIELDS.get(fe_type.kind_name)
    if fields is None and fe_type.kind_name == "UserType":
        from taipan.datamodels import struct_member_names

        fields = struct_member_names(fe_type)
    if fields is None:
        raise NotImplementedError(f"taipan has no struct proxy for values of type {fe_type}")
    return type(f"StructProxy_{fe_type}", (_StructProxy,), {"_fe_type": fe_type, "_fields": fields})
