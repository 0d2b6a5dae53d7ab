"""taipan.numpy_library's manifest (FUNCTIONS, MEMBERS, TOPICS), derived from the topic modules'
sources without importing them, finds exactly what they register, and the registry imports a topic only when a compiled function first needs one
of its functions or array members: not at `import taipan`, not for NumPy functions implemented
in C++ (np.sum), only the topic asked for."""

import os
import subprocess
import sys
import textwrap

import pytest
from child_processes import TAIPAN_DIRECTORY, child_environment, run_python

from taipan import numpy_library
from taipan.extending import _qualified_name, _registry

# The directory this process imported taipan from (src, or site-packages where installed).
PACKAGE = "taipan.numpy_library."


def _topic_of_typer(typer):
    module = getattr(typer, "__module__", "") or ""
    return module[len(PACKAGE) :] if module.startswith(PACKAGE) else None


def _registered_by_library():
    """{registry name: topic} of NumPy functions, and {member name: topic}, that the library's
    topic modules registered (by the module defining each typing function; users' overloads of
    the same functions, registered by other tests, are left out)."""
    numpy_library.load_all()
    functions = {}
    for function, entry in list(_registry._functions.items()):
        topics = {_topic_of_typer(t) for t in getattr(entry, "typers", ())} - {None}
        if not topics or not _qualified_name(function).startswith("numpy."):
            continue  # a helper of the library (svd_parts, register_jitable), or a user's
        assert len(topics) == 1, f"{entry.name} is registered by several modules: {topics}"
        assert numpy_library.numpy_object(entry.name) is function, (
            f"{entry.name} does not name the registered object in NumPy's namespace"
        )
        functions[entry.name] = topics.pop()
    members = {}
    for name, registrations in list(_registry._members.items()):
        for _type_class, entry, _is_attribute in registrations:
            topics = {_topic_of_typer(t) for t in entry.typers} - {None}
            if topics:
                assert len(topics) == 1, f"{entry.name} is registered by several modules: {topics}"
                members[name] = topics.pop()
    return functions, members


def test_manifest_lists_exactly_what_the_topics_register():
    functions, members = _registered_by_library()
    available = {
        name: topic
        for name, topic in numpy_library.FUNCTIONS.items()
        if numpy_library.numpy_object(name) is not None
    }
    missing = sorted(set(functions.items()) - set(available.items()))
    extra = sorted(set(available.items()) - set(functions.items()))
    assert not missing, (
        "registered but not found by the manifest's scan (write the overload as "
        f"@overload(np.<name>) or overload(np.<name>)(typer)): {missing}"
    )
    assert not extra, f"found by the manifest's scan but not registered so: {extra}"
    assert members == numpy_library.MEMBERS


def test_manifest_topics_are_topic_modules():
    directory = os.path.dirname(numpy_library.__file__)
    for topic in numpy_library.TOPICS:
        assert os.path.exists(os.path.join(directory, f"{topic}.py")), topic
    used = set(numpy_library.FUNCTIONS.values()) | set(numpy_library.MEMBERS.values())
    assert used == set(numpy_library.TOPICS)
    assert all(name.startswith("numpy.") for name in numpy_library.FUNCTIONS)
    # Names missing from this NumPy are allowed only for functions NumPy added or removed.
    absent = {n for n in numpy_library.FUNCTIONS if numpy_library.numpy_object(n) is None}
    assert absent <= {"numpy.trapz", "numpy.in1d", "numpy.row_stack", "numpy.linalg.svdvals"}


def test_load_rejects_unknown_topics():
    with pytest.raises(ValueError, match="no topic"):
        numpy_library.load("support")


def run_fresh(body):
    """Runs PRELUDE then ``body`` in a new Python process."""
    code = PRELUDE + textwrap.dedent(body)
    return run_python(["-c", code], env=child_environment(), timeout=240).stdout


PRELUDE = """
import sys

import taipan

assert not [m for m in sys.modules if m.startswith("taipan.numpy_library")], sorted(sys.modules)
assert "taipan.extending" not in sys.modules

import numpy as np

from taipan.numpy_library import TOPICS


def loaded():
    return {t for t in TOPICS if "taipan.numpy_library." + t in sys.modules}

"""


def test_import_and_first_compiles_load_only_the_topic_needed():
    run_fresh(
        """
        @taipan.njit
        def sum_of_squares(a):
            return np.sum(a * a)

        a = np.arange(11.0)[::-1].copy()
        assert sum_of_squares(a) == np.sum(a * a)
        assert loaded() == set(), loaded()

        @taipan.njit
        def median(a):
            return np.median(a)

        assert median(a) == np.median(a)
        # The median sorts its lanes with the array method `sort`, which the sorting topic
        # registers: the two are what it needs.
        assert loaded() == {"order_statistics", "sorting"}, loaded()

        @taipan.njit
        def quantiles(a):
            return np.quantile(a, 0.25), np.percentile(a, 90.0)

        assert quantiles(a) == (np.quantile(a, 0.25), np.percentile(a, 90.0))
        assert loaded() == {"order_statistics", "sorting"}, loaded()

        @taipan.njit
        def norm(a):
            return np.linalg.norm(a)

        assert abs(norm(a) - np.linalg.norm(a)) < 1e-12
        # linalg_norm computes matrix norms with linalg_svd's helpers, so imports it.
        assert loaded() == {"order_statistics", "sorting", "linalg_norm", "linalg_svd"}, loaded()
        print("ok")
        """
    )


def test_members_load_lazily():
    run_fresh(
        """
        @taipan.njit
        def first(a):
            return a.item()

        @taipan.njit
        def shape_sum(a):
            return a.shape[0] + a.sum()

        a = np.array([2.5])
        assert shape_sum(a) == 3.5
        assert loaded() == set(), loaded()
        assert first(a) == 2.5
        assert loaded() == {"methods"}, loaded()

        @taipan.njit
        def trace(m):
            return m.trace()

        m = np.arange(9.0).reshape(3, 3)
        assert trace(m) == m.trace()
        assert "linalg_norm" in loaded() and "sorting" not in loaded(), loaded()
        print("ok")
        """
    )


def test_user_overloads_stay_first_and_the_library_is_the_fallback():
    # A user's overload of a NumPy function the library also implements is tried first; where
    # it declines, the library's (imported when the function is first looked up) applies.
    run_fresh(
        """
        from taipan import types
        from taipan.extending import overload

        @overload(np.median)
        def my_median(a):
            if isinstance(a, types.Array) and isinstance(a.dtype, types.Integer):
                return lambda a: -1.0

        @taipan.njit
        def median(a):
            return np.median(a)

        assert median(np.arange(5)) == -1.0
        assert median(np.arange(5.0)) == 2.0
        assert loaded() == {"order_statistics", "sorting"}, loaded()
        print("ok")
        """
    )


def test_import_and_first_compile_import_no_costly_modules():
    # python -S: nothing that site or .pth files import first (re, here) hides what taipan
    # imports. NumPy imports re and ctypes itself; threading, subprocess, ctypes.util and glob
    # are taipan's to avoid.
    import numpy

    paths = (TAIPAN_DIRECTORY, os.path.dirname(os.path.dirname(os.path.abspath(numpy.__file__))))
    source = textwrap.dedent(
        """
        import sys

        import taipan

        costly = ("re", "threading", "enum", "subprocess", "ctypes", "ctypes.util", "glob")
        assert not [m for m in costly if m in sys.modules], [m for m in costly if m in sys.modules]

        import numpy as np

        # What NumPy imports itself is not taipan's (NumPy 2.2 imports threading and subprocess).
        costly = ("threading", "subprocess", "ctypes.util", "glob")
        costly = [m for m in costly if m not in sys.modules]

        @taipan.njit
        def sum_of_squares(a):
            return np.sum(a * a)

        assert sum_of_squares(np.arange(4.0)) == 14.0
        assert not [m for m in costly if m in sys.modules], [m for m in costly if m in sys.modules]
        print("ok")
        """
    )
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    result = subprocess.run(
        [sys.executable, "-S", "-c", source],
        check=False,
        capture_output=True,
        text=True,
        env=environment,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
