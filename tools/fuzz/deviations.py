"""Numba's documented deviations from CPython that taipan shares, as the fuzzer knows them.

A generated statement with one of these semantics carries the marker
``# deviation: NAME | NEUTRAL`` (``families.stmt_deviations``). When a program with markers
mismatches, the worker runs it again with each marked right side replaced by NEUTRAL: if that
passes, the outcome is ``deviation`` (listed, not silenced); if not, the mismatch is reported
on the neutral program. The same table is in docs/compatibility.md.
"""

#: name -> (what differs, where Numba documents it)
KNOWN_DEVIATIONS = {
    "int_overflow_wraps": (
        "int arithmetic is int64 and wraps around on overflow; CPython's ints are unbounded",
        "Numba, Deviations from Python semantics: integer width",
    ),
    "int_pow_negative": (
        "int ** negative int is an int64 power (0 for |base| > 1); CPython returns a float",
        "Numba types int ** int as int64 (exponent unknown at compile time)",
    ),
    "math_domain_error": (
        (
            "math.sqrt/log/log10/acos/asin outside their domain return nan (or -inf) as C's "
            "libm does; CPython raises ValueError('math domain error')"
        ),
        "Numba follows C99 libm semantics for the math module",
    ),
}
