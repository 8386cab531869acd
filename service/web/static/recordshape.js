// The shape of an Annales game record, as docs/record-format.md specifies it: which keys each
// line carries (format 2: every key of its table; format 1: none of format 2's), their JSON
// types, the header's viewer, the redaction markers, and the readable `event` / `command`
// against the MessagePack value of its payload. Pure JSON logic with no dependency, shared by
// both JavaScript verifiers: the browser's (service/web/static/verify.js) and Node's
// (clients/node/src/verify.js). It does not re-execute the game.

const F2 = "annales.game/2";

// key → JSON type ("string", "integer", "boolean", "object", "array", "any"), "?" = or null
const HEADER = { record: "string", game_id: "string", game_type: "string", ruleset: "string",
  options: "object", seats: "array", seed_commitment: "string", events: "integer" };
const HEADER_F2 = { seed_commitment_scheme: "string", viewer: "string" };
const JUDGE_ONLY = { seed: "string?", nonce: "string?" };
const COMMAND = { type: "string", command_id: "string", seat: "integer",
  idempotency_key: "string?", command: "object?" };
const COMMAND_F2 = { idempotency_key_digest: "string?", hidden: "array" };
const COMMAND_F2_OPTIONAL = { command_payload: "string?" }; // the first format-2 records had none
const EVENT = { type: "string", seq: "integer", kind: "string", schema: "integer",
  ruleset: "string", event: "object", payload: "string?", prev_hash: "string", hash: "string" };
const EVENT_F2 = { redacted: "boolean" };

// Fields a payload may leave out at their default value (and the readable form then shows)
const DEFAULTS = {
  GameCreated: { seed_commitment_scheme: "sha256-seed", key_digests: false },
  SeedRevealed: { nonce: "" },
};

function typeOk(value, type) {
  const nullable = type.endsWith("?");
  const base = nullable ? type.slice(0, -1) : type;
  if (value === null) return nullable || base === "any";
  if (base === "any") return true;
  if (base === "integer") return Number.isInteger(value);
  if (base === "array") return Array.isArray(value);
  if (base === "object") return typeof value === "object" && !Array.isArray(value);
  return typeof value === base;
}

// The first problem with one line's keys and types: { field, reason } or null
function keyProblem(item, required, optional) {
  for (const [key, type] of Object.entries(required)) {
    if (!(key in item)) return { field: `$.${key}`, reason: `missing field '${key}'` };
  }
  const known = { ...required, ...optional };
  for (const [key, value] of Object.entries(item)) {
    if (!(key in known)) return { field: `$.${key}`, reason: `unknown field '${key}'` };
    if (!typeOk(value, known[key])) return { field: `$.${key}`, reason: `'${key}' is not of type ${known[key]}` };
  }
  return null;
}

/**
 * The first shape problem of a record's items (parsed lines, header first) under `format`:
 * { outcome: "malformed", line, field, reason } or null.
 */
export function shapeProblem(items, format) {
  const f2 = format === F2;
  const bad = (line, problem) => ({ outcome: "malformed", line, ...problem });
  const header = items[0];
  const viewer = header.viewer;
  const headerKeys = f2 ? { ...HEADER, ...HEADER_F2, ...(viewer === "judge" ? JUDGE_ONLY : {}) } : HEADER;
  const problem = keyProblem(header, headerKeys, {});
  if (problem) return bad(1, problem);
  if (f2) {
    const seats = (header.seats || []).map((_, n) => `seat ${n}`);
    if (!["spectator", "judge", "full", ...seats].includes(viewer)) {
      return bad(1, { field: "$.viewer", reason: `viewer '${viewer}' is none of spectator, judge, full, seat 0..${seats.length - 1}` });
    }
  }
  for (const [index, item] of items.slice(1).entries()) {
    const line = index + 2;
    if (item.type === "command") {
      const found = keyProblem(item, f2 ? { ...COMMAND, ...COMMAND_F2 } : COMMAND, f2 ? COMMAND_F2_OPTIONAL : {});
      if (found) return bad(line, found);
      if (!f2) continue;
      if (item.hidden.some((h) => h !== "command" && h !== "idempotency_key")) {
        return bad(line, { field: "$.hidden", reason: "hidden lists only \"command\" and \"idempotency_key\"" });
      }
      const listed = item.hidden.includes("command");
      if (item.command === null && item.seat >= 0 && !listed) {
        return bad(line, { field: "$.hidden", reason: "a player's command is left out without being marked hidden" });
      }
      if (item.command !== null && listed) return bad(line, { field: "$.hidden", reason: "a command shown is also marked hidden" });
    } else if (item.type === "event") {
      const found = keyProblem(item, f2 ? { ...EVENT, ...EVENT_F2 } : EVENT, {});
      if (found) return bad(line, found);
      if (f2 && (item.payload === null) !== item.redacted) {
        return bad(line, { field: "$.redacted", reason: item.redacted ? "an event marked redacted carries a payload" : "an event without its payload is not marked redacted" });
      }
    } else {
      return bad(line, { field: "$.type", reason: `unknown line type ${JSON.stringify(item.type)}` });
    }
  }
  return null;
}

function plain(value, toBase64) { // a decoded MessagePack value as the readable JSON shows it
  if (value instanceof Uint8Array) return toBase64(value);
  if (Array.isArray(value)) return value.map((v) => plain(v, toBase64));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, toBase64)]));
  }
  return value;
}

function firstDifference(expected, found, path) {
  if (Array.isArray(expected) && Array.isArray(found)) {
    for (let i = 0; i < Math.min(expected.length, found.length); i++) {
      const deeper = firstDifference(expected[i], found[i], `${path}[${i}]`);
      if (deeper) return deeper;
    }
    return expected.length === found.length ? null : { path: `${path}.length`, expected: expected.length, found: found.length };
  }
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObject(expected) && isObject(found)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(found)])) {
      if (!(key in found)) return { path: `${path}.${key}`, expected: expected[key], found: "(missing)" };
      if (!(key in expected)) return { path: `${path}.${key}`, expected: "(absent)", found: found[key] };
      const deeper = firstDifference(expected[key], found[key], `${path}.${key}`);
      if (deeper) return deeper;
    }
    return null;
  }
  return expected === found ? null : { path, expected, found };
}

/**
 * Where the readable form `readable` (a line's `event`, or `command`, at `path`) differs from
 * `decoded`, its payload's MessagePack value (binaries as Uint8Array, written as base64 by
 * `toBase64`): { path, expected, found } or null. A GameCreated / SeedRevealed payload, and
 * its readable form, may each leave a field out at its default value (records of format 1).
 */
export function readableDifference(decoded, readable, kind, toBase64, path = "$.event") {
  const defaults = DEFAULTS[kind] || {};
  const expected = { ...defaults, ...plain(decoded, toBase64) };
  const isObject = readable !== null && typeof readable === "object" && !Array.isArray(readable);
  return firstDifference(expected, isObject ? { ...defaults, ...readable } : readable, path);
}

/**
 * Where the header disagrees with the GameCreated event it repeats (`created`, its payload's
 * value, defaults filled in): { path, expected, found } or null.
 */
export function headerDifference(header, created) {
  const expected = {
    game_type: created.game_type, ruleset: created.ruleset, options: created.options,
    seats: created.seat_names, seed_commitment: created.seed_commitment,
  };
  if ("seed_commitment_scheme" in header) {
    expected.seed_commitment_scheme = created.seed_commitment_scheme ?? DEFAULTS.GameCreated.seed_commitment_scheme;
  }
  const found = Object.fromEntries(Object.keys(expected).map((k) => [k, header[k]]));
  return firstDifference(expected, found, "$");
}
