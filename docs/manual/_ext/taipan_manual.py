"""Sphinx directives of the taipan manual that render facts from the code, so that the manual
never keeps a second copy of them: ``taipan-config-table`` lists ``taipan.config.OPTIONS``, and
``taipan-exported-values MODULE`` the names of ``MODULE.__all__`` that autodoc leaves out
because they are values, not classes or functions (scalar types, CUDA kernel builtins)."""

import importlib
import inspect
import pathlib
import shutil

from docutils import nodes
from docutils.parsers.rst import Directive


def _literal(text):
    return nodes.literal(text=text)


def _cell(*children):
    paragraph = nodes.paragraph()
    for child in children:
        paragraph += child
    entry = nodes.entry()
    entry += paragraph
    return entry


def _row(*cells):
    row = nodes.row()
    for cell in cells:
        row += cell
    return row


class ConfigTable(Directive):
    """A table of every environment variable in ``taipan.config.OPTIONS``: the variable, its
    Numba aliases, the ``taipan.config`` attribute, the default and what it does."""

    has_content = False
    headings = ("Variable", "Aliases", "taipan.config", "Default", "Effect")

    def run(self):
        from taipan import config

        table = nodes.table(classes=["taipan-config"])
        group = nodes.tgroup(cols=len(self.headings))
        table += group
        for width in (18, 18, 14, 8, 42):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row(*(_cell(nodes.Text(text)) for text in self.headings))
        group += head
        body = nodes.tbody()
        for option in config.OPTIONS:
            aliases = []
            for alias in option.aliases:
                if aliases:
                    aliases.append(nodes.Text(", "))
                aliases.append(_literal(alias))
            body += _row(
                _cell(_literal(option.variable)),
                _cell(*aliases) if aliases else _cell(nodes.Text("—")),
                _cell(_literal(option.attribute)),
                _cell(_literal(repr(option.default))),
                _cell(nodes.Text(option.description)),
            )
        group += body
        return [table]


def _description(value):
    """The value's own docstring (a CUDA builtin's may be empty), else its class's when taipan
    defines the class."""
    own = getattr(value, "__dict__", {})
    if "__doc__" in own:
        return own["__doc__"] or ""
    kind = type(value)
    if kind.__module__.startswith("taipan.") and kind.__doc__:
        return kind.__doc__
    return ""


def _shown_value(value):
    """A builtin of compiled code shows its members (``cuda.threadIdx``: x, y, z); a value with
    a plain repr shows it (a type the type it stands for, ``intp``: ``int64``; a constant);
    objects whose repr is ``<...>`` (``cuda.gpus``, which depends on the machine) show nothing."""
    builtin = getattr(value, "_taipan_builtin", None)
    if builtin is None:
        shown = repr(value)
        return [] if shown.startswith("<") else [_literal(shown)]
    members = [name for name, member in vars(value).items() if hasattr(member, "_taipan_builtin")]
    shown = [_literal(builtin)]
    if members:
        shown.append(nodes.Text(": " + ", ".join(f".{name}" for name in members)))
    return shown


class ExportedValues(Directive):
    """A table of the names in a module's ``__all__`` that are neither classes, functions nor
    modules: the name, what it is, and its description."""

    required_arguments = 1
    has_content = False

    def run(self):
        module_name = self.arguments[0]
        module = importlib.import_module(module_name)
        table = nodes.table(classes=["taipan-values"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (20, 30, 50):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row(*(_cell(nodes.Text(text)) for text in ("Name", "Value", "Description")))
        group += head
        body = nodes.tbody()
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value) or inspect.isroutine(value) or inspect.ismodule(value):
                continue
            description = " ".join(_description(value).split())
            body += _row(
                _cell(_literal(f"{module_name}.{name}")),
                _cell(*_shown_value(value)),
                _cell(*self.state.inline_text(description, self.lineno)[0]),
            )
        group += body
        return [table]


def _remove_source_pages(app):
    """sphinx.ext.viewcode keeps a module's source page when the page is newer than the module's
    file, even when the objects documented from the module changed, so an incremental build can
    keep a page without the anchors that new "[source]" links point at. Each build writes them
    all again (a second or so)."""
    shutil.rmtree(pathlib.Path(app.outdir) / "_modules", ignore_errors=True)


def setup(app):
    app.connect("builder-inited", _remove_source_pages)
    app.add_directive("taipan-config-table", ConfigTable)
    app.add_directive("taipan-exported-values", ExportedValues)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
