"""Sphinx directives of the taipan manual that render facts from the code, so that the manual
never keeps a second copy of them: ``taipan-config-table`` lists ``taipan.config.OPTIONS``."""

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


def setup(app):
    app.add_directive("taipan-config-table", ConfigTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
