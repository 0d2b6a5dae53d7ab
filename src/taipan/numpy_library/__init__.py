"""NumPy functions implemented in Python and compiled by taipan, registered with
``taipan.extending.overload`` like a user's overloads (one module per topic). Imported by the
registry the first time a compiled function refers to something taipan does not implement in
C++, once the program has imported NumPy."""

# One import per topic module; importing registers its overloads.
from taipan.numpy_library import comparisons  # noqa: F401
from taipan.numpy_library import linalg  # noqa: F401
from taipan.numpy_library import methods  # noqa: F401
from taipan.numpy_library import nanfunctions  # noqa: F401
from taipan.numpy_library import signal  # noqa: F401
