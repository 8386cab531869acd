"""``annales.v1.TournamentService`` through a real server subprocess.

A Swiss tournament of two people and two bots: created, entrants registered, started; the
people play their games through the normal game RPCs with the seat tokens the tournament
returned (the bots answer by themselves), the organiser reports the results; standings,
export and verification of the record (and of a tampered copy). Plus the proto lint and the
typed errors.
"""

from __future__ import annotations

import hashlib
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc
from annales.v1 import tournament_pb2 as tpb
from annales.v1 import tournament_pb2_grpc as tpb_grpc
from google.protobuf import descriptor_pb2

from domain.core import Chance
from service.tournaments.record import verify_tournament
from tests.api.conftest import ServerProcess
from tests.api.helpers import auth, expect_error
from tests.api.protocheck import aip_problems, compile_proto, missing_comments, stale_stubs

PERSON = tpb.TOURNAMENT_ENTRANT_KIND_PERSON
BOT = tpb.TOURNAMENT_ENTRANT_KIND_BOT


@pytest.fixture
def tournaments(channel: grpc.Channel) -> tpb_grpc.TournamentServiceStub:
    """A ``TournamentService`` stub on the session's server."""
    return tpb_grpc.TournamentServiceStub(channel)


def _create(stub: tpb_grpc.TournamentServiceStub, seed: str) -> tpb.CreateTournamentResponse:
    return stub.CreateTournament(
        tpb.CreateTournamentRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL,
            options=pb.GameOptions(rise_and_fall={}),
            format=tpb.TOURNAMENT_FORMAT_SWISS,
            rounds=2,
            table_size=2,
            name="API cup",
            master_seed=seed,
        )
    )


def _play_people(
    games: annales_pb2_grpc.GameServiceStub, game: tpb.TournamentGame, bot_seed: bytes
) -> int:
    """Play the people's seats of ``game`` (uniform random legal actions) to the end; check
    that whenever nobody of them is pending the game is over (the bots answered at once)."""
    tokens = {seat.seat: seat.token for seat in game.seats if seat.kind == PERSON}
    assert tokens and all(tokens.values())
    steps = 0
    while True:
        anyone = next(iter(tokens))
        legal = games.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=auth(tokens[anyone])
        )
        pending = [s for s in legal.pending.seats if s in tokens]
        if not legal.pending.seats:
            return steps
        assert pending, f"bot seats {list(legal.pending.seats)} did not answer"
        seat = pending[0]
        if seat != anyone:
            legal = games.ListLegalActions(
                pb.ListLegalActionsRequest(game_id=game.game_id), metadata=auth(tokens[seat])
            )
        steps += 1
        action = Chance(bot_seed, steps).choice(list(legal.actions))
        games.SubmitAction(
            pb.SubmitActionRequest(
                game_id=game.game_id, action=action, expected_version=legal.version
            ),
            metadata=auth(tokens[seat]),
        )


def test_tournament_with_people_and_bots_through_the_api(
    tournaments: tpb_grpc.TournamentServiceStub, stub: annales_pb2_grpc.GameServiceStub
) -> None:
    """Create, register (2 people, 2 bots), start, play the people's games through
    GameService, report, standings, export, verify — end to end on a real server."""
    created = _create(tournaments, "api-master-seed")
    tid = created.tournament_id
    organiser = auth(created.organiser_token)
    names = [
        ("Ann", PERSON, ""),
        ("Bob", PERSON, ""),
        ("Rex", BOT, "random"),
        ("Zed", BOT, "random"),
    ]
    for number, (name, kind, bot) in enumerate(names):
        answer = tournaments.RegisterEntrant(
            tpb.RegisterEntrantRequest(tournament_id=tid, name=name, kind=kind, bot=bot),
            metadata=organiser,
        )
        assert (answer.entrant.entrant, answer.entrant.name) == (number, name)
    started = tournaments.StartTournament(
        tpb.StartTournamentRequest(tournament_id=tid), metadata=organiser
    )
    rounds = list(started.rounds)
    assert rounds[0].round == 1 and len(rounds[0].games) == 2
    reported: list[str] = []
    ended = started.ended
    while not ended:
        current = rounds.pop(0)
        for game in current.games:
            seats = {s.kind for s in game.seats}
            for seat in game.seats:  # a token for each person's seat, none for a bot's
                assert bool(seat.token) == (seat.kind == PERSON)
            if PERSON not in seats:
                continue  # played by the bots when the round opened, recorded already
            _play_people(stub, game, game.game_id.encode())
            answer = tournaments.ReportResult(
                tpb.ReportResultRequest(tournament_id=tid, game_id=game.game_id),
                metadata=organiser,
            )
            reported.append(game.game_id)
            rounds.extend(answer.rounds)
            ended = answer.ended
        assert ended or rounds, "a round completed without opening the next"
    again = tournaments.ReportResult(
        tpb.ReportResultRequest(tournament_id=tid, game_id=reported[0]), metadata=organiser
    )
    assert again.already_recorded and again.ended

    standings = tournaments.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
    assert standings.ended and standings.rounds_completed == 2
    assert standings.format == tpb.TOURNAMENT_FORMAT_SWISS
    assert hashlib.sha256(bytes.fromhex(standings.master_seed)).hexdigest() == (
        created.seed_commitment
    )
    assert [r.rank for r in standings.rows] == [1, 2, 3, 4]
    assert sorted(r.name for r in standings.rows) == ["Ann", "Bob", "Rex", "Zed"]
    assert sum(r.games for r in standings.rows) == 2 * 2 * 2  # 2 rounds x 2 tables x 2 seats

    record = tournaments.ExportTournamentRecord(
        tpb.ExportTournamentRecordRequest(tournament_id=tid)
    ).record
    verified = tournaments.VerifyTournamentRecord(tpb.VerifyTournamentRecordRequest(record=record))
    assert verified.ok, verified.message
    assert verified.tournament_id == tid and verified.games == 4 and not verified.problems
    assert verify_tournament(record.splitlines()).ok  # and here, offline

    lines = record.splitlines()
    assert lines[-1].startswith(b'{"type":"standings"')
    lines[-1] = lines[-1].replace(b'"rank":1', b'"rank":5', 1)  # a wrong standing
    tampered = tournaments.VerifyTournamentRecord(
        tpb.VerifyTournamentRecordRequest(record=b"\n".join(lines) + b"\n")
    )
    assert not tampered.ok and tampered.problems


def test_typed_errors(
    tournaments: tpb_grpc.TournamentServiceStub, stub: annales_pb2_grpc.GameServiceStub
) -> None:
    """Organiser token required, bad fields named, unknown tournament, rules' codes; nothing
    changes on a refused call."""
    created = _create(tournaments, "errors-seed")
    tid = created.tournament_id
    organiser = auth(created.organiser_token)

    def register(name: str, kind: Any = BOT, bot: str = "random", md: Any = organiser) -> Any:
        request = tpb.RegisterEntrantRequest(tournament_id=tid, name=name, kind=kind, bot=bot)
        return tournaments.RegisterEntrant(request, metadata=md)

    assert expect_error(register, "X", md=None).code == grpc.StatusCode.UNAUTHENTICATED
    other = _create(tournaments, "other-seed")
    wrong = expect_error(register, "X", md=auth(other.organiser_token))
    assert wrong.code == grpc.StatusCode.PERMISSION_DENIED
    assert expect_error(register, "X", kind=0).metadata["field"] == "kind"
    assert expect_error(register, "X", bot="").metadata["field"] == "bot"
    assert expect_error(register, "X", bot="nobody").reason == "UNKNOWN_BOT"
    unknown = expect_error(
        tournaments.GetStandings, tpb.GetStandingsRequest(tournament_id="tournament-nope")
    )
    assert (unknown.code, unknown.reason) == (grpc.StatusCode.NOT_FOUND, "TOURNAMENT_NOT_FOUND")
    bad = expect_error(
        tournaments.CreateTournament,
        tpb.CreateTournamentRequest(game_type=pb.GAME_TYPE_RISE_AND_FALL),
    )
    assert (bad.code, bad.metadata["field"]) == (grpc.StatusCode.INVALID_ARGUMENT, "format")
    too_big = expect_error(
        tournaments.CreateTournament,
        tpb.CreateTournamentRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL, format=tpb.TOURNAMENT_FORMAT_SWISS,
            table_size=9,
        ),
    )  # fmt: skip
    assert too_big.code == grpc.StatusCode.INVALID_ARGUMENT
    register("A")
    duplicate = expect_error(register, "A")
    assert (duplicate.code, duplicate.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "DUPLICATE_NAME",
    )
    not_ended = expect_error(
        tournaments.ExportTournamentRecord, tpb.ExportTournamentRecordRequest(tournament_id=tid)
    )
    assert not_ended.code == grpc.StatusCode.FAILED_PRECONDITION
    garbage = tournaments.VerifyTournamentRecord(
        tpb.VerifyTournamentRecordRequest(record=b"not a record\n")
    )
    assert not garbage.ok
    standings = tournaments.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
    assert [r.name for r in standings.rows] == ["A"] and not standings.ended


def test_bot_tournament_is_played_by_start(
    tournaments: tpb_grpc.TournamentServiceStub, server: ServerProcess
) -> None:
    """Bots alone: StartTournament plays every round (each opened round is returned, no
    tokens) and the record verifies."""
    created = _create(tournaments, "bots-only")
    tid = created.tournament_id
    organiser = auth(created.organiser_token)
    for name in ("a", "b", "c"):
        tournaments.RegisterEntrant(
            tpb.RegisterEntrantRequest(tournament_id=tid, name=name, kind=BOT, bot="random"),
            metadata=organiser,
        )
    started = tournaments.StartTournament(
        tpb.StartTournamentRequest(tournament_id=tid), metadata=organiser
    )
    assert started.ended and [r.round for r in started.rounds] == [1, 2]
    assert all(len(r.byes) == 1 for r in started.rounds)
    assert not any(s.token for r in started.rounds for g in r.games for s in g.seats)
    record = tournaments.ExportTournamentRecord(
        tpb.ExportTournamentRecordRequest(tournament_id=tid)
    ).record
    assert tournaments.VerifyTournamentRecord(tpb.VerifyTournamentRecordRequest(record=record)).ok


# -- the proto: comments, AIP names, current stubs --------------------------------------------


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> descriptor_pb2.FileDescriptorProto:
    """tournament.proto compiled now, with its comments."""
    return compile_proto(tmp_path_factory.mktemp("proto"), "annales/v1/tournament.proto")


def test_proto_lint(compiled: descriptor_pb2.FileDescriptorProto) -> None:
    """Every element commented, AIP / buf names, generated stubs current (``make proto``)."""
    assert missing_comments(compiled) == []
    assert aip_problems(compiled, "") == []
    assert not stale_stubs(compiled, tpb.DESCRIPTOR.serialized_pb)
