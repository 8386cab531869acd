"""What a long-running server keeps per game is bounded: it does not grow with every game the
server has ever seen.

The application's per-game locks and the broadcaster's per-game conditions live only while
someone refers to them; the broadcaster keeps the newest version of at most
``versions_kept`` games. Exclusion and wake-ups are unchanged (checked with real threads).
"""

from __future__ import annotations

import threading

from service.api.watch import Broadcaster
from service.app.application import GameService


def _new(service: GameService, seed: bytes) -> str:
    return service.create_game("riseandfall", {}, ["p0", "p1"], seed).game_id


def _first_legal(service: GameService, game_id: str) -> tuple[int, object]:
    match = service.head(game_id)
    seat = match.game.pending(match.state).seats[0]
    return seat, match.game.legal_actions(match.state, seat)[0]


def test_game_locks_do_not_outlive_their_use(service: GameService) -> None:
    """Games played one command each on a real SQLite store, more than the game cache
    holds: once no call is in progress, no per-game lock is left."""
    games = [_new(service, f"bounded-{n}".encode()) for n in range(300)]
    for game_id in games:
        seat, command = _first_legal(service, game_id)
        service.submit(game_id, seat, command)  # type: ignore[arg-type]
        with service.lock(game_id):
            assert service.head(game_id).version > 1
    assert len(service._locks) == 0


def test_a_held_game_lock_is_the_one_every_caller_gets(service: GameService) -> None:
    """While a thread holds a game's lock, another asking for that game's lock gets the same
    one and waits for it: exclusion is unchanged."""
    game_id = _new(service, b"bounded-held")
    held, release, order = threading.Event(), threading.Event(), []

    def holder() -> None:
        with service.lock(game_id):
            held.set()
            release.wait(5)
            order.append("holder")

    def waiter() -> None:
        with service.lock(game_id):
            order.append("waiter")

    first = threading.Thread(target=holder)
    first.start()
    assert held.wait(5)
    second = threading.Thread(target=waiter)
    second.start()
    second.join(0.2)
    assert second.is_alive() and order == []  # blocked on the held lock
    release.set()
    first.join(5)
    second.join(5)
    assert order == ["holder", "waiter"]
    assert len(service._locks) == 0


def test_the_broadcaster_keeps_a_bounded_number_of_versions() -> None:
    """Past ``versions_kept`` games, the least recently announced is forgotten (read as 0);
    the newest are kept."""
    broadcaster = Broadcaster(poll_seconds=0.05, versions_kept=10)
    for n in range(50):
        broadcaster.moved(f"g{n}", n + 1)
    assert [broadcaster.known_version(f"g{n}") for n in (0, 39, 40, 49)] == [0, 0, 41, 50]
    broadcaster.moved("g45", 99)  # announced again: the most recent
    for n in range(50, 59):
        broadcaster.moved(f"g{n}", 1)
    assert broadcaster.known_version("g45") == 99
    assert broadcaster.known_version("g46") == 0


def test_a_watcher_is_woken_and_its_condition_then_goes() -> None:
    """A watcher waiting on a game (even one whose version was forgotten) is woken by the
    next announcement, well before the poll; once no one waits, its condition is gone."""
    broadcaster = Broadcaster(poll_seconds=30, versions_kept=1)
    broadcaster.moved("watched", 3)
    broadcaster.moved("other", 1)  # "watched" is forgotten
    woke = threading.Event()

    def watch() -> None:
        broadcaster.wait("watched", 3)
        woke.set()

    thread = threading.Thread(target=watch)
    thread.start()
    for _ in range(100):
        if len(broadcaster._conditions) == 1:
            break
        thread.join(0.01)
    assert len(broadcaster._conditions) == 1
    broadcaster.moved("watched", 4)
    assert woke.wait(5)
    thread.join(5)
    assert len(broadcaster._conditions) == 0
