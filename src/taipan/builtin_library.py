"""Python builtins for compiled code written in Python: ``callable`` (decided from the type, as
Numba does), and ``iter``, ``map`` and ``filter`` (generators over the iterable, which ``next``,
``for``, ``list`` and the other consumers of generators advance); ``hash`` is taipan.hashing's,
``getattr`` and ``hasattr`` are typed by type inference (library/Introspection.cpp). The forms of
``min``, ``max``, ``sorted`` and ``list.sort`` that compare arbitrary items or take ``key=`` or
``default=`` (their forms over numbers stay the C++ library's, library/Builtins.cpp and
Lists.cpp), and ``reversed``. Registered with ``taipan.extending``'s ``overload`` and loaded the
first time the resolver meets one of these builtins (``extending._load_python_library``)."""

import builtins

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable

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


# zip() outside a for loop's header (`list(zip(a, it))`, `enumerate(zip(a, b))`): a generator
# taking one item of each iterable in turn and stopping at the first exhausted one, the items
# already taken from the others dropped, as CPython's zip does (`for item in it: break ...
# else: return` takes one item, leaving the iterator where it was). A for loop iterating zip()
# or enumerate() walks the arguments in step instead, and zip() of tuples only builds the tuple
# of tuples (library/BuiltinIterators.cpp).

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
    if all(t.kind_name in ("Tuple", "LiteralList") for t in iterables):
        return None
    function = _zip_functions.get(len(iterables))
    if function is None:
        namespace = {}
        exec(_zip_text(len(iterables)), namespace)  # noqa: S102 - generated names only
        function = _zip_functions[len(iterables)] = namespace["zip_generator"]
    return function


# enumerate() outside a for loop's header (`list(enumerate(a))`): a generator of (count, item).


def _enumerated(iterable, start=0):
    count = start
    for item in iterable:
        yield (count, item)
        count += 1


@overload(builtins.enumerate)
def _enumerate(iterable, start=None):
    if iterable.kind_name in ("Tuple", "LiteralList"):
        return None  # the tuple of (count, item) tuples (library/BuiltinIterators.cpp)
    if start is not None and start.kind_name not in ("Integer", "Boolean"):
        return None
    return _enumerated


# ---------------------------------------------------------------------------------------------
# What typing functions read off argument types.

_REAL_KINDS = ("Integer", "Float", "Boolean")


def _is_real(t):
    return t.kind_name in _REAL_KINDS


def _passed(t):
    """Whether an optional argument was passed as something other than None."""
    return t is not None and t.kind_name != "NoneType"


def _item_type(t):
    """The type of the items ``for item in t`` gives, where compiling knows it, else None."""
    kind = t.kind_name
    if kind in ("List", "ListType", "Generator"):
        return t.dtype
    if kind == "Array":
        return t.dtype if t.ndim == 1 else None
    if kind == "Range":
        return types.int64
    if kind == "Tuple":
        elements = t.types
        return elements[0] if elements and all(e == elements[0] for e in elements) else None
    if kind in ("Set", "DictType"):
        return t.key_type
    if kind == "UnicodeType":
        return t
    return None


# ---------------------------------------------------------------------------------------------
# min() and max() of any comparable items, with key= and default=, as CPython's min_max: the
# first item is kept until one compares strictly better (`<` for min, `>` for max), so ties
# keep the first and NaN behaves as in CPython. Of numbers without key= or default= (several
# numbers, a tuple of them, a range, a generator of them) they decline to taipan's own
# (library/Builtins.cpp).


def _empty_message(function):
    """CPython's message for an empty iterable without default (it changed in 3.12)."""
    try:
        function([])
    except ValueError as error:
        return str(error)
    return f"{function.__name__}() arg is an empty sequence"


def _make_extremes(is_max, empty_message):
    """The implementations of min (is_max False) or max: of one iterable, of one iterable with a
    default, and of several arguments."""

    def of_iterable(iterable, key=None):
        found = False
        for item in iterable:
            if key is None:
                value = item
            else:
                value = key(item)
            if not found:
                best = item
                best_value = value
                found = True
            elif is_max:
                if value > best_value:
                    best = item
                    best_value = value
            elif value < best_value:
                best = item
                best_value = value
        if not found:
            raise ValueError(empty_message)
        return best

    def of_iterable_or_default(iterable, key=None, default=None):
        found = False
        for item in iterable:
            if key is None:
                value = item
            else:
                value = key(item)
            if not found:
                best = item
                best_value = value
                found = True
            elif is_max:
                if value > best_value:
                    best = item
                    best_value = value
            elif value < best_value:
                best = item
                best_value = value
        if not found:
            return default
        return best

    def of_arguments(*arguments, key=None):
        found = False
        for item in arguments:
            if key is None:
                value = item
            else:
                value = key(item)
            if not found:
                best = item
                best_value = value
                found = True
            elif is_max:
                if value > best_value:
                    best = item
                    best_value = value
            elif value < best_value:
                best = item
                best_value = value
        return best

    return of_iterable, of_iterable_or_default, of_arguments


def _native_extreme(iterable):
    """Whether taipan's C++ min/max takes this single argument (without key= or default=)."""
    kind = iterable.kind_name
    if kind == "Tuple":
        return iterable.count > 0 and all(_is_real(t) for t in iterable.types)
    if kind == "Generator":
        return iterable.dtype is not None and _is_real(iterable.dtype)
    return kind == "Range"


def _check_default(name, iterable, default):
    # Compiled code gives one result type: a default of another kind of number than the items
    # would change the type of whichever value is returned (CPython returns each as it is).
    item = _item_type(iterable)
    if default.kind_name == "NoneType" or item is None or default == item:
        return
    if _is_real(default) and default.kind_name == item.kind_name:
        return
    raise TypingError(
        f"{name}() with a default of type {default} over items of type {item} is not supported: "
        "the result would have one type for both, which changes the value returned; give a "
        "default of the items' type (or None)"
    )


def _extreme_typer(name, is_max):
    of_iterable, of_iterable_or_default, of_arguments = _make_extremes(
        is_max, _empty_message(getattr(builtins, name))
    )

    def typer(*args, key=None, default=None):
        if len(args) > 1:
            if default is not None:
                raise TypingError(
                    f"Cannot specify a default for {name}() with multiple positional arguments"
                )
            if key is None and all(_is_real(t) for t in args):
                return None
            return of_arguments
        if len(args) != 1:
            return None
        if default is not None:
            _check_default(name, args[0], default)
            return of_iterable_or_default
        if key is None and _native_extreme(args[0]):
            return None
        return of_iterable

    return typer


overload(builtins.min)(_extreme_typer("min", False))
overload(builtins.max)(_extreme_typer("max", True))


# ---------------------------------------------------------------------------------------------
# sorted() and list.sort() with key=, or of items other than numbers (tuples, strings): a
# stable merge sort comparing with `<` only, as CPython's sort does; reverse=True keeps equal
# items in their order (taipan_list_sort's rule for numbers). The keys are computed once, before
# any item moves (as CPython computes them), so a key that raises leaves a list unchanged.


def _sorts_natively(item):
    return _is_real(item) and not (item.kind_name == "Float" and item.bitwidth == 16)


@register_jitable
def _sorted_order(keys, reverse):
    """The positions of ``keys`` in stable sorted order (bottom-up merge sort)."""
    count = len(keys)
    order = [i for i in range(count)]
    spare = order.copy()
    width = 1
    while width < count:
        start = 0
        while start < count:
            middle = min(start + width, count)
            end = min(start + 2 * width, count)
            left = start
            right = middle
            out = start
            while left < middle and right < end:
                if reverse:
                    take_right = keys[order[left]] < keys[order[right]]
                else:
                    take_right = keys[order[right]] < keys[order[left]]
                if take_right:
                    spare[out] = order[right]
                    right += 1
                else:
                    spare[out] = order[left]
                    left += 1
                out += 1
            while left < middle:
                spare[out] = order[left]
                left += 1
                out += 1
            while right < end:
                spare[out] = order[right]
                right += 1
                out += 1
            start = end
        order, spare = spare, order
        width *= 2
    return order


@register_jitable
def _sorted_items(items, key, reverse):
    """A new list of ``items`` in sorted order."""
    if key is None:
        order = _sorted_order(items, reverse)
    else:
        order = _sorted_order([key(item) for item in items], reverse)
    return [items[i] for i in order]


def _sorted_list(iterable, key=None, reverse=False):
    return _sorted_items([item for item in iterable], key, reverse)


def _sort_list(items, key=None, reverse=False):
    ordered = _sorted_items(items, key, reverse)
    for i in range(len(ordered)):
        items[i] = ordered[i]


def _takes_reverse(reverse):
    return reverse is None or reverse.kind_name in ("Integer", "Boolean")


@overload(builtins.sorted)
def _sorted(iterable, *, key=None, reverse=None):
    item = _item_type(iterable)
    if not _passed(key) and (item is None or _sorts_natively(item)):
        return None  # taipan's sort of numbers (library/Lists.cpp)
    if not _takes_reverse(reverse):
        return None
    return _sorted_list


def _list_sort(items, *, key=None, reverse=None):
    item = items.dtype
    if not _passed(key) and (item is None or _sorts_natively(item)):
        return None  # taipan's sort of numbers (library/Lists.cpp)
    if not _takes_reverse(reverse):
        return None
    return _sort_list


overload_method(types.List, "sort")(_list_sort)
overload_method(types.ListType, "sort")(_list_sort)


_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1

# ---------------------------------------------------------------------------------------------
# reversed(): a range of the same items backwards; for lists, strings, uniform tuples and arrays
# a generator reading from the last index down, which stops, as CPython's reversed iterator
# does, once the index is past the end of a list that shrank meanwhile.


def _reversed_range(sequence):
    start = sequence.start
    step = sequence.step
    count = len(sequence)
    # The reversed range ends just past `start`, which must be an int64 (CPython's ints never
    # wrap): refused only for a start at the limit itself. Loops over ranges never step past
    # their stop (lowerFor), so a stop one item away from the limit is safe.
    if count > 0 and ((step > 0 and start == _INT64_MIN) or (step < 0 and start == _INT64_MAX)):
        raise OverflowError("reversed() of a range whose first item is an int64 limit")
    # -step is no int64 for a step of -2**63; one item (or none) needs no particular step.
    if step == _INT64_MIN and count > 1:
        raise OverflowError("reversed() of a range stepping by -2**63")
    back = -step if step != _INT64_MIN else 1
    stop = start - 1 if step > 0 else start + 1
    first = start + (count - 1) * step if count > 0 else stop
    return range(first, stop, back)


def _reversed_sequence(sequence):
    index = len(sequence) - 1
    while index >= 0 and index < len(sequence):
        yield sequence[index]
        index -= 1


@overload(builtins.reversed)
def _reversed(sequence):
    kind = sequence.kind_name
    if kind == "Range":
        return _reversed_range
    if kind in ("List", "ListType", "UnicodeType") or (kind == "Array" and sequence.ndim >= 1):
        return _reversed_sequence
    if kind == "Tuple" and _item_type(sequence) is not None:
        return _reversed_sequence
    return None
