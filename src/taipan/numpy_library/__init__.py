"""NumPy functions implemented in Python and compiled by taipan, registered with
``taipan.extending.overload`` like a user's overloads, one module per topic.

Topic modules are imported lazily: this package only holds the manifest below, and the registry
(``taipan.extending``) imports a topic the first time a compiled function refers to one of its
functions, methods or attributes, so that ``import taipan`` and first compiles that use none of
them do not pay for the whole library (importing NumPy's helpers, building typing functions).

Adding a function: write its overload in a topic module AND list it here, in FUNCTIONS (or
MEMBERS for an array method or attribute). tests/python/test_numpy_library_manifest.py fails when
the manifest and what ``load_all()`` registers differ."""

import importlib
import sys

# The topic modules; importing one registers its overloads.
TOPICS = (
    "comparisons",
    "interpolation",
    "linalg_eig",
    "linalg_norm",
    "linalg_solve",
    "linalg_svd",
    "methods",
    "nanfunctions",
    "order_statistics",
    "search",
    "shapes",
    "shapes_products",
    "signal",
    "sorting",
)

# NumPy function -> the topic registering its overload. Names are the registry's (and the
# resolver's) names of the functions: "numpy.<name>" for NumPy's namespace and its private
# modules, "numpy.linalg.<name>" for numpy.linalg. Functions missing from the installed NumPy
# (np.trapz after 2.4, np.linalg.svdvals before 2.0) are skipped.
FUNCTIONS = {
    # comparisons
    "numpy.allclose": "comparisons",
    "numpy.array_equal": "comparisons",
    "numpy.isclose": "comparisons",
    # interpolation
    "numpy.interp": "interpolation",
    # linalg_eig
    "numpy.linalg.eig": "linalg_eig",
    "numpy.linalg.eigh": "linalg_eig",
    "numpy.linalg.eigvals": "linalg_eig",
    "numpy.linalg.eigvalsh": "linalg_eig",
    # linalg_norm
    "numpy.linalg.norm": "linalg_norm",
    # linalg_solve
    "numpy.linalg.cholesky": "linalg_solve",
    "numpy.linalg.det": "linalg_solve",
    "numpy.linalg.inv": "linalg_solve",
    "numpy.linalg.slogdet": "linalg_solve",
    "numpy.linalg.solve": "linalg_solve",
    # linalg_svd
    "numpy.linalg.lstsq": "linalg_svd",
    "numpy.linalg.svd": "linalg_svd",
    "numpy.linalg.svdvals": "linalg_svd",
    # methods
    "numpy.imag": "methods",
    "numpy.real": "methods",
    # nanfunctions (and cumsum/cumprod with an axis)
    "numpy.cumprod": "nanfunctions",
    "numpy.cumsum": "nanfunctions",
    "numpy.nanargmax": "nanfunctions",
    "numpy.nanargmin": "nanfunctions",
    "numpy.nancumprod": "nanfunctions",
    "numpy.nancumsum": "nanfunctions",
    "numpy.nanmax": "nanfunctions",
    "numpy.nanmean": "nanfunctions",
    "numpy.nanmin": "nanfunctions",
    "numpy.nanprod": "nanfunctions",
    "numpy.nanstd": "nanfunctions",
    "numpy.nansum": "nanfunctions",
    "numpy.nanvar": "nanfunctions",
    # order_statistics
    "numpy.median": "order_statistics",
    "numpy.percentile": "order_statistics",
    "numpy.quantile": "order_statistics",
    # search
    "numpy.argwhere": "search",
    "numpy.bincount": "search",
    "numpy.count_nonzero": "search",
    "numpy.digitize": "search",
    "numpy.flatnonzero": "search",
    "numpy.histogram": "search",
    "numpy.nonzero": "search",
    "numpy.searchsorted": "search",
    # shapes
    "numpy.column_stack": "shapes",
    "numpy.concatenate": "shapes",
    "numpy.flip": "shapes",
    "numpy.shape": "shapes",
    "numpy.size": "shapes",
    "numpy.hstack": "shapes",
    "numpy.meshgrid": "shapes",
    "numpy.repeat": "shapes",
    "numpy.roll": "shapes",
    "numpy.stack": "shapes",
    "numpy.tile": "shapes",
    "numpy.vstack": "shapes",
    # shapes_products
    "numpy.cross": "shapes_products",
    "numpy.diff": "shapes_products",
    "numpy.ediff1d": "shapes_products",
    "numpy.kron": "shapes_products",
    "numpy.outer": "shapes_products",
    "numpy.trace": "shapes_products",
    "numpy.tril": "shapes_products",
    "numpy.triu": "shapes_products",
    "numpy.vander": "shapes_products",
    # signal
    "numpy.convolve": "signal",
    "numpy.correlate": "signal",
    "numpy.trapezoid": "signal",
    "numpy.trapz": "signal",
    # sorting
    "numpy.argsort": "sorting",
    "numpy.sort": "sorting",
    "numpy.unique": "sorting",
}

# Array method or attribute name -> the topic registering it (overload_method/overload_attribute
# on types.Array).
MEMBERS = {
    "item": "methods",
    "trace": "linalg_norm",
}

_loaded = set()  # topics imported through load()
_by_object = None  # NumPy function object -> topic, built from FUNCTIONS on first use


def load(topic):
    """Imports one topic module (registering its overloads); later calls return at once."""
    if topic not in _loaded:
        if topic not in TOPICS:
            raise ValueError(f"taipan.numpy_library has no topic {topic!r}")
        importlib.import_module(f"{__name__}.{topic}")
        _loaded.add(topic)


def load_all():
    """Imports every topic module."""
    for topic in TOPICS:
        load(topic)


def numpy_object(name):
    """The object a FUNCTIONS name stands for in the imported NumPy ("numpy.linalg.norm" is
    np.linalg.norm), or None when this NumPy lacks it."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return None
    value = numpy
    for part in name.split(".")[1:]:
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def topic_of(function):
    """The topic implementing the NumPy function object ``function``, else None. Needs NumPy
    imported (the caller checks)."""
    global _by_object
    table = _by_object
    if table is None:
        table = {}
        for name, topic in FUNCTIONS.items():
            value = numpy_object(name)
            if value is not None:
                table[value] = topic
        _by_object = table
    try:
        return table.get(function)
    except TypeError:  # unhashable
        return None
