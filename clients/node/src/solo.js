#!/usr/bin/env node
// Plays a solo Imperium game (one seat against the C.I.V.) through the public gRPC API with a
// seeded random human, then shows the C.I.V.'s score and verifies the record.
//
//   node src/solo.js --target 127.0.0.1:50051 --seed 3 --difficulty chieftain \
//                    --nation romans --civ-nation celts
//
// 1. CreateGame (GAME_TYPE_IMPERIUM) with ONE seat name and ImperiumOptions {difficulty,
//    nations, civ_nation}: the C.I.V. holds no seat and no token; its turns are events
//    decided inside the human's commands;
// 2. the C.I.V.'s running score while playing: GetGame's GameSummary.parties (PartyScore
//    {name, score, winner}), public to anyone;
// 3. the human (seat 0) plays legal actions drawn with a seeded PRNG until nobody is pending;
// 4. GetGame must say FINISHED: the human's score (scores[0]), the C.I.V.'s final PartyScore,
//    winners ([0] when the human won, [] when the C.I.V. won: a tie goes to the C.I.V.);
// 5. ExportRecord and VerifyRecord (ok=true, reexecuted=true).
//
// Prints one JSON line on stdout ({"game_id":…,"civ":{"name":…,"score":…,"winner":…},…}) and
// exits 0; on any failure prints the reason on stderr and exits 1 (2 for bad arguments).

import { parseArgs } from "node:util";
import { AnnalesClient } from "./client.js";
import { mulberry32, seedOf } from "./prng.js";
import { UsageError, runScript } from "./script.js";

const USAGE = `usage: node src/solo.js [--target HOST:PORT] [--seed N] [--difficulty LEVEL]
                        [--nation NATION] [--civ-nation NATION] [--max-commands N]`;
const LEVELS = ["chieftain", "warlord", "imperator", "sovereign", "overlord"];

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: "string", default: "127.0.0.1:50051" },
      seed: { type: "string", default: "1" },
      difficulty: { type: "string", default: "chieftain" },
      nation: { type: "string", default: "" },
      "civ-nation": { type: "string", default: "" },
      "max-commands": { type: "string", default: "20000" },
      "deadline-ms": { type: "string", default: "30000" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (!LEVELS.includes(values.difficulty)) {
    throw new UsageError(`--difficulty must be one of ${LEVELS.join(", ")}`);
  }
  const maxCommands = Number(values["max-commands"]);
  const deadlineMs = Number(values["deadline-ms"]);
  if (!Number.isInteger(maxCommands) || maxCommands <= 0 || !Number.isInteger(deadlineMs)) {
    throw new UsageError("--max-commands and --deadline-ms must be positive integers");
  }
  return {
    help: values.help,
    target: values.target,
    seed: values.seed,
    difficulty: values.difficulty,
    nation: values.nation,
    civNation: values["civ-nation"],
    maxCommands,
    deadlineMs,
  };
}

/** The C.I.V.'s PartyScore from a GameSummary (the only party of a solo game). */
export function civParty(game) {
  const parties = game.parties ?? [];
  if (parties.length !== 1) throw new Error(`a solo game has ${parties.length} parties, not 1`);
  const { name, score, winner } = parties[0];
  return { name, score, winner };
}

async function solo(opts) {
  const started = Date.now();
  const rng = mulberry32(seedOf(opts.seed));
  const client = new AnnalesClient(opts.target, { deadlineMs: opts.deadlineMs });
  try {
    await client.waitForReady(10_000);
    const imperium = { difficulty: opts.difficulty };
    if (opts.nation) imperium.nations = [opts.nation];
    if (opts.civNation) imperium.civ_nation = opts.civNation;
    const created = await client.createGame({
      seatNames: ["node-solo"],
      seed: `node-solo/${opts.seed}`,
      gameType: "GAME_TYPE_IMPERIUM",
      options: { imperium },
    });
    const gameId = created.game_id;
    if (created.seat_tokens.length !== 1) {
      throw new Error(`a solo game returned ${created.seat_tokens.length} seat tokens`);
    }
    const token = created.seat_tokens[0].token;
    const first = civParty((await client.getGame(gameId)).game);

    let commands = 0;
    for (;;) {
      const legal = await client.listLegalActions(gameId, token);
      const pending = legal.pending?.seats ?? [];
      if (pending.length === 0) break;
      if (!pending.every((seat) => seat === 0)) {
        throw new Error(`pending seats ${pending} in a one-seat game (the C.I.V. has no seat)`);
      }
      if (legal.actions.length === 0) throw new Error(`no legal action at ${legal.version}`);
      if (commands >= opts.maxCommands) {
        throw new Error(`the game did not end within ${opts.maxCommands} commands`);
      }
      const action = legal.actions[Math.floor(rng() * legal.actions.length)];
      await client.submitAction(gameId, token, action, {
        expectedVersion: legal.version,
        idempotencyKey: `node-solo-${legal.version}`,
      });
      commands += 1;
    }

    const { game } = await client.getGame(gameId);
    if (game.status !== "GAME_STATUS_FINISHED") {
      throw new Error(`nobody is pending but the game is ${game.status}`);
    }
    const civ = civParty(game);
    const exported = await client.exportRecord(gameId, token);
    const report = await client.verifyRecord(exported.record);
    if (!exported.complete || !report.ok || !report.reexecuted) {
      throw new Error(`ExportRecord/VerifyRecord: ${report.message}`);
    }
    return {
      game_id: gameId,
      difficulty: opts.difficulty,
      events: game.head_version,
      commands,
      human_score: game.scores[0],
      civ,
      civ_at_start: first,
      winners: game.winners,
      verified: true,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    client.close();
  }
}

process.exitCode = await runScript("solo.js", USAGE, options, solo);
