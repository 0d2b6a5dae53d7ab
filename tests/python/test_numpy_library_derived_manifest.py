"""taipan.numpy_library derives its manifest (which topic module registers which NumPy function
or array member) from the topic modules' sources, so that adding a function changes one file:
every form of registration is found, helpers are not topics, and the cached result is used only
while no module changed."""

import os

import pytest

from taipan import numpy_library

TOPIC_WITH_EVERY_FORM = """
import numpy as np

from taipan import types
from taipan.extending import overload, overload_attribute, overload_method


@overload(np.roll)
def roll(a, shift):
    return None


@overload( np.linalg.norm , inline="always")
def norm(x):
    return None


if hasattr(np.linalg, "svdvals"):

    @overload(np.linalg.svdvals)
    def svdvals(x):
        return None


def _typer(a):
    return None


overload(np.nansum)(_typer)
overload(numpy_alias_is_not_np)(_typer)  # not a NumPy name: a helper's overload
x = "overload(np.not_at_line_start)"


@overload_method(types.Array, "item")
def item(a):
    return None


@overload_attribute(types.Array, 'flat_thing')
def flat_thing(a):
    return None


@overload_method(types.List, "not_an_array_member")
def other(a):
    return None
"""

HELPER = """
from taipan.extending import overload, register_jitable


@register_jitable
def helper(a):
    return a


@overload(helper)
def typer(a):
    return None
"""


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A stand-in package directory, its cache in tmp_path, the real manifest untouched."""
    directory = tmp_path / "numpy_library"
    directory.mkdir()
    (directory / "__init__.py").write_text("overload(np.ignored_in_init)\n")
    (directory / "everything.py").write_text(TOPIC_WITH_EVERY_FORM)
    (directory / "_helper.py").write_text(HELPER)
    monkeypatch.setattr(numpy_library, "_DIRECTORY", str(directory))
    monkeypatch.setattr(numpy_library, "_manifest", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user_cache"))
    return directory


def derive():
    numpy_library._manifest = None
    return numpy_library._derived_manifest()


EXPECTED_FUNCTIONS = {
    "numpy.roll": "everything",
    "numpy.linalg.norm": "everything",
    "numpy.linalg.svdvals": "everything",
    "numpy.nansum": "everything",
}


def test_every_form_of_registration_is_found(package):
    topics, functions, members = derive()
    assert topics == ("everything",)  # _helper registers no NumPy name: not a topic
    assert functions == EXPECTED_FUNCTIONS
    assert members == {"item": "everything", "flat_thing": "everything"}


def test_a_new_topic_module_is_found(package):
    assert derive()[0] == ("everything",)
    (package / "extra.py").write_text("import numpy as np\n\n\n@overload(np.tile)\ndef f(a):\n")
    topics, functions, _members = derive()
    assert topics == ("everything", "extra")
    assert functions["numpy.tile"] == "extra"
    (package / "extra.py").unlink()
    assert "numpy.tile" not in derive()[1]


def test_the_cached_manifest_is_used_while_no_module_changes(package, monkeypatch):
    first = derive()
    assert (package / "__pycache__" / numpy_library._CACHE_NAME).exists()

    def no_scan(stamps):
        raise AssertionError("scanned although the cache was current")

    with monkeypatch.context() as patch:
        patch.setattr(numpy_library, "_scan", no_scan)
        assert derive() == first

    # An edit (here one more registration, so the size changes) makes the cache stale.
    source = package / "everything.py"
    source.write_text(source.read_text() + "\n\n@overload(np.kron)\ndef kron(a, b):\n")
    assert derive()[1]["numpy.kron"] == "everything"
    # An edit keeping the size: the modification time tells.
    text = source.read_text().replace("np.kron", "np.tril")
    source.write_text(text)
    stamp = os.stat(source).st_mtime_ns + 10**9
    os.utime(source, ns=(stamp, stamp))
    functions = derive()[1]
    assert "numpy.kron" not in functions and functions["numpy.tril"] == "everything"


def test_a_damaged_cache_is_rescanned_and_rewritten(package):
    expected = derive()
    cache = package / "__pycache__" / numpy_library._CACHE_NAME
    cache.write_bytes(b"\x00not marshal")
    assert derive() == expected
    assert cache.read_bytes() != b"\x00not marshal"


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes read-only directories"
)
def test_a_read_only_package_caches_in_the_user_directory(package, tmp_path):
    os.chmod(package, 0o555)
    try:
        expected = derive()
        assert not (package / "__pycache__").exists()
        cached = list((tmp_path / "user_cache" / "taipan").iterdir())
        assert len(cached) == 1 and cached[0].name.endswith(numpy_library._CACHE_NAME)
        assert derive() == expected
    finally:
        os.chmod(package, 0o755)


def test_the_user_directory_is_used_when_pycache_cannot_be_written(package, tmp_path):
    # A file where the __pycache__ directory would be: the first choice cannot be written, even
    # by root.
    (package / "__pycache__").write_text("not a directory")
    expected = derive()
    cached = list((tmp_path / "user_cache" / "taipan").iterdir())
    assert len(cached) == 1 and cached[0].name.endswith(numpy_library._CACHE_NAME)

    def no_scan(stamps):
        raise AssertionError("scanned although the user cache was current")

    numpy_library._scan, real_scan = no_scan, numpy_library._scan
    try:
        assert derive() == expected
    finally:
        numpy_library._scan = real_scan


def test_the_real_library_manifest():
    topics, functions, members = numpy_library._derived_manifest()
    assert "support" not in topics and "lapack" not in topics
    assert functions["numpy.roll"] == "shapes" and functions["numpy.median"] == "order_statistics"
    assert members["item"] == "methods"
    assert numpy_library.TOPICS == topics and numpy_library.FUNCTIONS == functions
    with pytest.raises(AttributeError, match="no attribute 'NOT_THERE'"):
        numpy_library.NOT_THERE  # noqa: B018
