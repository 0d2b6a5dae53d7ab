"""``cuda.jit``: kernels (launched as ``kernel[griddim, blockdim](args)``) and device functions,
compiled to PTX; the front (options, signatures) is taipan.cuda.api.decorators."""

from taipan.cuda import api
from taipan.cuda.dispatcher import CUDADispatcher
from taipan.cuda.linking import check_link_files
from taipan.types import Signature, Type


def _checked_links(options):
    if options.get("link"):
        options["link"] = tuple(check_link_files(options["link"]))
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
    return api.jit_front(make, func_or_sig, device, options, prepare=_checked_links)
