"""``cuda.vectorize`` and ``cuda.guvectorize``: numba-cuda's own spellings of
``vectorize(..., target='cuda')`` and ``guvectorize(..., target='cuda')``, which make taipan's
CUDA ufuncs and gufuncs (taipan.ufuncs picks the GPU path's classes, or the simulator's when
it is on). The same on both backends; each exports these two functions."""

from taipan import compile_options

# numba-cuda's names for the CUDA target (NumbaPro's 'gpu' too, as taipan.vectorize takes it).
_CUDA_TARGETS = ("cuda", "gpu")
# The keywords cuda.guvectorize takes besides the compile options: numba-cuda's own.
_GUFUNC_KEYWORDS = frozenset(("target", "identity", "cache", "writable_args", "nopython"))


def _cuda_target(target):
    if target not in _CUDA_TARGETS:
        raise ValueError(f"Unsupported target: {target}")
    return "cuda"


def vectorize(ftylist_or_function=(), target="cuda", **options):
    """numba-cuda's ``cuda.vectorize(signatures, **options)``: a CUDA ufunc with one kernel per
    signature (a dynamic one, compiling per call's dtypes, without signatures). Options as
    ``taipan.vectorize(target='cuda')`` takes them: ``identity``, the compile options of
    ``cuda.jit`` (``fastmath``...), and ``nopython`` (redundant on CUDA: a RuntimeWarning)."""
    from taipan import ufuncs

    options["target"] = _cuda_target(target)
    if callable(ftylist_or_function):
        return ufuncs.vectorize((), **options)(ftylist_or_function)
    return ufuncs.vectorize(ftylist_or_function, **options)


def guvectorize(*args, **options):
    """numba-cuda's ``cuda.guvectorize(signatures, layout, **options)``: a CUDA gufunc, as
    ``taipan.guvectorize(target='cuda')`` makes it. A keyword neither numba-cuda's
    (``identity``, ``cache``, ``writable_args``, ``nopython``) nor a compile option of CUDA
    gufuncs is refused with numba-cuda's TypeError."""
    from taipan import ufuncs

    if len(args) not in (1, 2):
        raise TypeError("guvectorize() takes one or two positional arguments")
    options["target"] = _cuda_target(options.get("target", "cuda"))
    accepted = compile_options.accepted("cuda.guvectorize") | _GUFUNC_KEYWORDS
    unknown = [name for name in options if name not in accepted]
    if unknown:
        raise TypeError(
            "The following target options are not supported: "
            + ", ".join(repr(name) for name in unknown)
        )
    return ufuncs.guvectorize(*args, **options)
