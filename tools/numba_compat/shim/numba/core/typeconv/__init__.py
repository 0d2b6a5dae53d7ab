"""``numba.core.typeconv``: ``Conversion``, which a type's ``can_convert_to`` answers with
(taipan's ``taipan.core.typeconv``); the rest of Numba's module is placeholders."""

from numba._missing import fill_missing
from taipan.core.typeconv import Conversion  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
