"""Generate ``docs/cli.md`` from the CLI itself (Typer's command tree), so it cannot drift.

``make docs`` (or ``python -m annales_cli.docgen > docs/cli.md``) writes it;
``tests/clients/test_docs.py`` fails when the committed file differs from the generated text.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from annales_cli.main import app

WIDTH = 88
HEADER = """# `annales` command reference

Generated from the CLI itself by `make docs` (`python -m annales_cli.docgen > docs/cli.md`);
do not edit by hand — a test compares this file with the generated text. Every command
answers `--help` with the same text.

Network commands find the server with `--server HOST:PORT`, else `$ANNALES_SERVER`, else the
server the game was created on (tokens file), else `127.0.0.1:50051`. Every error is a message
on standard error and a non-zero exit status (1: the command failed, 2: bad usage).

Store commands (`tournament`, `campaign`, `demo`, `simulate`, `projections`, and `export` /
`verify` with `--db`) open an event store themselves: `--db FILE`, else `$ANNALES_DB`, else
`data/annales.db` **relative to the current directory** — the file `make run`'s server uses when
run from the repository's root. Their games are served by any server on the same store, and
people play them through it (`annales join TOKEN`). A server on a tournament's store also
records finished tournament games and pairs the next round by itself, as soon as a game ends;
`annales tournament round TID` then shows the new round's seat tokens. Seeds are revealed in hex
(the UTF-8 bytes of the text given: `--seed s1` is revealed as `7331`, shown with its text).
"""


def _commands(command: Any, path: list[str]) -> list[tuple[list[str], Any]]:
    """Every command under ``command`` with its full name, depth first, sorted by name."""
    found = [(path, command)]
    for name in sorted(getattr(command, "commands", {}) or {}):
        found += _commands(command.commands[name], [*path, name])
    return found


def generate() -> str:
    """The Markdown text of ``docs/cli.md``."""
    os.environ["COLUMNS"] = str(WIDTH)
    os.environ.pop("ANNALES_SERVER", None)
    root = typer.main.get_command(app)
    parts = [HEADER]
    index = []
    for path, command in _commands(root, ["annales"]):
        name = " ".join(path)
        index.append(f"- [`{name}`](#{name.replace(' ', '-')}) — {_short(command)}")
    parts.append("## Commands\n\n" + "\n".join(index) + "\n")
    for path, command in _commands(root, ["annales"]):
        name = " ".join(path)
        context = root.context_class(command, info_name=name, terminal_width=WIDTH,
                                     max_content_width=WIDTH)  # fmt: skip
        help_text = command.get_help(context).rstrip()
        parts.append(f"## {name}\n\n```text\n{help_text}\n```\n")
    return "\n".join(parts)


def _short(command: Any) -> str:
    text = (command.short_help or command.help or "").strip().splitlines()
    first = text[0] if text else ""
    return first.rstrip(".") if first else "(no help)"


def main() -> None:
    """Print the generated reference."""
    sys.stdout.write(generate())


if __name__ == "__main__":
    main()
