"""The fuzzer's feature families beyond plain statements: comprehensions, generators, closures
and helper functions, exceptions, ``prange`` loops, and Numba's documented deviations (each
marked with a ``# deviation:`` comment naming its entry of ``deviations.KNOWN_DEVIATIONS``)."""

from __future__ import annotations

from tools.fuzz.deviations import KNOWN_DEVIATIONS
from tools.fuzz.expressions import (
    DICT,
    FLT,
    INT,
    INT_INV,
    LIST_FLT,
    LIST_INT,
    SET,
)
from tools.fuzz.statements import EXCEPTION_CLASSES, StatementGenerator


class FamilyGenerator(StatementGenerator):
    def scoped(self, scope: dict[str, str], loop_ints=(), make=None):
        """``make()`` with only ``scope`` (and ``loop_ints``) visible: bodies of closures,
        helper functions and prange loops read nothing else."""
        saved = self.vars, self.loop_ints, self.loop_flts, self.extra_int_leaves
        self.vars, self.loop_ints, self.loop_flts = dict(scope), list(loop_ints), []
        self.extra_int_leaves = []
        try:
            return make()
        finally:
            self.vars, self.loop_ints, self.loop_flts, self.extra_int_leaves = saved

    # -- comprehensions --------------------------------------------------------------------
    def stmt_comprehensions(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        var = self.fresh("q")
        lists = self.names(LIST_INT)
        if lists and rng.random() < 0.5:
            source, bound = rng.choice(lists), INT_INV
        else:
            k = rng.randint(1, 8)
            source, bound = f"range({k})", k
        self.loop_ints.append((var, bound))
        element = self.int_value(rng.randint(0, 2))
        condition = self.bool_expr(1)
        self.loop_ints.pop()
        ints = self.targets(INT)
        kind = rng.choice(("list", "filtered", "set", "dict", "genexp", "float_list"))
        if kind == "list" and self.targets(LIST_INT):
            target = rng.choice(self.targets(LIST_INT))
            # unfiltered over a non-empty source: the list stays non-empty
            if source.startswith("range"):
                self.emit(indent, f"{target} = [{element} for {var} in {source}]")
            else:
                self.emit(indent, f"{target} = [{element} for {var} in {source}] + [0]")
        elif kind == "float_list" and self.targets(LIST_FLT):
            target = rng.choice(self.targets(LIST_FLT))
            self.emit(indent, f"{target} = [float({element}) * 0.5 for {var} in {source}] + [1.5]")
        elif kind == "set" and self.targets(SET):
            target = rng.choice(self.targets(SET))
            self.emit(indent, f"{target} = {{{element} for {var} in {source} if {condition}}}")
        elif kind == "dict" and self.targets(DICT):
            target = rng.choice(self.targets(DICT))
            key = f"{var} % {rng.randint(2, 9)}"
            self.emit(indent, f"{target} = {{{key}: {element} for {var} in {source}}}")
        elif kind == "genexp" and ints:
            self.emit(
                indent,
                f"{rng.choice(ints)} = sum({element} for {var} in {source} if {condition}) % 65521",
            )
        elif ints:
            comp = f"[{element} for {var} in {source} if {condition}]"
            self.emit(indent, f"{rng.choice(ints)} = (len({comp}) + sum({comp})) % 1000003")
        else:
            self.assign_scalar(indent)

    # -- generators ------------------------------------------------------------------------
    def define_generator(self) -> str:
        rng = self.rng
        name = f"gen{len(self.helpers)}"
        scope = {"n": INT, "m": INT}
        body = self.scoped(scope, [("i", 16)], lambda: self.int_value(2))
        if rng.random() < 0.5:
            text = (
                f"def {name}(n, m):\n"
                f"    for i in range(n % 16):\n"
                f"        if i % {rng.randint(1, 3)} == 0:\n"
                f"            yield {body}\n"
            )
        else:
            text = (
                f"def {name}(n, m):\n"
                f"    i = 0\n"
                f"    while i < n % 16:\n"
                f"        yield {body}\n"
                f"        i += 1\n"
                f"    yield -1\n"
            )
        self.helpers.append(text)
        return name

    def stmt_generators(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        ints = self.targets(INT)
        if not ints:
            return self.assign_scalar(indent)
        name = self.define_generator()
        call = f"{name}({self.int_value()}, {self.int_value()})"
        target = rng.choice(ints)
        roll = rng.random()
        if roll < 0.5:
            var = self.fresh("y")
            self.emit(indent, f"for {var} in {call}:")
            self.emit(indent + 1, f"{target} = ({target} * 5 + {var}) % 1000003")
        elif roll < 0.75 and self.targets(LIST_INT):
            self.emit(indent, f"{rng.choice(self.targets(LIST_INT))} = list({call}) + [0]")
        else:
            self.emit(indent, f"{target} = sum({call}) % 1000003")

    # -- closures and helper functions -----------------------------------------------------
    def stmt_closures(self, indent: int, depth: int, loops: int) -> None:
        """An inner function or lambda reading its arguments and the never-assigned
        parameters ``a`` and ``x`` (the closure's free variables), or a module-level helper
        (recursive or not), then calls of it from expressions that follow."""
        rng = self.rng
        scope = {"v": INT, "w": INT, "a": INT, "x": FLT}
        body, bound = self.scoped(scope, (), lambda: self.int_expr(2, INT_INV))
        roll = rng.random()
        if roll < 0.4:
            name = self.fresh("inner")
            self.emit(indent, f"def {name}(v, w):")
            if rng.random() < 0.5:
                self.emit(indent + 1, "if v > w:")
                self.emit(indent + 2, f"return {body}")
                other, other_bound = self.scoped(scope, (), lambda: self.int_expr(1, INT_INV))
                self.emit(indent + 1, f"return {other}")
                bound = max(bound, other_bound)
            else:
                self.emit(indent + 1, f"return {body}")
            arity = 2
        elif roll < 0.7:
            name = self.fresh("lam")
            self.emit(indent, f"{name} = lambda v, w: {body}")
            arity = 2
        elif roll < 0.85:
            name = f"helper{len(self.helpers)}"
            helper_body, bound = self.scoped(
                {"v": INT, "w": INT}, (), lambda: self.int_expr(2, INT_INV)
            )
            self.helpers.append(f"def {name}(v, w):\n    return {helper_body}\n")
            arity = 2
        else:
            name = f"rec{len(self.helpers)}"
            self.helpers.append(
                f"def {name}(v):\n"
                f"    if v <= 0:\n"
                f"        return {rng.randint(0, 3)}\n"
                f"    return ({name}(v - {rng.choice((1, 2))}) * {rng.randint(1, 3)} + v) % 1009\n"
            )
            arity, bound = 1, 1008

        def call(name=name, arity=arity, bound=bound):
            args = ", ".join(f"({self.int_leaf_simple()}) % 20" for _ in range(arity))
            return f"{name}({args})", bound

        # only where the definition is in scope: after it, at this indent or deeper
        if indent == 1:
            self.extra_int_leaves.append(call)
        ints = self.targets(INT)
        if ints:
            text, _ = call()
            self.emit(indent, f"{rng.choice(ints)} = {text} % 65521")

    # -- exceptions ------------------------------------------------------------------------
    def raising_statement(self, indent: int) -> None:
        """A statement that raises for some inputs (or always)."""
        rng = self.rng
        ints, flts = self.targets(INT), self.targets(FLT)
        options = ["raise", "zerodiv", "assert"]
        if self.names(LIST_INT):
            options += ["index", "list_index"]
        if self.names(DICT):
            options.append("key")
        if self.mutable(SET):
            options.append("set_remove")
        if flts:
            options.append("float_zerodiv")
        if not ints:
            options = ["raise", "assert"]
        option = rng.choice(options)
        target = rng.choice(ints) if ints else ""
        small = self.int_leaf_simple
        if option == "raise":
            cls = rng.choice(EXCEPTION_CLASSES[:4])
            self.emit(indent, f"if {self.bool_expr(1)}:")
            self.emit(indent + 1, f"raise {cls}({rng.choice(('', repr('bad')))})")
        elif option == "zerodiv":
            self.emit(indent, f"{target} = {self.int_value()} // (int({small()}) % 3)")
        elif option == "float_zerodiv":
            self.emit(
                indent, f"{rng.choice(flts)} = {self.flt_value(1)} / float(int({small()}) % 2)"
            )
        elif option == "assert":
            self.emit(indent, f"assert {self.bool_expr(1)}")
        elif option == "index":
            name = rng.choice(self.names(LIST_INT))
            self.emit(indent, f"{target} = {name}[{small()}]")
        elif option == "list_index":
            name = rng.choice(self.names(LIST_INT))
            self.emit(indent, f"{target} = {name}.index({small()})")
        elif option == "key":
            name = rng.choice(self.names(DICT))
            self.emit(indent, f"{target} = {name}[{small()}]")
        else:
            name = rng.choice(self.mutable(SET))
            self.emit(indent, f"{name}.remove({small()})")

    def stmt_exceptions(self, indent: int, depth: int, loops: int) -> None:
        rng = self.rng
        if not self.targets(INT) or depth >= 2 or self.budget <= 0 or rng.random() < 0.15:
            # escaping: the function raises what CPython raises
            return self.raising_statement(indent)
        self.emit(indent, "try:")
        self.block(indent + 1, depth + 1, loops, rng.randint(0, 1))
        self.raising_statement(indent + 1)
        self.block(indent + 1, depth + 1, loops, rng.randint(0, 1))
        for cls in rng.sample(EXCEPTION_CLASSES, rng.choice((1, 1, 2))):
            if rng.random() < 0.3 and "except_as" in self.features:
                self.emit(indent, f"except {cls} as err:")
            else:
                self.emit(indent, f"except {cls}:")
            self.block(indent + 1, depth + 1, loops, rng.randint(1, 2))
        if rng.random() < 0.2:
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, loops, 1)
        if rng.random() < 0.15 and "finally" in self.features:
            self.emit(indent, "finally:")
            self.block(indent + 1, depth + 1, loops, 1)

    # -- prange ----------------------------------------------------------------------------
    def stmt_prange(self, indent: int, depth: int, loops: int) -> None:
        """A parallel loop whose body reads only its index and ``a``/``x``: int reductions,
        float reductions of exactly representable integers (so any order sums alike), or
        stores of one item per iteration."""
        rng = self.rng
        ints, flts = self.targets(INT), self.targets(FLT)
        if not ints or not flts:
            return self.assign_scalar(indent)
        self.parallel = True
        var = self.fresh("p")
        n = rng.randint(0, 40)
        scope = {"a": INT, "x": FLT}
        kind = rng.choice(("isum", "fsum", "store", "minmax"))
        acc = self.fresh("acc")
        if kind == "isum":
            body = self.scoped(scope, [(var, n)], lambda: self.int_value(2))
            self.emit(indent, f"{acc} = 0")
            self.emit(indent, f"for {var} in prange({n}):")
            self.emit(indent + 1, f"{acc} += {body}")
            self.emit(indent, f"{rng.choice(ints)} = {acc} % 1000003")
        elif kind == "fsum":
            body = self.scoped(scope, [(var, n)], lambda: self.int_value(2))
            self.emit(indent, f"{acc} = 0.0")
            self.emit(indent, f"for {var} in prange({n}):")
            self.emit(indent + 1, f"{acc} += float({body})")
            self.emit(indent, f"{rng.choice(flts)} = {acc}")
        elif kind == "minmax":
            body = self.scoped(scope, [(var, n)], lambda: self.int_value(2))
            fn = rng.choice(("min", "max"))
            self.emit(indent, f"{acc} = {rng.randint(-5, 5)}")
            self.emit(indent, f"for {var} in prange({n}):")
            self.emit(indent + 1, f"{acc} = {fn}({acc}, {body})")
            self.emit(indent, f"{rng.choice(ints)} = {acc}")
        else:
            body = self.scoped(scope, [(var, n)], lambda: self.flt_value(2))
            self.emit(indent, f"{acc} = np.zeros({n + 1})")
            self.emit(indent, f"for {var} in prange({n}):")
            self.emit(indent + 1, f"{acc}[{var}] = {body}")
            self.emit(indent, f"{rng.choice(flts)} = float(np.sum(np.floor({acc}) + 0.0)) % 997.0")

    # -- Numba's documented deviations -----------------------------------------------------
    def stmt_deviations(self, indent: int, depth: int, loops: int) -> None:
        """One statement whose CPython meaning Numba documents as different; the marker names
        the deviation and the neutral right side that replaces it when checking the rest."""
        rng = self.rng
        name = self.fresh("dv")
        small = self.int_leaf_simple
        kind = rng.choice(sorted(KNOWN_DEVIATIONS))
        if kind == "int_overflow_wraps":
            # a variable operand: a constant product is folded, and refused as too large
            expr = f"(abs({self.pick(INT)}) % 7 + 3) * {rng.choice((2**62, 2**63 - 1, 3 * 2**61))}"
            neutral = "0"
        elif kind == "int_pow_negative":
            expr = f"(abs({small()}) % 5 + 2) ** -(abs({small()}) % 3 + 1)"
            neutral = "0"
        else:
            fn = rng.choice(("sqrt", "log", "acos", "asin", "log10"))
            arg = {"sqrt": "-1.0 - abs(y)", "log": "-abs(y)", "acos": "2.0 + abs(y)"}
            expr = f"math.{fn}({arg.get(fn, '-1.5 - abs(y)')})"
            neutral = "0.0"
        self.emit(indent, f"{name} = {expr}  # deviation: {kind} | {neutral}")
        self.deviation_vars.append((name, neutral))  # initialised at the top

    # -- locals a path leaves unassigned -----------------------------------------------------
    def unbound_locals_section(self, side_rng) -> None:
        """Locals assigned on some paths only (an ``if``, a loop that may run no iteration or
        break first, a try body that may raise before), then read: CPython raises
        UnboundLocalError (NameError from a comprehension's scope) where the path skipped every
        assignment, and compiled code must too, never a stale value. Drawn from ``side_rng``, so
        the rest of the program is the same with the feature on or off."""
        saved = self.rng
        self.rng = side_rng
        try:
            for _ in range(side_rng.randint(1, 3)):
                self.maybe_unassigned(1)
        finally:
            self.rng = saved

    def maybe_unassigned(self, indent: int) -> None:
        rng = self.rng
        kind = rng.choice((INT, FLT))
        targets = self.targets(kind)
        if not targets:
            return
        name = self.fresh("u")
        value = self.int_value if kind == INT else self.flt_value
        shape = rng.choice(("if", "elif", "for", "while", "try", "break"))
        if shape == "if":
            self.emit(indent, f"if {self.bool_expr(1)}:")
            self.emit(indent + 1, f"{name} = {value()}")
        elif shape == "elif":  # the else branch assigns, the elif does not
            self.emit(indent, f"if {self.bool_expr(1)}:")
            self.emit(indent + 1, f"{name} = {value()}")
            self.emit(indent, f"elif {self.bool_expr(1)}:")
            self.emit(indent + 1, "pass")
            self.emit(indent, "else:")
            self.emit(indent + 1, f"{name} = {value()}")
        elif shape == "for":
            count = rng.choice(("0", "1", "3", "(b % 3)", "len(str(a)) - 2"))
            self.emit(indent, f"for {self.fresh('k')} in range({count}):")
            self.emit(indent + 1, f"if {self.bool_expr(1)}:")
            self.emit(indent + 2, f"{name} = {value()}")
        elif shape == "while":
            counter = self.fresh("c")
            self.emit(indent, f"{counter} = {rng.randint(0, 3)}")
            self.emit(indent, f"while {counter} > 0:")
            self.emit(indent + 1, f"{counter} -= 1")
            self.emit(indent + 1, f"if {self.bool_expr(1)}:")
            self.emit(indent + 2, "continue")
            self.emit(indent + 1, f"{name} = {value()}")
        elif shape == "try":
            self.emit(indent, "try:")
            self.emit(indent + 1, f"if {self.bool_expr(1)}:")
            self.emit(indent + 2, 'raise ValueError("skipped")')
            self.emit(indent + 1, f"{name} = {value()}")
            self.emit(indent, "except ValueError:")
            self.emit(indent + 1, "pass")
        else:
            self.emit(indent, f"for {self.fresh('k')} in range({rng.randint(0, 4)}):")
            self.emit(indent + 1, f"if {self.bool_expr(1)}:")
            self.emit(indent + 2, "break")
            self.emit(indent + 1, f"{name} = {value()}")
        target = rng.choice(targets)
        if kind == INT:
            combined = f"({target} + {name}) % 1000003"
            listed = f"({target} + sum([{name} for _ in range(2)])) % 1000003"
        else:
            combined = f"min(max({target} + {name}, -1e9), 1e9)"
            listed = f"min(max({target} + sum([{name} for _ in range(2)]), -1e9), 1e9)"
        read = rng.choice(("plain", "conditional", "caught", "comprehension", "expression"))
        if read == "plain":
            self.emit(indent, f"{target} = {combined}")
        elif read == "conditional":
            self.emit(indent, f"if {self.bool_expr(1)}:")
            self.emit(indent + 1, f"{target} = {combined}")
        elif read == "caught":
            self.emit(indent, "try:")
            self.emit(indent + 1, f"{target} = {combined}")
            self.emit(indent, f"except {rng.choice(('NameError', 'UnboundLocalError'))}:")
            self.emit(indent + 1, f"{target} = {value()}")
        elif read == "comprehension":
            self.emit(indent, f"{target} = {listed}")
        else:  # read only when the condition holds
            self.emit(indent, f"{target} = {combined} if {self.bool_expr(1)} else {target}")
