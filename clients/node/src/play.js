#!/usr/bin/env node
// Plays a whole game (Rise & Fall; or Tapestry, multi-seat or solo against the Automa, with
// any expansion boxes) through the public gRPC API with seeded random players, while a
// spectator watches the live stream, then exports and verifies the record.
//
//   node src/play.js --target 127.0.0.1:50051 --players 3 --seed 7
//   node src/play.js --tapestry --players 3 --expansions plans_and_ploys --civilizations spies
//
// 1. CreateGame with 2–4 seats (server seed derived from --seed: the run is deterministic);
// 2. WatchGame as a spectator (no token), in parallel, collecting every event's seq;
// 3. calls that must fail with typed errors (decoded from the status details, each reason a
//    value of annales.v1.ErrorReason) and change nothing: no token (UNAUTHENTICATED,
//    TOKEN_REQUIRED), a stale expected_version (ABORTED, VERSION_CONFLICT, ErrorInfo metadata
//    current_version) and a garbage token (UNAUTHENTICATED, BAD_TOKEN);
// 4. for whichever seat is pending, send one of its legal actions drawn uniformly with a
//    seeded PRNG (mulberry32) back unchanged, with expected_version, an idempotency key and
//    include_next_actions. The answer's `pending` says who decides next and, when it is the
//    same seat, its `next_actions` are the next choices: ListLegalActions is called only when
//    another seat takes over (or after a conflict). ABORTED (version conflict) → list again and
//    redraw; UNAVAILABLE or DEADLINE_EXCEEDED → resend the same request (same key: the server
//    returns the first result);
// 5. once no seat is pending: GetGame must say FINISHED; the watched seqs must be 1..N with
//    no gap or duplicate, N being the game's head version (the server ends the stream after
//    the final event; if it has not 2 s after all N events arrived, the stream is cancelled
//    and "stream_ended" is false; --watch-grace-ms bounds the whole wait);
// 6. ExportRecord with a seat token (complete=true) and VerifyRecord (ok=true, reexecuted=true).
//
// Prints one JSON line on stdout:
//   {"game_id":…,"events":N,"watched":N,"verified":true,"winners":[…], …}
// with, for Tapestry, the boxes in play, the server's notes (GameSummary.notes: the boxes'
// components left out), each seat's civilizations (ids) and civilization counters, and how
// many times each decision (Pending.decision) was answered and each event kind watched.
// --prompts also writes each decision answered, with the server's sentence, on stderr.
// and exits 0; on any failure prints the reason on stderr and exits 1 (2 for bad arguments).

import { parseArgs } from "node:util";
import { AnnalesClient, AnnalesError } from "./client.js";
import { mulberry32, seedOf } from "./prng.js";
import { UsageError, runScript } from "./script.js";
import {
  parseBoxes,
  parseList,
  seatCivilizations,
  sortedCounts,
  tapestryRequest,
} from "./tapestry.js";

export { mulberry32, seedOf };

const USAGE = `usage: node src/play.js [--target HOST:PORT] [--players 2-4, Tapestry 2-5] [--seed N]
                        [--max-commands N] [--deadline-ms MS] [--watch-grace-ms MS]
                        [--solo-tapestry LEVEL]   (1 seat against the Automa, level 1-6)
                        [--tapestry]              (Tapestry, 2-5 seats)
                        [--expansions BOX,...|all] [--civilizations CIV,...] (Tapestry)
                        [--prompts]               (each decision answered, on stderr)`;

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: "string", default: "127.0.0.1:50051" },
      players: { type: "string", default: "3" },
      seed: { type: "string", default: "1" },
      "max-commands": { type: "string", default: "100000" },
      "deadline-ms": { type: "string", default: "30000" },
      "watch-grace-ms": { type: "string", default: "15000" },
      "solo-tapestry": { type: "string", default: "" },
      tapestry: { type: "boolean", default: false },
      expansions: { type: "string", default: "" },
      civilizations: { type: "string", default: "" },
      prompts: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const solo = soloLevel(values["solo-tapestry"]);
  const tapestry = Boolean(solo) || values.tapestry;
  const players = solo ? 1 : Number(values.players);
  const most = tapestry ? 5 : 4;
  if (!solo && (!Number.isInteger(players) || players < 2 || players > most)) {
    throw new UsageError(`--players must be 2 to ${most}`);
  }
  const boxes = parseBoxes(values.expansions);
  const civilizations = parseList(values.civilizations);
  if (!tapestry && (boxes.length || civilizations.length)) {
    throw new UsageError("--expansions and --civilizations need --tapestry or --solo-tapestry");
  }
  if (civilizations.length > players) {
    throw new UsageError(`--civilizations names more civilizations than the ${players} seats`);
  }
  const numbers = {};
  for (const name of ["max-commands", "deadline-ms", "watch-grace-ms"]) {
    numbers[name] = Number(values[name]);
    if (!Number.isInteger(numbers[name]) || numbers[name] <= 0) {
      throw new UsageError(`--${name} must be a positive integer`);
    }
  }
  return {
    help: values.help,
    target: values.target,
    players,
    solo,
    tapestry,
    boxes,
    civilizations,
    prompts: values.prompts,
    seed: values.seed,
    maxCommands: numbers["max-commands"],
    deadlineMs: numbers["deadline-ms"],
    watchGraceMs: numbers["watch-grace-ms"],
  };
}

/** The Automa level of `--solo-tapestry` (0: a Rise & Fall game, the default). */
function soloLevel(text) {
  if (!text) return 0;
  const level = Number(text);
  if (!Number.isInteger(level) || level < 1 || level > 6) {
    throw new UsageError("--solo-tapestry must be an Automa level, 1 to 6");
  }
  return level;
}

/** CreateGame fields: Rise & Fall, or Tapestry (solo against the Automa at `opts.solo`). */
function gameRequest(opts) {
  if (!opts.tapestry) return {};
  const { solo: level, boxes, civilizations } = opts;
  return tapestryRequest({ level, boxes, civilizations });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TRANSIENT = new Set(["UNAVAILABLE", "DEADLINE_EXCEEDED"]);

/**
 * A spectator's WatchGame stream that records every seq received, resuming (after the last
 * seq) if the connection drops. `ended` resolves when the server ends the stream cleanly.
 */
class Watcher {
  constructor(client, gameId, { maxResumes = 3 } = {}) {
    this.client = client;
    this.gameId = gameId;
    this.seqs = [];
    this.kinds = new Map();
    this.lastVersion = 0;
    this.streamEnded = false;
    this.error = null;
    this.cancelled = false;
    this.resumes = 0;
    this.maxResumes = maxResumes;
    this.ended = new Promise((resolve) => {
      this._resolve = resolve;
    });
    this._open();
  }

  _open() {
    const after = this.seqs.length ? this.seqs[this.seqs.length - 1] : 0;
    const call = this.client.watchGame(this.gameId, { afterVersion: after });
    this.call = call;
    call.on("data", (message) => {
      for (const event of message.events) {
        this.seqs.push(event.seq);
        this.kinds.set(event.kind, (this.kinds.get(event.kind) ?? 0) + 1);
      }
      this.lastVersion = message.version;
    });
    call.on("error", (raw) => {
      if (this.cancelled) return this._resolve();
      const error = new AnnalesError("WatchGame", raw);
      if (TRANSIENT.has(error.codeName) && this.resumes < this.maxResumes) {
        this.resumes += 1;
        setTimeout(() => this._open(), 200 * this.resumes);
        return undefined;
      }
      this.error = error;
      return this._resolve();
    });
    // A clean end is a final status OK ("end" also follows a failed status in grpc-js).
    call.on("status", (status) => {
      if (status.code === 0 && call === this.call && !this.cancelled) {
        this.streamEnded = true;
        this._resolve();
      }
    });
  }

  cancel() {
    this.cancelled = true;
    this.call.cancel();
    this._resolve();
  }
}

/** Throws unless `seqs` is exactly 1, 2, …, n. */
export function checkContiguous(seqs) {
  const seen = new Set();
  for (let i = 0; i < seqs.length; i += 1) {
    if (seen.has(seqs[i])) throw new Error(`watched seq ${seqs[i]} twice (at position ${i})`);
    seen.add(seqs[i]);
    if (seqs[i] !== i + 1) {
      throw new Error(`watched seqs not contiguous: position ${i} holds ${seqs[i]}, expected ${i + 1}`);
    }
  }
}

/** Expects `promise` to fail with gRPC `codeName` and ErrorInfo `reason`; returns the error. */
async function expectError(promise, codeName, reason) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AnnalesError && error.codeName === codeName && error.reason === reason) {
      if (error.domain !== "annales.v1") throw new Error(`ErrorInfo domain ${error.domain}`);
      return error;
    }
    throw error;
  }
  throw new Error(`expected ${codeName} ${reason}, the call succeeded`);
}

/**
 * Typed errors, decoded from the status details: calls that must fail without changing the
 * game (no token; a stale expected_version). Returns the reasons seen.
 */
async function probeErrors(client, gameId, tokens) {
  const noToken = await expectError(
    client.listLegalActions(gameId),
    "UNAUTHENTICATED",
    "TOKEN_REQUIRED",
  );
  const legal = await client.listLegalActions(gameId, tokens[0]);
  const seat = legal.pending.seats[0];
  const mine = seat === 0 ? legal : await client.listLegalActions(gameId, tokens[seat]);
  const stale = await expectError(
    client.submitAction(gameId, tokens[seat], mine.actions[0], {
      expectedVersion: mine.version - 1,
    }),
    "ABORTED",
    "VERSION_CONFLICT",
  );
  if (stale.info.current_version !== String(mine.version)) {
    throw new Error(`VERSION_CONFLICT current_version=${stale.info.current_version}`);
  }
  const garbage = await expectError(
    client.getView(gameId, "not-a-token"),
    "UNAUTHENTICATED",
    "BAD_TOKEN",
  );
  const after = await client.getGame(gameId);
  if (after.game.head_version !== mine.version) throw new Error("a rejected action changed the game");
  for (const error of [noToken, stale, garbage]) {
    if (!error.reasonNumber) throw new Error(`reason ${error.reason} is not in ErrorReason`);
  }
  return [noToken.reason, stale.reason, garbage.reason];
}

/** Submits, resending the identical request (same idempotency key) on transient errors. */
async function submit(client, gameId, token, action, expectedVersion, key) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await client.submitAction(gameId, token, action, {
        expectedVersion,
        idempotencyKey: key,
        includeNextActions: true,
      });
    } catch (error) {
      if (!(error instanceof AnnalesError) || !TRANSIENT.has(error.codeName) || attempt >= 3) {
        throw error;
      }
      await sleep(100 * (attempt + 1));
    }
  }
}

async function play(opts) {
  const started = Date.now();
  const rng = mulberry32(seedOf(opts.seed));
  const client = new AnnalesClient(opts.target, { deadlineMs: opts.deadlineMs });
  let watcher = null;
  try {
    await client.waitForReady(10_000);
    const names = Array.from({ length: opts.players }, (_, i) => `node-${i + 1}`);
    const created = await client.createGame({
      seatNames: names,
      seed: `node-play/${opts.seed}`,
      ...gameRequest(opts),
    });
    const gameId = created.game_id;
    const tokens = created.seat_tokens.map((seat) => seat.token);
    if (tokens.length !== opts.players) {
      throw new Error(`CreateGame returned ${tokens.length} tokens for ${opts.players} seats`);
    }
    watcher = new Watcher(client, gameId);
    const errorReasons = await probeErrors(client, gameId, tokens);

    let seat = 0;
    let commands = 0;
    let conflicts = 0;
    let abortedRetries = 0;
    let duplicates = 0;
    let listCalls = 0;
    const decisions = new Map(); // Pending.decision → times answered
    let legal = null; // the seat's legal actions, from ListLegalActions or a SubmitAction answer
    for (;;) {
      if (legal === null) {
        legal = await client.listLegalActions(gameId, tokens[seat]);
        listCalls += 1;
      }
      const pending = legal.pending?.seats ?? [];
      if (pending.length === 0) break; // nobody to act: the game is over (checked below)
      if (!pending.includes(seat)) {
        seat = pending[0];
        legal = null;
        continue;
      }
      if (legal.actions.length === 0) {
        throw new Error(`seat ${seat} is pending at version ${legal.version} with no legal action`);
      }
      if (commands >= opts.maxCommands) {
        throw new Error(`the game did not end within ${opts.maxCommands} commands`);
      }
      const action = legal.actions[Math.floor(rng() * legal.actions.length)];
      const decision = legal.pending.decision || "?";
      if (opts.prompts) {
        const line = `v${legal.version} seat ${seat} ${decision}: ${legal.pending.prompt}`;
        process.stderr.write(`${line}\n`);
      }
      const key = `node-play-${seat}-${legal.version}`;
      try {
        const result = await submit(client, gameId, tokens[seat], action, legal.version, key);
        if (result.version <= legal.version) {
          throw new Error(`SubmitAction at ${legal.version} answered version ${result.version}`);
        }
        if (result.duplicate) duplicates += 1;
        commands += 1;
        decisions.set(decision, (decisions.get(decision) ?? 0) + 1);
        conflicts = 0;
        const next = result.pending?.seats ?? [];
        if (next.length === 0) break; // the game is over (checked below)
        if (next.includes(seat) && result.next_actions.length > 0) {
          legal = { version: result.version, pending: result.pending, actions: result.next_actions };
        } else {
          seat = next[0];
          legal = null;
        }
      } catch (error) {
        if (error instanceof AnnalesError && error.codeName === "ABORTED") {
          abortedRetries += 1;
          conflicts += 1;
          if (conflicts > 10) throw error;
          legal = null;
          continue; // stale version: list again and draw again
        }
        throw error;
      }
      if (watcher.error) throw watcher.error;
    }

    const { game } = await client.getGame(gameId);
    if (game.status !== "GAME_STATUS_FINISHED") {
      throw new Error(`no seat is pending but the game is ${game.status}`);
    }
    const events = game.head_version;

    // The server ends the stream after the game's final event: wait for that (at most
    // --watch-grace-ms, and at most 2 s once every event has been watched).
    const deadline = Date.now() + opts.watchGraceMs;
    while (!watcher.streamEnded && !watcher.error && Date.now() < deadline) {
      if (watcher.seqs.length >= events && watcher.lastVersion >= events) {
        await Promise.race([watcher.ended, sleep(Math.min(2000, deadline - Date.now()))]);
        break;
      }
      await Promise.race([watcher.ended, sleep(50)]);
    }
    const streamEnded = watcher.streamEnded;
    if (!streamEnded) watcher.cancel();
    if (watcher.error) throw watcher.error;
    checkContiguous(watcher.seqs);
    if (watcher.seqs.length !== events) {
      throw new Error(`watched ${watcher.seqs.length} events, the game has ${events}`);
    }

    const exported = await client.exportRecord(gameId, tokens[0]);
    if (!exported.complete) throw new Error("ExportRecord after the end: complete=false");
    const report = await client.verifyRecord(exported.record);
    if (!report.ok || !report.reexecuted) {
      throw new Error(
        `VerifyRecord: ok=${report.ok} reexecuted=${report.reexecuted}: ${report.message}` +
          (report.divergence_seq ? ` (divergence at seq ${report.divergence_seq})` : ""),
      );
    }

    const summary = {
      game_id: gameId,
      events,
      watched: watcher.seqs.length,
      verified: true,
      winners: game.winners,
      scores: game.scores,
      // automated opponents (solo Tapestry: the Automa) with their scores
      parties: (game.parties ?? []).map((p) => ({ name: p.name, score: p.score, winner: p.winner })),
      players: opts.players,
      seed: opts.seed,
      commands,
      list_calls: listCalls,
      aborted_retries: abortedRetries,
      duplicates,
      stream_ended: streamEnded,
      stream_resumes: watcher.resumes,
      error_reasons: errorReasons,
      record_bytes: exported.record.length,
      // public remarks on the setup (e.g. an expansion box's components left out)
      notes: game.notes,
    };
    if (opts.tapestry) {
      const { view } = await client.getView(gameId, tokens[0]);
      summary.expansions = game.options?.tapestry?.expansions ?? [];
      summary.seats = seatCivilizations(view.tapestry);
      summary.decisions = sortedCounts(decisions);
      summary.event_kinds = sortedCounts(watcher.kinds);
    }
    summary.seconds = Math.round((Date.now() - started) / 100) / 10;
    return summary;
  } finally {
    if (watcher && !watcher.streamEnded) watcher.cancel();
    client.close();
  }
}

process.exitCode = await runScript("play.js", USAGE, options, play);
