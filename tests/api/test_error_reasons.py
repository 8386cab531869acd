"""Reasons of errors.proto that no other test met: each one provoked and checked.

The undo reasons go through a real server; the rule codes of the games are provoked on the
rules engine itself (``Ledger``: the same decide the server runs), several with commands built
in Python that the API's decoder would refuse earlier (its answer is then MALFORMED_ACTION).
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from domain.core.errors import RuleViolation
from domain.registry import get_codec
from domain.riseandfall.commands import Activate, ChooseCard, Deploy, PlaceTile
from domain.riseandfall.placement import _LAYER
from domain.riseandfall.worldbuild import TileMove, TilePlacement, check_placement
from domain.tapestry.commands import ChooseCapital
from domain.tournament import engine
from domain.tournament.engine import TournamentState
from domain.tournament.errors import TournamentError
from service.app.application import GameService
from service.app.errors import InvalidArgument
from service.app.ledger import Ledger
from service.store.config import StoreConfig
from service.store.eventstore import EventStore
from service.tournaments.types import GameNotFinished, TournamentRejected
from tests.api.helpers import create_game, expect_error
from tests.tournament.helpers import tournament_service

SEED = b"error-reasons-seed-0123456789"


def _ledger(
    game: str, options: dict[str, Any] | None = None, seats: int = 2, ruleset: str | None = None
) -> Ledger:
    names = [f"s{i}" for i in range(seats)]
    ledger, _ = Ledger.create("g", game, options or {}, names, SEED, ruleset)
    return ledger


def _refusal(ledger: Ledger, seat: int, command: Any) -> str:
    with pytest.raises(RuleViolation) as refused:
        ledger.submit(seat, command, "probe", SEED, lambda version: None)
    return refused.value.code


def _due(ledger: Ledger) -> int:
    return int(ledger.game.pending(ledger.match.state).seats[0])


def _play_until(ledger: Ledger, decision: str, rounds: int = 1) -> None:
    """Play the first legal action until ``decision`` is pending (the ``rounds``-th time)."""
    seen = 0
    for step in range(2000):
        pending = ledger.game.pending(ledger.match.state)
        if pending.decision == decision:
            seen += 1
            if seen == rounds:
                return
            while ledger.game.pending(ledger.match.state).decision == decision:
                seat = _due(ledger)
                command = ledger.game.legal_actions(ledger.match.state, seat)[0]
                ledger.submit(seat, command, f"w{step}", SEED, lambda version: None)
            continue
        seat = pending.seats[0]
        command = ledger.game.legal_actions(ledger.match.state, seat)[0]
        ledger.submit(seat, command, f"c{step}", SEED, lambda version: None)
    raise AssertionError(f"{decision} never came")


def test_rise_and_fall_deploy_refusals() -> None:
    """Deploy: BAD_CELL, OFF_WORLD, NOT_A_STARTING_PIECE, UNKNOWN_CARD (rulebook
    "Déploiement initial")."""
    ledger = _ledger("riseandfall")
    seat = _due(ledger)
    assert _refusal(ledger, seat, Deploy(piece="nomad", cell=10**6)) == "BAD_CELL"
    assert _refusal(ledger, seat, Deploy(piece="nomad", cell=0)) == "OFF_WORLD"
    assert _refusal(ledger, seat, Deploy(piece="temple", cell=0)) == "NOT_A_STARTING_PIECE"
    unknown: Any = "dragon"
    assert _refusal(ledger, seat, Deploy(piece=unknown, cell=0)) == "UNKNOWN_CARD"


def test_rise_and_fall_actions_and_hand_refusals() -> None:
    """UNKNOWN_ACTION in the actions phase; NOT_IN_HAND for a card played last round."""
    ledger = _ledger("riseandfall")
    _play_until(ledger, "actions")
    seat = _due(ledger)
    action: Any = "fly"
    assert _refusal(ledger, seat, Activate(cell=0, action=action, target=-1)) == "UNKNOWN_ACTION"
    _play_until(ledger, "choose_card")
    seat = _due(ledger)
    state: Any = ledger.match.state
    hand = set(state.seats[seat].hand)
    names = ["nomad", "city", "ship", "mountaineer", "merchant", "temple"]
    missing = [name for kind, name in enumerate(names) if kind not in hand]
    assert missing, "a card played in round 1 has left the hand"
    assert _refusal(ledger, seat, ChooseCard(card=missing[0])) == "NOT_IN_HAND"  # type: ignore[arg-type]


def test_rise_and_fall_world_building_refusals() -> None:
    """ "Création du Monde": WRONG_TILE, BAD_ROTATION, BAD_PLACEMENT through decide;
    UNKNOWN_TILE, BAD_MOVES and MOVE_COVERED from the placement check (square world of
    ``riseandfall/1``, whose coordinates these cases use)."""
    ledger = _ledger("riseandfall", {"world": "players"}, ruleset="riseandfall/1")
    seat = _due(ledger)

    def place(**fields: Any) -> PlaceTile:
        values = {"kind": "sea", "shape": 0, "rotation": 0, "x": 18, "y": 22, "moves": ()}
        return PlaceTile(placement=TilePlacement(**{**values, **fields}))

    assert _refusal(ledger, seat, place(kind="plain")) == "WRONG_TILE"
    # a tile the box does not have is UNKNOWN_TILE, not WRONG_TILE (a stranger's finding)
    assert _refusal(ledger, seat, place(kind="lava")) == "UNKNOWN_TILE"
    assert _refusal(ledger, seat, place(shape=99)) == "UNKNOWN_TILE"
    assert _refusal(ledger, seat, place(rotation=9)) == "BAD_ROTATION"
    assert _refusal(ledger, seat, place(x="a")) == "BAD_PLACEMENT"
    world: Any = _ledger("riseandfall", ruleset="riseandfall/1").match.state.world  # built
    covered = next(
        i
        for i, tile in enumerate(world.tiles)
        if tile.kind == "plain" and any(world.terrain[c] != _LAYER["plain"] for c in tile.cells)
    )
    cases = {
        "UNKNOWN_TILE": TilePlacement("lava", 0, 0, 18, 22, ()),
        "BAD_MOVES": TilePlacement(
            "plain", 0, 0, 18, 22, (TileMove(3, 0, 1, 1), TileMove(1, 0, 1, 1))
        ),
        "MOVE_COVERED": TilePlacement("plain", 0, 0, 18, 22, (TileMove(covered, 0, 1, 1),)),
    }  # fmt: skip
    for code, placement in cases.items():
        with pytest.raises(RuleViolation) as refused:
            check_placement(world, placement)
        assert refused.value.code == code


def test_malformed_and_unknown_commands() -> None:
    """MALFORMED_COMMAND (the codec, and a command built with bad types) and
    UNKNOWN_COMMAND (another game's command)."""
    with pytest.raises(RuleViolation) as malformed:
        get_codec("riseandfall").command_from_data({"type": "Deploy", "piece": 3})
    assert malformed.value.code == "MALFORMED_COMMAND"
    ledger = _ledger("riseandfall")
    odd: Any = None
    assert _refusal(ledger, _due(ledger), Deploy(piece="nomad", cell=odd)) in {
        "MALFORMED_COMMAND",
        "BAD_CELL",
    }
    imperium = _ledger("imperium", {"nations": ["romans", "celts"]})
    assert _refusal(imperium, _due(imperium), Deploy(piece="nomad", cell=1)) == "UNKNOWN_COMMAND"


def test_tapestry_and_imperium_choice_refusals() -> None:
    """NOT_OFFERED (a capital not dealt, rulebook "Mise en place des joueurs") and
    ILLEGAL_CHOICE (an action that does not answer the decision)."""
    tapestry = _ledger("tapestry")
    state: Any = tapestry.match.state
    seat = _due(tapestry)
    offered = {c.capital for c in tapestry.game.legal_actions(state, seat) if hasattr(c, "capital")}
    other = next(c for c in range(1, 100) if c not in offered)
    assert _refusal(tapestry, seat, ChooseCapital(capital=other)) == "NOT_OFFERED"
    imperium = _ledger("imperium", {"nations": ["romans", "celts"]})
    seat = _due(imperium)
    legal = imperium.game.legal_actions(imperium.match.state, seat)
    codec = get_codec("imperium")
    for data in ({"type": "Pass"}, {"type": "Choose", "index": 99}, {"type": "EndActivate"}):
        command = codec.command_from_data(data)
        if command not in legal:
            assert _refusal(imperium, seat, command) == "ILLEGAL_CHOICE"
            return
    raise AssertionError("every probe was legal")


def test_bad_version_from_the_application(tmp_path: Any) -> None:
    """BAD_VERSION: the application refuses to materialise a version beyond the head."""
    service = GameService(EventStore(StoreConfig(kind="sqlite", path=str(tmp_path / "v.db"))))
    try:
        created = service.create_game("riseandfall", {}, ["a", "b"], seed=SEED)
        with pytest.raises(InvalidArgument) as refused:
            service.materialise(created.game_id, created.version + 5)
        assert refused.value.reason == "BAD_VERSION"
    finally:
        service.store.close()


def test_undo_request_refusals(stub: annales_pb2_grpc.GameServiceStub) -> None:
    """Through the server: UNDO_NOT_A_BOUNDARY, NO_UNDO_REQUEST, OWN_UNDO_REQUEST and
    ALREADY_APPROVED, each FAILED_PRECONDITION."""
    game = create_game(stub, seats=3)
    version = game.version
    for _ in range(4):  # a few deploys, so that undo boundaries exist
        seat = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.pending.seats[0]
        legal = stub.ListLegalActions(
            pb.ListLegalActionsRequest(game_id=game.game_id), metadata=game.md(seat)
        )
        version = stub.SubmitAction(
            pb.SubmitActionRequest(game_id=game.game_id, action=legal.actions[0]),
            metadata=game.md(seat),
        ).version
    gid = game.game_id
    none = expect_error(stub.RespondUndo, pb.RespondUndoRequest(game_id=gid, approve=True),
                        metadata=game.md(1))  # fmt: skip
    assert (none.code, none.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "NO_UNDO_REQUEST")
    legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=gid), metadata=game.md(0))
    boundaries = set(legal.undo_versions)
    odd = next(v for v in range(version, 0, -1) if v not in boundaries)
    wrong = expect_error(stub.RequestUndo, pb.RequestUndoRequest(game_id=gid, to_version=odd),
                         metadata=game.md(0))  # fmt: skip
    assert wrong.reason == "UNDO_NOT_A_BOUNDARY", wrong
    assert boundaries, "deploys leave undo boundaries"
    stub.RequestUndo(pb.RequestUndoRequest(game_id=gid, to_version=max(boundaries)),
                     metadata=game.md(0))  # fmt: skip
    own = expect_error(stub.RespondUndo, pb.RespondUndoRequest(game_id=gid, approve=True),
                       metadata=game.md(0))  # fmt: skip
    assert own.reason == "OWN_UNDO_REQUEST", own
    stub.RespondUndo(pb.RespondUndoRequest(game_id=gid, approve=True), metadata=game.md(1))
    twice = expect_error(stub.RespondUndo, pb.RespondUndoRequest(game_id=gid, approve=True),
                         metadata=game.md(1))  # fmt: skip
    assert twice.reason == "ALREADY_APPROVED", twice


def test_rise_and_fall_extinct_civilisation_cannot_act() -> None:
    """EXTINCT: a seat whose civilisation died out is refused (rulebook "Cas rares
    (Extinction d'une civilisation)"); the flag is set on the state as the rules would."""
    ledger = _ledger("riseandfall")
    seat = _due(ledger)
    command = ledger.game.legal_actions(ledger.match.state, seat)[0]
    state: Any = ledger.match.state
    state.seats[seat].extinct = True
    assert _refusal(ledger, seat, command) == "EXTINCT"


def test_tournament_engine_refusals() -> None:
    """The tournament rules: NO_TOURNAMENT, BAD_TOURNAMENT_ID, BAD_SIZE, EMPTY_SEED,
    BAD_NAME, BOT_KIND, WRONG_MASTER_SEED, BAD_RESULT, RESULT_RECORDED, WRONG_GAME_SEED."""
    base: dict[str, Any] = {
        "tournament_id": "tournament-reasons", "name": "t", "game_type": "riseandfall",
        "options": {}, "format": "swiss", "rounds": 0, "table_size": 2, "master_seed": b"m",
    }  # fmt: skip

    def code(function: Any, *args: Any, **kwargs: Any) -> str:
        with pytest.raises(TournamentError) as refused:
            function(*args, **kwargs)
        return refused.value.code

    assert code(lambda: TournamentState().info) == "NO_TOURNAMENT"
    fresh = TournamentState
    assert code(engine.create, fresh(), **{**base, "tournament_id": "x"}) == "BAD_TOURNAMENT_ID"
    assert code(engine.create, fresh(), **{**base, "rounds": -1}) == "BAD_SIZE"
    assert code(engine.create, fresh(), **{**base, "master_seed": b""}) == "EMPTY_SEED"
    state = TournamentState()
    engine.create(state, **base)
    assert code(engine.register, state, "", "person", None) == "BAD_NAME"
    assert code(engine.register, state, "Ann", "person", "random") == "BOT_KIND"
    engine.register(state, "Ann", "person", None)
    engine.register(state, "Bob", "person", None)
    assert code(engine.start, state, b"wrong") == "WRONG_MASTER_SEED"
    engine.start(state, b"m")
    game_id = next(iter(state.games))
    assert code(engine.record_result, state, b"m", game_id, (1,), (0,), 5, "h") == "BAD_RESULT"
    engine.record_result(state, b"m", game_id, (1, 2), (1,), 5, "h")
    again = code(engine.record_result, state, b"m", game_id, (1, 2), (1,), 5, "h")
    assert again == "RESULT_RECORDED"
    assert code(engine.game_seed_of, state, b"other", state.games[game_id]) == "WRONG_GAME_SEED"


def test_tournament_service_refusals(tmp_path: Any) -> None:
    """NO_SUCH_ROUND (a round not paired yet) and GAME_NOT_FINISHED (reporting a game that
    is still being played)."""
    service = tournament_service(tmp_path / "t.db")
    try:
        tid = service.create("riseandfall", master_seed=b"reasons").tournament_id
        service.register(tid, "Ann")
        service.register(tid, "Bob")
        service.start(tid)
        with pytest.raises(TournamentRejected) as missing:
            service.round(tid, 99)
        assert missing.value.reason == "NO_SUCH_ROUND"
        game_id = service.round(tid).games[0].game_id
        with pytest.raises(GameNotFinished) as early:
            service.report(tid, game_id)
        assert early.value.reason == "GAME_NOT_FINISHED"
    finally:
        service.store.close()


def test_an_unknown_game_name_is_unknown_game() -> None:
    """UNKNOWN_GAME: the registry knows no game of this name (INVALID_ARGUMENT)."""
    with pytest.raises(RuleViolation) as unknown:
        get_codec("chess")
    assert unknown.value.code == "UNKNOWN_GAME"
