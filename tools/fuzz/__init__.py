"""A differential fuzzer of taipan against CPython (issue 28, item 9).

Seeded generators (``expressions``, ``statements``, ``program``) write random, type-stable,
well-defined-by-construction functions over scalars, lists, dicts, sets, strings, tuples,
arrays, comprehensions, generators, closures, exceptions and ``prange``; ``worker`` compiles
each with taipan and compares it with CPython (return value, exception type, final state of
mutable arguments) in a subprocess, so a crash or hang is caught; ``minimise`` shrinks a
failing program; ``run`` is the command line (``python3 -m tools.fuzz --seed S --count N``).
Numba's documented deviations from Python are listed in ``deviations.KNOWN_DEVIATIONS``.
"""
