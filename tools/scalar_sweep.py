"""Differential sweep of scalar operations: every operator and common function of the scalar
types (Python's bool, int and float, NumPy's bool, int8..uint64, float32 and float64), at each
type's extremes, run by taipan, by Numba and by CPython (the plain function), then compared.

A case where taipan's value differs from CPython's while Numba's agrees is taipan's own bug; a
case where all three differ is a deliberate deviation of both compilers (int64 overflow, Numba's
error model) or an ambiguity (a Python int and np.int64 share one type). The first sweep found
narrow unary operators, uint64 in min/max/int/floor, float32 math.pow and a SIGFPE of np.fmod.

    python3 -m tools.scalar_sweep run taipan /tmp/t.json [--extra]
    python3 -m tools.scalar_sweep run numba /tmp/n.json [--extra]
    python3 -m tools.scalar_sweep run python /tmp/p.json [--extra]
    python3 -m tools.scalar_sweep compare /tmp/t.json /tmp/n.json /tmp/p.json

Each side runs in its own process (PYTHONPATH=src for taipan). Numba traps (SIGFPE) on NumPy's
integer remainders of a signed minimum by -1, so its side skips those cases.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import warnings

import numpy as np

SCALAR_TYPES = [bool, int, float, np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32]
SCALAR_TYPES += [np.int64, np.uint64, np.float32, np.float64]
FLOAT_TYPES = (float, np.float32, np.float64)

UNARY = {"neg": "-x", "pos": "+x", "inv": "~x", "abs": "abs(x)", "not": "not x"}
UNARY |= {"int": "int(x)", "float": "float(x)", "bool": "bool(x)"}
BINARY = {"add": "x + y", "sub": "x - y", "mul": "x * y", "truediv": "x / y"}
BINARY |= {"floordiv": "x // y", "mod": "x % y", "pow": "x ** y", "and": "x & y", "or": "x | y"}
BINARY |= {"xor": "x ^ y", "lshift": "x << y", "rshift": "x >> y", "lt": "x < y", "eq": "x == y"}
BINARY |= {"min": "min(x, y)", "max": "max(x, y)"}
BITWISE = ("and", "or", "xor", "lshift", "rshift")

EXTRA_UNARY = {"round": "round(x)", "floor": "math.floor(x)", "ceil": "math.ceil(x)"}
EXTRA_UNARY |= {"trunc": "math.trunc(x)", "isnan": "math.isnan(x)", "sqrt": "math.sqrt(x)"}
EXTRA_UNARY |= {"exp": "math.exp(x)", "log": "math.log(x)", "complex": "complex(x)"}
EXTRA_UNARY |= {"npabs": "np.abs(x)", "npsign": "np.sign(x)", "npsqrt": "np.sqrt(x)"}
EXTRA_UNARY |= {"npfloor": "np.floor(x)", "float32": "np.float32(x)", "int8": "np.int8(x)"}
EXTRA_UNARY |= {"uint8": "np.uint8(x)", "uint64": "np.uint64(x)", "round1": "round(x, 1)"}
EXTRA_BINARY = {"divmod": "divmod(x, y)", "fmod": "math.fmod(x, y)", "mpow": "math.pow(x, y)"}
EXTRA_BINARY |= {"copysign": "math.copysign(x, y)", "atan2": "math.atan2(x, y)"}
EXTRA_BINARY |= {"npmax": "np.maximum(x, y)", "npmin": "np.minimum(x, y)"}
EXTRA_BINARY |= {"nppow": "np.power(x, y)", "npfmod": "np.fmod(x, y)", "npmod": "np.mod(x, y)"}
EXTRA_BINARY |= {"npfloordiv": "np.floor_divide(x, y)", "nptruediv": "np.true_divide(x, y)"}
EXTRA_BINARY |= {"ne": "x != y", "ge": "x >= y"}
TRAPPING_IN_NUMBA = ("npmod", "npfloordiv", "npfmod", "divmod")


def extremes(kind):
    """The values each type is tried with: its limits, zero, one and a few in between."""
    if kind is bool:
        return [False, True]
    if kind is int:
        return [0, 1, -1, 3, -3, 2**63 - 1, -(2**63)]
    if kind is float:
        return [0.0, -0.0, 1.5, -2.5, 3.0, math.inf, -math.inf, math.nan, 1e300]
    if kind is np.bool_:
        return [np.False_, np.True_]
    if np.issubdtype(kind, np.integer):
        info = np.iinfo(kind)
        values = {info.min, info.max, 0, 1, 3, info.max // 2}
        if info.min < 0:
            values |= {-1, -3, info.min + 1}
        return [kind(value) for value in sorted(values)]
    return [kind(value) for value in (0.0, -0.0, 1.5, -2.5, 3.0, np.inf, -np.inf, np.nan, 1e30)]


def encode(value):
    """A JSON form of a result: its type's name and its value (an exception: its type)."""
    if isinstance(value, BaseException):
        return ["err", type(value).__name__]
    name = type(value).__name__
    if isinstance(value, (float, np.floating)):
        return [name, "nan" if math.isnan(value) else repr(float(value))]
    if isinstance(value, (bool, np.bool_)):
        return [name, bool(value)]
    if isinstance(value, (int, np.integer)):
        return [name, int(value)]
    return [name, repr(value)]


def is_integer(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def skipped(side, name, args):
    """Cases one side cannot run: Numba's traps, CPython's unbounded powers of Python ints."""
    if side == "numba" and name in TRAPPING_IN_NUMBA and all(map(is_integer, args)):
        return int(args[1]) == -1 and int(args[0]) in (-128, -32768, -(2**31), -(2**63))
    if side == "python" and name == "pow" and all(type(a) is int for a in args):
        return abs(args[1]) > 4096 and abs(args[0]) > 1
    return False


def run_side(side, out, extra):
    if side == "taipan":
        from taipan import njit
    elif side == "numba":
        from numba import njit
    else:

        def njit(function):
            return function

    warnings.simplefilter("ignore")
    unary, binary = (EXTRA_UNARY, EXTRA_BINARY) if extra else (UNARY, BINARY)
    results = {}

    def sweep(name, kinds, expression, argument_lists):
        namespace = {"math": math, "np": np}
        parameters = ", ".join("xy"[: len(kinds)])
        exec(f"def f({parameters}):\n    return {expression}\n", namespace)  # noqa: S102
        compiled = njit(namespace["f"])
        for args in argument_lists:
            key = ":".join([name] + [kind.__name__ for kind in kinds]) + "|"
            key += "|".join(f"{type(a).__name__}:{a!r}" for a in args)
            if skipped(side, name, args):
                results[key] = ["skip", ""]
                continue
            try:
                results[key] = encode(compiled(*args))
            except Exception as error:  # noqa: BLE001 - every outcome is recorded
                results[key] = encode(error)

    for name, expression in unary.items():
        for kind in SCALAR_TYPES:
            sweep(name, [kind], expression, [(v,) for v in extremes(kind)])
    for name, expression in binary.items():
        for left in SCALAR_TYPES:
            for right in SCALAR_TYPES:
                if name in BITWISE and (left in FLOAT_TYPES or right in FLOAT_TYPES):
                    continue
                pairs = [(a, b) for a in extremes(left) for b in extremes(right)]
                sweep(name, [left, right], expression, pairs)
    with open(out, "w") as file:
        json.dump(results, file)
    print(f"{side}: {len(results)} cases")


def comparable(result):
    """A result reduced to what CPython and a compiled function can share: its kind and value."""
    if result[0] == "err":
        return tuple(result)
    name, value = result
    if name in ("bool", "bool_"):
        return ("bool", value)
    if "float" in name:
        return ("float", value)
    if "int" in name:
        return ("int", int(value))
    return (name, value)


def compare(taipan_file, numba_file, python_file):
    sides = []
    for path in (taipan_file, numba_file, python_file):
        with open(path) as file:
            sides.append(json.load(file))
    taipan, numba, python = sides
    own, shared = collections.defaultdict(list), collections.defaultdict(list)
    for key, expected in python.items():
        if "skip" in (taipan[key][0], numba[key][0], expected[0]):
            continue
        ours, theirs, reference = map(comparable, (taipan[key], numba[key], expected))
        if ours != reference and theirs == reference:
            own[key.split("|")[0]].append((key, taipan[key], numba[key], expected))
        elif ours != reference and theirs != reference and ours != theirs:
            shared[key.split("|")[0]].append((key, taipan[key], numba[key], expected))
    for title, groups in (("taipan alone differs from CPython", own), ("all three differ", shared)):
        print(f"== {title}: {sum(map(len, groups.values()))} cases")
        for operation, cases in sorted(groups.items()):
            key, ours, theirs, reference = cases[0]
            print(
                f"{operation:24} {len(cases):4}  {key.split('|', 1)[1][:60]:60}"
                f"  taipan {ours}  numba {theirs}  cpython {reference}"
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    run.add_argument("side", choices=["taipan", "numba", "python"])
    run.add_argument("out")
    run.add_argument("--extra", action="store_true", help="math, NumPy and conversion functions")
    check = commands.add_parser("compare")
    check.add_argument("taipan")
    check.add_argument("numba")
    check.add_argument("python")
    args = parser.parse_args()
    if args.command == "run":
        run_side(args.side, args.out, args.extra)
    else:
        compare(args.taipan, args.numba, args.python)


if __name__ == "__main__":
    main()
