"""The web app in a real browser: headless Chromium from the OS packages, driven by Playwright
for Python with the system browser (``executable_path``; no browser download).

Open the lobby, create a game of each type and play a few moves through the page as the
seats (clicking the legal actions), replay (scrubber and steps), export the board, and judge a
record: an intact one is verified, a tampered one rejected. Screenshots go to the test's
temporary directory. Skipped, saying why, only where no Chromium is installed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from annales.v1 import annales_pb2 as pb
from annales.v1 import annales_pb2_grpc

from tests.api.helpers import Driver, create_game
from tests.web.conftest import WebServer

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
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
    """Rise & Fall boards by ruleset: square cells for riseandfall/1, hexagons for
    riseandfall/2 (from the cell ids, or from the coordinates the view gives); a cliff is drawn
    between cells two levels apart; a piece shows its seat's number."""
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
                         pieces: [{ cell: 41, piece: 'nomad', seat: 1 }] };
          const cells = terrain.map((t, i) => ({ q: i % 40, r: Math.floor(i / 40) }));
          const square = m.riseAndFall(view, 'riseandfall/1');
          const hex = m.riseAndFall(view, 'riseandfall/2');
          const world = { ...view.world, cells };
          const given = m.riseAndFall({ ...view, world }, 'riseandfall/2');
          return [square.querySelectorAll('rect[data-cell]').length,
                  hex.querySelectorAll('polygon[data-cell]').length,
                  given.querySelectorAll('polygon[data-cell]').length,
                  square.querySelectorAll('line.cliff').length,
                  square.querySelector('.piece text').textContent];
        }"""
    )
    assert counts == [5, 5, 5, 1, "1"], counts
