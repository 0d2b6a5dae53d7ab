"""The PYTHONPATH of the Python child processes tests start: taipan from the directory this
process imported it from, then the test's own directories, then the inherited PYTHONPATH (where
a host keeps packages such as dask outside site-packages)."""

import os

import taipan

TAIPAN_DIRECTORY = os.path.dirname(os.path.dirname(os.path.abspath(taipan.__file__)))


def child_python_path(*directories) -> str:
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([TAIPAN_DIRECTORY, *map(str, directories), *inherited])
