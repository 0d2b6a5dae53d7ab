"""``numba.cuda.cudadrv.linkable_code`` on taipan: the classes of code linked from memory
(``CUSource``, ``PTXSource``, ``Cubin``, ``Fatbin``, ``Object``, ``Archive``, ``LTOIR``), with
their module setup/teardown callbacks, are taipan.cuda.linking's."""

from numba._missing import fill_missing
from taipan.cuda.linking import (  # noqa: F401
    LTOIR,
    Archive,
    Cubin,
    CUSource,
    Fatbin,
    LinkableCode,
    Object,
    PTXSource,
)

__getattr__ = fill_missing(globals(), __name__)
