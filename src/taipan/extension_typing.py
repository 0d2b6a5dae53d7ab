"""How the extension API's typing functions are called: the typing context they receive
(Numba's ``typingctx``: ``can_convert``, ``unify_types``, ``resolve_value_type``) and Numba's
order of trying them with the call's plain argument types and its literal arguments
(``types.IntegerLiteral``, ``prefer_literal``). Used by taipan.extending's overloads and
intrinsics."""

from taipan import types
from taipan.errors import TypingError
from taipan.user_type_registry import user_view


def literal_arguments(args, literals):
    """``args`` with the integers written in the call as Numba's IntegerLiterals (literals:
    per positional argument, the integer or None); None when the call wrote none."""
    if not any(value is not None for value in literals) or len(literals) != len(args):
        return None
    return tuple(
        t if value is None else types.IntegerLiteral(value) for t, value in zip(args, literals)
    )


def calling(typer, kwargs):
    return lambda arguments: typer(*arguments, **kwargs)


def is_library_typer(typer):
    return getattr(typer, "__module__", "").startswith("taipan.")


def try_literals(attempt, args, literal_args, prefer_literal):
    """``attempt(arguments)`` as Numba tries a template: with the plain types, then with the
    literals (where the call wrote some); with prefer_literal, the literals first. A first try
    that declines (None) or raises a TypingError gives way to the second."""
    if literal_args is None:
        return attempt(args)
    first, second = (literal_args, args) if prefer_literal else (args, literal_args)
    try:
        result = attempt(first)
    except TypingError:
        try:
            result = attempt(second)
        except TypingError:
            result = None
        if result is None:
            raise  # the first try's reason, where the second one fails too
        return result
    return result if result is not None else attempt(second)


class TypingContext:
    """The ``typingctx`` an intrinsic's typing function receives: Numba's typing context as far
    as typing functions use it."""

    def unify_types(self, *types_):
        """The type all of ``types_`` convert to (numbers by NumPy's promotion), or None."""
        first = types_[0]
        if all(t == first for t in types_):
            return first
        if all(t.kind_name in ("Boolean", "Integer", "Float", "Complex") for t in types_):
            import numpy as np

            promoted = np.result_type(*[np.dtype(t.name) for t in types_])
            return getattr(types, str(promoted))
        return None

    unify_pairs = unify_types

    def can_convert(self, fromty, toty):
        """Numba's: how a value of ``fromty`` converts to ``toty`` (a ``Conversion``: exact,
        promote, safe or unsafe), None when it does not; a user type answers by its
        ``can_convert_to``."""
        from taipan.core.typeconv import Conversion

        if fromty == toty:
            return Conversion.exact
        numbers = ("Boolean", "Integer", "Float", "Complex")
        if fromty.kind_name in numbers and toty.kind_name in numbers:
            import numpy as np

            source, target = np.dtype(fromty.name), np.dtype(toty.name)
            if np.can_cast(source, target, "safe"):
                return Conversion.promote if source.kind == target.kind else Conversion.safe
            return Conversion.unsafe
        can_convert_to = getattr(user_view(fromty), "can_convert_to", None)
        if can_convert_to is not None:
            return can_convert_to(self, toty) or None
        return None

    def resolve_value_type(self, value):
        from taipan.typeof import typeof

        return typeof(value)


TYPING_CONTEXT = TypingContext()
