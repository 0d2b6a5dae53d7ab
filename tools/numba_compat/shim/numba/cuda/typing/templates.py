"""``numba.cuda.typing.templates``: ``signature`` (taipan's); the template classes are
numba-cuda internals (placeholders)."""

from numba._missing import fill_missing


def signature(return_type, *argument_types):
    """A signature of taipan types, as ``return_type(*argument_types)`` builds it."""
    return return_type(*argument_types)


__getattr__ = fill_missing(globals(), __name__)
