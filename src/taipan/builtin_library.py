"""Python builtins for compiled code written in Python: ``callable`` (decided from the type, as
Numba does), and ``iter``, ``map`` and ``filter`` (generators over the iterable, which ``next``,
``for``, ``list`` and the other consumers of generators advance); ``hash`` is taipan.hashing's,
``getattr`` and ``hasattr`` are typed by type inference (library/Introspection.cpp). Registered
with ``taipan.extending``'s ``overload`` and loaded the first time the resolver meets one of
these builtins (``extending._load_python_library``)."""

import builtins

from taipan.extending import overload

# ---------------------------------------------------------------------------------------------
# callable: decided by the argument's type when the function compiles (isinstance is typed by
# type inference itself, typing/Isinstance.h, so that it prunes branches).


@overload(builtins.callable)
def _callable(value):
    decided = value.kind_name == "Function"  # every kind of function, and builtin classes
    return lambda value: decided


# ---------------------------------------------------------------------------------------------
# iter(x): a generator yielding what `for item in x` gives (a generator is its own iterator).
# Generators are values in compiled code (docs/architecture.md, "Generators"), so the iterator
# can be stored, passed, advanced by next() (StopIteration at the end, as CPython raises it),
# and finished by a for loop or list(), each item read once.


def _iterate(iterable):
    yield from iterable


@overload(builtins.iter)
def _iter(iterable):
    if iterable.kind_name == "Generator":
        return lambda iterable: iterable
    return _iterate


# map(function, iterable) and filter(function, iterable): generators as well, so their results
# can be stored in variables, passed, advanced by next() and consumed once, as Python's are.


def _mapped(function, iterable):
    for item in iterable:
        yield function(item)


def _filtered(function, iterable):
    for item in iterable:
        if function(item):
            yield item


def _truthy(function, iterable):  # filter(None, iterable): the true items
    for item in iterable:
        if item:
            yield item


@overload(builtins.map)
def _map(function, iterable):
    return _mapped


@overload(builtins.filter)
def _filter(function, iterable):
    if function.kind_name == "NoneType":
        return _truthy
    return _filtered


# zip() of iterators outside a for loop (`list(zip(range(n), it))`): a generator taking one item
# of each iterable in turn and stopping at the first exhausted one, the items already taken from
# the others dropped, as CPython's zip does (`for item in it: break ... else: return` takes one
# item, leaving the iterator where it was). Other zips decline to taipan's own
# (library/BuiltinIterators.cpp: in step in for loops, tuples of tuples).

_zip_functions = {}


def _zip_text(count):
    lines = [f"def zip_generator({', '.join(f'iterable{i}' for i in range(count))}):"]
    lines += [f"    iterator{i} = iter(iterable{i})" for i in range(count)]
    lines.append("    while True:")
    for i in range(count):
        lines += [
            f"        for item{i} in iterator{i}:",
            "            break",
            "        else:",
            "            return",
        ]
    lines.append(f"        yield ({''.join(f'item{i}, ' for i in range(count))})")
    return "\n".join(lines) + "\n"


@overload(builtins.zip)
def _zip(*iterables):
    if not iterables or not any(t.kind_name == "Generator" for t in iterables):
        return None
    function = _zip_functions.get(len(iterables))
    if function is None:
        namespace = {}
        exec(_zip_text(len(iterables)), namespace)  # noqa: S102 - generated names only
        function = _zip_functions[len(iterables)] = namespace["zip_generator"]
    return function
