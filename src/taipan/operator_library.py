"""Python's ``operator`` module for compiled code: each function is the operator it names,
written with that operator (``operator.add(a, b)`` compiles ``a + b``), so typing, lowering, array
fusion and errors are the operator's own, in one place. Registered with ``taipan.extending``'s
``overload`` and loaded the first time the resolver meets one of these functions
(``extending._load_library_function``)."""

import operator

from taipan.extending import overload

_NUMBER_KINDS = ("Boolean", "Integer", "Float", "Complex")


def _is_number_operand(t):
    """A number, or a value of a user type that converts to one (Numba's ``can_convert_to``
    with a ``lower_cast``: IntEnum members, Numba's MyDummy)."""
    if t.kind_name in _NUMBER_KINDS:
        return True
    if t.kind_name != "UserType":
        return False
    from taipan.user_type_casts import conversion_target  # loaded: a user type exists

    target = conversion_target(t, None)
    return target is not None and target.kind_name in _NUMBER_KINDS


def _numbers_first(typer):
    """Marks the typing function of an arithmetic operator as coming before the user's overloads
    where every operand is, or converts to, a number: Numba's built-in templates come first, so
    ``operator.add(m, n)`` of two values that convert is the numbers' sum, as ``m + n`` is
    (typing/ExpressionInference.cpp converts them there). Not the in-place forms: ``m -= n``
    keeps ``m``'s variable, which cannot become a number (augmented assignments continue the
    variable's version, syntax/VariableVersions)."""
    typer._taipan_first_for = lambda *args: all(_is_number_operand(t) for t in args)
    return typer


# The binary operators (operator.add: a + b).


@overload(operator.add)
@_numbers_first
def _add(a, b):
    def add_impl(a, b):
        return a + b

    return add_impl


@overload(operator.sub)
@_numbers_first
def _sub(a, b):
    def sub_impl(a, b):
        return a - b

    return sub_impl


@overload(operator.mul)
@_numbers_first
def _mul(a, b):
    def mul_impl(a, b):
        return a * b

    return mul_impl


@overload(operator.truediv)
@_numbers_first
def _truediv(a, b):
    def truediv_impl(a, b):
        return a / b

    return truediv_impl


@overload(operator.floordiv)
@_numbers_first
def _floordiv(a, b):
    def floordiv_impl(a, b):
        return a // b

    return floordiv_impl


@overload(operator.mod)
@_numbers_first
def _mod(a, b):
    def mod_impl(a, b):
        return a % b

    return mod_impl


@overload(operator.pow)
@_numbers_first
def _pow(a, b):
    def pow_impl(a, b):
        return a**b

    return pow_impl


@overload(operator.matmul)
def _matmul(a, b):
    def matmul_impl(a, b):
        return a @ b

    return matmul_impl


@overload(operator.lshift)
@_numbers_first
def _lshift(a, b):
    def lshift_impl(a, b):
        return a << b

    return lshift_impl


@overload(operator.rshift)
@_numbers_first
def _rshift(a, b):
    def rshift_impl(a, b):
        return a >> b

    return rshift_impl


@overload(operator.and_)
@_numbers_first
def _and(a, b):
    def and_impl(a, b):
        return a & b

    return and_impl


@overload(operator.or_)
@_numbers_first
def _or(a, b):
    def or_impl(a, b):
        return a | b

    return or_impl


@overload(operator.xor)
@_numbers_first
def _xor(a, b):
    def xor_impl(a, b):
        return a ^ b

    return xor_impl


# The in-place forms (operator.iadd: a += b, which changes an array in place).


@overload(operator.iadd)
def _iadd(a, b):
    def iadd_impl(a, b):
        a += b
        return a

    return iadd_impl


@overload(operator.isub)
def _isub(a, b):
    def isub_impl(a, b):
        a -= b
        return a

    return isub_impl


@overload(operator.imul)
def _imul(a, b):
    def imul_impl(a, b):
        a *= b
        return a

    return imul_impl


@overload(operator.itruediv)
def _itruediv(a, b):
    def itruediv_impl(a, b):
        a /= b
        return a

    return itruediv_impl


@overload(operator.ifloordiv)
def _ifloordiv(a, b):
    def ifloordiv_impl(a, b):
        a //= b
        return a

    return ifloordiv_impl


@overload(operator.imod)
def _imod(a, b):
    def imod_impl(a, b):
        a %= b
        return a

    return imod_impl


@overload(operator.ipow)
def _ipow(a, b):
    def ipow_impl(a, b):
        a **= b
        return a

    return ipow_impl


@overload(operator.imatmul)
def _imatmul(a, b):
    def imatmul_impl(a, b):
        a @= b
        return a

    return imatmul_impl


@overload(operator.ilshift)
def _ilshift(a, b):
    def ilshift_impl(a, b):
        a <<= b
        return a

    return ilshift_impl


@overload(operator.irshift)
def _irshift(a, b):
    def irshift_impl(a, b):
        a >>= b
        return a

    return irshift_impl


@overload(operator.iand)
def _iand(a, b):
    def iand_impl(a, b):
        a &= b
        return a

    return iand_impl


@overload(operator.ior)
def _ior(a, b):
    def ior_impl(a, b):
        a |= b
        return a

    return ior_impl


@overload(operator.ixor)
def _ixor(a, b):
    def ixor_impl(a, b):
        a ^= b
        return a

    return ixor_impl


# Comparisons and identity.


@overload(operator.lt)
def _lt(a, b):
    def lt_impl(a, b):
        return a < b

    return lt_impl


@overload(operator.le)
def _le(a, b):
    def le_impl(a, b):
        return a <= b

    return le_impl


@overload(operator.gt)
def _gt(a, b):
    def gt_impl(a, b):
        return a > b

    return gt_impl


@overload(operator.ge)
def _ge(a, b):
    def ge_impl(a, b):
        return a >= b

    return ge_impl


@overload(operator.eq)
def _eq(a, b):
    def eq_impl(a, b):
        return a == b

    return eq_impl


@overload(operator.ne)
def _ne(a, b):
    def ne_impl(a, b):
        return a != b

    return ne_impl


@overload(operator.is_)
def _is(a, b):
    def is_impl(a, b):
        return a is b

    return is_impl


@overload(operator.is_not)
def _is_not(a, b):
    def is_not_impl(a, b):
        return a is not b

    return is_not_impl


# Unary operators.


@overload(operator.neg)
def _neg(a):
    def neg_impl(a):
        return -a

    return neg_impl


@overload(operator.pos)
def _pos(a):
    def pos_impl(a):
        return +a

    return pos_impl


@overload(operator.invert)
def _invert(a):
    def invert_impl(a):
        return ~a

    return invert_impl


@overload(operator.inv)
def _inv(a):
    def inv_impl(a):
        return ~a

    return inv_impl


@overload(operator.not_)
def _not(a):
    def not_impl(a):
        return not a

    return not_impl


@overload(operator.truth)
def _truth(a):
    def truth_impl(a):
        return bool(a)

    return truth_impl


@overload(operator.abs)
def _abs(a):
    def abs_impl(a):
        return abs(a)

    return abs_impl


# Containers.


@overload(operator.contains)
def _contains(a, b):
    def contains_impl(a, b):
        return b in a

    return contains_impl


@overload(operator.getitem)
def _getitem(a, b):
    def getitem_impl(a, b):
        return a[b]

    return getitem_impl


@overload(operator.setitem)
def _setitem(a, b, c):
    def setitem_impl(a, b, c):
        a[b] = c

    return setitem_impl
