"""Typed expressions of the fuzzer: ints, floats, bools and strings over the variables in scope.

Every int expression carries a static bound on its magnitude, and operands are wrapped with
``% m`` before an operation could leave int64, so no program overflows (CPython's ints never
do); floats are bounded the same way, so no inf or nan appears unless a generator means it.
"""

from __future__ import annotations

import random

INT, FLT, BOOL, STR = "int", "float", "bool", "str"
LIST_INT, LIST_FLT, DICT, SET = "list[int]", "list[float]", "dict[int,int]", "set[int]"
ARR_FLT, ARR_INT, TUPLE = "array[float64]", "array[int64]", "tuple[int,float]"
LISTS = (LIST_INT, LIST_FLT)
ARRAYS = (ARR_FLT, ARR_INT)

INT_INV = 2**20  # |int variable or container item| <= INT_INV at every statement boundary
INT_LIM = 2**62  # |int intermediate| <= INT_LIM
INT_EXACT = 2**53  # ints compared with floats stay exactly representable
LEN_BOUND = 10_000  # no container grows past this many items
FLT_INV = 1e9  # |float variable or container item| <= FLT_INV at statement boundaries
FLT_LIM = 1e200
MODS = (1000003, 65521, 9973, 1009, 101, 11, 3)
INT_CONSTS = (0, 1, 2, 3, 5, 7, 10, 13, 100, 255, 4096, 12345, 2**31, 10**9)
FLT_CONSTS = (0.0, 0.5, 1.0, 1.5, 2.0, 0.1, 0.25, 3.75, 10.0, 1e-3, 123.456, 1e6)
STR_CONSTS = ("", "a", "ab", "abc", "xyz", "hello", "a b", "Zz", "aaa", "q1")
CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")
MATH_UNARY = ("sqrt", "fabs", "sin", "cos", "atan", "exp", "log1p", "tanh")


def _paren_const(value) -> str:
    text = repr(value)
    return f"({text})" if text.startswith("-") else text


class ExpressionGenerator:
    """The expression half of a program generator; ``statements.StatementGenerator`` adds the
    statements. ``vars`` maps each variable in scope to its type; ``loop_ints`` holds the
    int loop variables in scope with their bounds; ``features`` the enabled feature families."""

    def __init__(self, rng: random.Random, features: frozenset[str], checked: bool = False):
        self.rng = rng
        self.features = features
        self.checked = checked
        self.vars: dict[str, str] = {}
        self.loop_ints: list[tuple[str, int]] = []
        self.loop_flts: list[str] = []
        # calls of the program's helper functions and closures: () -> (text, bound)
        self.extra_int_leaves: list = []

    # -- helpers -----------------------------------------------------------------------
    def names(self, kind: str) -> list[str]:
        return [name for name, t in self.vars.items() if t == kind]

    def has(self, kind: str) -> bool:
        return any(t == kind for t in self.vars.values())

    def pick(self, kind: str) -> str:
        """A variable of ``kind``, or a constant of that type where none is in scope."""
        names = self.names(kind)
        if names:
            return self.rng.choice(names)
        return {INT: "7", FLT: "2.5", STR: "'abc'", BOOL: "True"}[kind]

    def _chk(self, text: str, bound, kind: str) -> str:
        return f"_ck({text}, {bound!r}, {kind!r})" if self.checked else text

    def shrink_int(self, e: tuple[str, int]) -> tuple[str, int]:
        """Wrap ``e`` with ``% m``, strictly lowering its bound."""
        candidates = [m for m in MODS if m - 1 < e[1]] or [MODS[-1]]
        m = self.rng.choice(candidates)
        return self._chk(f"({e[0]} % {m})", m - 1, "i"), m - 1

    def shrink_flt(self, e: tuple[str, float]) -> tuple[str, float]:
        return self._chk(f"({e[0]} % 4096.0)", 4096.0, "f"), 4096.0

    def _fit2(self, left, right, combine, lim, shrink):
        while combine(left[1], right[1]) > lim:
            if left[1] >= right[1]:
                left = shrink(left)
            else:
                right = shrink(right)
        return left, right

    def index(self, container: str) -> str:
        """An index within ``container`` (never empty), from either end."""
        e = self.int_leaf_simple()
        if self.rng.random() < 0.5:
            e = f"{e} {self.rng.choice('+-*')} {self.int_leaf_simple()}"
        if self.rng.random() < 0.3:
            return f"-1 - ({e}) % len({container})"
        return f"({e}) % len({container})"

    # -- ints ----------------------------------------------------------------------------
    def int_const(self) -> tuple[str, int]:
        c = self.rng.choice(INT_CONSTS)
        if self.rng.random() < 0.3:
            c = -c
        return _paren_const(c), abs(c)

    def int_leaf(self) -> tuple[str, int]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.2:
            return self.int_const()
        if self.loop_ints and roll < 0.4:
            name, bound = rng.choice(self.loop_ints)
            return self._chk(name, bound, "i"), bound
        if roll < 0.7:
            return self._chk(self.pick(INT), INT_INV, "i"), INT_INV
        leaves = []
        for name in self.names(LIST_INT):
            leaves += [
                (f"len({name})", LEN_BOUND),
                (f"{name}[{self.index(name)}]", INT_INV),
                (f"sum({name})", LEN_BOUND * INT_INV),
                (f"{name}.count({self.int_leaf_simple()})", LEN_BOUND),
            ]
            if "minmax_list" in self.features:
                leaves.append((f"{rng.choice(('min', 'max'))}({name})", INT_INV))
        for name in self.names(LIST_FLT):
            leaves.append((f"len({name})", LEN_BOUND))
        for name in self.names(DICT):
            leaves += [
                (f"len({name})", LEN_BOUND),
                (f"{name}.get({self.int_leaf_simple()}, {rng.randint(-3, 3)})", INT_INV),
            ]
        for name in self.names(SET):
            leaves += [(f"len({name})", LEN_BOUND), (f"sum({name})", LEN_BOUND * INT_INV)]
        for name in self.names(STR):
            leaves += [
                (f"len({name})", LEN_BOUND),
                (f"{name}.rfind({rng.choice(STR_CONSTS[1:])!r})", LEN_BOUND),
                (f"len({name}.split())", LEN_BOUND),
                (f"{name}.find({rng.choice(STR_CONSTS[1:])!r})", LEN_BOUND),
                (f"{name}.count({rng.choice(STR_CONSTS[1:4])!r})", LEN_BOUND),
                (f"(ord({name}[0]) if len({name}) > 0 else -1)", 0x10FFFF),
            ]
        for name in self.names(ARR_INT):
            leaves += [
                # int() and float() around NumPy scalars: CPython must compute with Python
                # numbers (np.int64 // 0 warns instead of raising)
                (f"int({name}[{self.index(name)}])", INT_INV),
                (f"int(np.sum({name}))", LEN_BOUND * INT_INV),
                (f"int({name}.max())", INT_INV),
            ]
        for name in self.names(ARR_FLT):
            leaves += [(f"len({name})", LEN_BOUND), (f"int(np.argmax({name}))", LEN_BOUND)]
        for name in self.names(TUPLE):
            leaves.append((f"{name}[0]", INT_INV))
        leaves += [make() for make in self.extra_int_leaves]
        if not leaves:
            return self._chk(self.pick(INT), INT_INV, "i"), INT_INV
        text, bound = rng.choice(leaves)
        return self._chk(text, bound, "i"), bound

    def int_leaf_simple(self) -> str:
        """A small int: a constant, an int variable or a loop variable (no containers)."""
        roll = self.rng.random()
        if roll < 0.4:
            return str(self.rng.randint(-3, 12))
        if self.loop_ints and roll < 0.7:
            return self.rng.choice(self.loop_ints)[0]
        return f"({self.pick(INT)} % {self.rng.choice((7, 11, 101))})"

    def int_expr(self, depth: int, lim: int = INT_LIM) -> tuple[str, int]:
        """An int-typed expression whose every intermediate value is within ``lim``."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            e = self.int_leaf()
            while e[1] > lim:
                e = self.shrink_int(e)
            return e
        kinds = ["add", "mul", "floordiv", "mod", "bit", "neg", "abs", "minmax", "cmp", "tern"]
        weights = [6, 3, 2, 2, 2, 1, 1, 2, 1, 1]
        kinds += ["trunc", "shift", "pow", "invert", "divmod", "modpow", "tuple_cmp", "str_len"]
        weights += [1, 1, 1, 1, 1, 1, 1, 1]
        if "math" in self.features:
            kinds.append("floor")
            weights.append(1)
        kind = rng.choices(kinds, weights=weights)[0]
        sub = depth - 1
        sh = self.shrink_int
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
        elif kind == "shift":
            e = self.int_expr(sub, 2**40)
            k = rng.randint(0, 20)
            if rng.random() < 0.5:
                text, bound = f"({e[0]} << {k})", e[1] << k
            else:
                text, bound = f"({e[0]} >> {k})", e[1]
        elif kind == "pow":
            e = self.int_expr(sub, 2**15)
            k = rng.randint(0, 4)
            text, bound = f"({e[0]} ** {k})", e[1] ** k
        elif kind == "invert":
            e = self.int_expr(sub, lim - 1)
            text, bound = f"(~{e[0]})", e[1] + 1
        elif kind == "divmod":
            l, r = self.int_expr(sub, lim), self.int_expr(sub, lim - 2)
            part = rng.randint(0, 1)
            text, bound = f"divmod({l[0]}, -abs({r[0]}) - 2)[{part}]", max(l[1], r[1] + 2)
        elif kind == "modpow":
            l, r = self.int_expr(sub, lim), self.int_expr(sub, 40)
            m = rng.choice((7, 97, 65521))
            text, bound = f"pow({l[0]}, abs({r[0]}), {m})", m
        elif kind == "tuple_cmp":
            p, q, u, v = (self.int_expr(sub)[0] for _ in range(4))
            op = rng.choice(CMP_OPS)
            text, bound = f"int(({p}, {q}) {op} ({u}, {v}))", 1
        elif kind == "str_len":
            text, bound = f"len(str({self.int_expr(sub)[0]}))", 30
        elif kind == "neg":
            e = self.int_expr(sub, lim)
            text, bound = f"(-{e[0]})", e[1]
        elif kind == "abs":
            e = self.int_expr(sub, lim)
            text, bound = f"abs({e[0]})", e[1]
        elif kind == "minmax":
            fn = rng.choice(("min", "max"))
            l, r = self.int_expr(sub, lim), self.int_expr(sub, lim)
            text, bound = f"{fn}({l[0]}, {r[0]})", max(l[1], r[1])
        elif kind == "cmp":
            text, bound = f"int({self.bool_expr(sub)})", 1
        elif kind == "tern":
            l, r = self.int_expr(sub, lim), self.int_expr(sub, lim)
            text, bound = f"({l[0]} if {self.bool_expr(sub)} else {r[0]})", max(l[1], r[1])
        elif kind == "floor":
            f = self.flt_expr(sub)
            while f[1] > 1e15:
                f = self.shrink_flt(f)
            fn = rng.choice(("math.floor", "math.ceil", "math.trunc", "round"))
            text, bound = f"{fn}({f[0]})", int(f[1]) + 1
        else:  # trunc: int(float)
            f = self.flt_expr(sub)
            while f[1] > 1e15:
                f = self.shrink_flt(f)
            text, bound = f"int({f[0]})", int(f[1])
        e = self._chk(text, bound, "i"), bound
        while e[1] > lim:
            e = self.shrink_int(e)
        return e

    def int_value(self, depth: int | None = None) -> str:
        """An int expression within INT_INV: what may be stored in a variable or container."""
        e = self.int_expr(self.rng.randint(0, 2) if depth is None else depth)
        while e[1] > INT_INV:
            e = self.shrink_int(e)
        return e[0]

    # -- floats --------------------------------------------------------------------------
    def flt_leaf(self) -> tuple[str, float]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.2:
            c = rng.choice(FLT_CONSTS) * (-1 if rng.random() < 0.3 else 1)
            return _paren_const(c), abs(c)
        if roll < 0.3:
            t, b = self.int_leaf()
            while b > INT_EXACT:
                t, b = self.shrink_int((t, b))
            return self._chk(f"float({t})", float(b), "f"), float(b)
        if self.loop_flts and roll < 0.4:
            return self._chk(rng.choice(self.loop_flts), FLT_INV, "f"), FLT_INV
        if "pow_literal" in self.features and roll < 0.45:
            return f"(10 ** -{rng.randint(1, 9)})", 0.1
        if roll < 0.75:
            return self._chk(self.pick(FLT), FLT_INV, "f"), FLT_INV
        leaves = []
        for name in self.names(LIST_FLT):
            leaves += [(f"{name}[{self.index(name)}]", FLT_INV), (f"sum({name})", 1e13)]
            if "minmax_list" in self.features:
                leaves.append((f"{rng.choice(('min', 'max'))}({name})", FLT_INV))
        for name in self.names(ARR_FLT):
            leaves += [
                (f"float({name}[{self.index(name)}])", FLT_INV),
                # floor() + 0.0: exact integral items, so NumPy's pairwise order and a
                # sequential sum agree, and no -0.0 survives
                (f"float(np.sum(np.floor({name}) + 0.0))", 1e13),
                (f"float({name}.max())", FLT_INV),
                (f"float({name}.min())", FLT_INV),
            ]
        for name in self.names(TUPLE):
            leaves.append((f"{name}[1]", FLT_INV))
        if not leaves:
            return self._chk(self.pick(FLT), FLT_INV, "f"), FLT_INV
        text, bound = rng.choice(leaves)
        return self._chk(text, bound, "f"), bound

    def flt_expr(self, depth: int) -> tuple[str, float]:
        """A float-typed expression (ints may appear as operands) bounded by FLT_LIM."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.flt_leaf()
        kinds = ["add", "mul", "div", "intdiv", "floordiv", "mod", "neg", "abs", "minmax", "tern"]
        weights = [6, 3, 3, 1, 1, 1, 1, 1, 2, 1]
        kinds += ["square", "root", "round", "fdivmod"]
        weights += [1, 1, 1, 1]
        if "math" in self.features:
            kinds += ["math1", "math2"]
            weights += [3, 1]
        kind = rng.choices(kinds, weights=weights)[0]
        sub = depth - 1
        sh = self.shrink_flt

        def operand_pair():
            f = self.flt_expr(sub)
            o = self.int_expr(sub, INT_EXACT) if rng.random() < 0.3 else self.flt_expr(sub)
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
        elif kind == "intdiv":
            l = self.int_expr(sub, INT_EXACT)
            r = self.int_expr(sub, INT_EXACT - 1)
            text, bound = f"({l[0]} / (abs({r[0]}) + 1))", float(l[1])
        elif kind == "square":
            e = self.flt_expr(sub)
            while e[1] > 1e90:
                e = sh(e)
            bound = e[1] ** 2
            # x ** 2 compiles to x * x (LLVM's pow simplification) where CPython calls libm's
            # pow(), one ulp apart at ties: finding 1 of /work/notes/fuzz_findings.md
            if "float_pow_simplified" in self.features:
                text = f"({e[0]} ** 2)"
            else:
                text = f"({e[0]} * {e[0]})"
        elif kind == "root":
            e = self.flt_expr(sub)
            bound = max(e[1], 1.0)
            if "float_pow_simplified" in self.features:
                text = f"(abs({e[0]}) ** 0.5)"  # compiled as sqrt (finding 1)
            else:
                text = f"math.sqrt(abs({e[0]}))"
        elif kind == "round":
            e = self.flt_expr(sub)
            while e[1] > 1e15:
                e = sh(e)
            text, bound = f"round({e[0]}, {rng.randint(0, 3)})", e[1] + 1.0
        elif kind == "fdivmod":
            l, r = self.flt_expr(sub), self.flt_expr(sub)
            part = rng.randint(0, 1)
            text, bound = f"divmod({l[0]}, abs({r[0]}) + 0.5)[{part}]", max(l[1] * 2 + 1, r[1] + 1)
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
        elif kind == "math1":
            fn = rng.choice(MATH_UNARY)
            e = self.flt_expr(sub)
            if fn == "sqrt":
                text, bound = f"math.sqrt(abs({e[0]}))", max(e[1], 1.0) ** 0.5
            elif fn == "exp":
                text, bound = f"math.exp(min({e[0]}, 50.0))", 6e21
            elif fn == "log1p":
                text, bound = f"math.log1p(abs({e[0]}))", 500.0
            elif fn == "fabs":
                text, bound = f"math.fabs({e[0]})", e[1]
            else:
                text, bound = f"math.{fn}({e[0]})", 2.0
        elif kind == "math2":
            fn = rng.choice(("atan2", "copysign", "hypot", "fmod"))
            l, r = self.flt_expr(sub), self.flt_expr(sub)
            if fn == "fmod":
                text, bound = f"math.fmod({l[0]}, abs({r[0]}) + 1.0)", r[1] + 1.0
            elif fn == "hypot":
                l, r = self._fit2(l, r, lambda p, q: p + q, 1e150, sh)
                bound = l[1] + r[1]
                # CPython's own hypot() is more accurate than C's, which compiled code
                # calls: finding 3 of /work/notes/fuzz_findings.md
                if "math_hypot" in self.features:
                    text = f"math.hypot({l[0]}, {r[0]})"
                else:
                    text = f"math.fabs(math.copysign({l[0]}, {r[0]}))"
            elif fn == "atan2":
                text, bound = f"math.atan2({l[0]}, {r[0]})", 4.0
            else:
                text, bound = f"math.copysign({l[0]}, {r[0]})", l[1]
        else:
            l, r = self.flt_expr(sub), self.flt_expr(sub)
            text, bound = f"({l[0]} if {self.bool_expr(sub)} else {r[0]})", max(l[1], r[1])
        return self._chk(text, bound, "f"), bound

    def flt_value(self, depth: int | None = None) -> str:
        """A float expression within FLT_INV (clamped when its bound is larger)."""
        e = self.flt_expr(self.rng.randint(0, 2) if depth is None else depth)
        if e[1] <= FLT_INV:
            return e[0]
        if self.rng.random() < 0.5:
            return f"min(max({e[0]}, -1e9), 1e9)"
        return f"({e[0]} % 997.0)"

    # -- bools and strings ---------------------------------------------------------------
    def compare(self, depth: int) -> str:
        rng = self.rng
        op = rng.choice(CMP_OPS)
        roll = rng.random()
        if roll < 0.35:
            l, r = self.int_expr(depth), self.int_expr(depth)
        elif roll < 0.65:
            l, r = self.flt_expr(depth), self.flt_expr(depth)
        elif roll < 0.85:  # mixed int/float: the int exactly representable
            l, r = self.int_expr(depth, INT_EXACT), self.flt_expr(depth)
            if rng.random() < 0.5:
                l, r = r, l
        else:
            l, m, r = self.int_expr(depth), self.int_expr(depth), self.int_expr(depth)
            op2 = rng.choice(("<", "<="))
            return f"({l[0]} {op2} {m[0]} {op2} {r[0]})"
        return f"({l[0]} {op} {r[0]})"

    def bool_leaf(self) -> str:
        rng = self.rng
        options = list(self.names(BOOL))
        for name in self.names(LIST_INT) + self.names(SET):
            options.append(f"({self.int_leaf_simple()} in {name})")
        lists = self.names(LIST_INT)
        if len(lists) > 1:
            options.append(f"({lists[0]} {rng.choice(CMP_OPS)} {lists[1]})")
        sets = self.names(SET)
        if len(sets) > 1:
            op = rng.choice(("<=", "<", ">=", "==", "!="))
            options.append(f"({sets[0]} {op} {sets[1]})")
            options.append(f"{sets[0]}.isdisjoint({sets[1]})")
        for name in self.names(LIST_FLT):
            options.append(f"({self.flt_leaf()[0]} in {name})")
        for name in self.names(DICT):
            options.append(f"({self.int_leaf_simple()} in {name})")
        for name in self.names(STR):
            options += [
                f"({rng.choice(STR_CONSTS)!r} in {name})",
                f"{name}.startswith({rng.choice(STR_CONSTS)!r})",
                f"({name} == {self.str_expr(0)})",
                f"({name} < {self.str_expr(0)})",
                f"{name}.{rng.choice(('isdigit', 'isalpha', 'isspace', 'isupper', 'islower'))}()",
                f"{name}.endswith({rng.choice(STR_CONSTS)!r})",
            ]
        if not options or rng.random() < 0.5:
            return self.compare(0)
        return rng.choice(options)

    def bool_expr(self, depth: int) -> str:
        rng = self.rng
        roll = rng.random()
        if depth > 0 and roll < 0.2:
            op = rng.choice(("and", "or"))
            return f"({self.bool_expr(depth - 1)} {op} {self.bool_expr(depth - 1)})"
        if depth > 0 and roll < 0.27:
            return f"(not {self.bool_expr(depth - 1)})"
        if roll < 0.55:
            return self.bool_leaf()
        return self.compare(max(depth - 1, 0))

    def str_expr(self, depth: int) -> str:
        """A str expression; its length is bounded by slicing where it could grow."""
        rng = self.rng
        names = self.names(STR)
        if depth <= 0 or rng.random() < 0.3 or not names:
            if names and rng.random() < 0.6:
                return rng.choice(names)
            return repr(rng.choice(STR_CONSTS))
        sub = depth - 1
        kind = rng.choice(
            ("concat", "slice", "method", "str_int", "repeat", "replace", "join", "tern", "fmt")
            + ("str_float", "pad", "chr", "part", "fstring", "index")
        )
        if kind == "str_float" and "float_text" in self.features:
            return f"str({self.flt_value(sub)})"
        if kind == "fstring" and "float_text" in self.features:
            return f'f"{{{self.int_value(sub)}}}:{{{self.flt_value(sub)}}}"'
        if kind == "pad":
            method = rng.choice(("zfill", "ljust", "rjust"))
            return f"{self.str_expr(sub)}.{method}({rng.randint(0, 7)})"
        if kind == "chr":
            return f"chr(65 + abs({self.int_value(sub)}) % 58)"
        if kind == "part":
            sep = rng.choice((" ", "a", ","))
            return f"{self.str_expr(sub)}.{rng.choice(('partition', 'rpartition'))}({sep!r})[{rng.randint(0, 2)}]"
        if kind == "index":
            e = self.str_expr(sub)
            return f"({e}[{rng.randint(-3, 3)}] if len({e}) > 3 else {e})"
        if kind == "concat":
            return f"({self.str_expr(sub)} + {self.str_expr(sub)})"
        if kind == "slice":
            i, j = rng.randint(-4, 4), rng.randint(-4, 8)
            step = rng.choice(("", "", ":2", ":-1"))
            return f"{self.str_expr(sub)}[{i}:{j}{step}]"
        if kind == "method":
            method = rng.choice(("upper", "lower", "strip", "title", "swapcase", "lstrip"))
            return f"{self.str_expr(sub)}.{method}()"
        if kind == "str_int":
            return f"str({self.int_value(sub)})"
        if kind == "repeat":
            return f"({self.str_expr(sub)} * {rng.randint(0, 3)})"
        if kind == "replace":
            old, new = rng.choice(STR_CONSTS[1:]), rng.choice(STR_CONSTS)
            return f"{self.str_expr(sub)}.replace({old!r}, {new!r})"
        if kind == "join":
            sep = rng.choice(("", ",", "-", " "))
            return f"{sep!r}.join([{self.str_expr(sub)}, {self.str_expr(sub)}])"
        if kind == "fmt":
            return f"{self.str_expr(sub)}.center({rng.randint(0, 8)})"
        return f"({self.str_expr(sub)} if {self.bool_expr(sub)} else {self.str_expr(sub)})"

    def str_value(self) -> str:
        return f"({self.str_expr(self.rng.randint(0, 2))})[:24]"
