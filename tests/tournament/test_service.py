"""The tournament application service: people with seat tokens, bots, reports, bad input.

People play their seats as a client would (``GameService.submit`` with the expected
version — the gRPC game RPCs call exactly this); the organiser reports finished games.
Every refused operation raises a typed error and changes nothing.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from domain.bots import RandomBot
from service.app.errors import InvalidArgument
from service.store.config import StoreConfig
from service.tournaments.record import verify_tournament
from service.tournaments.service import (
    GameNotFinished,
    RoundStart,
    TournamentNotFound,
    TournamentRejected,
    TournamentService,
)
from tests.tournament.helpers import fast_dir, tournament_service


def _play_people(service: TournamentService, round_start: RoundStart, nudge: bool = True) -> None:
    """Every person's seat plays (random legal actions) until each game ends.

    ``nudge``: call ``play_bots`` after each move (else the service must follow the games).
    """
    games = service.games
    for game in round_start.games:
        people = {s.seat: s for s in game.seats if s.kind == "person"}
        if not people:
            continue  # bots only: played by play_bots / the followed service
        player = RandomBot(seed=game.game_id.encode())
        while True:
            match = games.head(game.game_id)
            if match.game.is_over(match.state):
                break
            due = [s for s in match.game.pending(match.state).seats if s in people]
            assert due, "a bot seat is pending: the service should have played it"
            seat = due[0]
            command = player.choose(match.game, match.state, seat)
            games.submit(game.game_id, seat, command, expected_version=match.version)
            if nudge:
                service.play_bots(service_tid(game.game_id))


def service_tid(game_id: str) -> str:
    """The tournament id of a tournament game id (``{tid}-r{round}-t{table}``)."""
    return game_id.rsplit("-r", 1)[0]


def test_people_and_bots_play_a_swiss_tournament(tmp_path: Path) -> None:
    """Two people and a bot (3 entrants: a bye each round), 2 Swiss rounds of Tapestry."""
    with fast_dir(tmp_path) as base:
        _people_and_bots(base)


def _people_and_bots(base: Path) -> None:
    service = tournament_service(base / "t.db")
    created = service.create(
        "tapestry", format="swiss", rounds=2, master_seed=b"people", tournament_id="tournament-p"
    )
    tid = created.tournament_id
    assert created.seed_commitment == hashlib.sha256(b"people").hexdigest()
    service.register(tid, "Ann")
    service.register(tid, "Bob")
    service.register(tid, "Robot", kind="bot", bot="random")
    first = service.start(tid)
    assert first.round == 1 and len(first.games) == 1 and len(first.byes) == 1
    for game in first.games:
        stored = service.games.store.load_token_hashes(game.game_id)
        for seat in game.seats:
            if seat.kind == "person":
                assert seat.token is not None
                assert seat.token.startswith(f"{game.game_id}.{seat.seat}.")
                assert hashlib.sha256(seat.token.encode()).hexdigest() == stored[seat.seat]
            else:
                assert seat.token is None
        with pytest.raises(GameNotFinished):
            service.report(tid, game.game_id)
    _play_people(service, first)
    state = service.state(tid)
    for game in state.round_games(1):
        if game.game_id not in state.results:  # not reported by play_bots on the way
            assert service.report(tid, game.game_id).next_round is not None
    second = service.round(tid)
    assert second.round == 2
    assert service.round(tid, 1).games == first.games  # the same tokens, shown again
    assert service.standings(tid).rounds_completed == 1
    _play_people(service, second)
    service.play_bots(tid)
    service.report_finished(tid)
    final = service.standings(tid)
    assert final.ended and final.master_seed == b"people".hex()
    assert [row.rank for row in final.rows] == [1, 2, 3]
    assert sum(row.byes for row in final.rows) == 2
    assert sorted(row.byes for row in final.rows) in ([0, 1, 1], [0, 0, 2])
    report = verify_tournament(service.export(tid))
    assert report.ok, report.message


def test_followed_games_report_themselves(tmp_path: Path) -> None:
    """With ``follow()``, bots answer people and finished games record their results.

    Two people and two bots, two Swiss rounds of Tapestry: the people only play their own
    seats; the tournament pairs round 2 and ends without any ``report`` or ``play_bots``.
    """
    with fast_dir(tmp_path) as base:
        _followed_tournament(base)


def _followed_tournament(base: Path) -> None:
    service = tournament_service(base / "t.db")
    service.follow()
    tid = service.create(
        "tapestry", rounds=2, master_seed=b"follow", tournament_id="tournament-f"
    ).tournament_id
    for name in ("Ann", "Bob"):
        service.register(tid, name)
    for name in ("R1", "R2"):
        service.register(tid, name, kind="bot", bot="random")
    _play_people(service, service.start(tid), nudge=False)
    assert service.standings(tid).rounds_completed == 1
    _play_people(service, service.round(tid), nudge=False)
    final = service.standings(tid)
    assert final.ended and final.rounds_completed == 2
    assert sum(row.points for row in final.rows) == 4 * 2
    assert verify_tournament(service.export(tid)).ok


def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """Each refusal is typed, names its rule, and leaves the stored tournament as it was."""
    service = tournament_service(tmp_path / "t.db")
    with pytest.raises(InvalidArgument):
        service.create("chess")
    with pytest.raises(InvalidArgument) as bad_size:
        service.create("riseandfall", table_size=9)
    assert bad_size.value.reason == "BAD_TABLE_SIZE"
    with pytest.raises(InvalidArgument) as bad_options:  # the game's own setup refuses them
        service.create("imperium", options={"nations": ["romans"]})
    assert bad_options.value.reason == "BAD_OPTIONS"
    with pytest.raises(TournamentRejected) as bad_format:
        service.create("riseandfall", format="knockout")
    assert bad_format.value.reason == "UNKNOWN_FORMAT"
    with pytest.raises(TournamentRejected) as rr_size:
        service.create("riseandfall", format="round_robin", table_size=3)
    assert rr_size.value.reason == "ROUND_ROBIN_TABLE_SIZE"
    with pytest.raises(TournamentNotFound):
        service.standings("tournament-missing")

    tid = service.create("imperium", master_seed=b"x", tournament_id="tournament-b").tournament_id
    with pytest.raises(TournamentRejected) as exists:
        service.create("imperium", master_seed=b"y", tournament_id=tid)
    assert exists.value.reason == "TOURNAMENT_EXISTS"
    service.register(tid, "Ann")
    before = service.envelopes(tid)
    with pytest.raises(TournamentRejected) as duplicate:
        service.register(tid, "Ann")
    assert duplicate.value.reason == "DUPLICATE_NAME"
    with pytest.raises(InvalidArgument):
        service.register(tid, "Hal", kind="bot", bot="oracle")
    with pytest.raises(TournamentRejected) as kind:
        service.register(tid, "Eve", kind="alien")
    assert kind.value.reason == "UNKNOWN_ENTRANT_KIND"
    with pytest.raises(TournamentRejected) as few:
        service.start(tid)
    assert few.value.reason == "TOO_FEW_ENTRANTS"
    with pytest.raises(TournamentRejected) as early:
        service.export(tid)
    assert early.value.reason == "TOURNAMENT_NOT_ENDED"
    assert service.envelopes(tid) == before

    service.register(tid, "Bob")
    service.start(tid)
    after_start = service.envelopes(tid)
    with pytest.raises(TournamentRejected) as late:
        service.register(tid, "Cy")
    assert late.value.reason == "ALREADY_STARTED"
    with pytest.raises(TournamentRejected) as unknown:
        service.report(tid, "some-other-game")
    assert unknown.value.reason == "NOT_A_TOURNAMENT_GAME"
    with pytest.raises(TournamentRejected) as people:
        service.run(tid)
    assert people.value.reason == "PEOPLE_MUST_PLAY"
    assert service.envelopes(tid) == after_start


@pytest.mark.postgres
def test_bot_tournament_on_postgres(pg_config: StoreConfig) -> None:
    """The tournament log and its games on the real PostgreSQL server; the record verifies."""
    from service.app.application import GameService
    from service.store.eventstore import EventStore

    store = EventStore(pg_config)
    try:
        service = TournamentService(GameService(store))
        tid = service.create(
            "imperium", format="round_robin", master_seed=b"pg", tournament_id="tournament-pg"
        ).tournament_id
        for name in ("A", "B"):
            service.register(tid, name, kind="bot", bot="random")
        rows = service.run(tid)
        assert [r.rank for r in rows] == [1, 2]
        report = verify_tournament(service.export(tid))
        assert report.ok, report.message
    finally:
        store.close()
