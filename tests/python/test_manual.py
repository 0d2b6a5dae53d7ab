"""The user manual (docs/manual): every Python example in it runs on taipan and prints what the
manual says it prints, and the built HTML renders in a headless browser.

Conventions of the manual's Markdown sources, which this file reads:
- a ```` ```python ```` block is a complete program; it runs in a fresh process (the CUDA
  guide's under the CUDA simulator, TAIPAN_ENABLE_CUDASIM=1, except those that call
  ``cuda.compile_ptx``, which needs no GPU and is refused by the simulator), from a temporary
  directory; where a GPU is present, the CUDA guide's examples run on it too;
- a ```` ```text ```` block right after it is that program's exact standard output; once the
  program's names are dropped, no memory block of compiled code may stay alive;
- a ```` ```{code-block} python ```` block is shown but not run (it needs a GPU, a cluster or a
  file the reader has); the text around it says why.

The HTML comes from build/manual/html when scripts/test.sh has just built it there (newer than
every source of the manual and of taipan's Python package), otherwise it is built here, with
warnings as errors as in CI.
"""

import importlib
import importlib.util
import inspect
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import pytest
from child_processes import child_python_path

from taipan import config, cuda

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
MANUAL = REPOSITORY / "docs" / "manual"
BUILT_HTML = REPOSITORY / "build" / "manual" / "html"
PACKAGE = REPOSITORY / "src" / "taipan"

# Pages whose examples run under the CUDA simulator, so that they run without a GPU.
SIMULATED_PAGES = {"cuda.md"}

FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def manual_examples():
    """(page, index, source, expected output or None) of every runnable block, in page order."""
    examples = []
    for page in sorted(MANUAL.glob("*.md")):
        text = page.read_text()
        fences = list(FENCE.finditer(text))
        number = 0
        for position, fence in enumerate(fences):
            if fence.group("info").strip() != "python":
                continue
            expected = None
            if position + 1 < len(fences):
                following = fences[position + 1]
                between = text[fence.end() : following.start()]
                if following.group("info").strip() == "text" and not between.strip():
                    expected = following.group("body")
            number += 1
            examples.append((page.name, number, fence.group("body"), expected))
    return examples


EXAMPLES = manual_examples()


def test_the_manual_has_examples_on_every_guide_page():
    pages_with_examples = {page for page, _, _, _ in EXAMPLES}
    guides = {page.name for page in MANUAL.glob("*.md")} - {"index.md"}
    assert guides, "docs/manual has no chapters"
    assert guides <= pages_with_examples, (
        f"chapters without a runnable example: {guides - pages_with_examples}"
    )


# Appended to each example: drop every name the program made, collect, and report the blocks of
# compiled code still alive (a fresh process starts with none), as every test that allocates
# checks the runtime's counters. The program stays __main__, so process pools still import it.
LIVE_BLOCKS_CHECK = """
import gc as _gc
import sys as _sys

from taipan.runtime import live_blocks as _live_blocks

for _name in [name for name in globals() if not name.startswith("_")]:
    del globals()[_name]
_gc.collect()
print("live blocks:", _live_blocks(), file=_sys.stderr)
"""


# Packages some examples import that taipan does not need; scripts/setup.sh installs them.
OPTIONAL_PACKAGES = ("dask", "scipy")


def run_example(tmp_path, page, number, source, expected, simulate):
    for package in OPTIONAL_PACKAGES:
        imported = re.search(rf"^(?:import|from) {package}\b", source, re.MULTILINE)
        if imported and importlib.util.find_spec(package) is None:
            missing(f"{package} is not installed (scripts/setup.sh pip-installs it)")
    script = tmp_path / f"{page[:-3]}_example_{number}.py"
    script.write_text(source + LIVE_BLOCKS_CHECK)
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("TAIPAN_", "NUMBA_"))
    }
    environment["PYTHONPATH"] = child_python_path()
    if simulate:
        environment["TAIPAN_ENABLE_CUDASIM"] = "1"
    completed = subprocess.run(
        [sys.executable, script.name],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert completed.returncode == 0, (
        f"{page} example {number} failed:\n{source}\n--- stderr ---\n{completed.stderr}"
    )
    if expected is not None:
        assert completed.stdout == expected, f"{page} example {number} printed something else"
    assert completed.stderr.splitlines()[-1] == "live blocks: 0", (
        f"{page} example {number} left memory of compiled code alive:\n{completed.stderr}"
    )


@pytest.mark.parametrize(
    "page, number, source, expected",
    EXAMPLES,
    ids=[f"{page[:-3]}-{number}" for page, number, _, _ in EXAMPLES],
)
def test_manual_example_runs(tmp_path, page, number, source, expected):
    simulate = page in SIMULATED_PAGES and "compile_ptx" not in source
    run_example(tmp_path, page, number, source, expected, simulate)


GPU_EXAMPLES = [
    example
    for example in EXAMPLES
    if example[0] in SIMULATED_PAGES and "compile_ptx" not in example[2]
]


@pytest.mark.skipif(
    config.ENABLE_CUDASIM or not cuda.is_available(), reason="no CUDA driver or GPU"
)
@pytest.mark.parametrize(
    "page, number, source, expected",
    GPU_EXAMPLES,
    ids=[f"{page[:-3]}-{number}" for page, number, _, _ in GPU_EXAMPLES],
)
def test_manual_cuda_example_runs_on_the_gpu(tmp_path, page, number, source, expected):
    """Where a GPU is present, the CUDA guide's examples also run on it, not simulated."""
    run_example(tmp_path, page, number, source, expected, simulate=False)


def newest_source_time():
    sources = [*MANUAL.rglob("*.md"), *MANUAL.rglob("*.rst"), *MANUAL.rglob("*.py")]
    sources += list(PACKAGE.rglob("*.py"))
    return max(path.stat().st_mtime for path in sources)


def missing(what):
    """Skips where a tool is absent locally; fails in CI (CI=true), whose set-up installs it."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(what)
    pytest.skip(what)


@pytest.fixture(scope="module")
def built_manual(tmp_path_factory):
    """The manual's HTML folder: build/manual/html when it is current, else a fresh build."""
    stamp = BUILT_HTML / "index.html"
    if stamp.exists() and stamp.stat().st_mtime >= newest_source_time():
        return BUILT_HTML
    for module in ("sphinx", "myst_parser"):
        if importlib.util.find_spec(module) is None:
            missing(f"{module} is not installed (scripts/setup.sh pip-installs it)")
    output = tmp_path_factory.mktemp("manual") / "html"
    environment = dict(os.environ, PYTHONPATH=child_python_path())
    completed = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
        + [str(MANUAL), str(output)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert completed.returncode == 0, f"sphinx-build failed:\n{completed.stderr}"
    return output


def browser():
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    missing("no headless Chromium here (scripts/setup.sh apt-installs chromium-headless-shell)")


def run_browser(*arguments):
    """Headless Chromium with a profile of its own, so that browsers started at once by
    parallel test workers never share one."""
    with tempfile.TemporaryDirectory(prefix="taipan-manual-browser-") as profile:
        command = [browser(), "--headless", "--no-sandbox", "--disable-gpu"]
        return subprocess.run(
            [*command, f"--user-data-dir={profile}", *arguments],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )


def rendered_dom(page: pathlib.Path) -> str:
    """The page's DOM after the browser loaded it and ran its scripts. A browser process that
    dies (it can, on a loaded machine) is started once more; what it renders is not retried."""
    for _ in range(2):
        completed = run_browser("--dump-dom", page.as_uri())
        if completed.returncode == 0 and "</html>" in completed.stdout:
            return completed.stdout
    raise AssertionError(
        f"the browser did not render {page} (exit {completed.returncode}):\n"
        f"{completed.stderr[-2000:]}"
    )


CHAPTERS = sorted(page.stem for page in MANUAL.glob("*.md"))
API_PAGES = sorted(f"api/{page.stem}" for page in (MANUAL / "api").glob("*.rst"))


@pytest.mark.parametrize("name", CHAPTERS + API_PAGES)
def test_manual_page_renders_in_a_browser(built_manual, name):
    dom = rendered_dom(built_manual / f"{name}.html")
    title = re.search(r"<title>(.*?)</title>", dom, re.DOTALL)
    assert title and "taipan" in title.group(1), f"{name}: no title in the rendered page"
    heading = re.search(r"<h1>(.*?)<a class=\"headerlink\"", dom, re.DOTALL)
    assert heading and heading.group(1).strip(), f"{name}: no page heading"
    # The sidebar's navigation lists every chapter and the API reference.
    navigation = dom[dom.index('class="sphinxsidebar"') :]
    for chapter in CHAPTERS:
        if chapter not in ("index", name):  # the page's own entry links to "#"
            assert f'{chapter}.html"' in navigation, f"{name}: navigation lacks {chapter}"
    assert 'api/index.html"' in navigation or 'index.html"' in navigation
    # Markers Sphinx and docutils leave where a reference or a directive failed.
    for marker in ('class="system-message"', "problematic", "Unknown directive", "??"):
        assert marker not in dom, f"{name}: {marker!r} in the rendered page"
    # Every local file the page links to or loads (stylesheets, scripts, other pages) exists.
    page_folder = (built_manual / f"{name}.html").parent
    for target in re.findall(r'(?:href|src)="([^"#?]+)[^"]*"', dom):
        if "://" not in target and not target.startswith("mailto:"):
            assert (page_folder / target).exists(), f"{name}: {target} is missing"
    # Every link to a place in a page (page.html#id, #id) finds that id there.
    for target, anchor in re.findall(r'href="([^"#:]*)#([^"]+)"', dom):
        linked = (page_folder / target).read_text() if target else dom
        assert f'id="{anchor}"' in linked, f"{name}: {target}#{anchor} leads nowhere"
    if name in CHAPTERS and name != "index":
        assert 'class="highlight-python' in dom, f"{name}: no highlighted Python example"
    if name.startswith("api/") and name != "api/index":
        assert 'class="sig sig-object py"' in dom, f"{name}: no documented object"


# API pages and the module whose public names (``__all__``) each must list.
API_MODULES = {
    "api/taipan": "taipan",
    "api/cuda": "taipan.cuda",
    "api/cuda_random": "taipan.cuda.random",
    "api/typed": "taipan.typed",
    "api/extending": "taipan.extending",
    "api/experimental": "taipan.experimental",
}


@pytest.mark.parametrize("name, module_name", sorted(API_MODULES.items()))
def test_api_reference_lists_every_public_name(built_manual, name, module_name):
    """Each name of the module's ``__all__`` (modules aside) is documented on its page: by
    autodoc (an anchor ``module.name``) or in the table of values (``module.name`` as code)."""
    module = importlib.import_module(module_name)
    page = (built_manual / f"{name}.html").read_text()
    missing = [
        public
        for public in module.__all__
        if not inspect.ismodule(getattr(module, public))
        and f'id="{module_name}.{public}"' not in page
        and f">{module_name}.{public}<" not in page
    ]
    assert not missing, f"{name}.html lacks {missing}"


def test_manual_code_blocks_render_as_in_the_source(built_manual):
    """The first example of the getting-started chapter reaches the page, highlighted."""
    _, _, source, _ = next(example for example in EXAMPLES if example[0] == "getting_started.md")
    dom = rendered_dom(built_manual / "getting_started.html")
    text_of_code = re.sub(r"<[^>]+>", "", dom)
    first_line = next(line for line in source.splitlines() if line.strip())
    assert first_line.replace("<", "&lt;").replace(">", "&gt;") in text_of_code


def test_manual_screenshot_is_not_blank(built_manual, tmp_path):
    """The browser paints the start page: a blank 1200x900 page is a PNG of about 5 KB, the
    start page (sidebar, text, highlighted code) about 150 KB."""
    shot = tmp_path / "index.png"
    completed = run_browser(
        "--window-size=1200,900", f"--screenshot={shot}", (built_manual / "index.html").as_uri()
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    picture = shot.read_bytes()
    assert picture.startswith(b"\x89PNG"), "the screenshot is not a PNG"
    assert len(picture) > 40_000, f"the start page looks blank ({len(picture)} bytes)"
