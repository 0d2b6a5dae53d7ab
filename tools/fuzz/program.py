"""One fuzz program: the function ``f`` (with its helpers), the argument tuples it is called
with, and the feature switches. ``generate(seed, index, features)`` is deterministic."""

from __future__ import annotations

import dataclasses
import random

from tools.fuzz.expressions import (
    ARR_FLT,
    ARR_INT,
    BOOL,
    DICT,
    FLT,
    INT,
    INT_INV,
    LIST_FLT,
    LIST_INT,
    SET,
    STR,
    TUPLE,
)
from tools.fuzz.families import FamilyGenerator

#: Families of statements; a program draws one to three of them. The last two exercise bugs
#: fixed this session (list iteration while the body changes the list; the evaluation order
#: of ``lst[expr]`` when ``expr`` changes ``lst``).
FAMILIES = (
    "lists",
    "dicts",
    "sets",
    "strings",
    "tuples",
    "arrays",
    "comprehensions",
    "generators",
    "closures",
    "exceptions",
    "prange",
    "deviations",
    "mutate_while_iterating",
    "effects",
)
#: Switches of expression forms; a program turns each enabled one on with probability 1/2.
MODIFIERS = (
    "math",
    "except_as",
    "finally",
    "float_text",
    "minmax_list",  # min(lst), max(lst)
    "sorted_key",  # sorted(lst, key=...), reversed(lst)
    "pow_literal",  # 10 ** -k constants
)

#: Features that find bugs known and being fixed now. They are off by default (so the CI run
#: passes) and on with ``--with-known-bugs`` or ``--features``; move one out of this table
#: into MODIFIERS once its bug is fixed (see /work/notes/fuzz_findings.md).
KNOWN_BUG_SWITCHES = {
    "sorted_reverse": "sorted([], reverse=True) of an untyped empty list: refused (it crashed)",
    "float_pow_simplified": (
        "x ** 2 and x ** 0.5 of floats compile to x * x and sqrt(x) where CPython calls libm's "
        "pow(): one ulp apart for about 1 input in 1,000"
    ),
    "math_hypot": "math.hypot: C's hypot() in compiled code, CPython's more accurate own one",
}

#: Features drawn from a random stream of their own, after the rest of the program: turning one
#: on or off changes no other choice. ``unbound_locals``: locals a path leaves unassigned, read
#: (FamilyGenerator.unbound_locals_section), in half of the programs.
SIDE_FEATURES = ("unbound_locals",)

DEFAULT_FEATURES = frozenset(FAMILIES + MODIFIERS + SIDE_FEATURES)
ALL_FEATURES = DEFAULT_FEATURES | frozenset(KNOWN_BUG_SWITCHES)

PARAMETERS = {
    "lists": (("li", LIST_INT), ("lf", LIST_FLT)),
    "dicts": (("d", DICT),),
    "sets": (("st", SET),),
    "strings": (("s", STR),),
    "arrays": (("af", ARR_FLT), ("ai", ARR_INT)),
}
LOCALS = {
    "lists": (("l0", LIST_INT), ("m0", LIST_FLT)),
    "dicts": (("d0", DICT),),
    "sets": (("s0", SET),),
    "strings": (("t0", STR),),
    "tuples": (("tp", TUPLE),),
    "arrays": (("w0", ARR_FLT),),
}
NEEDS = {  # families whose statements need another family's variables
    "mutate_while_iterating": "lists",
    "effects": "lists",
}

INT_ARGS = (0, 1, -1, 2, 7, -13, 100, 1000, -4096, 65535, -(2**20), 2**20 - 1, 123457)
FLT_ARGS = (0.0, -0.0, 0.5, -2.25, 1.0, 3.75, 1e6, -1e-3, 123.456, -7.5, 1e9, 0.1)
STR_ARGS = ("", "a", "abc", "hello world", "a,b,,c", "123", "xyzzy", "Aa Bb", "  pad ")


@dataclasses.dataclass
class Program:
    seed: int
    index: int
    features: tuple[str, ...]  # the features this program drew
    source: str  # module text defining f and its helpers
    args: str  # a Python expression: a list of argument tuples
    parallel: bool  # whether f needs njit(parallel=True)

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


class GeneratorBug(Exception):
    """A checked program broke the generator's invariants (its bug, not taipan's)."""


def _ck(value, bound, kind):
    """Run-time check of checked programs (CPython only): type and static bound."""
    expected = int if kind == "i" else float
    if type(value) is not expected:
        raise GeneratorBug(f"type {type(value).__name__}, expected {expected.__name__}")
    if not abs(value) <= bound:
        raise GeneratorBug(f"value {value!r} exceeds static bound {bound!r}")
    return value


class ProgramGenerator(FamilyGenerator):
    def __init__(self, rng, features, checked=False):
        super().__init__(rng, features, checked)
        self.parallel = False
        self.unbound_rng = None  # the side stream of ``unbound_locals``, when drawn

    def function(self, params: list[tuple[str, str]], locals_: list[tuple[str, str]]) -> str:
        rng = self.rng
        self.vars = dict(params)
        self.readonly = {"a", "x"}
        header = f"def f({', '.join(name for name, _ in params)}):"
        self.lines = []
        for name, kind in locals_:
            if kind == INT:
                value = self.int_value(2)
            elif kind == FLT:
                value = self.flt_value(2)
            elif kind == BOOL:
                value = self.bool_expr(1)
            elif kind == STR:
                value = self.str_value()
            elif kind == LIST_INT:
                value = f"[{self.int_value()}, {self.int_value()}]"
            elif kind == LIST_FLT:
                value = f"[{self.flt_value()}]"
            elif kind == DICT:
                value = f"{{{self.int_leaf_simple()}: {self.int_value()}}}"
            elif kind == SET:
                value = f"{{{self.int_value()}}}"
            elif kind == TUPLE:
                value = f"({self.int_value()}, {self.flt_value()})"
            else:
                value = f"np.zeros({rng.randint(1, 5)}) + {self.flt_value(0)}"
            self.emit(1, f"{name} = {value}")
            self.vars[name] = kind
        self.budget = rng.randint(4, 14)
        while self.budget > 0:
            self.statement(1, 0, 0)
        if self.unbound_rng is not None:
            self.unbound_locals_section(self.unbound_rng)
        candidates = [name for name in self.vars if name not in ("a", "x")]
        names = rng.sample(candidates, min(len(candidates), rng.randint(2, 6)))
        names += [name for name, _ in self.deviation_vars]
        self.emit(1, f"return ({', '.join(names)},)")
        top = [f"    {name} = {neutral}" for name, neutral in self.deviation_vars]
        return "\n".join([header, *top, *self.lines]) + "\n"


def _argument(rng: random.Random, kind: str) -> str:
    if kind == INT:
        return repr(rng.choice(INT_ARGS))
    if kind == FLT:
        return repr(rng.choice(FLT_ARGS))
    if kind == STR:
        return repr(rng.choice(STR_ARGS))
    n = rng.randint(1, 6)
    if kind == LIST_INT:
        return repr([rng.randint(-20, 20) for _ in range(n)])
    if kind == LIST_FLT:
        return repr([rng.choice(FLT_ARGS) for _ in range(n)])
    if kind == DICT:
        return repr({rng.randint(-5, 12): rng.randint(-INT_INV, INT_INV) for _ in range(n - 1)})
    if kind == SET:
        return repr({rng.randint(-10, 30) for _ in range(n)})
    if kind == ARR_FLT:  # multiples of 1/4: sums are exact in any order
        return f"np.array({[rng.randint(-400, 400) / 4 for _ in range(n)]!r})"
    return f"np.array({[rng.randint(-1000, 1000) for _ in range(n)]!r}, dtype=np.int64)"


def generate(seed: int, index: int, features=DEFAULT_FEATURES, checked: bool = False) -> Program:
    """Program ``index`` of base seed ``seed``: deterministic for the same features."""
    rng = random.Random(seed * 1_000_003 + index)
    features = frozenset(features)
    families = sorted(f for f in features if f in FAMILIES)
    drawn = set(rng.sample(families, min(len(families), rng.randint(1, 3)))) if families else set()
    drawn |= {NEEDS[f] for f in drawn if f in NEEDS}
    modifiers = sorted(f for f in features if f in MODIFIERS)
    drawn |= {m for m in modifiers if rng.random() < 0.5}
    # a known-bug switch applies to every program and draws nothing, so turning one on
    # changes no other choice of the generator
    drawn |= features & set(KNOWN_BUG_SWITCHES)
    generator = ProgramGenerator(rng, frozenset(drawn), checked)
    # Checked programs (every value checked against its bound, raising only what they mean to)
    # leave the section out: it raises NameError on purpose where a path skipped an assignment,
    # and its values come from the expression generators checked programs cover.
    side = random.Random(seed * 9_000_011 + index)
    if "unbound_locals" in features and not checked and side.random() < 0.5:
        generator.unbound_rng = side
    params = [("a", INT), ("b", INT), ("x", FLT), ("y", FLT)]
    locals_ = [("n0", INT), ("n1", INT), ("n2", INT), ("g0", FLT), ("g1", FLT), ("p0", BOOL)]
    for family in sorted(drawn):
        params += PARAMETERS.get(family, ())
        locals_ += LOCALS.get(family, ())
    body = generator.function(params, locals_)
    source = "import math\n\nimport numpy as np\n\n\n"
    source += "".join(helper + "\n\n" for helper in generator.helpers) + body
    arg_rng = random.Random(seed * 7_000_003 + index)
    tuples = [
        "(" + ", ".join(_argument(arg_rng, kind) for _, kind in params) + ",)" for _ in range(3)
    ]
    if generator.unbound_rng is not None:
        drawn.add("unbound_locals")
    return Program(
        seed, index, tuple(sorted(drawn)), source, "[" + ", ".join(tuples) + "]", generator.parallel
    )
