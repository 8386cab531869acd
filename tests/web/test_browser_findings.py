"""The web app's answers to what a stranger's check of it found (2026-12-07), in a real browser.

* a refused seat token (garbage, another game's) left the page blank under "playing as seat
  undefined": the page now says the token was refused and shows the spectator's view; the
  seat it plays is read from GetView, never parsed out of the (opaque) token;
* an unknown game drew an empty game page: it now says there is no such game;
* after a refused move (VERSION_CONFLICT while its live stream was down) the page stayed on
  the stale version: it now reads the game again;
* an open undo request was nowhere on the page but in the log, and its requester could not
  withdraw it: the page now says it is open and offers the requester "Withdraw".
"""

from __future__ import annotations

from typing import Any

from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import Driver, Game, create_game
from tests.web.conftest import WebServer
from tests.web.test_browser import browser, new_page, pytestmark, wait_ready

__all__ = ["browser", "pytestmark"]  # the shared browser fixture, and the skip without one


def _stub(web: WebServer) -> Any:
    return annales_pb2_grpc.GameServiceStub(web.process.channel())


def test_refused_token_shows_the_spectator_view(web: WebServer, browser: Any) -> None:
    """A garbage token and another game's token are refused on the page (the banner gives
    the reason) and the game is drawn as the spectator sees it; a valid token's seat is the
    one GetView names."""
    stub = _stub(web)
    game, other = create_game(stub, seats=2), create_game(stub, seats=2)
    page = new_page(browser)
    for token, reason in (("garbage", "BAD_TOKEN"), (other.tokens[0], "WRONG_GAME_TOKEN")):
        page.goto(f"{web.base}/#/game/{game.game_id}?token={token}")
        wait_ready(page)
        page.wait_for_function("document.querySelector('#seat-label').textContent"
                               ".includes('refused')", timeout=30_000)  # fmt: skip
        assert reason in page.inner_text("#error")
        assert "undefined" not in page.inner_text("main")
        assert page.query_selector("#view-as option[value='seat']") is None
        page.goto(f"{web.base}/#/")  # leave the game page (a new hash reloads the route)
    page.goto(f"{web.base}/#/game/{game.game_id}?token={game.tokens[1]}")
    wait_ready(page)
    page.wait_for_function("document.querySelector('#seat-label').textContent"
                           ".includes('seat 1')", timeout=30_000)  # fmt: skip
    assert page.inner_text("#seat-label").strip() == "— playing as seat 1"


def test_unknown_game_page_says_so(web: WebServer, browser: Any) -> None:
    """``#/game/<unknown>`` says there is no such game (and GAME_NOT_FOUND), no empty board."""
    page = new_page(browser)
    page.goto(f"{web.base}/#/game/no-such-game-0123")
    page.wait_for_selector("text=No such game", timeout=30_000)
    assert "GAME_NOT_FOUND" in page.inner_text("#error")
    assert page.query_selector("#board") is None


def test_page_reads_the_game_again_after_a_refused_move(web: WebServer, browser: Any) -> None:
    """The seat's page, its live stream cut, plays on a stale version: the refusal is shown
    and the page then shows the game's real version (not the stale one)."""
    stub = _stub(web)
    game = create_game(stub, seats=2)
    Driver(stub, game, b"web-stale").play(max_steps=3)
    seat = _pending_seat(stub, game)
    page = new_page(browser)
    page.route("**/WatchGame", lambda route: route.abort())
    page.goto(f"{web.base}/#/game/{game.game_id}?token={game.tokens[seat]}")
    wait_ready(page)
    page.wait_for_selector("button.action", timeout=30_000)
    stale = int(page.evaluate("window.__annales.state.head"))
    legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game.game_id),
                                  metadata=game.md(seat))  # fmt: skip
    moved = stub.SubmitAction(pb.SubmitActionRequest(game_id=game.game_id,
                                                     action=legal.actions[0]),
                              metadata=game.md(seat)).version  # fmt: skip
    page.click("button.action >> nth=0")
    page.wait_for_function("document.querySelector('#error').textContent"
                           ".includes('VERSION_CONFLICT')", timeout=30_000)  # fmt: skip
    page.wait_for_function(f"window.__annales.state.head >= {moved}", timeout=30_000)
    assert moved > stale
    assert f"of {moved}" in page.inner_text("#version-label")


def test_open_undo_request_is_shown_and_withdrawable(web: WebServer, browser: Any) -> None:
    """While seat A's undo request is open, every page says so (not "waiting for … choose"),
    A's page offers "Withdraw my undo request", and withdrawing appends UndoDeclined by A."""
    stub = _stub(web)
    game = create_game(stub, seats=3, seed="web-undo-request-seed-0123456789")
    driver = Driver(stub, game, b"web-undo")
    requester = None
    while requester is None and driver.play_one():
        for seat in range(3):
            legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game.game_id),
                                          metadata=game.md(seat))  # fmt: skip
            if legal.undo_versions:
                requester, to_version = seat, legal.undo_versions[-1]
                break
    assert requester is not None, "no seat was ever offered an undo request"
    stub.RequestUndo(pb.RequestUndoRequest(game_id=game.game_id, to_version=to_version),
                     metadata=game.md(requester))  # fmt: skip
    version = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.head_version
    page = new_page(browser)
    page.goto(f"{web.base}/#/game/{game.game_id}?token={game.tokens[requester]}")
    wait_ready(page)
    page.wait_for_selector("#withdraw-undo", timeout=30_000)
    info = page.inner_text("#info")
    assert f"seat {requester} asks to go back to version {to_version}" in info, info
    page.click("#withdraw-undo")
    page.wait_for_function(f"window.__annales.state.head > {version}", timeout=30_000)
    events = stub.GetHistory(pb.GetHistoryRequest(game_id=game.game_id, page_size=1000),
                             metadata=game.md(requester)).events  # fmt: skip
    assert [e.kind for e in events if e.seq > version] == ["UndoDeclined"]
    assert events[-1].kernel.undo_declined.by == requester
    page.wait_for_function("!document.querySelector('#withdraw-undo')", timeout=30_000)
    assert "undo request open" not in page.inner_text("#info")


def _pending_seat(stub: Any, game: Game) -> int:
    return int(stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game.pending.seats[0])
