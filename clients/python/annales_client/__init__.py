"""``annales_client``: a typed Python client of the Annales gRPC API (``annales.v1``).

* :class:`AnnalesClient` — every RPC as a method; resumable :meth:`~AnnalesClient.watch`,
  paged :meth:`~AnnalesClient.history` and :meth:`~AnnalesClient.list_games`;
* :class:`Seat` — a game id, seat number and bearer token;
* :class:`AnnalesError` and its subclasses — gRPC code + ``google.rpc.ErrorInfo`` reason;
* :mod:`annales_client.games` — actions ↔ domain commands, views/events as plain data;
* :mod:`annales_client.bots` — random and greedy bots playing through the API (any game);
* :mod:`annales_client.tapestry` — Tapestry content names, benefit text, the greedy heuristic.

Example::

    from annales_client import AnnalesClient, play_seats, make_api_bot

    with AnnalesClient("127.0.0.1:50051") as client:
        game = client.create_game("riseandfall", ["ann", "bob", "cy"], seed="s")
        bots = {seat: make_api_bot("random", f"bot{seat.seat}".encode()) for seat in game.seats}
        play_seats(client, bots)
        print(client.get_game(game.game_id).game.scores)
"""

from annales_client.bots import (
    ApiBot,
    GreedyApiBot,
    PlayResult,
    RandomApiBot,
    make_api_bot,
    play_seat,
    play_seats,
)
from annales_client.client import (
    AnnalesClient,
    CreatedGame,
    Seat,
    WatchStats,
    new_key,
    next_listing,
)
from annales_client.errors import (
    AnnalesError,
    IllegalAction,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Unauthenticated,
    Unavailable,
    VersionConflict,
)
from annales_client.games import action_to_command, command_to_action, event_data, view_data

__all__ = [
    "AnnalesClient",
    "AnnalesError",
    "ApiBot",
    "CreatedGame",
    "GreedyApiBot",
    "IllegalAction",
    "InvalidArgument",
    "NotFound",
    "PermissionDenied",
    "PlayResult",
    "RandomApiBot",
    "Seat",
    "Unauthenticated",
    "Unavailable",
    "VersionConflict",
    "WatchStats",
    "action_to_command",
    "command_to_action",
    "event_data",
    "make_api_bot",
    "new_key",
    "next_listing",
    "play_seat",
    "play_seats",
    "view_data",
]
