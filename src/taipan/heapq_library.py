"""The heapq module in compiled code: heapify, heappush, heappop, heapreplace, heappushpop,
nsmallest and nlargest over lists, as overloads compiled like any jitted function.

The heap algorithms are CPython's (the same sift-down and sift-up and the same comparisons, all
with ``<``), so a heap holds its items in the same places as CPython's would, NaN included
(but for one difference of objects and values: a tuple comparison in CPython takes the same NaN
object twice as equal, where two NaN values are not). As in
Numba, the heap is a list whose item type is known: heapify of a list built from ``[]`` alone is
a typing error; nsmallest and nlargest take a list, a uniform tuple or a 1-d array. Imported by taipan.extending the first time a
compiled function refers to a heapq function."""

import heapq

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable


def _require_list(heap, function):
    if not isinstance(heap, (types.List, types.ListType)):  # reflected or typed
        raise TypingError(f"heapq.{function}() takes a list as its heap, not {heap}")


# ---------------------------------------------------------------------------------------------
# The two sift operations (min-heap), as CPython's heapq module defines them.


@register_jitable
def _sift_toward_root(heap, start, position):
    """Moves heap[position] up toward ``start`` until its parent is not greater."""
    item = heap[position]
    while position > start:
        parent_position = (position - 1) >> 1
        parent = heap[parent_position]
        if item < parent:
            heap[position] = parent
            position = parent_position
            continue
        break
    heap[position] = item


@register_jitable
def _sift_to_leaf(heap, position):
    """Moves the smaller child up until a leaf is reached, puts heap[position]'s item there and
    sifts it back toward the root (Floyd's bottom-up variant, CPython's choice)."""
    end = len(heap)
    start = position
    item = heap[position]
    child = 2 * position + 1
    while child < end:
        right = child + 1
        if right < end and not heap[child] < heap[right]:
            child = right
        heap[position] = heap[child]
        position = child
        child = 2 * position + 1
    heap[position] = item
    _sift_toward_root(heap, start, position)


# ---------------------------------------------------------------------------------------------
# The heap functions.


@overload(heapq.heapify)
def _heapify(heap):
    _require_list(heap, "heapify")

    def implementation(heap):
        for position in range(len(heap) // 2 - 1, -1, -1):
            _sift_to_leaf(heap, position)

    return implementation


@overload(heapq.heappush)
def _heappush(heap, item):
    _require_list(heap, "heappush")

    def implementation(heap, item):
        heap.append(item)
        _sift_toward_root(heap, 0, len(heap) - 1)

    return implementation


@overload(heapq.heappop)
def _heappop(heap):
    _require_list(heap, "heappop")

    def implementation(heap):
        if len(heap) == 0:
            raise IndexError("index out of range")
        last = heap.pop()
        if len(heap) == 0:
            return last
        smallest = heap[0]
        heap[0] = last
        _sift_to_leaf(heap, 0)
        return smallest

    return implementation


@overload(heapq.heapreplace)
def _heapreplace(heap, item):
    _require_list(heap, "heapreplace")

    def implementation(heap, item):
        if len(heap) == 0:
            raise IndexError("index out of range")
        smallest = heap[0]
        heap[0] = item
        _sift_to_leaf(heap, 0)
        return smallest

    return implementation


@overload(heapq.heappushpop)
def _heappushpop(heap, item):
    _require_list(heap, "heappushpop")

    def implementation(heap, item):
        if len(heap) != 0 and heap[0] < item:
            smallest = heap[0]
            heap[0] = item
            _sift_to_leaf(heap, 0)
            return smallest
        return item

    return implementation


# ---------------------------------------------------------------------------------------------
# nsmallest and nlargest: CPython's algorithm without a key. The n best items so far sit in a
# heap of (item, order) pairs, held as two lists, with CPython's sift operations (a max-heap for
# nsmallest, a min-heap for nlargest); the order (the position in the input, negated for
# nlargest) breaks ties, so the result is sorted(iterable)[:n] (reversed for nlargest) with
# equal items in input order, which is what CPython returns. CPython ends by sorting the kept
# pairs with list.sort, whose result for unordered items (NaN) depends on its sort algorithm
# (and on the Python version); taipan sorts them by heap sort, so a NaN among the kept items is
# a ValueError rather than a different answer.


@register_jitable
def _pair_less(items, orders, i, j):
    """(items[i], orders[i]) < (items[j], orders[j]) as tuples compare: items by == first."""
    if items[i] == items[j]:
        return orders[i] < orders[j]
    return items[i] < items[j]


@register_jitable
def _pair_below(items, orders, i, j, max_heap):
    """Whether pair i belongs above pair j (nearer the root)."""
    return _pair_less(items, orders, j, i) if max_heap else _pair_less(items, orders, i, j)


@register_jitable
def _pair_move(items, orders, to, source):
    items[to] = items[source]
    orders[to] = orders[source]


@register_jitable
def _pair_sift_toward_root(items, orders, start, position, max_heap):
    """CPython's _siftdown (_siftdown_max) over pairs; the moving pair is held in locals, as
    CPython holds newitem."""
    item, order = items[position], orders[position]
    while position > start:
        parent = (position - 1) >> 1
        parent_item, parent_order = items[parent], orders[parent]
        if max_heap:
            moves = parent_item < item if parent_item != item else parent_order < order
        else:
            moves = item < parent_item if item != parent_item else order < parent_order
        if not moves:
            break
        _pair_move(items, orders, position, parent)
        position = parent
    items[position] = item
    orders[position] = order


@register_jitable
def _pair_sift_to_leaf(items, orders, position, end, max_heap):
    """CPython's _siftup (_siftup_max) over pairs[:end]: the better child moves up to a leaf,
    then the pair sifts back toward ``position``."""
    start = position
    item, order = items[position], orders[position]
    child = 2 * position + 1
    while child < end:
        right = child + 1
        if right < end and not _pair_below(items, orders, child, right, max_heap):
            child = right
        _pair_move(items, orders, position, child)
        position = child
        child = 2 * position + 1
    items[position] = item
    orders[position] = order
    _pair_sift_toward_root(items, orders, start, position, max_heap)


@register_jitable
def _check_ordered(items):
    for index in range(len(items)):
        if items[index] != items[index]:
            raise ValueError(
                "heapq.nsmallest/nlargest kept a NaN: CPython's order of such items depends on "
                "its list.sort, which taipan does not reproduce"
            )


@register_jitable
def _best(n, iterable, largest):
    """nsmallest(n, iterable), or nlargest with ``largest``, for 2 <= n, as CPython's."""
    size = len(iterable)
    n = min(n, size)
    items = _empty_list_of(iterable)
    items.extend(iterable[:n])
    orders = [0] * n
    for index in range(n):
        orders[index] = -index if largest else index
    max_heap = not largest
    for position in range(n // 2 - 1, -1, -1):
        _pair_sift_to_leaf(items, orders, position, n, max_heap)
    order = -n if largest else n
    for index in range(n, size):
        item = iterable[index]
        if (items[0] < item) if largest else (item < items[0]):
            items[0] = item
            orders[0] = order
            _pair_sift_to_leaf(items, orders, 0, n, max_heap)
            order += -1 if largest else 1
    _check_ordered(items)
    # Heap sort: the root is the worst kept pair; moving it behind the heap leaves them best
    # first.
    for end in range(n - 1, 0, -1):
        items[0], items[end] = items[end], items[0]
        orders[0], orders[end] = orders[end], orders[0]
        _pair_sift_to_leaf(items, orders, 0, end, max_heap)
    return items


@register_jitable
def _empty_list_of(iterable):
    """An empty (reflected) list of the items of ``iterable``, a reflected or typed list: the
    results are lists either way, as ``sorted`` gives them."""
    return [iterable[i] for i in range(0)]


@register_jitable
def _best_one(iterable, largest):
    """[min(iterable)] or [max(iterable)] (the first of equal ones), [] when empty."""
    result = _empty_list_of(iterable)
    if len(iterable) != 0:
        best = iterable[0]
        for index in range(1, len(iterable)):
            item = iterable[index]
            if (best < item) if largest else (item < best):
                best = item
        result.append(best)
    return result


@register_jitable
def _sorted_all(iterable, largest):
    """sorted(iterable) or sorted(iterable, reverse=True): a stable sort of the reversed list,
    reversed back, keeps equal items in input order as CPython's reverse=True does."""
    _check_ordered(iterable)
    if not largest:
        return sorted(iterable)
    ordered = sorted(iterable[::-1])  # noqa: C415 - the order of equal items (0.0, -0.0) counts
    ordered.reverse()
    return ordered


def _implementation(largest, sortable):
    def implementation(n, iterable):
        if n <= 0:
            return _empty_list_of(iterable)
        if n == 1:
            return _best_one(iterable, largest)
        if sortable and n >= len(iterable):
            return _sorted_all(iterable, largest)
        return _best(n, iterable, largest)

    return implementation


@register_jitable
def _list_of(items):
    """A list of a uniform tuple's items."""
    result = [items[0]]
    result.pop()
    for item in items:
        result.append(item)  # noqa: PERF402 - list(tuple) is not compiled yet
    return result


@register_jitable
def _list_of_array(items):
    """A list of a 1-d array's items."""
    return [items[i] for i in range(len(items))]


def _best_of(iterable, largest, function):
    """The implementation for a list, or for a uniform tuple or a 1-d array through a list of
    its items (as CPython takes any iterable; Numba takes lists, tuples and arrays)."""
    array = isinstance(iterable, types.Array) and iterable.ndim == 1
    if isinstance(iterable, types.UniTuple) or array:
        of_list = _implementation(largest, not isinstance(iterable.dtype, types.BaseTuple))
        jitted = register_jitable(of_list)
        items_of = _list_of_array if array else _list_of

        def of_items(n, iterable):
            return jitted(n, items_of(iterable))

        return of_items
    if not isinstance(iterable, (types.List, types.ListType)):
        raise TypingError(
            f"heapq.{function}() takes a list, a uniform tuple or a 1-d array, not {iterable}"
        )
    return _implementation(largest, not isinstance(iterable.dtype, types.BaseTuple))


@overload(heapq.nsmallest)
def _nsmallest(n, iterable):
    return _best_of(iterable, False, "nsmallest")


@overload(heapq.nlargest)
def _nlargest(n, iterable):
    return _best_of(iterable, True, "nlargest")
