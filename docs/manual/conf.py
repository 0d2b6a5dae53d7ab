"""Sphinx configuration of the taipan user manual (docs/manual).

Built by scripts/test.sh with warnings as errors:
``python3 -m sphinx -W --keep-going -q -b html docs/manual build/manual/html``.
Chapters are Markdown (MyST), like the rest of docs/; the API reference pages are reST because
they are mostly autodoc directives over the public modules' docstrings.
"""

import importlib.machinery
import pathlib
import sys

MANUAL = pathlib.Path(__file__).resolve().parent
SOURCE_TREE = MANUAL.parent.parent / "src"

# A developer tree with a built extension (src/taipan/_core*.so) documents itself; otherwise the
# installed taipan is documented (CI builds the manual after scripts/setup.sh pip-installs it).
BUILT_IN_TREE = any(
    (SOURCE_TREE / "taipan" / f"_core{suffix}").exists()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES
)
if BUILT_IN_TREE and str(SOURCE_TREE) not in sys.path:
    sys.path.insert(0, str(SOURCE_TREE))

sys.path.insert(0, str(MANUAL / "_ext"))

import taipan  # after the path above

project = "taipan"
author = "the taipan developers"
copyright = "the taipan developers"
release = taipan.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "taipan_manual",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext"]

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

# Options are given per directive: a default "members" here would override explicit lists.
autodoc_default_options = {}
autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_google_docstring = True
napoleon_numpy_docstring = True

html_theme = "alabaster"
html_title = f"taipan {release} manual"
html_theme_options = {
    "description": "A JIT compiler for numerical Python with Numba's API",
    "fixed_sidebar": False,
    "show_relbars": True,
}
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "searchbox.html"]}
html_static_path = ["_static"]
html_css_files = ["manual.css"]
