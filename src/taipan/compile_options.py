"""The options table of the decorators, read from the extension (its one declaration is
src/core/syntax/CompileOptions.def): which keywords each decorator accepts, which of them reach
the compiler, which enter the cache key and which taipan.config sets. No other module lists
option names.

Each ``Option`` row: ``name`` (the keyword), ``field`` (the compiler's CompileOptions field, None
for a keyword the Python side alone handles), ``type`` and ``default`` (a Python literal: the
value when not given), ``targets`` ('cpu', 'cuda': which code generators honour it),
``decorators`` (which accept it: 'jit', 'vectorize', 'cuda.jit', 'cuda.vectorize',
'cuda.guvectorize'), ``cache_key``, ``config`` (None, or ('override' or 'default', the
taipan.config attribute)), ``aliases`` (Numba's other names for it) and ``doc``."""

from collections import namedtuple

from taipan import _core

# (collections.namedtuple, not typing.NamedTuple: typing imports re, which import taipan avoids.)
Option = namedtuple(
    "Option",
    [
        "name",
        "field",
        "type",
        "default",
        "conversion",
        "targets",
        "decorators",
        "cache_key",
        "config",
        "aliases",
        "doc",
    ],
)

_ROWS = _core.compile_option_table()

# The decorators' keywords, by name, in the table's order.
OPTIONS = {
    row["name"]: Option(**{field: row[field] for field in Option._fields})
    for row in _ROWS
    if row["kind"] != "derived"
}
# CompileOptions fields no keyword names itself, by field: (the keyword they come from, doc).
DERIVED_FIELDS = {
    row["field"]: (row["name"], row["doc"]) for row in _ROWS if row["kind"] == "derived"
}
DECORATORS = ("jit", "vectorize", "cuda.jit", "cuda.vectorize", "cuda.guvectorize")

_ACCEPTED = {
    decorator: frozenset(
        name
        for option in OPTIONS.values()
        if decorator in option.decorators
        for name in (option.name, *option.aliases)
    )
    for decorator in DECORATORS
}
# Each keyword and alias to its row (the extension's conversion reads an alias as its keyword).
_BY_SPELLING = {
    name: option for option in OPTIONS.values() for name in (option.name, *option.aliases)
}
_COMPILED = {
    decorator: frozenset(
        name for name in _ACCEPTED[decorator] if _BY_SPELLING[name].field is not None
    )
    for decorator in DECORATORS
}
_OUTSIDE_KEY = frozenset(name for name, option in _BY_SPELLING.items() if not option.cache_key)
# (name, rule, taipan.config attribute) of the options taipan.config sets for CPU functions.
CONFIGURED = tuple(
    (option.name, *option.config)
    for option in OPTIONS.values()
    if option.config is not None and "cpu" in option.targets
)


def accepted(decorator):
    """The keywords ``decorator`` (one of DECORATORS) accepts."""
    return _ACCEPTED[decorator]


def compiled(decorator):
    """The keywords ``decorator`` accepts that reach the compiler (the others are its own)."""
    return _COMPILED[decorator]


def check_known(options, decorator):
    """Refuses a keyword ``decorator`` does not accept, as Numba does."""
    unknown = set(options) - _ACCEPTED[decorator]
    if unknown:
        raise KeyError(f"Unrecognized options: {sorted(unknown)}")


def cache_key_items(options):
    """The options that enter a code key (every one the table does not keep out), sorted."""
    return sorted(
        ((name, value) for name, value in options.items() if name not in _OUTSIDE_KEY), key=str
    )
