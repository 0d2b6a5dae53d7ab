"""The CPU that CPU code is compiled for (taipan.config.CPU_NAME and CPU_FEATURES, Numba's
NUMBA_CPU_NAME and NUMBA_CPU_FEATURES): the host's by default; 'generic' gives code without the
host's own instructions, which computes the same, and caches under another key. Each case runs a
fresh interpreter, since the variables are read once when taipan is imported."""

import json
import textwrap

import pytest
from child_processes import child_environment, run_python

from taipan import _core

HOST_FEATURES = _core.system_info()["cpu_features"].split(",")

# A vectorizable loop over float64 and int32 arrays, a reduction, a ufunc loop and a cfunc: each
# entry kind the CPU compiles for, compared with what Python computes, the allocation counters
# unchanged; then the assembly of the loop and what taipan.config says.
SCRIPT = """
import json, sys
import numpy as np
import taipan
from taipan import config, njit, vectorize, cfunc, types
from taipan.runtime import live_blocks

@njit(cache=True)
def scale_add(a, b, factor):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * factor + b[i]
    return out

@njit
def total(a):
    s = 0
    for x in a:
        s += x
    return s

@vectorize(["float64(float64, float64)"])
def squares(x, y):
    return x * x + y * y

@cfunc(types.float64(types.float64))
def halve(x):
    return x / 2

before = live_blocks()
a = np.arange(1000, dtype=np.float64) / 7
b = np.linspace(-3, 3, 1000)
got = scale_add(a, b, 2.5)
assert np.array_equal(got, scale_add.py_func(a, b, 2.5)), "scale_add"
ints = np.arange(-500, 700, dtype=np.int32)
assert total(ints) == total.py_func(ints), "total"
assert np.array_equal(squares(a, b), a * a + b * b), "squares"
assert halve.ctypes(3.0) == 1.5
del got
assert live_blocks() == before, (live_blocks(), before)
signature = scale_add.signatures[0]
print(json.dumps({
    "asm": scale_add.inspect_asm(signature),
    "name": config.CPU_NAME,
    "features": config.CPU_FEATURES,
    "sources": config.SOURCES,
    "hits": scale_add.stats.cache_hits,
    "misses": scale_add.stats.cache_misses,
    "target": taipan._core.system_info()["target_cpu_name"],
}))
"""


def run(tmp_path, **variables):
    """SCRIPT in a fresh interpreter in tmp_path (its cache beside it) with these variables set
    and no other TAIPAN_/NUMBA_ ones: (its JSON report, its stderr)."""
    script = tmp_path / "cpu_target_script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    env = child_environment(settings="none", **variables)
    result = run_python([script], cwd=tmp_path, env=env)
    return json.loads(result.stdout.splitlines()[-1]), result.stderr


def vector_registers(assembly):
    """The AVX (ymm) and AVX-512 (zmm) registers the assembly names."""
    return {name for name in ("%ymm", "%zmm") if name in assembly}


@pytest.mark.parametrize("variable", ["TAIPAN_CPU_NAME", "NUMBA_CPU_NAME"])
def test_generic_cpu_computes_the_same_without_the_hosts_instructions(tmp_path, variable):
    report, _ = run(tmp_path, **{variable: "generic"})
    assert report["name"] == "generic"
    assert report["features"] == ""  # Numba's rule: 'generic' without features has none
    assert report["sources"] == {"CPU_NAME": variable}
    assert report["target"] == "generic"
    assert vector_registers(report["asm"]) == set()
    assert "vmov" not in report["asm"]  # no VEX encoding at all: SSE2 only


def test_the_host_by_default(tmp_path):
    report, _ = run(tmp_path)
    assert report["name"] is None and report["features"] is None
    if "+avx2" in HOST_FEATURES:
        assert vector_registers(report["asm"]), "the host's loop uses its wide vectors"


def test_the_cpu_enters_the_cache_key(tmp_path):
    host, _ = run(tmp_path)
    assert (host["hits"], host["misses"]) == (0, 1)
    generic, _ = run(tmp_path, NUMBA_CPU_NAME="generic")
    assert (generic["hits"], generic["misses"]) == (0, 1), "the host's code is not generic"
    assert vector_registers(generic["asm"]) == set()
    again, _ = run(tmp_path, NUMBA_CPU_NAME="generic")
    assert (again["hits"], again["misses"]) == (1, 0)
    host_again, _ = run(tmp_path)
    assert (host_again["hits"], host_again["misses"]) == (1, 0)
    assert host_again["asm"] == host["asm"]


def test_named_features_are_added_to_the_named_cpu(tmp_path):
    report, _ = run(tmp_path, TAIPAN_CPU_NAME="x86-64", TAIPAN_CPU_FEATURES="+avx2,+fma")
    assert (report["name"], report["features"]) == ("x86-64", "+avx2,+fma")
    assert "%zmm" not in report["asm"]
    # Without features the named CPU's own (x86-64: SSE2), as NUMBA_CPU_FEATURES= set empty.
    report, _ = run(tmp_path, NUMBA_CPU_NAME="x86-64", NUMBA_CPU_FEATURES="")
    assert report["features"] == ""
    assert vector_registers(report["asm"]) == set()


def test_taipan_name_wins_over_numba_alias(tmp_path):
    report, _ = run(tmp_path, TAIPAN_CPU_NAME="generic", NUMBA_CPU_NAME="x86-64-v4")
    assert report["name"] == "generic"
    assert vector_registers(report["asm"]) == set()


@pytest.mark.parametrize(
    "variables",
    [
        {"TAIPAN_CPU_NAME": "no-such-cpu"},
        {"TAIPAN_CPU_NAME": "generic", "TAIPAN_CPU_FEATURES": "+no-such-feature"},
        {"TAIPAN_CPU_FEATURES": "avx2"},  # no + or -
    ],
)
def test_a_cpu_llvm_does_not_know_warns_and_compiles_for_the_host(tmp_path, variables):
    report, stderr = run(tmp_path, **variables)
    assert "RuntimeWarning" in stderr and "is not understood" in stderr
    assert report["name"] is None and report["features"] is None
    assert report["sources"] == {}
    assert report["target"] == _core.system_info()["cpu_name"]


@pytest.mark.parametrize(
    ("variables", "line"),
    [
        ({}, "Code compiled for : the host CPU"),
        ({"NUMBA_CPU_NAME": "generic"}, "Code compiled for : generic (its own features)"),
        (
            {"TAIPAN_CPU_FEATURES": "+avx2"},
            f"Code compiled for : {_core.system_info()['cpu_name']} (+avx2)",
        ),
    ],
)
def test_python_m_taipan_names_the_cpu_compiled_for(tmp_path, variables, line):
    env = child_environment(settings="none", **variables)
    result = run_python(["-m", "taipan"], cwd=tmp_path, env=env, timeout=120)
    assert line in result.stdout.splitlines()
