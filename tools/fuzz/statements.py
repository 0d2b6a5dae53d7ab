"""Statements of the fuzzer, one method per feature family (scalars and control flow, lists,
dicts, sets, strings, tuples, arrays, comprehensions, generators, closures, exceptions,
``prange`` and Numba's deviations), over ``expressions.ExpressionGenerator``."""

from __future__ import annotations

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
    MODS,
    SET,
    STR,
    STR_CONSTS,
    TUPLE,
    ExpressionGenerator,
)

EXCEPTION_CLASSES = (
    "ValueError",
    "IndexError",
    "KeyError",
    "ZeroDivisionError",
    "AssertionError",
    "Exception",
    "LookupError",
    "ArithmeticError",
)
FAMILY_WEIGHTS = {
    "lists": 3,
    "dicts": 2,
    "sets": 2,
    "strings": 2,
    "tuples": 1,
    "arrays": 3,
    "comprehensions": 2,
    "generators": 1,
    "closures": 1,
    "exceptions": 2,
    "prange": 1,
    "deviations": 1,
    "effects": 1,
    "mutate_while_iterating": 1,
}


class StatementGenerator(ExpressionGenerator):
    """Writes statements into ``lines``; ``readonly`` names are never assigned (parameters that
    closures capture, loop variables), ``frozen`` containers are never mutated (being iterated)."""

    def __init__(self, rng, features, checked=False):
        super().__init__(rng, features, checked)
        self.lines: list[str] = []
        self.helpers: list[str] = []  # module-level functions the program defines
        self.readonly: set[str] = set()
        self.frozen: set[str] = set()
        self.budget = 0
        self.counter = 0
        self.deviation_vars: list[str] = []

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)
        self.budget -= 1

    def targets(self, kind: str) -> list[str]:
        return [n for n in self.names(kind) if n not in self.readonly and n not in self.frozen]

    def mutable(self, kind: str) -> list[str]:
        return [n for n in self.names(kind) if n not in self.frozen]

    # -- scalars and control flow ----------------------------------------------------------
    def assign_scalar(self, indent: int) -> None:
        rng = self.rng
        kinds = [k for k in (INT, FLT, BOOL, STR, TUPLE) if self.targets(k)]
        kind = rng.choices(kinds, weights=[{INT: 5, FLT: 5}.get(k, 1) for k in kinds])[0]
        name = rng.choice(self.targets(kind))
        if kind == INT:
            value = self.int_value(rng.randint(1, 3))
        elif kind == FLT:
            value = self.flt_value(rng.randint(1, 3))
        elif kind == BOOL:
            value = self.bool_expr(2)
        elif kind == STR:
            value = self.str_value()
        else:
            value = f"({self.int_value()}, {self.flt_value()})"
        self.emit(indent, f"{name} = {value}")

    def aug_scalar(self, indent: int) -> None:
        rng = self.rng
        if rng.random() < 0.6:
            name = rng.choice(self.targets(INT))
            op = rng.choice(("+=", "-=", "*=", "//=", "%=", "&=", "|=", "^="))
            if op in ("//=", "%="):
                r = self.int_expr(rng.randint(0, 2), INT_INV - 3)
                self.emit(indent, f"{name} {op} (abs({r[0]}) + {rng.choice((1, 2, 3))})")
                return
            r = self.int_expr(rng.randint(0, 2), INT_INV)
            self.emit(indent, f"{name} {op} {r[0]}")
            self.emit(indent, f"{name} %= {rng.choice(MODS)}")
            return
        name = rng.choice(self.targets(FLT))
        op = rng.choice(("+=", "-=", "*=", "/="))
        r = self.flt_value()
        if op == "/=":
            self.emit(indent, f"{name} /= (abs({r}) + 1.0)")
            return
        self.emit(indent, f"{name} {op} {r}")
        self.emit(indent, f"{name} = min(max({name}, -1e9), 1e9)")

    def if_statement(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        self.emit(indent, f"if {self.bool_expr(2)}:")
        self.block(indent + 1, depth + 1, loops, rng.randint(1, 3))
        for _ in range(rng.choice((0, 0, 1, 2))):
            self.emit(indent, f"elif {self.bool_expr(2)}:")
            self.block(indent + 1, depth + 1, loops, rng.randint(1, 2))
        if rng.random() < 0.6:
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, loops, rng.randint(1, 2))

    def while_statement(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        counter = self.fresh("w")
        limit = rng.randint(1, 8)
        self.emit(indent, f"{counter} = 0")
        header = f"{counter} < {limit}"
        if rng.random() < 0.5:
            header = f"{header} and {self.bool_expr(1)}"
        self.emit(indent, f"while {header}:")
        self.emit(indent + 1, f"{counter} += 1")  # first, so `continue` cannot skip it
        self.loop_body(indent + 1, depth, loops, counter, limit)

    def loop_body(self, indent, depth, loops, var, bound) -> None:
        self.loop_ints.append((var, bound))
        self.readonly.add(var)
        self.block(indent, depth + 1, loops + 1, self.rng.randint(1, 3))
        self.readonly.discard(var)
        self.loop_ints.pop()

    def range_args(self) -> tuple[str, int]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            k = rng.randint(0, 8)
            return str(k), k
        if roll < 0.5:
            return f"{rng.randint(-5, 5)}, {rng.randint(-5, 8)}, {rng.choice((1, 2, 3))}", 8
        if roll < 0.7:
            return f"{rng.randint(-2, 8)}, {rng.randint(-6, 3)}, {rng.choice((-1, -2, -3))}", 8
        k = rng.randint(2, 9)
        return f"{self.int_expr(1)[0]} % {k}", k

    def for_statement(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        var = self.fresh("i")
        roll = rng.random()
        iterables = self.names(LIST_INT)
        if iterables and roll < 0.3:
            source = rng.choice(iterables)
            frozen_before = set(self.frozen)
            self.frozen.add(source)
            if rng.random() < 0.5:
                index = self.fresh("j")
                self.emit(indent, f"for {index}, {var} in enumerate({source}):")
                self.loop_ints.append((index, 10_000))
                self.readonly.add(index)
                self.loop_body(indent + 1, depth, loops, var, INT_INV)
                self.loop_ints.pop()
            else:
                self.emit(indent, f"for {var} in {source}:")
                self.loop_body(indent + 1, depth, loops, var, INT_INV)
            self.frozen = frozen_before
            return
        floats = self.names(LIST_FLT)
        if floats and roll < 0.45:
            source = rng.choice(floats)
            self.emit(indent, f"for {var} in {source}:")
            frozen_before = set(self.frozen)
            self.frozen.add(source)
            self.loop_flts.append(var)
            self.block(indent + 1, depth + 1, loops + 1, rng.randint(1, 3))
            self.loop_flts.pop()
            self.frozen = frozen_before
            return
        args, bound = self.range_args()
        self.emit(indent, f"for {var} in range({args}):")
        self.loop_body(indent + 1, depth, loops, var, bound)
        if rng.random() < 0.15:
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, loops, 1)

    def block(self, indent: int, depth: int, loops: int, n: int) -> None:
        for _ in range(n):
            self.statement(indent, depth, loops)

    def statement(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        kinds = {"assign": 6, "aug": 2}
        if depth < 3 and self.budget > 0:
            kinds["if"] = 3
            if loops < 2:
                kinds["while"] = 1
                kinds["for"] = 3
        if loops > 0:
            kinds["jump"] = 1
        for family, weight in FAMILY_WEIGHTS.items():
            if family in self.features and hasattr(self, f"stmt_{family}"):
                kinds[family] = weight * 2
        kind = rng.choices(list(kinds), weights=list(kinds.values()))[0]
        if kind == "assign":
            self.assign_scalar(indent)
        elif kind == "aug":
            self.aug_scalar(indent)
        elif kind == "if":
            self.if_statement(indent, depth, loops)
        elif kind == "while":
            self.while_statement(indent, depth, loops)
        elif kind == "for":
            self.for_statement(indent, depth, loops)
        elif kind == "jump":
            self.emit(indent, f"if {self.bool_expr(1)}:")
            self.emit(indent + 1, rng.choice(("break", "continue")))
        else:
            getattr(self, f"stmt_{kind}")(indent, depth, loops)

    # -- containers ------------------------------------------------------------------------
    def stmt_lists(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        kind = rng.choice((LIST_INT, LIST_FLT))
        names = self.mutable(kind)
        if not names:
            return self.assign_scalar(indent)
        name = rng.choice(names)
        value = self.int_value if kind == LIST_INT else self.flt_value
        op = rng.choice(
            ("append", "append", "insert", "setitem", "augitem", "pop", "del", "extend")
            + ("sort", "reverse", "remove", "sorted", "slice", "index", "concat", "slice_set")
            + ("repeat", "stride", "copy")
        )
        if op == "append":
            self.emit(indent, f"{name}.append({value()})")
        elif op == "insert":
            self.emit(indent, f"{name}.insert({rng.randint(-4, 6)}, {value()})")
        elif op == "setitem":
            self.emit(indent, f"{name}[{self.index(name)}] = {value()}")
        elif op == "augitem":
            mod = "1009" if kind == LIST_INT else "997.0"
            self.emit(indent, f"{name}[{self.index(name)}] %= {mod}")
        elif op in ("pop", "del"):
            self.emit(indent, f"if len({name}) > 1:")
            if op == "pop" and kind == LIST_INT and self.targets(INT):
                target = rng.choice(self.targets(INT))
                where = rng.choice(("", self.index(name)))
                self.emit(indent + 1, f"{target} = {name}.pop({where})")
            else:
                self.emit(indent + 1, f"del {name}[{self.index(name)}]")
        elif op == "extend":
            self.emit(indent, f"{name}.extend([{value()}, {value()}])")
        elif op in ("sort", "reverse"):
            self.emit(indent, f"{name}.{op}()")
        elif op == "remove":
            probe = self.int_leaf_simple() if kind == LIST_INT else self.flt_leaf()[0]
            self.emit(indent, f"if {probe} in {name} and len({name}) > 1:")
            self.emit(indent + 1, f"{name}.remove({probe})")
        elif op == "index" and kind == LIST_INT and self.targets(INT):
            probe = self.int_leaf_simple()
            self.emit(indent, f"if {probe} in {name}:")
            self.emit(indent + 1, f"{rng.choice(self.targets(INT))} = {name}.index({probe})")
        else:
            others = [n for n in self.targets(kind) if n != name]
            if not others:
                return self.emit(indent, f"{name}.append({value()})")
            target = rng.choice(others)
            source = name
            if op == "sorted":
                forms = [f"sorted({source})"]
                if "sorted_reverse" in self.features:
                    forms += [
                        f"sorted({source}, reverse=True)",
                        f"sorted([], reverse=True) + {source}",
                    ]
                if "sorted_key" in self.features:
                    forms += [f"sorted({source}, key=lambda v: -v)", f"list(reversed({source}))"]
                self.emit(indent, f"{target} = {rng.choice(forms)}")
            elif op == "slice":
                self.emit(indent, f"{target} = {source}[:{rng.randint(1, 6)}]")
            elif op == "slice_set":  # the slice replaced stays non-empty
                i, j = rng.randint(0, 3), rng.randint(0, 5)
                self.emit(indent, f"{target}[{i}:{j}] = {source}[:2]")
            elif op == "repeat":
                self.emit(indent, f"{target} = ({source}[:3] * {rng.randint(1, 3)})")
            elif op == "stride":
                step = rng.choice(("::-1", "::2", "1::2", "::-2"))
                self.emit(indent, f"{target} = {source}[{step}] + {source}[:1]")
            elif op == "copy":
                self.emit(indent, f"{target} = {source}.copy()")
            else:
                self.emit(indent, f"{target} = {source}[:3] + {target}[:3]")

    def stmt_dicts(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        names = self.mutable(DICT)
        if not names:
            return self.assign_scalar(indent)
        name = rng.choice(names)
        key = self.int_leaf_simple
        op = rng.choice(
            ("set", "set", "get", "pop", "del", "iter", "items", "setdefault", "new", "popitem")
            + ("keys", "values")
        )
        ints = self.targets(INT)
        if op == "set":
            self.emit(indent, f"{name}[{key()}] = {self.int_value()}")
        elif op == "get" and ints:
            k = key()
            self.emit(indent, f"if {k} in {name}:")
            self.emit(indent + 1, f"{rng.choice(ints)} = {name}[{k}]")
        elif op == "pop" and ints:
            self.emit(indent, f"{rng.choice(ints)} = {name}.pop({key()}, {rng.randint(-2, 2)})")
        elif op == "del":
            k = key()
            self.emit(indent, f"if {k} in {name}:")
            self.emit(indent + 1, f"del {name}[{k}]")
        elif op in ("iter", "items") and ints:
            target = rng.choice(ints)
            k, v = self.fresh("k"), self.fresh("v")
            if op == "iter":
                self.emit(indent, f"for {k} in {name}:")
                self.emit(indent + 1, f"{target} = ({target} + {k} * {name}[{k}]) % 1000003")
            else:
                self.emit(indent, f"for {k}, {v} in {name}.items():")
                self.emit(indent + 1, f"{target} = ({target} * 3 + {k} - {v}) % 65521")
        elif op == "popitem" and len(ints) > 1:
            p, q = rng.sample(ints, 2)
            self.emit(indent, f"if len({name}) > 0:")
            self.emit(indent + 1, f"{p}, {q} = {name}.popitem()")
        elif op in ("keys", "values") and self.targets(LIST_INT):
            target = rng.choice(self.targets(LIST_INT))
            self.emit(indent, f"{target} = list({name}.{op}()) + [{self.int_value()}]")
        elif op == "setdefault":
            self.emit(indent, f"{name}.setdefault({key()}, {self.int_value()})")
        else:
            others = [n for n in self.targets(DICT) if n != name]
            if others:
                target = rng.choice(others)
                self.emit(indent, f"{target} = {{{key()}: {self.int_value()}}}")
                self.emit(indent, f"{target}.update({name})")
            else:
                self.emit(indent, f"{name}[{key()}] = {self.int_value()}")

    def stmt_sets(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        names = self.mutable(SET)
        if not names:
            return self.assign_scalar(indent)
        name = rng.choice(names)
        op = rng.choice(("add", "add", "discard", "remove", "binop", "iter", "update"))
        if op == "add":
            self.emit(indent, f"{name}.add({self.int_value()})")
        elif op == "discard":
            self.emit(indent, f"{name}.discard({self.int_leaf_simple()})")
        elif op == "remove":
            probe = self.int_leaf_simple()
            self.emit(indent, f"if {probe} in {name}:")
            self.emit(indent + 1, f"{name}.remove({probe})")
        elif op == "iter" and self.targets(INT):
            target, v = rng.choice(self.targets(INT)), self.fresh("e")
            # sorted(): a set's iteration order is the implementation's, not the language's
            self.emit(indent, f"for {v} in sorted({name}):")
            self.emit(indent + 1, f"{target} = ({target} * 7 + {v}) % 1000003")
        elif op == "update" and self.names(LIST_INT):
            self.emit(indent, f"{name}.update({rng.choice(self.names(LIST_INT))})")
        else:
            others = [n for n in self.targets(SET) if n != name]
            if not others:
                return self.emit(indent, f"{name}.add({self.int_value()})")
            target = rng.choice(others)
            op = rng.choice(("|", "&", "-", "^"))
            self.emit(indent, f"{target} = {name} {op} {{{self.int_value()}, {self.int_value()}}}")

    def stmt_strings(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        strs = self.targets(STR)
        roll = rng.random()
        if roll < 0.5 and strs:
            self.emit(indent, f"{rng.choice(strs)} = {self.str_value()}")
        elif roll < 0.7 and self.targets(INT):
            ch, target = self.fresh("c"), rng.choice(self.targets(INT))
            source = self.str_expr(1)
            self.emit(indent, f"for {ch} in {source}:")
            probe = rng.choice(STR_CONSTS[1:4])
            self.emit(indent + 1, f"if {ch} == {probe[0]!r} or {ch} < 'b':")
            self.emit(indent + 2, f"{target} = ({target} * 31 + ord({ch})) % 1000003")
        elif roll < 0.85 and strs:
            target = rng.choice(strs)
            parts = f"{self.str_expr(1)}.split({rng.choice((' ', 'a', ','))!r})"
            self.emit(indent, f"{target} = '|'.join({parts})[:24]")
        elif self.targets(BOOL):
            self.emit(indent, f"{rng.choice(self.targets(BOOL))} = {self.bool_leaf()}")
        else:
            self.assign_scalar(indent)

    def stmt_tuples(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        tuples = self.targets(TUPLE)
        ints, flts = self.targets(INT), self.targets(FLT)
        if not tuples or not ints or not flts:
            return self.assign_scalar(indent)
        name = rng.choice(tuples)
        roll = rng.random()
        if roll < 0.4:
            self.emit(indent, f"{name} = ({self.int_value()}, {self.flt_value()})")
        elif roll < 0.7:
            self.emit(indent, f"{rng.choice(ints)}, {rng.choice(flts)} = {name}")
        else:
            p, q = rng.sample(ints, 2) if len(ints) > 1 else (ints[0], ints[0])
            self.emit(indent, f"{p}, {q} = {q}, {p}")

    def stmt_arrays(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        kind = rng.choice((ARR_FLT, ARR_INT))
        names = self.mutable(kind)
        if not names:
            return self.assign_scalar(indent)
        name = rng.choice(names)
        value = self.flt_value if kind == ARR_FLT else self.int_value
        op = rng.choice(("setitem", "setitem", "slice_set", "negate", "scale", "new", "sort"))
        if op == "setitem":
            self.emit(indent, f"{name}[{self.index(name)}] = {value()}")
        elif op == "slice_set":
            i, j = rng.randint(0, 3), rng.randint(1, 6)
            self.emit(indent, f"{name}[{i}:{j}] = {value()}")
        elif op == "negate":
            self.emit(indent, f"{name} *= -1" + (".0" if kind == ARR_FLT else ""))
        elif op == "scale":
            if kind == ARR_FLT:
                self.emit(indent, f"{name}[:] = {name} * 0.5 + {self.flt_value(0)}")
                self.emit(indent, f"{name}[:] = np.minimum(np.maximum({name}, -1e9), 1e9)")
            else:
                self.emit(indent, f"{name}[:] = ({name} * 3 + {self.int_value(0)}) % 1009")
        elif op == "sort":
            self.emit(indent, f"{name}.sort()")
        else:
            others = [n for n in self.targets(ARR_FLT) if n != name]
            if not others:
                return self.emit(indent, f"{name}[{self.index(name)}] = {value()}")
            target = rng.choice(others)
            choices = (
                f"np.zeros({rng.randint(1, 6)})",
                f"np.arange({rng.randint(1, 6)}) * 0.5",
                f"{name} * 2.0" if kind == ARR_FLT else f"{name} * 0.25",
                f"np.sort({name}) + 1.0",
                f"{name}.copy() - {self.flt_value(0)}",
                f"np.abs({name}) + 0.0",
            )
            self.emit(indent, f"{target} = {rng.choice(choices)}")
            self.emit(indent, f"{target} = np.minimum(np.maximum({target}, -1e9), 1e9)")

    def stmt_mutate_while_iterating(self, indent: int, depth: int, loops: int) -> None:
        """Appending to or popping from a list while a for loop walks it (bounded)."""
        names = self.mutable(LIST_INT)
        if not names:
            return self.assign_scalar(indent)
        name, var = self.rng.choice(names), self.fresh("m")
        self.emit(indent, f"for {var} in {name}:")
        change = self.rng.choice(
            (
                f"{name}.append(({var} * 3 + 1) % 1009)",
                f"{name}.insert(0, {var} % 7)",
                f"{name}.pop()",
                f"{name}.pop(0)",
                f"del {name}[0]",
            )
        )
        if "append" in change or "insert" in change:
            self.emit(indent + 1, f"if len({name}) < 12:")
        else:
            self.emit(indent + 1, f"if len({name}) > 2 and {var} % 2 == 0:")
        self.emit(indent + 2, change)
        targets = self.targets(INT)
        if targets:
            target = self.rng.choice(targets)
            self.emit(indent + 1, f"{target} = ({target} * 3 + {var}) % 65521")

    def stmt_effects(self, indent: int, depth: int, loops: int) -> None:
        """Subscripts whose operands change the container they index: Python evaluates the
        right side, then the container and the index of a store; the left operand first."""
        names = self.mutable(LIST_INT)
        ints = self.targets(INT)
        if not names or not ints:
            return self.assign_scalar(indent)
        name = self.rng.choice(names)
        self.emit(indent, f"if len({name}) > 2:")
        roll = self.rng.random()
        if roll < 0.3:
            self.emit(indent + 1, f"{name}[{self.index(name)}] = {name}.pop()")
        elif roll < 0.5:
            self.emit(indent + 1, f"{name}[{name}.pop() % len({name})] = {self.int_value(0)}")
        elif roll < 0.7:
            target = self.rng.choice(ints)
            self.emit(indent + 1, f"{target} = {name}[{name}.pop() % len({name})]")
        else:
            target = self.rng.choice(ints)
            expr = f"{name}[len({name}) - 1] * 2 + {name}.pop()"
            self.emit(indent + 1, f"{target} = ({expr}) % 1000003")
