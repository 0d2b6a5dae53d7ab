"""Numba's check that an overload's implementation takes the arguments its typing function
takes (``overload(..., strict=True)``, the default): the same positional names, the same
keyword names with the same defaults, a ``*args`` in the typing function only where the
implementation has one too, and no ``**kwargs``. A mismatch is a TypingError saying what
differs, in Numba's words."""

import inspect

from taipan.errors import TypingError

_PREFIX = "Typing and implementation arguments differ in "


def _arguments(signature):
    """(positional parameters, keyword parameters, the *args parameter or None)."""
    positional, keywords, star = [], [], None
    for parameter in signature.parameters.values():
        if parameter.kind == inspect.Parameter.VAR_KEYWORD:
            raise TypingError(
                "The use of VAR_KEYWORD (e.g. **kwargs) is unsupported. (offending argument "
                f"name is '{parameter}')"
            )
        if parameter.default is inspect.Parameter.empty:
            positional.append(parameter)
            if parameter.kind == inspect.Parameter.VAR_POSITIONAL:
                star = parameter
        else:
            keywords.append(parameter)
    return positional, keywords, star


def check_signatures(typing_function, implementation):
    """Raises a TypingError where ``implementation`` does not take what ``typing_function``
    takes (Numba's ``_validate_sigs``)."""
    typing_signature = inspect.signature(typing_function)
    implementation_signature = inspect.signature(implementation)
    typed, typed_keywords, typed_star = _arguments(typing_signature)
    implemented, implemented_keywords, implemented_star = _arguments(implementation_signature)
    both = (
        f"Typing signature:         {typing_signature}\n"
        f"Implementation signature: {implementation_signature}"
    )
    if typed_star and not implemented_star:
        raise TypingError(
            f"VAR_POSITIONAL (e.g. *args) argument kind (offending argument name is "
            f"'{typed_star}') found in the typing function signature, but is not in the "
            f"implementing function signature.\n{both}"
        )
    if implemented_star and not typed_star:
        # *args in the implementation takes any number of the typing function's arguments
        implemented = implemented[: implemented.index(implemented_star)]
        names = [p.name for p in typed]
        if implemented and implemented[-1].name not in names:
            raise TypingError(
                f"{_PREFIX}argument names.\n{both}\nFirst difference: '{implemented[-1]}'"
            )
        typed = typed[: names.index(implemented[-1].name) + 1] if implemented else []
    if typed != implemented:
        raise TypingError(
            f"{_PREFIX}argument names.\n{both}\nDifference: {set(typed) ^ set(implemented)}"
        )
    if [p.name for p in typed_keywords] != [p.name for p in implemented_keywords]:
        raise TypingError(
            f"{_PREFIX}keyword argument names.\n{both}\n"
            f"Difference: {set(typed_keywords) ^ set(implemented_keywords)}"
        )
    if [p.default for p in typed_keywords] != [p.default for p in implemented_keywords]:
        raise TypingError(
            f"{_PREFIX}keyword argument default values.\n{both}\n"
            f"Difference: {set(typed_keywords) ^ set(implemented_keywords)}"
        )
