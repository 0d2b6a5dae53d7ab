"""Modules that tests write or load from a path: generated sources of jitted functions, the
repository's check scripts, small package trees for those checks to read."""

import importlib.util


def load_module(path, name):
    """The module the Python file at ``path`` defines, imported under ``name`` (not entered in
    sys.modules): a generated source or a script that is not on sys.path."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_files(root, files):
    """Writes ``files`` (relative path -> text) below ``root``, making folders as needed."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
