"""NumPy functions implemented in Python and compiled by taipan, registered with
``taipan.extending.overload`` like a user's overloads (one module per topic). Imported by the
registry the first time a compiled function refers to something taipan does not implement in
C++, once the program has imported NumPy."""

import importlib

# One topic module per line; importing one registers its overloads.
_TOPICS = (
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
for _topic in _TOPICS:
    importlib.import_module(f"taipan.numpy_library.{_topic}")
