"""``{maumau-cli}``: every command of ``maumau`` from its argparse parser (``maumau.cli.build_parser``).

Each command and subcommand becomes a section holding its help as argparse prints it, so the page
says exactly what ``maumau COMMAND --help`` says, and a new option appears without an edit here.
No network, no extra package: the parser is built in the Sphinx process.
"""

from __future__ import annotations

import argparse
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

WIDTH = 100  # columns of the help text (argparse wraps at $COLUMNS)


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """The parser's subcommands in the order they were added."""
    for action in parser._actions:  # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.items())
    return []


def _help(parser: argparse.ArgumentParser) -> str:
    formatter = parser.formatter_class
    parser.formatter_class = lambda prog: formatter(prog, width=WIDTH)  # type: ignore[misc,assignment]
    try:
        return parser.format_help()
    finally:
        parser.formatter_class = formatter


def _section(name: str, parser: argparse.ArgumentParser, document: Any) -> nodes.section:
    section = nodes.section(ids=[nodes.make_id(f"cli-{name}")], names=[nodes.fully_normalize_name(name)])
    section += nodes.title(text=name)
    text = _help(parser)
    section += nodes.literal_block(text, text, language="text")
    for sub_name, sub in _subcommands(parser):
        section += _section(f"{name} {sub_name}", sub, document)
    return section


class MaumauCli(Directive):
    """Sections for ``maumau`` and each of its commands, in the parser's order."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from maumau.cli import build_parser

        parser = build_parser()
        parser.prog = "maumau"
        document = self.state.document
        top = _section("maumau", parser, document)
        return list(top.children[1:])  # the page has its own title


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("maumau-cli", MaumauCli)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
