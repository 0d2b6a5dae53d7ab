"""Differential testing of taipan against CPython on randomly generated scalar functions.

A seeded generator (``random.Random``) writes small Python functions as source text.  Every
function takes ``a, b`` (ints) and ``x, y`` (floats), runs a random mix of assignments,
augmented assignments, ``if/elif/else``, bounded ``while`` loops, ``for ... in range(...)``
loops (negative steps and variable bounds included), ``break`` and ``continue``, and returns a
tuple of some of its variables.  Each function is compiled with ``taipan.njit`` and called on
several argument tuples; the results must match ``f.py_func(...)`` (ints exactly, floats to
1e-12, or both nan).

The generator keeps every program well defined by construction:

* every int expression has a static bound on its magnitude; operands are wrapped with
  ``% <prime>`` before an operation could leave ``[-2**62, 2**62]``, so no int64 overflow can
  happen (CPython has no overflow, so any overflow would be a false difference);
* ints that meet floats (true division of two ints, int/float comparisons) stay below 2**53,
  where int -> float conversion is exact and CPython's exact mixed comparison agrees with a
  conversion-based one;
* divisors are ``abs(e) + c`` with ``c >= 1`` (possibly negated), so never zero;
* float variables are clamped back into a bounded range, so no inf or nan appears;
* int variables are only ever assigned int expressions and float variables float
  expressions, so each variable keeps one type;
* ``while`` loops run on a counter that is incremented as the loop body's first statement,
  so ``continue`` cannot make them infinite; every local is initialised at the top.

``generate_program(seed, index, checked=True)`` emits the same program with every
sub-expression wrapped in a run-time check of its static bound and type;
``test_generator_is_well_defined`` runs those checked programs in CPython only.

Environment:
  TAIPAN_DIFF_COUNT  number of programs per run (default 300)
  TAIPAN_DIFF_SEED   base seed (default 20240601)
  TAIPAN_BENCH_STANDIN=numba  makes ``taipan`` resolve to numba.  This exists ONLY to validate
      this test before taipan is importable; never set it for real test runs.
"""

from __future__ import annotations

import linecache
import math
import operator
import os
import random

import pytest

if os.environ.get("TAIPAN_BENCH_STANDIN") == "numba":
    # Validation-only stand-in (see module docstring): test the test against numba.
    import numba as taipan
else:
    import taipan

COUNT = int(os.environ.get("TAIPAN_DIFF_COUNT", "300"))
SEED = int(os.environ.get("TAIPAN_DIFF_SEED", "20240601"))
CHUNK = 25

INT_VARS = ("a", "b", "n0", "n1", "n2")
FLOAT_VARS = ("x", "y", "g0", "g1", "g2")
PARAMS = ("a", "b", "x", "y")

INT_INV = 2**45  # |int variable| <= INT_INV at every statement boundary
INT_LIM = 2**62  # |int intermediate| <= INT_LIM (int64 holds 2**63 - 1)
INT_EXACT = 2**53  # ints mixed with floats stay in the exactly representable range
FLT_INV = 1e13  # |float variable| <= FLT_INV at every statement boundary
FLT_LIM = 1e200  # |float intermediate| <= FLT_LIM
MODS = (1000003, 65521, 9973, 1009, 101)
INT_CONSTS = (0, 1, 2, 3, 5, 7, 10, 13, 100, 255, 4096, 12345, 2**31, 10**9)
FLT_CONSTS = (0.0, 0.5, 1.0, 1.5, 2.0, 0.1, 0.25, 3.75, 10.0, 1e-3, 123.456, 1e6)
CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")

ARGS = (
    (0, 0, 0.0, 0.0),
    (1, -1, 0.5, -0.0),
    (-7, 3, -2.25, 3.5),
    (10**12, -(10**12) + 7, 1e6, -1e-3),
    (123456789, -987654321, -0.5, 12345.678),
    (-(10**12), 5, -1e12, 0.25),
)


def _ck(value, bound, kind):
    """Run-time check used by checked programs (CPython only)."""
    expected = int if kind == "i" else float
    if type(value) is not expected:
        raise AssertionError(f"type {type(value).__name__}, expected {expected.__name__}")
    if not abs(value) <= bound:
        raise AssertionError(f"value {value!r} exceeds static bound {bound!r}")
    return value


class ProgramGenerator:
    """Builds one random function ``f(a, b, x, y)`` as source text."""

    def __init__(self, rng: random.Random, checked: bool = False):
        self.rng = rng
        self.checked = checked
        self.lines: list[str] = []
        self.defined: set[str] = set(PARAMS)
        self.loop_ints: list[tuple[str, int]] = []  # loop variables / counters in scope
        self.budget = 0

    # -- helpers -------------------------------------------------------------------------
    def _chk(self, text: str, bound, kind: str) -> str:
        if self.checked:
            return f"_ck({text}, {bound!r}, {kind!r})"
        return text

    def _int_const(self) -> tuple[str, int]:
        c = self.rng.choice(INT_CONSTS)
        if self.rng.random() < 0.3:
            c = -c
        return (f"({c})" if c < 0 else str(c)), abs(c)

    def _flt_const(self) -> tuple[str, float]:
        c = self.rng.choice(FLT_CONSTS)
        if self.rng.random() < 0.3:
            c = -c
        text = repr(c)
        return (f"({text})" if text.startswith("-") else text), abs(c)

    def _shrink_int(self, e: tuple[str, int]) -> tuple[str, int]:
        """Wrap ``e`` with ``% m``, strictly lowering its bound."""
        candidates = [m for m in MODS if m - 1 < e[1]]
        if not candidates:
            raise AssertionError(f"cannot shrink int bound {e[1]}")
        m = self.rng.choice(candidates)
        return self._chk(f"({e[0]} % {m})", m - 1, "i"), m - 1

    def _shrink_flt(self, e: tuple[str, float]) -> tuple[str, float]:
        return self._chk(f"({e[0]} % 4096.0)", 4096.0, "f"), 4096.0

    def _fit2(self, l, r, combine, lim, shrink):
        """Shrink the larger operand until ``combine(bl, br) <= lim``."""
        while combine(l[1], r[1]) > lim:
            if l[1] >= r[1]:
                l = shrink(l)
            else:
                r = shrink(r)
        return l, r

    # -- expressions ---------------------------------------------------------------------
    def int_leaf(self) -> tuple[str, int]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.2:
            return self._int_const()
        if self.loop_ints and roll < 0.45:
            name, bound = rng.choice(self.loop_ints)
            return self._chk(name, bound, "i"), bound
        names = [v for v in INT_VARS if v in self.defined]
        return self._chk(rng.choice(names), INT_INV, "i"), INT_INV

    def flt_leaf(self) -> tuple[str, float]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.2:
            return self._flt_const()
        if roll < 0.3:
            t, b = self.int_leaf()
            return self._chk(f"float({t})", float(b), "f"), float(b)
        names = [v for v in FLOAT_VARS if v in self.defined]
        return self._chk(rng.choice(names), FLT_INV, "f"), FLT_INV

    def int_expr(self, depth: int, lim: int = INT_LIM) -> tuple[str, int]:
        """An int-typed expression whose every intermediate value is within ``lim``."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            e = self.int_leaf()
            while e[1] > lim:
                e = self._shrink_int(e)
            return e
        kind = rng.choices(
            (
                "add",
                "mul",
                "floordiv",
                "mod",
                "bit",
                "neg",
                "abs",
                "minmax",
                "cmp",
                "tern",
                "trunc",
            ),
            weights=(6, 3, 2, 2, 2, 1, 1, 2, 1, 1, 1),
        )[0]
        sub = depth - 1
        sh = self._shrink_int
        if kind == "add":
            op = rng.choice("+-")
            l, r = self._fit2(self.int_expr(sub), self.int_expr(sub), lambda p, q: p + q, lim, sh)
            text, bound = f"({l[0]} {op} {r[0]})", l[1] + r[1]
        elif kind == "mul":
            l, r = self._fit2(self.int_expr(sub), self.int_expr(sub), lambda p, q: p * q, lim, sh)
            text, bound = f"({l[0]} * {r[0]})", l[1] * r[1]
        elif kind in ("floordiv", "mod"):
            c = rng.choice((1, 1, 2, 3, 10))
            l = self.int_expr(sub, lim)
            r = self.int_expr(sub, lim - c)
            divisor = f"(abs({r[0]}) + {c})"
            if rng.random() < 0.3:
                divisor = f"(-{divisor})"
            if kind == "floordiv":
                text, bound = f"({l[0]} // {divisor})", l[1]
            else:
                text, bound = f"({l[0]} % {divisor})", r[1] + c
        elif kind == "bit":
            op = rng.choice("&|^")
            l, r = self._fit2(
                self.int_expr(sub),
                self.int_expr(sub),
                lambda p, q: 2 ** max(p, q).bit_length(),
                lim,
                sh,
            )
            text, bound = f"({l[0]} {op} {r[0]})", 2 ** max(l[1], r[1]).bit_length()
        elif kind == "neg":
            e = self.int_expr(sub, lim)
            text, bound = f"(-{e[0]})", e[1]
        elif kind == "abs":
            e = self.int_expr(sub, lim)
            text, bound = f"abs({e[0]})", e[1]
        elif kind == "minmax":
            fn = rng.choice(("min", "max"))
            l, r = self.int_expr(sub, lim), self.int_expr(sub, lim)
            if rng.random() < 0.2:
                m = self.int_expr(sub, lim)
                text, bound = f"{fn}({l[0]}, {r[0]}, {m[0]})", max(l[1], r[1], m[1])
            else:
                text, bound = f"{fn}({l[0]}, {r[0]})", max(l[1], r[1])
        elif kind == "cmp":
            text, bound = f"int({self.compare(sub)})", 1
        elif kind == "tern":
            l, r = self.int_expr(sub, lim), self.int_expr(sub, lim)
            text, bound = f"({l[0]} if {self.cond(sub)} else {r[0]})", max(l[1], r[1])
        else:  # trunc: int(float)
            f = self.flt_expr(sub)
            while f[1] > 1e15:
                f = self._shrink_flt(f)
            text, bound = f"int({f[0]})", int(f[1])
        e = self._chk(text, bound, "i"), bound
        while e[1] > lim:  # e's value itself is within INT_LIM, so wrapping it is safe
            e = self._shrink_int(e)
        return e

    def flt_expr(self, depth: int) -> tuple[str, float]:
        """A float-typed expression (ints may appear as operands) bounded by FLT_LIM."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.flt_leaf()
        kind = rng.choices(
            ("add", "mul", "div", "intdiv", "floordiv", "mod", "neg", "abs", "minmax", "tern"),
            weights=(6, 3, 3, 1, 1, 1, 1, 1, 2, 1),
        )[0]
        sub = depth - 1
        sh = self._shrink_flt

        def operand_pair():
            # One operand is float-typed; the other may be an int expression.
            f = self.flt_expr(sub)
            o = self.int_expr(sub) if rng.random() < 0.3 else self.flt_expr(sub)
            o = (o[0], float(o[1]))
            return (f, o) if rng.random() < 0.5 else (o, f)

        if kind == "add":
            op = rng.choice("+-")
            l, r = self._fit2(*operand_pair(), lambda p, q: p + q, FLT_LIM, sh)
            text, bound = f"({l[0]} {op} {r[0]})", l[1] + r[1]
        elif kind == "mul":
            l, r = self._fit2(*operand_pair(), lambda p, q: p * q, FLT_LIM, sh)
            text, bound = f"({l[0]} * {r[0]})", l[1] * r[1]
        elif kind in ("div", "floordiv", "mod"):
            l, r = operand_pair()
            c = rng.choice((1.0, 1.0, 1.5, 3.0))
            divisor = f"(abs({r[0]}) + {c!r})"
            if rng.random() < 0.3:
                divisor = f"(-{divisor})"
            op = {"div": "/", "floordiv": "//", "mod": "%"}[kind]
            bound = r[1] + c if kind == "mod" else l[1] + 1.0
            text = f"({l[0]} {op} {divisor})"
        elif kind == "intdiv":  # int / int -> float, operands exactly representable
            l = self.int_expr(sub, INT_EXACT)
            r = self.int_expr(sub, INT_EXACT - 1)
            text, bound = f"({l[0]} / (abs({r[0]}) + 1))", float(l[1])
        elif kind == "neg":
            e = self.flt_expr(sub)
            text, bound = f"(-{e[0]})", e[1]
        elif kind == "abs":
            e = self.flt_expr(sub)
            text, bound = f"abs({e[0]})", e[1]
        elif kind == "minmax":
            fn = rng.choice(("min", "max"))
            l, r = self.flt_expr(sub), self.flt_expr(sub)
            text, bound = f"{fn}({l[0]}, {r[0]})", max(l[1], r[1])
        else:
            l, r = self.flt_expr(sub), self.flt_expr(sub)
            text, bound = f"({l[0]} if {self.cond(sub)} else {r[0]})", max(l[1], r[1])
        return self._chk(text, bound, "f"), bound

    def compare(self, depth: int) -> str:
        """A bool-typed comparison (possibly chained)."""
        rng = self.rng
        op = rng.choice(CMP_OPS)
        roll = rng.random()
        if roll < 0.35:
            l, r = self.int_expr(depth), self.int_expr(depth)
        elif roll < 0.7:
            l, r = self.flt_expr(depth), self.flt_expr(depth)
        elif roll < 0.9:  # mixed int/float: int kept exactly representable
            l, r = self.int_expr(depth, INT_EXACT), self.flt_expr(depth)
            if rng.random() < 0.5:
                l, r = r, l
        else:  # chained
            l, m, r = self.int_expr(depth), self.int_expr(depth), self.int_expr(depth)
            op2 = rng.choice(("<", "<="))
            return f"({l[0]} {op2} {m[0]} {op2} {r[0]})"
        return f"({l[0]} {op} {r[0]})"

    def cond(self, depth: int, truthy: bool = False) -> str:
        """A condition; ``truthy`` allows bare int truthiness (top level of if/while only)."""
        rng = self.rng
        roll = rng.random()
        if truthy and roll < 0.1:
            return self.int_expr(max(depth - 1, 0))[0]
        if depth > 0 and roll < 0.2:
            op = rng.choice(("and", "or"))
            return f"({self.compare(depth - 1)} {op} {self.compare(depth - 1)})"
        if depth > 0 and roll < 0.27:
            return f"(not {self.compare(depth - 1)})"
        return self.compare(max(depth - 1, 0))

    # -- statements ----------------------------------------------------------------------
    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)
        self.budget -= 1

    def assign_int(self, indent: int, name: str) -> None:
        e = self.int_expr(self.rng.randint(1, 3))
        if e[1] > INT_INV:
            e = self._shrink_int(e)
        self.emit(indent, f"{name} = {e[0]}")

    def assign_flt(self, indent: int, name: str) -> None:
        e = self.flt_expr(self.rng.randint(1, 3))
        if e[1] > FLT_INV:
            e = self.clamp(e)
        self.emit(indent, f"{name} = {e[0]}")

    def clamp(self, e: tuple[str, float]) -> tuple[str, float]:
        if self.rng.random() < 0.5:
            return self._chk(f"min(max({e[0]}, -1e9), 1e9)", 1e9, "f"), 1e9
        return self._chk(f"({e[0]} % 997.0)", 997.0, "f"), 997.0

    def aug_int(self, indent: int) -> None:
        rng = self.rng
        name = rng.choice(INT_VARS)
        op = rng.choice(("+=", "-=", "*=", "//=", "%=", "&=", "|=", "^="))
        if op in ("//=", "%="):
            c = rng.choice((1, 2, 7))
            r = self.int_expr(rng.randint(0, 2), (INT_INV if op == "%=" else INT_LIM) - c)
            divisor = f"(abs({r[0]}) + {c})"
            if rng.random() < 0.3:
                divisor = f"(-{divisor})"
            self.emit(indent, f"{name} {op} {divisor}")
            return
        if op == "*=":
            r = self.int_expr(rng.randint(0, 2), INT_LIM // INT_INV)
            bound = INT_INV * r[1]
        elif op in ("+=", "-="):
            r = self.int_expr(rng.randint(0, 2), INT_INV)
            bound = INT_INV + r[1]
        else:
            r = self.int_expr(rng.randint(0, 2), INT_INV)
            bound = 2 ** max(INT_INV, r[1]).bit_length()
        self.emit(indent, f"{name} {op} {r[0]}")
        if bound > INT_INV:  # bring the variable back within its invariant bound
            if bound <= 2 * INT_INV and rng.random() < 0.5:
                self.emit(indent, f"{name} //= 2")
            else:
                self.emit(indent, f"{name} %= {rng.choice(MODS)}")

    def aug_flt(self, indent: int) -> None:
        rng = self.rng
        name = rng.choice(FLOAT_VARS)
        op = rng.choice(("+=", "-=", "*=", "/="))
        r = self.flt_expr(rng.randint(0, 2)) if rng.random() < 0.7 else self.int_expr(1)
        r = (r[0], float(r[1]))
        while r[1] > 1e100:
            r = self._shrink_flt(r)
        if op == "/=":
            self.emit(indent, f"{name} /= (abs({r[0]}) + 1.0)")
            return
        self.emit(indent, f"{name} {op} {r[0]}")
        # bring the variable back within its invariant bound
        if rng.random() < 0.5:
            self.emit(indent, f"{name} = min(max({name}, -1e9), 1e9)")
        else:
            self.emit(indent, f"{name} %= 997.0")

    def range_args(self) -> tuple[str, int]:
        """Arguments of a ``range`` call with at most ~10 iterations, and the loop var bound."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            k = rng.randint(0, 8)
            return str(k), k
        if roll < 0.5:
            start, stop = rng.randint(-5, 5), rng.randint(-5, 8)
            step = rng.choice((1, 2, 3))
            return f"{start}, {stop}, {step}", 8
        if roll < 0.7:  # negative step
            start, stop = rng.randint(-2, 8), rng.randint(-6, 3)
            step = rng.choice((-1, -2, -3))
            return f"{start}, {stop}, {step}", 8
        if roll < 0.85:  # variable bound
            e = self.int_expr(1)
            k = rng.randint(2, 9)
            return f"{e[0]} % {k}", k
        e1, e2 = self.int_expr(1), self.int_expr(1)
        step = rng.choice((-1, -2, 1, 2))
        if step < 0:
            return f"{e1[0]} % 7, -({e2[0]} % 5), {step}", 7
        return f"-({e1[0]} % 5), {e2[0]} % 7, {step}", 7

    def block(self, indent: int, depth: int, loops: int, n: int) -> None:
        for _ in range(n):
            self.statement(indent, depth, loops)

    def statement(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        kinds = ["assign_i", "assign_f", "aug_i", "aug_f"]
        weights = [5, 5, 2, 2]
        if depth < 3 and self.budget > 0:
            kinds += ["if"]
            weights += [3]
            if loops < 2:
                kinds += ["while", "for"]
                weights += [2, 3]
        if loops > 0:
            kinds += ["jump"]
            weights += [2]
        kind = rng.choices(kinds, weights=weights)[0]
        if kind == "assign_i":
            self.assign_int(indent, rng.choice(INT_VARS))
        elif kind == "assign_f":
            self.assign_flt(indent, rng.choice(FLOAT_VARS))
        elif kind == "aug_i":
            self.aug_int(indent)
        elif kind == "aug_f":
            self.aug_flt(indent)
        elif kind == "jump":
            jump = rng.choice(("break", "continue"))
            self.emit(indent, f"if {self.cond(2, truthy=True)}:")
            self.emit(indent + 1, jump)
        elif kind == "if":
            self.emit(indent, f"if {self.cond(2, truthy=True)}:")
            self.block(indent + 1, depth + 1, loops, rng.randint(1, 3))
            for _ in range(rng.choice((0, 0, 1, 2))):
                self.emit(indent, f"elif {self.cond(2, truthy=True)}:")
                self.block(indent + 1, depth + 1, loops, rng.randint(1, 2))
            if rng.random() < 0.6:
                self.emit(indent, "else:")
                self.block(indent + 1, depth + 1, loops, rng.randint(1, 2))
        elif kind == "while":
            counter = f"w{loops}"
            limit = rng.randint(1, 8)
            self.emit(indent, f"{counter} = 0")
            header = f"{counter} < {limit}"
            if rng.random() < 0.5:
                c = self.cond(1)
                header = f"{header} and {c}" if rng.random() < 0.5 else f"{c} and {header}"
            self.emit(indent, f"while {header}:")
            self.emit(indent + 1, f"{counter} += 1")  # first, so `continue` cannot skip it
            self.loop_ints.append((counter, limit))
            self.block(indent + 1, depth + 1, loops + 1, rng.randint(1, 3))
            self.loop_ints.pop()
        else:  # for
            var = f"i{loops}"
            args, bound = self.range_args()
            self.emit(indent, f"for {var} in range({args}):")
            self.loop_ints.append((var, bound))
            self.block(indent + 1, depth + 1, loops + 1, rng.randint(1, 3))
            self.loop_ints.pop()

    def function(self) -> str:
        rng = self.rng
        self.lines = ["def f(a, b, x, y):"]
        self.budget = rng.randint(6, 16)
        for name in INT_VARS[2:]:
            self.assign_int(1, name)
            self.defined.add(name)
        for name in FLOAT_VARS[2:]:
            self.assign_flt(1, name)
            self.defined.add(name)
        self.budget = rng.randint(4, 14)
        while self.budget > 0:
            self.statement(1, 0, 0)
        names = rng.sample(INT_VARS + FLOAT_VARS, rng.randint(2, 5))
        self.emit(1, f"return ({', '.join(names)},)")
        return "\n".join(self.lines) + "\n"


def generate_program(seed: int, index: int, checked: bool = False) -> str:
    """Source of program ``index`` for base seed ``seed`` (deterministic)."""
    return ProgramGenerator(random.Random(seed * 1_000_003 + index), checked).function()


def load_function(source: str, seed: int, index: int):
    """Exec ``source`` and return ``f``; the source is registered with linecache so that
    ``inspect.getsource`` works on the resulting function."""
    filename = f"<taipan-differential seed={seed} index={index}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"_ck": _ck}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated test code
    return namespace["f"]


def _same(expected, got) -> bool:
    """Ints must be int-like and equal; floats must be floats, close, or both nan."""
    if type(expected) is not tuple or not isinstance(got, tuple) or len(got) != len(expected):
        return False
    for e, g in zip(expected, got):
        if isinstance(e, int):
            if isinstance(g, float) or not hasattr(g, "__index__"):  # int or numpy integer
                return False
            if operator.index(g) != e:
                return False
        else:
            if not isinstance(g, float):
                return False
            if math.isnan(e) and math.isnan(g):
                continue
            if not math.isclose(e, g, rel_tol=1e-12, abs_tol=1e-12):
                return False
    return True


def _report(seed: int, index: int, source: str, args, detail: str) -> str:
    return (
        f"\n--- differential mismatch: TAIPAN_DIFF_SEED={seed} program index={index} ---\n"
        f"arguments (a, b, x, y) = {args!r}\n{detail}\nsource:\n{source}"
    )


def check_program(seed: int, index: int) -> str | None:
    """Compile and compare one program; return a failure report or None."""
    source = generate_program(seed, index)
    py_f = load_function(source, seed, index)
    try:
        jitted = taipan.njit(py_f)
    except Exception as exc:  # noqa: BLE001 - any error is a reportable failure
        return _report(seed, index, source, None, f"njit() raised {exc!r}")
    for args in ARGS:
        expected = jitted.py_func(*args)
        try:
            got = jitted(*args)
        except Exception as exc:  # noqa: BLE001 - any error is a reportable failure
            return _report(seed, index, source, args, f"expected {expected!r}\nraised {exc!r}")
        if not _same(expected, got):
            return _report(seed, index, source, args, f"expected {expected!r}\ngot      {got!r}")
    return None


CHUNKS = [range(i, min(i + CHUNK, COUNT)) for i in range(0, COUNT, CHUNK)]


@pytest.mark.parametrize("indices", CHUNKS, ids=[f"programs{r.start}-{r.stop - 1}" for r in CHUNKS])
def test_differential(indices):
    failures = []
    for index in indices:
        report = check_program(SEED, index)
        if report is not None:
            failures.append(report)
    if failures:
        shown = "\n".join(failures[:3])
        more = f"\n(+{len(failures) - 3} more failures in this chunk)" if len(failures) > 3 else ""
        pytest.fail(
            f"{len(failures)} of {len(indices)} programs differ:{shown}{more}", pytrace=False
        )


def test_generator_is_well_defined():
    """Checked programs (every sub-expression bound- and type-checked) run cleanly in
    CPython, so any difference found above is the compiler's, not the generator's."""
    for index in range(COUNT):
        source = generate_program(SEED, index, checked=True)
        f = load_function(source, SEED, index)
        for args in ARGS:
            try:
                f(*args)
            except Exception as exc:  # noqa: BLE001 - any error is a reportable failure
                pytest.fail(
                    _report(SEED, index, source, args, f"checked run raised {exc!r}"), pytrace=False
                )
