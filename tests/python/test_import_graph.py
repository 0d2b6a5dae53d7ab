"""The Python package's import graph has no cycle (scripts/check_imports.py, also run by
scripts/lint.sh), and the check finds the cycles it must: function-local imports count, a
package's submodules do not depend on it by being its children."""

import pathlib

from module_files import load_module, write_files

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


def _checker():
    return load_module(REPOSITORY / "scripts" / "check_imports.py", "check_imports")


def _write_package(root, files):
    write_files(root / "src" / "taipan", files)


def test_taipan_has_no_import_cycle(capsys):
    assert _checker().main(["check_imports.py", str(REPOSITORY)]) == 0, capsys.readouterr().out


def test_a_function_local_import_closes_a_cycle(tmp_path, capsys):
    _write_package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from taipan import b\n",
            "b.py": "def f():\n    from taipan.a import g\n",
        },
    )
    assert _checker().main(["check_imports.py", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "import cycle of 2 modules" in out
    assert "taipan.a -> taipan.b" in out and "taipan.b -> taipan.a" in out


def test_relative_imports_and_the_extension_resolve(tmp_path, capsys):
    _write_package(
        tmp_path,
        {
            "__init__.py": "from taipan import _core\nfrom taipan.sub import x\n",
            "sub/__init__.py": "from .leaf import x\n",
            "sub/leaf.py": "from .. import _core\nx = 1\n",
        },
    )
    assert _checker().main(["check_imports.py", str(tmp_path)]) == 0
    # A name imported from the package itself depends on the package: a cycle here.
    (tmp_path / "src" / "taipan" / "sub" / "leaf.py").write_text("from taipan import njit\n")
    assert _checker().main(["check_imports.py", str(tmp_path)]) == 1
    assert "taipan.sub.leaf -> taipan" in capsys.readouterr().out
