"""``choose_unpredictable``: a select the compiler keeps as a select, for the searches whose
every step goes either way at random (binary searches over random keys).

LLVM's x86 backend turns a select inside a loop back into a branch when the select lies on the
loop's critical path (X86CmovConversion), betting that the branch is predictable. In a binary
search it is not: each step mispredicts half the time. A select marked ``!unpredictable`` stays
a conditional move (LLVM 19 reads that metadata in CodeGenPrepare and in the cmov converter),
so the search runs without mispredictions. The probe sequence, and so every result, is the same
as the branching loop's.
"""

from taipan import types
from taipan.extending import intrinsic

# The body: its parameters are %arg0.. and {T1}, {T2}, {R} their LLVM types (extending.intrinsic).
_MARKED_SELECT = """
    %r = select i1 %arg0, {T1} %arg1, {T2} %arg2, !unpredictable !{}
    ret {R} %r"""


def _plain_number(t):
    return isinstance(t, (types.Integer, types.Float, types.Boolean))


@intrinsic
def choose_unpredictable(typingctx, condition, if_true, if_false):
    """``if_true if condition else if_false``, compiled as a select marked ``!unpredictable``
    (both values are computed; they must be numbers of one type)."""
    if not isinstance(condition, types.Boolean) or if_true != if_false:
        return None
    if not _plain_number(if_true):
        return None
    return if_true(condition, if_true, if_false), _MARKED_SELECT
