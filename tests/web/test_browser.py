"""The web app in a real browser: headless Chromium from the OS packages, driven by Playwright
for Python with the system browser (``executable_path``; no browser download).

Open the lobby, create a game of each type and play a few moves through the page as the
seats (clicking the legal actions), replay (scrubber and steps), export the board, and judge a
record: an intact one is verified, a tampered one rejected. Screenshots go to the test's
temporary directory. Skipped, saying why, only where no Chromium is installed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import Driver, Game, create_game
from tests.web.conftest import WebServer

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
if CHROMIUM is None and os.environ.get("ANNALES_REQUIRE_BROWSER") == "1":
    raise RuntimeError("a headless Chromium is required (ANNALES_REQUIRE_BROWSER=1) but absent")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium); .ci/run installs it"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless system Chromium."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-dev-shm-usage"])  # fmt: skip
        yield chromium
        chromium.close()


def new_page(browser: Any, width: int = 1400, height: int = 1000) -> Any:
    """A page in its own context; the test's own probes (``wait_for_function``) are evaluated
    as strings, which the app's Content-Security-Policy forbids, so the context bypasses it."""
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    return context.new_page()


def wait_ready(page: Any) -> None:
    """Wait until the game page has drawn its board."""
    page.wait_for_function("window.__annales && window.__annales.ready", timeout=30_000)
    page.wait_for_selector("#board svg, #board pre", timeout=30_000)


def settle(pages: list[Any], version: int) -> None:
    """Wait until every page has drawn (board and actions) at least ``version``."""
    for page in pages:
        page.wait_for_function(f"window.__annales.state.drawn >= {version}", timeout=30_000)


def version_of(page: Any) -> int:
    """The head version the page shows."""
    return int(page.evaluate("window.__annales.state.head"))


@pytest.mark.parametrize("game_type", ["GAME_TYPE_RISE_AND_FALL", "GAME_TYPE_TAPESTRY",
                                       "GAME_TYPE_IMPERIUM"])  # fmt: skip
def test_create_and_play_each_game(web: WebServer, browser: Any, tmp_path: Path,
                                   game_type: str) -> None:  # fmt: skip
    """Lobby → create a game → open every seat's link → play moves by clicking actions →
    the spectator page follows live and replays."""
    page = new_page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{web.base}/")
    page.wait_for_selector("#games")
    page.select_option("#new-type", game_type)
    page.click("#create-game")
    page.wait_for_selector("a.seat-link")
    links = [a.get_attribute("href") for a in page.query_selector_all("a.seat-link")]
    assert len(links) == 2 and all("#/game/" in link and "token=" in link for link in links)
    assert all("?token" not in link.split("#")[0] for link in links)  # never in a query string
    page.screenshot(path=str(tmp_path / "lobby.png"))
    seats = []
    for link in links:
        seat_page = new_page(browser)
        seat_page.on("pageerror", lambda e: errors.append(str(e)))
        seat_page.goto(link)
        wait_ready(seat_page)
        seats.append(seat_page)
    spectator = new_page(browser)
    spectator.goto(links[0].split("?")[0])
    wait_ready(spectator)
    start = version_of(spectator)
    moves = 0
    for _ in range(40):
        if moves >= 4:
            break
        for seat_page in seats:
            seat_page.wait_for_selector("#actions p", timeout=30_000)
            if seat_page.query_selector("button.action") is None:
                continue
            before = version_of(seat_page)
            seat_page.locator("button.action").first.click()  # re-resolved if redrawn
            seat_page.wait_for_function(f"window.__annales.state.head > {before}", timeout=30_000)
            settle(seats, version_of(seat_page))
            moves += 1
            break
        else:
            for seat_page in seats:
                seat_page.reload()
                wait_ready(seat_page)
    assert moves >= 4, "no seat could play"
    spectator.wait_for_function(f"window.__annales.state.head >= {start + moves}", timeout=30_000)
    seats[0].screenshot(path=str(tmp_path / f"{game_type}-seat0.png"), full_page=True)
    # replay: one event back, then to the first version
    head = version_of(spectator)
    spectator.click("text=◀ event")
    spectator.wait_for_function(f"document.querySelector('#scrubber').value == {head - 1}")
    assert "version" in spectator.inner_text("#version-label")
    assert spectator.query_selector("#log li.current") is not None
    spectator.click("text=|◀ first")
    spectator.wait_for_function("document.querySelector('#scrubber').value == 1")
    spectator.screenshot(path=str(tmp_path / f"{game_type}-replay.png"), full_page=True)
    with spectator.expect_download() as download:
        spectator.click("#export-svg")
    saved = tmp_path / f"{game_type}.svg"
    download.value.save_as(saved)
    assert saved.read_text().startswith("<svg")
    assert not errors, errors


def test_judge_rejects_tampered_record(web: WebServer, browser: Any, tmp_path: Path) -> None:
    """The judge page verifies an intact record (in the browser and by VerifyRecord) and
    rejects one with a single altered hash digit, naming the field."""
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        game = create_game(stub, seats=2)
        Driver(stub, game, b"judge").play(max_steps=10)
        record = stub.ExportRecord(pb.ExportRecordRequest(game_id=game.game_id)).record
    intact = tmp_path / "intact.jsonl"
    intact.write_bytes(record)
    lines = record.decode().split("\n")
    target = next(i for i, line in enumerate(lines) if '"type":"event"' in line and i > 3)
    digit = lines[target].index('"hash":"') + 8
    flipped = "1" if lines[target][digit] != "1" else "2"
    lines[target] = lines[target][:digit] + flipped + lines[target][digit + 1 :]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines))
    page = new_page(browser, 1200, 900)
    page.goto(f"{web.base}/#/judge")
    for path, verdict in ((intact, "VERIFIED"), (tampered, "REJECTED")):
        page.set_input_files("#record-file", str(path))
        page.wait_for_function(
            f"(document.querySelector('#verdict-title')||{{}}).textContent?.startsWith('{verdict}')",
            timeout=60_000,
        )
        page.screenshot(path=str(tmp_path / f"judge-{path.stem}.png"), full_page=True)
    page.wait_for_selector("#before svg", timeout=60_000)  # the boards around the divergence
    assert page.query_selector("#after svg") is not None
    page.screenshot(path=str(tmp_path / "judge-boards.png"), full_page=True)
    text = page.inner_text("#verdict")
    assert "prev_hash" in text or "hash" in text
    assert "✘" in page.inner_text("#remote-verdict")


def test_square_and_hex_worlds(web: WebServer, browser: Any) -> None:
    """Rise & Fall boards by geometry: the view's ``world.grid`` decides ("square" / "hex"),
    else the ruleset (riseandfall/1 square, others hex); cell id = y·40 + x (axial q, r on
    hexes); a cliff is drawn on every side between cells two levels apart (1 side on squares,
    2 on hexes here, where cell 43 also touches 82); a piece shows its seat's number, and its
    type (a RiseAndFallPiece value on the wire) in words."""
    page = new_page(browser)
    page.goto(f"{web.base}/")
    page.wait_for_selector("#games")
    counts = page.evaluate(
        """async () => {
          const m = await import('/boards.js');
          const terrain = Array(1600).fill(-1);
          [41, 42, 81, 82].forEach((i) => { terrain[i] = 1; });
          terrain[43] = 3;
          const view = { world: { terrain, tiles: [{ cells: [41, 42, 81, 82] }] },
                         pieces: [{ cell: 41, piece: 'RISE_AND_FALL_PIECE_NOMAD', seat: 1 }] };
          const square = m.riseAndFall(view, 'riseandfall/1');
          const hex = m.riseAndFall(view, 'riseandfall/2');
          const given = m.riseAndFall({ ...view, world: { ...view.world, grid: 'hex' } },
                                      'riseandfall/1');
          return [square.querySelectorAll('rect[data-cell]').length,
                  hex.querySelectorAll('polygon[data-cell]').length,
                  given.querySelectorAll('polygon[data-cell]').length,
                  square.querySelectorAll('line.cliff').length,
                  hex.querySelectorAll('line.cliff').length,
                  square.querySelector('.piece text').textContent,
                  square.querySelector('.piece title').textContent];
        }"""
    )
    assert counts == [5, 5, 5, 1, 2, "1", "nomad of seat 1 on cell 41"], counts


def _rf_game(stub: Any, seats: int, ruleset: str = "", seed: str = "") -> Game:
    """A Rise & Fall game (random world) under ``ruleset`` (the newest when empty)."""
    answer = stub.CreateGame(
        pb.CreateGameRequest(
            game_type=pb.GAME_TYPE_RISE_AND_FALL,
            options=pb.GameOptions(rise_and_fall={}),
            seat_names=[f"p{i}" for i in range(seats)],
            seed=seed or f"web-hex-world-{seats}-{ruleset}-seed",
            ruleset=ruleset,
        )
    )
    tokens = [t.token for t in sorted(answer.seat_tokens, key=lambda t: t.seat)]
    return Game(answer.game_id, tokens, "", answer.version, answer.seed_commitment)


def _board_facts(page: Any) -> dict[str, Any]:
    """What the drawn Rise & Fall board holds: grid, cells, level digits, lines, pieces, size."""
    return dict(
        page.evaluate(
            """() => {
              const svg = document.querySelector('#board svg');
              const cells = [...svg.querySelectorAll('[data-cell]:not(.target)')];
              return { grid: svg.getAttribute('data-grid'), cells: cells.length,
                       polygons: svg.querySelectorAll('polygon[data-cell]').length,
                       ids: cells.map((c) => Number(c.getAttribute('data-cell'))),
                       fills: [...new Set(cells.map((c) => c.getAttribute('fill')))],
                       levels: svg.querySelectorAll('text.level').length,
                       cliffs: svg.querySelectorAll('line.cliff').length,
                       regions: svg.querySelectorAll('line.region').length,
                       pieces: [...svg.querySelectorAll('.piece')]
                         .map((p) => Number(p.getAttribute('data-seat'))),
                       colours: [...svg.querySelectorAll('.piece circle')]
                         .map((c) => c.getAttribute('fill')),
                       size: Number(svg.getAttribute('data-cell-size')),
                       box: (({ width, height }) => [width, height])(
                         svg.querySelector('g.world').getBBox()) };
            }"""
        )
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_hex_world_drawn_from_view(web: WebServer, browser: Any, tmp_path: Path,
                                   seats: int) -> None:  # fmt: skip
    """riseandfall/2: the page draws one hexagon per cell of the view's world at the axial
    coordinates the proto documents (cell id = r·40 + q), coloured by terrain, with level
    digits, cliffs, region borders and every piece in its seat's colour; the world is compact
    (its drawing's area is close to the cells' own area). A screenshot is saved per seat count."""
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        game = _rf_game(stub, seats)
        Driver(stub, game, b"hex").play(max_steps=6 * seats)  # deploy some pieces
        answer = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    world = answer.view.rise_and_fall.world
    assert answer.game.ruleset == "riseandfall/2" and world.grid == "hex"
    used = [i for i, t in enumerate(world.terrain) if t != -1]
    page = new_page(browser)
    page.goto(f"{web.base}/#/game/{game.game_id}")
    wait_ready(page)
    facts = _board_facts(page)
    page.screenshot(path=str(tmp_path / f"hex-{seats}-seats.png"), full_page=True)
    board = page.query_selector("#board svg")
    board.screenshot(path=str(tmp_path / f"hex-{seats}-board.png"))
    assert facts["grid"] == "hex" and facts["polygons"] == len(used) == facts["cells"]
    assert sorted(facts["ids"]) == used
    levels = {world.terrain[i] for i in used}
    assert len(facts["fills"]) == len(levels) >= 3  # one colour per terrain present
    assert facts["levels"] == sum(1 for i in used if world.terrain[i] > 0)
    assert facts["regions"] > 0 and facts["cliffs"] >= 0
    pieces = answer.view.rise_and_fall.pieces
    assert sorted(facts["pieces"]) == sorted(p.seat for p in pieces) and len(pieces) > 0
    assert len(set(facts["colours"])) == len({p.seat for p in pieces})
    # compact: the drawn world's bounding box is within 2.5× the hexagons' own area (reading
    # the axial ids as offset rows, as the page did before, skews it into a parallelogram)
    cell_area = 1.5 * 3**0.5 * facts["size"] ** 2
    width, height = facts["box"]
    assert width * height < 2.5 * cell_area * len(used), facts


def test_square_world_for_ruleset_1(web: WebServer, browser: Any, tmp_path: Path) -> None:
    """riseandfall/1 keeps the square drawing: a rectangle per cell, cliffs and borders."""
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        game = _rf_game(stub, 3, "riseandfall/1")
        answer = stub.GetGame(pb.GetGameRequest(game_id=game.game_id))
    used = [i for i, t in enumerate(answer.view.rise_and_fall.world.terrain) if t != -1]
    page = new_page(browser)
    page.goto(f"{web.base}/#/game/{game.game_id}")
    wait_ready(page)
    facts = _board_facts(page)
    page.screenshot(path=str(tmp_path / "square.png"), full_page=True)
    assert facts["grid"] == "square" and facts["polygons"] == 0 and facts["cells"] == len(used)
    assert facts["regions"] > 0


def _seat_links(page: Any) -> list[str]:
    """The seat links the lobby shows once the game is created (its error if it was not)."""
    page.wait_for_selector("a.seat-link, #error:not([hidden])")
    assert page.query_selector("a.seat-link"), page.inner_text("#error")
    return [a.get_attribute("href") for a in page.query_selector_all("a.seat-link")]


def _create_solo(page: Any, web: WebServer, ruleset: str, level: str,
                 variants: tuple[str, ...] = ()) -> tuple[str, str]:  # fmt: skip
    """Create a 1-seat Tapestry game from the lobby; its id and its seat link."""
    page.goto(f"{web.base}/")
    page.wait_for_selector("#games")
    page.select_option("#new-type", "GAME_TYPE_TAPESTRY")
    page.fill("#new-seats", "Solène")
    page.fill("#new-automa-level", level)
    page.select_option("#new-ruleset", ruleset)
    assert page.is_disabled("#variant-drawTwoTapestry") == (ruleset == "tapestry/1")
    for variant in variants:
        page.check(f"#variant-{variant}")
    page.click("#create-game")
    links = _seat_links(page)
    assert len(links) == 1
    return links[0].split("#/game/")[1].split("?")[0], links[0]


def test_solo_tapestry_from_lobby(web: WebServer, browser: Any, tmp_path: Path) -> None:
    """The lobby creates a 1-seat Tapestry game with an Automa level (and, under tapestry/2,
    variants); the board shows the Automa's board, the game page and the lobby its
    PartyScore (GameSummary.parties)."""
    page = new_page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    game_id, link = _create_solo(page, web, "tapestry/1", "3")
    variant_id, _ = _create_solo(page, web, "tapestry/2", "4",
                                 ("drawTwoTapestry", "nanotechnologyTwoCards"))  # fmt: skip
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        summary = stub.GetGame(pb.GetGameRequest(game_id=game_id)).game
        variant = stub.GetGame(pb.GetGameRequest(game_id=variant_id)).game
    assert summary.ruleset == "tapestry/1" and [p.name for p in summary.parties] == ["Automa"]
    options = variant.options_json.replace(" ", "")
    assert variant.ruleset == "tapestry/2" and '"automa_level":4' in options
    assert '"draw_two_tapestry":true' in options and '"nanotechnology_two_cards":true' in options
    seat = new_page(browser)
    seat.on("pageerror", lambda e: errors.append(str(e)))
    seat.goto(link)
    wait_ready(seat)
    solo = seat.text_content("#board svg g.solo") or ""
    assert "Automa (level 3" in solo and "exploration" in solo and "decision deck" in solo
    assert seat.query_selector_all("#board svg circle.bot-disc")  # its discs on the tracks
    assert "Automa (" in seat.inner_text("#info .party")
    seat.screenshot(path=str(tmp_path / "solo.png"), full_page=True)
    page.goto(f"{web.base}/")
    page.wait_for_selector(f"tr[data-game='{game_id}']")
    cell = f"tr[data-game='{game_id}'] td.scores"
    page.wait_for_function(f"document.querySelector(\"{cell}\").textContent.includes('Automa 0')")
    assert not errors, errors


@pytest.mark.parametrize(
    ("game_type", "ruleset"),
    [("GAME_TYPE_IMPERIUM", "imperium-classics/1"), ("GAME_TYPE_TAPESTRY", "tapestry/1")],
)
def test_creation_form_offers_ruleset(web: WebServer, browser: Any, game_type: str,
                                      ruleset: str) -> None:  # fmt: skip
    """The Imperium and Tapestry creation forms create a game under the ruleset chosen."""
    page = new_page(browser)
    page.goto(f"{web.base}/")
    page.wait_for_selector("#games")
    page.select_option("#new-type", game_type)
    offered = page.eval_on_selector_all("#new-ruleset option", "os => os.map(o => o.value)")
    assert ruleset in offered and "" in offered
    page.select_option("#new-ruleset", ruleset)
    page.click("#create-game")
    game_id = _seat_links(page)[0].split("#/game/")[1].split("?")[0]
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        assert stub.GetGame(pb.GetGameRequest(game_id=game_id)).game.ruleset == ruleset


def test_replay_finished_game_views_and_rounds(web: WebServer, browser: Any,
                                               tmp_path: Path) -> None:  # fmt: skip
    """Replay of a finished Rise & Fall game: without a token the page offers every seat's
    view (public after the end, GetViewRequest.seat) besides the spectator's; with a token the
    view switches between the seat's and the spectator's; "round ▶" / "◀ round" land on the
    first version of the next / current round by the view's own round number."""
    with web.process.channel() as channel:
        stub = annales_pb2_grpc.GameServiceStub(channel)
        game = _rf_game(stub, 2, seed="web-replay-finished-game-seed")
        Driver(stub, game, b"replay").play(max_steps=5000)
        final = stub.GetGame(pb.GetGameRequest(game_id=game.game_id)).game
        assert final.status == pb.GAME_STATUS_FINISHED
        with pytest.raises(grpc.RpcError) as refused:
            stub.GetView(pb.GetViewRequest(game_id=game.game_id))
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        public = stub.GetView(pb.GetViewRequest(game_id=game.game_id, seat=1))
        assert public.seat == 1  # after the end a seat's view needs no token

        def round_at(version: int) -> int:
            request = pb.GetGameRequest(game_id=game.game_id, version=version)
            return int(stub.GetGame(request).view.rise_and_fall.round)

        page = new_page(browser)
        page.goto(f"{web.base}/#/game/{game.game_id}")
        wait_ready(page)
        page.wait_for_function("document.querySelector('#view-note').textContent.length > 0")
        assert "public" in page.inner_text("#view-note")
        assert page.eval_on_selector_all("#view-as option", "os => os.map(o => o.value)") == [
            "spectator", "seat:0", "seat:1"]  # fmt: skip
        page.select_option("#view-as", "seat:1")
        page.wait_for_function("window.__annales.state.viewer === 1")
        page.select_option("#view-as", "spectator")
        page.wait_for_function("window.__annales.state.viewer === null")
        page.click("text=|◀ first")
        page.wait_for_function("document.querySelector('#scrubber').value == 1")
        shown = 1
        for _ in range(3):
            page.click("#round-next")
            page.wait_for_function(f"document.querySelector('#scrubber').value > {shown}")
            now = int(page.eval_on_selector("#scrubber", "s => s.value"))
            assert round_at(now) > round_at(shown) and round_at(now - 1) == round_at(shown)
            shown = now
        page.click("text=event ▶")
        page.wait_for_function(f"document.querySelector('#scrubber').value == {shown + 1}")
        page.click("#round-back")  # back to the first version of the shown round
        page.wait_for_function(f"document.querySelector('#scrubber').value == {shown}")
        page.screenshot(path=str(tmp_path / "replay-finished.png"), full_page=True)
        seat = new_page(browser)
        seat.goto(f"{web.base}/#/game/{game.game_id}?token={game.tokens[1]}")
        wait_ready(seat)
        assert seat.eval_on_selector_all("#view-as option", "os => os.map(o => o.value)") == [
            "spectator", "seat"]  # fmt: skip
        assert seat.evaluate("window.__annales.state.viewer") == 1
        seat.select_option("#view-as", "spectator")
        seat.wait_for_function("window.__annales.state.viewer === null")
        seat.select_option("#view-as", "seat")
        seat.wait_for_function("window.__annales.state.viewer === 1")


def test_read_models_page_of_each_game(web: WebServer, browser: Any) -> None:
    """``#/stats`` asks the read models of one game type (they require one; the page asked
    without it and could only show errors, found by a newcomer with curl): each game's tab
    shows its leaderboard and balance sections, never an error."""
    page = new_page(browser, 1200, 900)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for game_type in ("GAME_TYPE_RISE_AND_FALL", "GAME_TYPE_TAPESTRY", "GAME_TYPE_IMPERIUM"):
        page.goto(f"{web.base}/#/stats?game={game_type}")
        page.wait_for_selector("h2", timeout=30_000)
        text = page.inner_text("main")
        assert "Leaderboard (win rate)" in text and "Balance (win rate by key)" in text, text
        assert page.query_selector(".stats-error") is None, text
    assert not errors, errors
