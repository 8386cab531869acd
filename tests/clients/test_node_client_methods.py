"""The Node.js client's undo, public seat views and ListGames filters against a real server.

A small node script (written to a temporary file, importing ``clients/node/src/client.js``)
plays a 3-seat Rise & Fall game through the client's methods and checks, printing one JSON
line of what it saw:

* ``undo`` of a seat's own action, and its retry with the same idempotency key (same version
  and events, nothing appended);
* ``requestUndo`` / ``respondUndo``: while the request is open the game's pending decision
  is unchanged, no seat has actions and the seats that must answer are told so; two approvals
  end in ``Undone``; retries with the same key append nothing; ``respondUndo`` without a
  request is ``NO_UNDO_REQUEST``;
* ``getView`` with ``version``, and with ``seat`` but no token (``GAME_NOT_FINISHED`` while
  the game runs, the seat's view once a 2-seat game played to its end is over);
* ``listGames`` filtered by ``player``, ``gameType`` and ``status``.

Reuses the server and ``node`` fixtures of ``test_node_client.py``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.clients.test_node_client import NODE_DIR, node, node_server

__all__ = ["node", "node_server"]  # pytest fixtures, imported to be used here

SCRIPT_TIMEOUT = 90.0

SCRIPT = r"""
import { AnnalesClient, AnnalesError } from "CLIENT_URL";
import { mulberry32 } from "PRNG_URL";

const target = process.argv[2];
const client = new AnnalesClient(target);
const out = {};
const check = (condition, what) => {
  if (!condition) throw new Error(`check failed: ${what}`);
};
const reasonOf = async (promise) => {
  try {
    await promise;
    return "OK";
  } catch (error) {
    if (!(error instanceof AnnalesError)) throw error;
    return error.reason;
  }
};
const head = async (gameId) => (await client.getGame(gameId)).game.head_version;

// --- a 3-seat game: undo, requestUndo, respondUndo ---------------------------------------
const player = `node-methods-${process.pid}`;
const game = await client.createGame({
  seatNames: [player, "bob", "cat"],
  seed: "node-methods",
});
const id = game.game_id;
const tokens = game.seat_tokens.map((seat) => seat.token);
const legalOf = (seat) => client.listLegalActions(id, tokens[seat]);

// play first legal actions until the seat that just acted may take its action back
let undone = null;
for (let step = 0; step < 40 && undone === null; step += 1) {
  const { pending } = await client.getGame(id).then((answer) => answer.game);
  const seat = pending.seats[0];
  const legal = await legalOf(seat);
  await client.submitAction(id, tokens[seat], legal.actions[0], {
    expectedVersion: legal.version,
  });
  const after = await legalOf(seat);
  if (after.can_undo) {
    const key = `undo-${seat}-${after.version}`;
    const first = await client.undo(id, tokens[seat], {
      expectedVersion: after.version,
      idempotencyKey: key,
    });
    const before = await head(id);
    const again = await client.undo(id, tokens[seat], { idempotencyKey: key });
    check(again.version === first.version, "an Undo retry answers the same version");
    check(JSON.stringify(again.events) === JSON.stringify(first.events), "same events");
    check((await head(id)) === before, "an Undo retry appends nothing");
    undone = first.events.map((event) => event.kind);
  }
}
check(undone !== null, "a seat could undo within 40 commands");
out.undo_events = undone;
out.no_request = await reasonOf(client.respondUndo(id, tokens[0], true));

// play on until a seat is offered undo versions, then ask to go back
let requester = -1;
let toVersion = 0;
for (let step = 0; step < 40 && requester < 0; step += 1) {
  const seat = (await client.getGame(id)).game.pending.seats[0];
  const legal = await legalOf(seat);
  if (legal.undo_versions.length > 0) {
    requester = seat;
    toVersion = legal.undo_versions[0];
  } else {
    await client.submitAction(id, tokens[seat], legal.actions[0]);
  }
}
check(requester >= 0, "undo versions were offered");
const pendingBefore = (await client.getGame(id)).game.pending;
const request = await client.requestUndo(id, tokens[requester], toVersion, {
  idempotencyKey: "request-1",
});
const requestAgain = await client.requestUndo(id, tokens[requester], toVersion, {
  idempotencyKey: "request-1",
});
check(requestAgain.version === request.version, "a RequestUndo retry answers the same version");
check((await head(id)) === request.version, "a RequestUndo retry appends nothing");
out.request_events = request.events.map((event) => event.kind);
const pendingOpen = (await client.getGame(id)).game.pending;
check(
  JSON.stringify(pendingOpen) === JSON.stringify(pendingBefore),
  "GameSummary.pending is unchanged while the request is open",
);
const open = await Promise.all([0, 1, 2].map(legalOf));
out.open_actions = open.map((legal) => legal.actions.length);
out.open_answer_expected = open.map((legal) => legal.undo_answer_expected);
const others = [0, 1, 2].filter((seat) => seat !== requester);
const approval = await client.respondUndo(id, tokens[others[0]], true, {
  idempotencyKey: "approve-1",
});
const approvalAgain = await client.respondUndo(id, tokens[others[0]], true, {
  idempotencyKey: "approve-1",
});
check(approvalAgain.version === approval.version, "a RespondUndo retry answers the same version");
check((await head(id)) === approval.version, "a RespondUndo retry appends nothing");
const last = await client.respondUndo(id, tokens[others[1]], true);
out.approve_events = [approval, last].map((answer) => answer.events.map((event) => event.kind));
out.undone_to = last.events.at(-1).kernel.undone.to_version;
out.to_version = toVersion;

// --- views: a past version, and a seat's view without a token -------------------------------
const past = await client.getView(id, tokens[1], { version: game.version });
out.past_view = [past.seat, past.game.version];
out.created_version = game.version;
out.seat_view_running = await reasonOf(client.getView(id, undefined, { seat: 0 }));

// --- ListGames filters -----------------------------------------------------------------------
const mine = await client.listGames({ player });
out.by_player = mine.games.map((summary) => summary.game_id === id);
out.by_player_tapestry = (await client.listGames({ player, gameType: "GAME_TYPE_TAPESTRY" }))
  .games.length;
out.by_player_finished = (await client.listGames({ player, status: "GAME_STATUS_FINISHED" }))
  .games.length;
out.by_player_rise_and_fall = (
  await client.listGames({ player, gameType: "GAME_TYPE_RISE_AND_FALL" })
).games.length;

// --- a 2-seat game played to its end: every seat's view is public ------------------------
const short = await client.createGame({
  seatNames: ["ann", "bob"],
  seed: "node-methods-end",
  options: { rise_and_fall: { trophies: 4 } },
});
const shortTokens = short.seat_tokens.map((seat) => seat.token);
const random = mulberry32(7);
let commands = 0;
for (;;) {
  const { pending } = (await client.getGame(short.game_id)).game;
  if (pending.seats.length === 0) break;
  const seat = pending.seats[0];
  let legal = await client.listLegalActions(short.game_id, shortTokens[seat]);
  let actions = legal.actions;
  let version = legal.version;
  while (actions.length > 0) {
    const action = actions[Math.floor(random() * actions.length)];
    const done = await client.submitAction(short.game_id, shortTokens[seat], action, {
      expectedVersion: version,
      includeNextActions: true,
    });
    commands += 1;
    check(commands < 5000, "the 2-seat game ends");
    actions = done.next_actions;
    version = done.version;
  }
}
const views = await Promise.all(
  [0, 1].map((seat) => client.getView(short.game_id, undefined, { seat })),
);
out.finished_seat_views = views.map((view) => [view.seat, view.game.status]);
out.finished_undo = await reasonOf(client.undo(short.game_id, shortTokens[0]));
client.close();
console.log(JSON.stringify(out));
"""


def test_node_client_undo_views_and_filters(
    node: str, node_server: tuple[str, Path], tmp_path: Path
) -> None:
    target, log = node_server
    script = tmp_path / "methods.mjs"
    source = SCRIPT.replace("CLIENT_URL", (NODE_DIR / "src" / "client.js").as_uri())
    script.write_text(source.replace("PRNG_URL", (NODE_DIR / "src" / "prng.js").as_uri()))
    done = subprocess.run(
        [node, str(script), target],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        timeout=SCRIPT_TIMEOUT,
        check=False,
    )
    report = (
        f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}\n"
        f"server log tail:\n{log.read_text()[-3000:]}"
    )
    assert done.returncode == 0, report
    seen = json.loads(done.stdout.strip().splitlines()[-1])

    assert seen["undo_events"] == ["Undone"], report
    assert seen["no_request"] == "NO_UNDO_REQUEST", report
    assert seen["request_events"] == ["UndoRequested"], report
    # while the request is open nobody has actions; the two other seats must answer
    assert seen["open_actions"] == [0, 0, 0], report
    assert sorted(seen["open_answer_expected"]) == [False, True, True], report
    assert seen["approve_events"] == [["UndoApproved"], ["UndoApproved", "Undone"]], report
    assert seen["undone_to"] == seen["to_version"], report
    assert seen["past_view"] == [1, seen["created_version"]], report
    assert seen["seat_view_running"] == "GAME_NOT_FINISHED", report
    assert seen["by_player"] == [True], report
    assert seen["by_player_tapestry"] == 0, report
    assert seen["by_player_finished"] == 0, report
    assert seen["by_player_rise_and_fall"] == 1, report
    assert seen["finished_seat_views"] == [
        [0, "GAME_STATUS_FINISHED"],
        [1, "GAME_STATUS_FINISHED"],
    ], report
    assert seen["finished_undo"] == "GAME_OVER", report
