"""``cuda.jit``: kernels (launched as ``kernel[griddim, blockdim](args)``) and device functions,
compiled to PTX; the front (options, signatures) is taipan.cuda.api.decorators."""

from taipan.cuda import api
from taipan.cuda.dispatcher import CUDADispatcher
from taipan.cuda.linking import check_link_files


def _checked_links(options):
    if options.get("link"):
        options["link"] = tuple(check_link_files(options["link"]))
    return options


def jit(func_or_sig=None, device=False, **options):
    """Compiles a kernel, or with ``device=True`` a function kernels call."""
    return api.jit_front(CUDADispatcher, func_or_sig, device, options, prepare=_checked_links)
