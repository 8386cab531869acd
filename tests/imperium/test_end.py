"""End of the game: triggers ("Fin de partie"), the final round and last Solstice
("Décompte"), scoring and collapse ("Effondrement"), each test naming its rule."""

from __future__ import annotations

from typing import Any

from domain.imperium import events as ev
from domain.imperium.commands import ChooseOrder, Pass, Pick
from domain.imperium.scoring import card_vp, score
from domain.imperium.state import Frame, ImperiumState
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import (
    activate,
    effect,
    garrison,
    legal,
    put,
    put_shared,
    resolve,
    set_market,
)

MR = ["macedonians", "romans"]


def _empty(state: ImperiumState, seat: int) -> None:
    """Leave ``seat`` with no card but its power card (for exact scoring checks)."""
    owner = state.seats[seat]
    for zone in ("hand", "deck", "deck_top", "discard", "play", "history"):
        setattr(owner, zone, [])
    owner.garrison = {}
    owner.materials = owner.population = owner.progress = 0


def _play_until_over(state: ImperiumState) -> list[Any]:
    """Every seat pacifies, cleans up and resolves its Solstice effects until the game ends;
    the events of the way."""
    log: list[Any] = []
    while not GAME.is_over(state):
        kind = decision(state)
        options = legal(state)
        if kind == "order":
            command: Any = ChooseOrder(order="pacify")
        elif Pass() in options:
            command = Pass()
        else:
            command = options[0]
        log += act(state, command)
    return log


def test_main_deck_exhausted_triggers_a_final_scoring() -> None:
    """FIN DE PARTIE 1: the main deck is exhausted (innovating its last card)."""
    state = activate(MR)
    set_market(state)
    state.piles["main"] = ["1TRI4"]
    effect(state, 0, "1UNC20", {"innovate": {"suits": ["tributary"]}})
    assert state.end_trigger == "main_deck_empty" and state.final_round == state.round + 1


def test_last_development_card_triggers_a_final_scoring() -> None:
    """FIN DE PARTIE 2: a player develops the last card of its development area."""
    state = activate(MR)
    me = state.seats[0]
    me.empire, me.dev = True, ["MAC8"]
    effect(state, 0, "1FAM5", {"develop": {"free": True}})
    assert me.dev == [] and state.end_trigger == "last_development:0"


def test_king_of_kings_flipped_to_b_triggers_a_final_scoring() -> None:
    """FIN DE PARTIE 3 + "Roi des rois": resolving face A flips it to B and ends the game."""
    state = activate(MR)
    state.fame_top, state.piles["fame"] = [], []
    events = effect(state, 0, "1FAM3", {"draw_fame": 1})
    assert any(isinstance(e, ev.KingOfKingsFlipped) and e.face == "B" for e in events)
    assert state.end_trigger == "KOK-A"


def test_final_round_after_the_current_one_with_its_solstice() -> None:
    """DÉCOMPTE: finish the current round, then play one more round, Solstice included, then
    score (Coinage's Solstice gives 2 materials at the end of both rounds)."""
    state = activate(MR)
    set_market(state)
    put(state, 0, "play", "1CIV10")
    state.seats[0].materials = 0
    start = state.round
    effect(state, 0, "1FAM5", {"trigger_game_end": True})
    assert state.final_round == start + 1
    log = _play_until_over(state)
    rounds = [e.round for e in log if isinstance(e, ev.RoundEnded)]
    turns = [(e.round, e.seat) for e in log if isinstance(e, ev.TurnStarted)]
    assert rounds == [start, start + 1]
    assert turns == [(start, 1), (start + 1, 0), (start + 1, 1)]
    assert state.seats[0].materials == 4 and not state.collapse


def test_scoring_fixed_negative_conditional_variable_and_tokens() -> None:
    """DÉCOMPTE: each progress token is 1 VP (not materials nor population); fixed and
    negative VP; conditional VP by where the card lies; variable VP never above 10."""
    state = activate(MR)
    _empty(state, 0)
    me = state.seats[0]
    me.progress, me.materials, me.population = 4, 250, 9
    put(state, 0, "hand", "1FAM8", "MAC21", "1CIV3")
    put(state, 0, "history", "1FAM1")
    put(state, 0, "discard", "1FAM2")
    assert card_vp(state, 0, "1FAM1") == 7 and card_vp(state, 0, "1FAM2") == 2
    assert card_vp(state, 0, "1CIV3") == 10
    sheet = score(state, 0)
    assert sheet["progress"] == 4
    assert sheet["cards"] == 7 - 2 + 10 + 7 + 2  # Macedonians B: 0 region icon
    assert sheet["total"] == 4 + 24


def test_scoring_counts_history_and_garrison_not_nation_deck_or_development() -> None:
    """DÉCOMPTE: hand, play area, deck, discard, history, garrisoned cards and the power card
    score; the nation deck and the development area never do."""
    state = activate(MR)
    _empty(state, 0)
    put(state, 0, "play", "MAC18")
    garrison(state, 0, "MAC18", "1TRI1")
    put(state, 0, "history", "1TRI2")
    put(state, 0, "deck", "1TRI4")
    put(state, 0, "nation_deck", "1TRI11")
    put(state, 0, "dev", "1TRI7")
    assert score(state, 0)["cards"] == 3 + 3 + 3 + 1  # + Macedonians B: 1 region icon


def test_scoring_ties_share_the_victory() -> None:
    """DÉCOMPTE: "En cas d'égalité, les joueurs concernés se partagent la victoire"."""
    state = activate(MR)
    _empty(state, 0)
    _empty(state, 1)
    state.seats[0].progress = state.seats[1].progress = 5
    state.final_round = state.round
    state.end_trigger = "main_deck_empty"
    resolve(state, Frame(kind="next_round", seat=0))
    assert GAME.is_over(state) and state.winners == [0, 1] and state.final_scores == [5, 5]


def test_collapse_fewest_unrest_wins_whatever_the_score() -> None:
    """EFFONDREMENT: the game ends at once; fewest unrest cards (hand, play area, deck,
    discard, history) wins, even with fewer points."""
    state = activate(MR)
    _empty(state, 0)
    _empty(state, 1)
    state.seats[0].progress = 50
    put(state, 0, "history", "MAC21")
    put(state, 1, "deck", "ROM22")
    put(state, 1, "discard", "ROM23")
    state.seats[1].progress = 0
    put(state, 0, "discard", "MAC22")
    put(state, 0, "hand", "MAC23")
    state.unrest = []
    resolve(state)
    assert state.collapse and state.winners == [1]


def test_collapse_tie_goes_to_a_scoring_between_the_tied_players() -> None:
    """EFFONDREMENT: "En cas d'égalité, les joueurs concernés effectuent un Décompte" — the
    best score among the tied players wins (a better score outside the tie does not); equal
    scores share the victory."""
    state = activate(["macedonians", "romans", "greeks"])
    for seat in range(3):
        _empty(state, seat)
    put(state, 0, "hand", "MAC21")
    put(state, 1, "hand", "ROM22")
    put(state, 2, "hand", "GRE13", "GRE22")
    state.seats[0].progress, state.seats[1].progress, state.seats[2].progress = 3, 4, 40
    state.unrest = []
    resolve(state)
    assert state.collapse and state.winners == [1]
    state2 = activate(MR)
    for seat in range(2):
        _empty(state2, seat)
    state2.unrest = []
    resolve(state2)
    assert state2.winners == [0, 1]


def test_collapse_after_a_scoring_was_triggered_is_resolved_as_a_collapse() -> None:
    """FIN DE PARTIE: "Si un Effondrement se produit après qu'un Décompte a déjà été
    déclenché, il faut résoudre un Effondrement à la place"."""
    state = activate(MR)
    effect(state, 0, "1FAM5", {"trigger_game_end": True})
    assert state.end_trigger and not GAME.is_over(state)
    state.unrest = state.unrest[:1]
    effect(state, 0, "1UNC8", {"take": {"pile": "unrest"}})
    assert GAME.is_over(state) and state.collapse


def test_sumerians_return_unrest_before_the_collapse_winner() -> None:
    """Card note "Sumériens": at the end, before the winner is settled (collapse too), up to
    2 unrest cards go back from hand, play area, discard, deck or history; the game still
    ends."""
    state = activate(MR)
    _empty(state, 0)
    _empty(state, 1)
    put(state, 0, "discard", "1TRI7", "MAC21", "MAC22")
    put(state, 0, "history", "MAC23")
    put(state, 1, "hand", "ROM22")
    state.seats[0].progress = 9
    state.unrest = []
    resolve(state)
    assert GAME.is_over(state) and state.collapse
    assert state.winners == [0]  # 3 unrest - 2 returned = 1, tie, better score
    assert state.score_details[0]["unrest"] == 1 and len(state.unrest) == 2


def test_game_over_refuses_commands() -> None:
    """FIN DE PARTIE: once the game is scored, no command is accepted."""
    state = activate(MR)
    state.unrest = []
    resolve(state)
    assert GAME.legal_actions(state, 0) == [] and GAME.pending(state).decision == "over"
    put_shared(state, "unrest", "MAC21")
    assert GAME.is_over(state) and Pick(card="x") not in legal(state)


def test_scores_and_views_exist_at_every_setup_version(tmp_path: Any) -> None:
    """Regression: between two ``SeatPrepared`` setup events a seat has no power card yet;
    its running score (read by GetGame/GetView at a past version) is then computed without it
    instead of failing on an empty card id."""
    from service.app.application import GameService
    from service.store.config import StoreConfig
    from service.store.eventstore import EventStore

    service = GameService(EventStore(StoreConfig(path=str(tmp_path / "e.db"))))
    for seats in (2, 3, 4):
        created = service.create_game("imperium", {}, [f"s{i}" for i in range(seats)], b"x")
        for version in range(1, service.head(created.game_id).version + 1):
            match = service.materialise(created.game_id, version).match
            assert len(match.game.scores(match.state)) == seats
            for viewer in (None, *range(seats)):
                assert match.game.view(match.state, viewer) is not None
