"""The options table (src/core/syntax/CompileOptions.def, read through taipan.compile_options):
every keyword a decorator accepts is a row of it and every other keyword is refused; its
defaults are what compiled functions see; the C++ struct, the Python rows, the job hash and the
code key agree; taipan.config sets what its config column says; and options are never written
during a compile (fancy indexing checks bounds whatever boundscheck says)."""

import ast
import re
import types

import numpy as np
import pytest

import taipan
from taipan import _core, caching, compile_options, config, cuda, int64
from taipan.cuda.api import ufuncs as cuda_ufronts
from taipan.frontend import read_function
from taipan.runtime import live_blocks

OPTIONS = compile_options.OPTIONS


def scalar(x):
    return x + 1


def default_of(option):
    return ast.literal_eval(option.default)


# --- every keyword a decorator accepts is in the table, and only those ----------------------


def accept_jit(options):
    taipan.jit(**options)


def accept_vectorize(options):
    taipan.vectorize(**options)(scalar)


def accept_cuda_jit(options):
    cuda.jit(**options)


def refuse_cuda_vectorize(options):
    taipan.vectorize(["float64(float64)"], **dict(options, target="cuda"))(scalar)


def refuse_cuda_guvectorize(options):
    def add_one(values, out):
        for i in range(values.shape[0]):
            out[i] = values[i] + 1

    taipan.guvectorize(
        ["void(float64[:], float64[:])"], "(n)->(n)", **dict(options, target="cuda")
    )(add_one)


# How each decorator is given keywords: (check a keyword it accepts, check one it refuses).
# CUDA ufuncs compile their kernel at once, so their accepting front is called directly.
DECORATORS = {
    "jit": (accept_jit, accept_jit),
    "vectorize": (accept_vectorize, accept_vectorize),
    "cuda.jit": (accept_cuda_jit, accept_cuda_jit),
    "cuda.vectorize": (lambda o: cuda_ufronts._options(o, gufunc=False), refuse_cuda_vectorize),
    "cuda.guvectorize": (lambda o: cuda_ufronts._options(o, gufunc=True), refuse_cuda_guvectorize),
}


def test_each_keyword_and_alias_is_declared_once():
    rows = [row for row in _core.compile_option_table() if row["kind"] != "derived"]
    spellings = [name for row in rows for name in (row["name"], *row["aliases"])]
    assert (
        len(spellings) == len(set(spellings)) == sum(1 + len(o.aliases) for o in OPTIONS.values())
    )
    fields = [row["field"] for row in _core.compile_option_table() if row["field"]]
    assert len(fields) == len(set(fields))


def test_the_decorators_of_the_table_are_those_tested():
    assert set(DECORATORS) == set(compile_options.DECORATORS)
    for option in OPTIONS.values():
        assert set(option.decorators) <= set(compile_options.DECORATORS), option.name
        assert set(option.targets) <= {"cpu", "cuda"}, option.name


@pytest.mark.parametrize("decorator", sorted(DECORATORS))
def test_a_decorator_accepts_exactly_the_keywords_the_table_gives_it(decorator):
    accept, refuse = DECORATORS[decorator]
    for option in OPTIONS.values():
        if option.name == "target" and decorator.startswith("cuda."):
            continue  # target='cuda' is how a CUDA ufunc is asked for; its front drops it
        options = {option.name: default_of(option)}
        if decorator in option.decorators:
            accept(options)
            assert option.name in compile_options.accepted(decorator)
        else:
            with pytest.raises(KeyError) as raised:
                refuse(options)
            assert raised.value.args == (f"Unrecognized options: ['{option.name}']",)
            assert option.name not in compile_options.accepted(decorator)


@pytest.mark.parametrize("decorator", sorted(DECORATORS))
def test_an_unknown_keyword_is_refused_with_numbas_message(decorator):
    _, refuse = DECORATORS[decorator]
    with pytest.raises(KeyError) as raised:
        refuse({"colour": "red", "bogus": 1})
    assert raised.value.args == ("Unrecognized options: ['bogus', 'colour']",)


def test_the_keywords_that_reach_the_compiler_are_the_rows_with_a_field():
    for decorator in compile_options.DECORATORS:
        expected = {
            option.name
            for option in OPTIONS.values()
            if decorator in option.decorators and option.field is not None
        }
        assert compile_options.compiled(decorator) == expected
    assert cuda_ufronts._COMPILE_OPTIONS == compile_options.compiled("cuda.vectorize")


# --- the struct and the Python rows agree; defaults are what compiled functions see ----------


def test_the_struct_has_one_field_per_option_and_derived_row():
    fields = set(_core.read_options({}))
    declared = {option.field for option in OPTIONS.values() if option.field is not None}
    assert fields == declared | set(compile_options.DERIVED_FIELDS)
    for field, (keyword, _) in compile_options.DERIVED_FIELDS.items():
        assert OPTIONS[keyword].field is not None, field
    for option in OPTIONS.values():
        assert option.doc and option.type, option.name
        assert (option.conversion != "") == (option.field is not None), option.name


def test_each_default_converts_to_the_structs_default():
    defaults = _core.read_options({})
    for option in OPTIONS.values():
        if option.field is not None:
            assert _core.read_options({option.name: default_of(option)}) == defaults, option.name
            assert _core.read_options({option.name: None}) == defaults, option.name


def changed_value(option):
    """A value of the keyword that the compiler reads differently from its default."""
    default = default_of(option)
    choices = re.findall(r"'(\w+)'", option.type)
    if choices:
        return next(choice for choice in choices if choice != default)
    if option.type.startswith("bool"):
        return not default
    if option.type.startswith("int"):
        return 1
    raise AssertionError(f"no changed value for {option.name} of type {option.type}")


def test_each_option_reaches_its_field_and_no_other():
    defaults = _core.read_options({})
    for option in OPTIONS.values():
        if option.field is None:
            continue
        read = _core.read_options({option.name: changed_value(option)})
        changed = {field for field in read if read[field] != defaults[field]}
        derived = {
            field
            for field, (keyword, _) in compile_options.DERIVED_FIELDS.items()
            if keyword == option.name
        }
        implied = {"lineInfo"} if option.name == "debug" else set()  # debug implies lineinfo
        assert option.field in changed, option.name
        assert changed <= {option.field} | derived | implied, option.name


def test_a_cpu_function_sees_the_defaults_and_the_config():
    before = live_blocks()
    function = taipan.njit(scalar)
    assert function(41) == 42
    seen = _core.function_options(function._function_source())
    expected = _core.read_options({})
    for name, rule, attribute in compile_options.CONFIGURED:
        value = getattr(config, attribute)
        if value is not None:  # an override set, or a default (TAIPAN_OPT)
            expected[OPTIONS[name].field] = _core.read_options({name: value})[OPTIONS[name].field]
    assert seen == expected
    given = taipan.njit(error_model="numpy", inline="always", fastmath={"nnan"})(scalar)
    assert given(1) == 2
    seen = _core.function_options(given._function_source())
    assert seen["errorModelNumpy"] and seen["inlineAlways"]
    assert seen["fastmathFlags"] == 1 and not seen["fastmathApproximate"]
    assert live_blocks() == before


def test_a_cuda_kernel_sees_the_defaults():
    def kernel(out):
        out[0] = 1

    dispatcher = cuda.jit(kernel)
    expected = _core.read_options({})
    expected["errorModelNumpy"] = True  # kernels take numba-cuda's NumPy error model
    assert _core.function_options(dispatcher._function_source()) == expected
    debugging = cuda.jit(debug=True, opt=False)(kernel)
    seen = _core.function_options(debugging._function_source())
    assert seen["debug"] and seen["lineInfo"] and seen["boundscheck"]  # as numba-cuda
    assert seen["optimizationLevel"] == 0


# --- the cache key: changing an option changes it iff the table says so -----------------------


def job_hash(options):
    return _core.hash_job(read_function(scalar, options), [int64])


def code_key(options):
    return caching.code_key(types.SimpleNamespace(targetoptions=options, py_func=scalar), (int64,))


def test_the_job_hash_changes_with_an_option_iff_the_table_says():
    plain = job_hash({})
    for option in OPTIONS.values():
        if option.field is None:
            continue
        changed = job_hash({option.name: changed_value(option)}) != plain
        assert changed == option.cache_key, option.name
    # fastmath=True differs from fastmath={'fast'} only in its derived field.
    derived = job_hash({"fastmath": True}) != job_hash({"fastmath": {"fast"}})
    assert derived == ("fastmathApproximate" in fingerprint_fields({}))


def fingerprint_fields(options):
    text = _core.options_fingerprint(read_function(scalar, options))
    return {part.split("=")[0] for part in text.split()}


def test_the_fingerprint_names_the_fields_in_the_key():
    in_key = {option.field for option in OPTIONS.values() if option.field and option.cache_key}
    out_of_key = {option.field for option in OPTIONS.values() if option.field} - in_key
    fields = fingerprint_fields({})
    assert in_key <= fields and not (out_of_key & fields)
    assert fields <= set(_core.read_options({}))


def test_the_code_key_changes_with_a_keyword_iff_the_table_says():
    plain = code_key({})
    assert plain is not None
    for option in OPTIONS.values():
        value = changed_value(option) if option.field is not None else "changed"
        key = code_key({option.name: value})
        if key is None:
            # parallel=True functions have no code key (their loop reports need typing): the
            # job hash, above, keeps them apart.
            assert option.name == "parallel" and option.field is not None
            continue
        assert (key != plain) == option.cache_key, option.name


# --- taipan.config sets the options its column names ----------------------------------------


def test_config_sets_the_options_its_column_names(monkeypatch):
    attributes = {row.attribute for row in config.OPTIONS}
    assert compile_options.CONFIGURED  # TAIPAN_BOUNDSCHECK and TAIPAN_OPT
    for name, rule, attribute in compile_options.CONFIGURED:
        assert attribute in attributes and OPTIONS[name].field is not None
        monkeypatch.setattr(config, attribute, "from config")
        given = config.cpu_compile_options({name: "given"})
        assert given[name] == ("from config" if rule == "override" else "given")
        assert config.cpu_compile_options({})[name] == "from config"
        monkeypatch.setattr(config, attribute, None)
        assert config.cpu_compile_options({name: "given"})[name] == "given"


# --- options are never written during a compile ----------------------------------------------


def test_fancy_indexing_checks_bounds_without_turning_boundscheck_on():
    def gather(values, indices, i):
        picked = values[indices]
        values[indices] = 0.0
        return picked[0] + values[i]

    before = live_blocks()
    function = taipan.njit(boundscheck=False)(gather)
    values = np.arange(4.0)
    assert function(values.copy(), np.array([3, 1]), 2) == gather(values.copy(), [3, 1], 2)
    with pytest.raises(IndexError):
        function(values.copy(), np.array([4]), 0)
    with pytest.raises(IndexError):
        function(values.copy(), np.array([-5]), 0)
    source = function._function_source()
    assert not _core.function_options(source)["boundscheck"]
    # Only the two fancy indexings check: the plain subscripts after them do not.
    ir = function.inspect_llvm(function.signatures[0])
    checks = ir.count("call void @taipan_raise_index_error")
    checked = taipan.njit(boundscheck=True)(gather)
    checked(values.copy(), np.array([3, 1]), 2)
    assert checks == 2
    assert (
        checked.inspect_llvm(checked.signatures[0]).count("call void @taipan_raise_index_error") > 2
    )
    assert live_blocks() == before
