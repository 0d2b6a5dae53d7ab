"""NumPy functions implemented in Python and compiled by taipan, registered with
``taipan.extending.overload`` like a user's overloads (one module per topic). Imported by the
registry the first time a compiled function refers to something taipan does not implement in
C++, once the program has imported NumPy."""

from taipan.numpy_library import (
    shapes,  # noqa: F401
    shapes_products,  # noqa: F401
)
