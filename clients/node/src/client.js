// A small Node.js client of the Annales public gRPC API (annales.v1.GameService).
//
// * The protos are loaded at run time from the repository's `proto/` folder (never copied),
//   with `@grpc/proto-loader` and `keepCase: true`: field names are the proto's snake_case
//   names (`game_id`, `expected_version`, ...).
// * Messages are plain objects. int64 fields are JS numbers (`longs: Number`), enums are their
//   names (`enums: String`, e.g. "GAME_TYPE_RISE_AND_FALL"), unset scalars hold their default,
//   `oneofs: true` adds a virtual field naming the member set (e.g. `action.game ===
//   "rise_and_fall"`). An action returned by `listLegalActions` can be sent back unchanged:
//   the object decodes and re-encodes to the same message.
// * Acting for a seat needs its secret token: the client sends `authorization: Bearer <token>`
//   metadata. Without a token the caller is a spectator.
// * A failed call rejects with an `AnnalesError` carrying the gRPC status code and the
//   `google.rpc.ErrorInfo` the server attaches (`reason`, `domain`, `metadata`), decoded from
//   the `grpc-status-details-bin` trailer with the vendored google/rpc protos (see
//   `decodeErrorInfo`); `reasonNumber` is the reason's `annales.v1.ErrorReason` value.
//
// Example:
//
//   import { AnnalesClient } from "./client.js";
//   const client = new AnnalesClient("127.0.0.1:50051");
//   const game = await client.createGame({ seatNames: ["ann", "bob"] });
//   const token = game.seat_tokens[0].token;
//   const legal = await client.listLegalActions(game.game_id, token);
//   await client.submitAction(game.game_id, token, legal.actions[0], {
//     expectedVersion: legal.version, idempotencyKey: "ann-1" });
//   client.close();

import { fileURLToPath } from "node:url";
import path from "node:path";
import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";

/** The repository's proto folder (`clients/node/src` → `proto`). */
export const PROTO_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "proto",
);

/** Options of `@grpc/proto-loader` (and so of every message object this client handles). */
export const LOADER_OPTIONS = Object.freeze({
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
});

/** Default deadline of a unary call, in milliseconds. */
export const DEFAULT_DEADLINE_MS = 30_000;

let cachedApi = null;

/** The loaded `annales.v1` package (service constructors and message definitions). */
export function loadApi() {
  if (cachedApi === null) {
    const definition = protoLoader.loadSync(["annales/v1/annales.proto"], LOADER_OPTIONS);
    cachedApi = grpc.loadPackageDefinition(definition).annales.v1;
  }
  return cachedApi;
}

// google.rpc.Status and google.rpc.ErrorInfo come from the repository's vendored
// `proto/google/rpc/*.proto` (Apache-2.0), and the ErrorReason enum from
// `proto/annales/v1/errors.proto`, loaded with protobufjs (google/protobuf/any.proto is one of
// the well-known types protobufjs ships).
const rpcTypes = new protobuf.Root();
rpcTypes.resolvePath = (origin, target) =>
  target.startsWith("google/protobuf/") ? target : path.join(PROTO_ROOT, target);
rpcTypes.loadSync(
  ["google/rpc/status.proto", "google/rpc/error_details.proto", "annales/v1/errors.proto"],
  { keepCase: true },
);
/** Every ErrorInfo reason the server may send → its `annales.v1.ErrorReason` number. */
export const ERROR_REASONS = Object.freeze(
  Object.fromEntries(
    Object.entries(rpcTypes.lookupEnum("annales.v1.ErrorReason").values)
      .filter(([name]) => name !== "ERROR_REASON_UNSPECIFIED")
      .map(([name, number]) => [name.slice("ERROR_REASON_".length), number]),
  ),
);
const StatusType = rpcTypes.lookupType("google.rpc.Status");
const ErrorInfoType = rpcTypes.lookupType("google.rpc.ErrorInfo");
const ERROR_INFO_URL = "type.googleapis.com/google.rpc.ErrorInfo";

/**
 * The `google.rpc.ErrorInfo` of a failed call, or `null` when the server sent none.
 *
 * gRPC servers with rich errors put a serialized `google.rpc.Status` in the binary trailer
 * `grpc-status-details-bin`; its `details` are `Any` messages, one of which is the ErrorInfo.
 * Returns `{ reason, domain, metadata }` (metadata: a plain string → string object).
 */
export function decodeErrorInfo(error) {
  const values = error?.metadata?.get?.("grpc-status-details-bin") ?? [];
  for (const value of values) {
    if (!Buffer.isBuffer(value)) continue;
    let status;
    try {
      status = StatusType.decode(value);
    } catch {
      continue; // not a google.rpc.Status: ignore
    }
    for (const detail of status.details ?? []) {
      if (detail.type_url === ERROR_INFO_URL || detail.type_url.endsWith("/google.rpc.ErrorInfo")) {
        const info = ErrorInfoType.toObject(ErrorInfoType.decode(detail.value), {
          defaults: true,
          objects: true,
        });
        return { reason: info.reason, domain: info.domain, metadata: { ...info.metadata } };
      }
    }
  }
  return null;
}

/** A failed call: gRPC `code` (number) and `codeName`, plus the server's ErrorInfo. */
export class AnnalesError extends Error {
  constructor(method, error) {
    const info = decodeErrorInfo(error);
    const codeName = codeNameOf(error.code);
    super(`${method}: ${codeName}${info ? ` ${info.reason}` : ""}: ${error.details ?? error.message}`);
    this.name = "AnnalesError";
    this.method = method;
    this.code = error.code;
    this.codeName = codeName;
    this.details = error.details ?? "";
    this.reason = info?.reason ?? "";
    // 0 for a reason this client does not know (a later ruleset's rule): decide on the code
    this.reasonNumber = ERROR_REASONS[this.reason] ?? 0;
    this.domain = info?.domain ?? "";
    this.info = info?.metadata ?? {};
    this.cause = error;
  }
}

/** The name of a gRPC status code, e.g. "ABORTED". */
export function codeNameOf(code) {
  return Object.keys(grpc.status).find((name) => grpc.status[name] === code) ?? String(code);
}

/** Call metadata carrying `authorization: Bearer <token>` (empty for a spectator). */
export function bearer(token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  return metadata;
}

/** A client of `annales.v1.GameService` (promise-based unary calls, event-emitter streams). */
export class AnnalesClient {
  /**
   * @param {string} target host:port of the server, e.g. "127.0.0.1:50051"
   * @param {{credentials?: grpc.ChannelCredentials, deadlineMs?: number}} [options]
   */
  constructor(target, { credentials, deadlineMs = DEFAULT_DEADLINE_MS } = {}) {
    const api = loadApi();
    this.deadlineMs = deadlineMs;
    this.stub = new api.GameService(target, credentials ?? grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 64 * 1024 * 1024,
    });
  }

  /** Resolves once the channel is connected (rejects after `timeoutMs`). */
  waitForReady(timeoutMs = 10_000) {
    return new Promise((resolve, reject) => {
      this.stub.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Closes the channel. */
  close() {
    this.stub.close();
  }

  _unary(method, request, token) {
    return new Promise((resolve, reject) => {
      const deadline = new Date(Date.now() + this.deadlineMs);
      this.stub[method](request, bearer(token), { deadline }, (error, response) => {
        if (error) reject(new AnnalesError(method, error));
        else resolve(response);
      });
    });
  }

  /**
   * Creates a game; resolves to `{game_id, seat_tokens: [{seat, name, token}], judge_token,
   * seed_commitment, version}`. `options` is a GameOptions object, e.g.
   * `{rise_and_fall: {trophies: 5}}`. With `idempotencyKey` (16 to 128 characters, secret: it
   * gives the tokens back) a retried creation returns the same game.
   */
  createGame({
    seatNames,
    seed = "",
    options = undefined,
    gameType = "GAME_TYPE_RISE_AND_FALL",
    idempotencyKey = "",
  }) {
    return this._unary("CreateGame", {
      game_type: gameType,
      seat_names: seatNames,
      seed,
      options,
      idempotency_key: idempotencyKey,
    });
  }

  /** The public summary and spectator view, now or at `version`. */
  getGame(gameId, { version } = {}) {
    return this._unary("GetGame", { game_id: gameId, version });
  }

  /**
   * The view of the token's seat, now or at `version`. Without a token, `seat` reads that
   * seat's view of a finished game (every seat's view is public once it is over; before the
   * end: FAILED_PRECONDITION `GAME_NOT_FINISHED`). With the judge's token: every seat's view
   * in `seat_views`.
   */
  getView(gameId, token, { version, seat } = {}) {
    return this._unary("GetView", { game_id: gameId, version, seat }, token);
  }

  /** The token's seat, the version, who is pending and every legal action of that seat. */
  listLegalActions(gameId, token) {
    return this._unary("ListLegalActions", { game_id: gameId }, token);
  }

  /**
   * Submits `action` (e.g. one of `listLegalActions(...).actions`, unchanged). The answer's
   * `pending` says who decides next; with `includeNextActions` its `next_actions` are the
   * caller's legal actions when it decides again (no `listLegalActions` call needed).
   */
  submitAction(
    gameId,
    token,
    action,
    { expectedVersion, idempotencyKey = "", includeNextActions = false } = {},
  ) {
    return this._unary(
      "SubmitAction",
      {
        game_id: gameId,
        action,
        expected_version: expectedVersion,
        idempotency_key: idempotencyKey,
        include_next_actions: includeNextActions,
      },
      token,
    );
  }

  /**
   * Takes back the token's seat's own last action of the current turn (allowed when
   * `listLegalActions(...).can_undo`); resolves to `{version, events}` (an `Undone` event).
   * A retry with the same `idempotencyKey` answers the same result and appends nothing.
   */
  undo(gameId, token, { expectedVersion, idempotencyKey = "" } = {}) {
    return this._unary(
      "Undo",
      { game_id: gameId, expected_version: expectedVersion, idempotency_key: idempotencyKey },
      token,
    );
  }

  /**
   * Asks every other seat to approve going back to `toVersion` (one of
   * `listLegalActions(...).undo_versions`); resolves to `{version, events}` (`UndoRequested`).
   */
  requestUndo(gameId, token, toVersion, { idempotencyKey = "" } = {}) {
    return this._unary(
      "RequestUndo",
      { game_id: gameId, to_version: toVersion, idempotency_key: idempotencyKey },
      token,
    );
  }

  /**
   * Approves (`approve` true) or declines the open undo request; the requester declining
   * withdraws it. Resolves to `{version, events}` (`UndoApproved`, followed by `Undone` when it
   * was the last approval, or `UndoDeclined`).
   */
  respondUndo(gameId, token, approve, { idempotencyKey = "" } = {}) {
    return this._unary(
      "RespondUndo",
      { game_id: gameId, approve, idempotency_key: idempotencyKey },
      token,
    );
  }

  /** A page of the game's events (redacted for the caller). */
  getHistory(gameId, { token, pageSize = 0, pageToken = "" } = {}) {
    return this._unary(
      "GetHistory",
      { game_id: gameId, page_size: pageSize, page_token: pageToken },
      token,
    );
  }

  /** The record as JSON lines (`record`: Buffer) and whether it is `complete`. */
  exportRecord(gameId, token) {
    return this._unary("ExportRecord", { game_id: gameId }, token);
  }

  /**
   * Verifies a record (Buffer or string) with the server's VerifyRecord RPC: `{ok, message,
   * reexecuted, divergence_seq, ...}` (`src/verify.js` is the offline verifier, no server).
   */
  verifyRecord(record) {
    return this._unary("VerifyRecord", {
      record: Buffer.isBuffer(record) ? record : Buffer.from(record),
    });
  }

  /**
   * Lists games, newest first: `{games, next_page_token, behind}`. Filters (any when left
   * out): `gameType` (e.g. "GAME_TYPE_TAPESTRY"), `status` (e.g. "GAME_STATUS_FINISHED") and
   * `player` (a seat name).
   */
  listGames({
    pageSize = 0,
    pageToken = "",
    gameType = "GAME_TYPE_UNSPECIFIED",
    status = "GAME_STATUS_UNSPECIFIED",
    player = "",
  } = {}) {
    return this._unary("ListGames", {
      page_size: pageSize,
      page_token: pageToken,
      game_type: gameType,
      status,
      player,
    });
  }

  /**
   * Watches a game's events after `afterVersion` (no deadline: the server ends the stream after
   * the game's last event). Returns the grpc-js call: listen to "data" (a WatchGameResponse
   * `{events, version}`), "error" (a grpc-js error; wrap it with `new AnnalesError("WatchGame",
   * error)` for its reason; CANCELLED after `call.cancel()`) and "end".
   */
  watchGame(gameId, { afterVersion = 0, token } = {}) {
    return this.stub.WatchGame({ game_id: gameId, after_version: afterVersion }, bearer(token));
  }
}

export { grpc };
