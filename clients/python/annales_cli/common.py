"""What the commands share: server address, the tokens file, errors, list types, the console.

* Server: ``--server HOST:PORT``, else ``$ANNALES_SERVER``, else the server the game was
  created on (from the tokens file), else ``127.0.0.1:50051``.
* Tokens: ``annales new`` saves the seat tokens to ``--tokens FILE``, else
  ``$ANNALES_TOKENS``, else ``~/.annales/tokens.json`` (mode 0600); later commands find a game's
  tokens there by id or by a unique id prefix; any other prefix is resolved by the server's
  game list (:func:`resolve_game_id`).
* Errors: :class:`SafeGroup` turns every exception that escapes a command into one or two
  readable lines and a non-zero exit status (``ANNALES_DEBUG=1`` shows the traceback);
  :func:`connect` fails within :data:`CONNECT_WAIT` seconds when no server answers.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
import grpc
import typer
from annales_client import AnnalesClient, AnnalesError, Seat
from rich.console import Console
from typer.core import TyperGroup

DEFAULT_SERVER = "127.0.0.1:50051"
#: seconds a command waits for a server to answer before saying there is none.
CONNECT_WAIT = 1.5
console = Console()
err_console = Console(stderr=True)
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


def no_server(target: str) -> str:
    """The message for a server that does not answer."""
    return f"no server at {target} — start one with `make run` (or pass --server HOST:PORT)"


def connect(server: str | None, saved: SavedGame | None = None) -> AnnalesClient:
    """A client of the chosen server, connected (exits with :func:`no_server`'s message when
    nothing answers within :data:`CONNECT_WAIT` seconds)."""
    client = AnnalesClient(server_for(server, saved))
    try:
        client.wait_ready(CONNECT_WAIT)
    except AnnalesError:
        client.close()
        fail(no_server(client.target))
    return client


def resolve_game_id(
    game_id: str, path: Path | None, client: AnnalesClient | None = None
) -> tuple[str, SavedGame | None]:
    """The full game id and its saved entry (``None`` when the tokens file has none).

    A whole id or a unique prefix of a game in the tokens file resolves there; otherwise,
    with ``client``, a unique prefix of a game the server lists resolves through it. Several
    matches or none exit with a message.
    """
    saved = find_game(game_id, path)
    if saved is not None or client is None:
        return (saved.game_id if saved else game_id), saved
    matches: list[str] = []
    for summary in client.list_games(page_size=500):
        if summary.game_id == game_id:
            return game_id, None
        if summary.game_id.startswith(game_id):
            matches.append(summary.game_id)
    if len(matches) > 1:
        fail(f"{game_id!r} matches several games: {', '.join(matches[:5])}; type more of it")
    if not matches:
        fail(f"no game {game_id!r} on {client.target} (see `annales games`)")
    return matches[0], find_game(matches[0], path)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` (on standard error) and exit with ``code``."""
    err_console.print(f"[red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def describe_exception(error: BaseException) -> str:
    """One readable line for an exception that escaped a command."""
    from domain.core.errors import RuleViolation
    from service.app.errors import ServiceError
    from service.settings import SettingError

    if isinstance(error, AnnalesError):
        if error.code == grpc.StatusCode.UNAVAILABLE:
            return f"the server does not answer ({error.message}) — is it running? (`make run`)"
        reason = f" ({error.reason})" if error.reason else ""
        return f"{error.code.name}{reason}: {error.message}"
    if isinstance(error, ServiceError):
        return f"{error.reason}: {error.message}"
    if isinstance(error, SettingError):
        return str(error)
    if type(error).__name__ == "OperationalError" and type(error).__module__.startswith("psycopg"):
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return f"cannot use the PostgreSQL database: {first} (see ANNALES_PG_* settings)"
    if isinstance(error, RuleViolation):
        return f"{error.code}: {error.message}"
    if isinstance(error, OSError) and error.strerror:
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror}{where}"
    if isinstance(error, OSError) and str(error):
        return str(error)
    if isinstance(error, grpc.RpcError):
        call: Any = error
        return f"{call.code().name}: {call.details()}"
    return f"unexpected {type(error).__name__}: {error} (ANNALES_DEBUG=1 shows the traceback)"


def _usage_classes() -> tuple[type[BaseException], ...]:
    """The exceptions the command-line framework handles itself (exits, usage errors), for
    click and for Typer's own copy of it (recent Typer releases vendor click)."""
    found: list[type[BaseException]] = [
        typer.Exit, typer.Abort, click.exceptions.Exit, click.ClickException, click.Abort,
    ]  # fmt: skip
    found += [c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"]
    return tuple(found)


_USAGE = _usage_classes()


class SafeGroup(TyperGroup):
    """The CLI's root command group: an exception escaping a command prints one readable
    line on standard error and exits 1 (130 on Ctrl-C) — never a traceback, unless
    ``ANNALES_DEBUG=1``."""

    def invoke(self, ctx: Any) -> Any:
        """Run the command, turning stray exceptions into messages."""
        try:
            return super().invoke(ctx)
        except _USAGE:
            raise
        except KeyboardInterrupt:
            err_console.print("interrupted")
            raise typer.Exit(130) from None
        except BrokenPipeError:  # the reader went away (``annales history … | head``)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit stays quiet
            raise typer.Exit(1) from None
        except Exception as error:
            if os.environ.get("ANNALES_DEBUG"):
                raise
            err_console.print(
                f"[red]error:[/] {describe_exception(error)}", highlight=False, soft_wrap=True
            )
            raise typer.Exit(1) from None


def comma_ints(value: str | list[int]) -> list[int]:
    """Parse one ``--seats`` value: ``"1,2"`` -> ``[1, 2]`` (Typer's ``parser``; a bad item
    is a usage error naming the option).

    >>> comma_ints("1, 2")
    [1, 2]
    """
    if isinstance(value, list):
        return value
    parts = [p.strip() for p in str(value).split(",") if p.strip()]
    bad = [p for p in parts if not p.lstrip("-").isdigit()]
    if bad:
        raise typer.BadParameter(f"{', '.join(bad)} is not a seat number (e.g. 1,2)")
    return [int(p) for p in parts]


def comma_names(value: str | list[str]) -> list[str]:
    """Parse one comma-separated list value: ``"ann, bob"`` -> ``["ann", "bob"]``.

    >>> comma_names("ann, bob,")
    ['ann', 'bob']
    """
    if isinstance(value, list):
        return value
    return [p.strip() for p in str(value).split(",") if p.strip()]


def flatten(values: list[Any] | None) -> list[Any]:
    """The items of a repeated comma-list option (a list of lists) in order."""
    out: list[Any] = []
    for value in values or []:
        out.extend(value if isinstance(value, list) else [value])
    return out


def stdout_is_terminal() -> bool:
    """True when standard output is a terminal (progress bars, colours)."""
    return sys.stdout.isatty()


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
