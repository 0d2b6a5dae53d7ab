"""``taipan.objmode``: the context manager of object-mode blocks. It does nothing when Python
runs it; in compiled code the front end rewrites each ``with objmode(...)`` block
(``taipan/objmode_blocks.py``). Kept apart so that ``import taipan`` imports no ``ast``."""


class _ObjModeContext:
    """``with objmode(x='float64[:]', s=types.unicode_type):`` runs the block in the
    interpreter when used inside compiled code; the keywords declare the types of the variables
    the block assigns that the code after it reads. In Python it does nothing."""

    def __call__(self, *args, **kwargs):
        return self

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "taipan.objmode"


objmode = _ObjModeContext()
