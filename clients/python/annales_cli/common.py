"""What the network commands share: server address, the tokens file, errors, the console.

* Server: ``--server HOST:PORT``, else ``$ANNALES_SERVER``, else the server the game was
  created on (from the tokens file), else ``127.0.0.1:50051``.
* Tokens: ``annales new`` saves the seat tokens to ``--tokens FILE``, else
  ``$ANNALES_TOKENS``, else ``~/.annales/tokens.json`` (mode 0600); later commands find a game's
  tokens there by id or by a unique id prefix.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import typer
from annales_client import AnnalesClient, AnnalesError, Seat
from rich.console import Console

DEFAULT_SERVER = "127.0.0.1:50051"
console = Console()
F = TypeVar("F", bound=Callable[..., Any])

SERVER_HELP = "Server HOST:PORT (default $ANNALES_SERVER, the game's server, or 127.0.0.1:50051)."
TOKENS_HELP = "Tokens file (default $ANNALES_TOKENS or ~/.annales/tokens.json)."


def tokens_path(path: Path | None) -> Path:
    """The tokens file to use."""
    if path is not None:
        return path
    env = os.environ.get("ANNALES_TOKENS")
    return Path(env) if env else Path.home() / ".annales" / "tokens.json"


@dataclass
class SavedGame:
    """A game's entry in the tokens file."""

    game_id: str
    game: str
    server: str
    seats: list[dict[str, Any]] = field(default_factory=list)

    def seat(self, number: int) -> Seat:
        """The :class:`Seat` of seat ``number`` (exits with a message when unknown)."""
        for entry in self.seats:
            if int(entry["seat"]) == number:
                return Seat(self.game_id, number, str(entry["token"]), str(entry.get("name", "")))
        fail(f"no token for seat {number} of game {self.game_id} in the tokens file")

    @property
    def names(self) -> list[str]:
        """Seat names by seat number."""
        return [str(s.get("name", "")) for s in sorted(self.seats, key=lambda s: int(s["seat"]))]


def load_tokens(path: Path | None) -> dict[str, Any]:
    """The tokens file's content (empty when missing)."""
    file = tokens_path(path)
    if not file.exists():
        return {}
    data: dict[str, Any] = json.loads(file.read_text() or "{}")
    return data


def save_game(path: Path | None, saved: SavedGame) -> Path:
    """Add ``saved`` to the tokens file (created with mode 0600); returns its path."""
    file = tokens_path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    data = load_tokens(path)
    data[saved.game_id] = {"game": saved.game, "server": saved.server, "seats": saved.seats}
    tmp = file.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True))
    tmp.chmod(0o600)
    tmp.replace(file)
    return file


def find_game(game_id: str, path: Path | None) -> SavedGame | None:
    """A game of the tokens file by id or unique id prefix (``None`` when absent)."""
    data = load_tokens(path)
    matches = [g for g in data if g == game_id] or [g for g in data if g.startswith(game_id)]
    if len(matches) > 1:
        fail(f"{game_id!r} matches several games: {', '.join(matches)}")
    if not matches:
        return None
    entry = data[matches[0]]
    return SavedGame(
        matches[0],
        str(entry.get("game", "riseandfall")),
        str(entry.get("server", "")),
        list(entry.get("seats", [])),
    )


def need_game(game_id: str, path: Path | None) -> SavedGame:
    """:func:`find_game`, exiting with a message when the game has no saved tokens."""
    saved = find_game(game_id, path)
    if saved is None:
        fail(
            f"no tokens for game {game_id!r} in {tokens_path(path)} (create it with "
            "`annales new`, or pass --tokens)"
        )
    return saved


def server_for(server: str | None, saved: SavedGame | None = None) -> str:
    """The server address to use (see the module docstring)."""
    return server or (saved.server if saved and saved.server else "") or DEFAULT_SERVER


def connect(server: str | None, saved: SavedGame | None = None) -> AnnalesClient:
    """A client of the chosen server."""
    return AnnalesClient(server_for(server, saved))


def resolve_game_id(game_id: str, path: Path | None) -> tuple[str, SavedGame | None]:
    """The full game id (prefixes are resolved in the tokens file) and its saved entry."""
    saved = find_game(game_id, path)
    return (saved.game_id if saved else game_id), saved


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` in red and exit with ``code``."""
    console.print(f"[red]error:[/] {message}")
    raise typer.Exit(code)


def api_errors(function: F) -> F:
    """Print an :class:`AnnalesError` as one readable line and exit 1 instead of a traceback."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except AnnalesError as error:
            reason = f" ({error.reason})" if error.reason else ""
            fail(f"{error.code.name}{reason}: {error.message}")

    return wrapper  # type: ignore[return-value]
