"""Display names of game components for the web app, read from each game's content files.

The views name components by id (an Imperium card ``CAR22``, a Tapestry tech card ``13``);
the page shows names. ``names()`` walks every content file of every game package and keeps,
per game and per file, each record's ``id`` (or each of its ``ids``) → ``name`` — the content
data stays the only source (nothing is restated here). It also lists, under ``"rulesets"``,
each game's ruleset names from the registry, newest first, for the creation form.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from domain.registry import rulesets_of

GAMES = ("imperium", "tapestry", "riseandfall")


def _walk(node: Any, found: dict[str, str]) -> None:
    if isinstance(node, dict):
        name = node.get("name")
        if isinstance(name, str):
            listed = node.get("ids")
            ids: list[Any] = listed if isinstance(listed, list) else [node.get("id")]
            for ident in ids:
                if isinstance(ident, str | int) and str(ident) not in found:
                    found[str(ident)] = name
        for value in node.values():
            _walk(value, found)
    elif isinstance(node, list):
        for value in node:
            _walk(value, found)


@functools.cache
def names() -> bytes:
    """``{game: {file stem: {id: name}}, "rulesets": {game: [ruleset, ...]}}`` as JSON bytes
    (computed once)."""
    table: dict[str, Any] = {"rulesets": {game: rulesets_of(game)[::-1] for game in GAMES}}
    for game in GAMES:
        try:
            folder = resources.files(f"domain.{game}").joinpath("content")
        except ModuleNotFoundError:
            continue
        if not folder.is_dir():
            continue
        per_file: dict[str, dict[str, str]] = {}
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".json") or entry.name == "decisions.json":
                continue
            found: dict[str, str] = {}
            _walk(json.loads(entry.read_text(encoding="utf-8")), found)
            if found:
                per_file[entry.name.removesuffix(".json")] = found
        table[game] = per_file
    return json.dumps(table, sort_keys=True).encode()
