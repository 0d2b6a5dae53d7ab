"""``cuda.jit``: kernels (launched as ``kernel[griddim, blockdim](args)``) and device functions,
compiled to PTX; the front (options, signatures) is taipan.cuda.api.decorators."""

import functools

from taipan.cuda import api
from taipan.cuda.dispatcher import CUDADispatcher
from taipan.cuda.linking import check_link_files
from taipan.types import Signature, Type


def _checked_links(options, eager=False):
    """The link= entries checked; CUDA C++ among them compiled now for a kernel compiled now
    (given signatures), whose NVRTC errors and warnings come at its declaration as numba-cuda's
    do, else at its first launch."""
    if options.get("link"):
        options["link"] = tuple(check_link_files(options["link"], compile_sources=eager))
    return options


def _specialized(function, options, signatures):
    """A dispatcher for the one signature given (not in a list): numba-cuda's specialised
    kernel, which ``specialize`` refuses."""
    dispatcher = CUDADispatcher(function, options, signatures)
    dispatcher._specialized = True
    return dispatcher


def jit(func_or_sig=None, device=False, **options):
    """Compiles a kernel, or with ``device=True`` a function kernels call."""
    one_signature = isinstance(func_or_sig, (str, Type, Signature, tuple))
    make = _specialized if one_signature else CUDADispatcher
    eager = one_signature or isinstance(func_or_sig, list)
    prepare = functools.partial(_checked_links, eager=eager)
    return api.jit_front(make, func_or_sig, device, options, prepare=prepare)
