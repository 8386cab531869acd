// An independent verifier of Annales game records, written from docs/record-format.md alone:
// canonical lines (RFC 8785 for annales.game/2), the SHA-256 hash chain over MessagePack
// envelopes, idempotency-key digests, and the seed commitment (SHA-256(nonce || seed), or
// SHA-256(seed) for old records). It does not re-execute the game (that needs the rules):
// it answers "chain-verified" plus whether the seed was revealed and matches.
//
// Usage: node src/verify.js RECORD.jsonl   → prints one JSON object; exit 0 when intact.
// No dependency beyond Node.js itself (node:crypto, node:fs).

import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
// the record's shape (keys, types, markers, readable forms): shared with the browser's verifier
import { headerDifference, readableDifference, shapeProblem } from "../../../service/web/static/recordshape.js";

const GENESIS = "0".repeat(64);

// ---- RFC 8785 (JCS) and the format-1 canonical form ---------------------------------------
function jcs(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(",")}]`;
  const keys = Object.keys(value).sort(); // UTF-16 code unit order, as RFC 8785 says
  return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs(value[k])}`).join(",")}}`;
}

// ---- MessagePack: the subset the envelopes use (smallest encodings, as the spec says) ------
function packInt(n) {
  if (n >= 0) {
    if (n < 128) return Buffer.from([n]);
    if (n < 256) return Buffer.from([0xcc, n]);
    if (n < 65536) return Buffer.from([0xcd, n >> 8, n & 0xff]);
    if (n < 2 ** 32) { const b = Buffer.alloc(5); b[0] = 0xce; b.writeUInt32BE(n, 1); return b; }
    const b = Buffer.alloc(9); b[0] = 0xcf; b.writeBigUInt64BE(BigInt(n), 1); return b;
  }
  if (n >= -32) return Buffer.from([n & 0xff]);
  if (n >= -128) { const b = Buffer.alloc(2); b[0] = 0xd0; b.writeInt8(n, 1); return b; }
  if (n >= -32768) { const b = Buffer.alloc(3); b[0] = 0xd1; b.writeInt16BE(n, 1); return b; }
  if (n >= -(2 ** 31)) { const b = Buffer.alloc(5); b[0] = 0xd2; b.writeInt32BE(n, 1); return b; }
  const b = Buffer.alloc(9); b[0] = 0xd3; b.writeBigInt64BE(BigInt(n), 1); return b;
}

function packLength(n, small, codes) {
  if (small !== null && n < 32) return Buffer.from([small | n]);
  if (codes[0] !== null && n < 256) return Buffer.from([codes[0], n]);
  if (n < 65536) return Buffer.from([codes[1], n >> 8, n & 0xff]);
  const b = Buffer.alloc(5); b[0] = codes[2]; b.writeUInt32BE(n, 1); return b;
}

function pack(value) {
  if (value === null) return Buffer.from([0xc0]);
  if (typeof value === "boolean") return Buffer.from([value ? 0xc3 : 0xc2]);
  if (typeof value === "number") return packInt(value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([packLength(bytes.length, 0xa0, [0xd9, 0xda, 0xdb]), bytes]);
  }
  if (Buffer.isBuffer(value)) {
    return Buffer.concat([packLength(value.length, null, [0xc4, 0xc5, 0xc6]), value]);
  }
  if (Array.isArray(value)) {
    const head = value.length < 16 ? Buffer.from([0x90 | value.length])
      : packLength(value.length, null, [null, 0xdc, 0xdd]);
    return Buffer.concat([head, ...value.map(pack)]);
  }
  throw new Error(`cannot pack ${typeof value}`);
}

// A small MessagePack decoder (maps, arrays, strings, binaries, integers, nil, booleans,
// floats) — enough to read the GameCreated and SeedRevealed payloads.
function unpack(buffer) {
  let at = 0;
  const take = (n) => { const part = buffer.subarray(at, at + n); at += n; return part; };
  const read = () => {
    const byte = buffer[at++];
    if (byte === undefined) throw new Error("truncated MessagePack");
    if (byte < 0x80) return byte;
    if (byte >= 0xe0) return byte - 256;
    if ((byte & 0xf0) === 0x80) return map(byte & 0x0f);
    if ((byte & 0xf0) === 0x90) return array(byte & 0x0f);
    if ((byte & 0xe0) === 0xa0) return take(byte & 0x1f).toString("utf8");
    switch (byte) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return take(take(1)[0]);
      case 0xc5: return take(take(2).readUInt16BE(0));
      case 0xc6: return take(take(4).readUInt32BE(0));
      case 0xca: return take(4).readFloatBE(0);
      case 0xcb: return take(8).readDoubleBE(0);
      case 0xcc: return take(1)[0];
      case 0xcd: return take(2).readUInt16BE(0);
      case 0xce: return take(4).readUInt32BE(0);
      case 0xcf: return Number(take(8).readBigUInt64BE(0));
      case 0xd0: return take(1).readInt8(0);
      case 0xd1: return take(2).readInt16BE(0);
      case 0xd2: return take(4).readInt32BE(0);
      case 0xd3: return Number(take(8).readBigInt64BE(0));
      case 0xd9: return take(take(1)[0]).toString("utf8");
      case 0xda: return take(take(2).readUInt16BE(0)).toString("utf8");
      case 0xdb: return take(take(4).readUInt32BE(0)).toString("utf8");
      case 0xdc: return array(take(2).readUInt16BE(0));
      case 0xdd: return array(take(4).readUInt32BE(0));
      case 0xde: return map(take(2).readUInt16BE(0));
      case 0xdf: return map(take(4).readUInt32BE(0));
      default: throw new Error(`unsupported MessagePack byte 0x${byte.toString(16)}`);
    }
  };
  const array = (n) => Array.from({ length: n }, read);
  const map = (n) => { const out = {}; for (let i = 0; i < n; i++) { const k = read(); out[k] = read(); } return out; };
  const value = read();
  if (at !== buffer.length) throw new Error("trailing bytes after MessagePack value");
  return value;
}

const sha256 = (...parts) => createHash("sha256").update(Buffer.concat(parts)).digest("hex");
const b64 = (text, where) => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new Error(`${where}: not base64`);
  return Buffer.from(text, "base64");
};

/**
 * Verify a record's lines (strings without newlines). Returns
 * { ok, outcome, events, checkedLinks, uncheckedLinks, seedRevealed, commitment, line, reason }.
 */
export function verifyRecord(lines) {
  const fail = (outcome, line, reason) => ({ ok: false, outcome, line, reason });
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  if (!lines.length) return fail("malformed", 0, "the record is empty");
  const items = [];
  for (const [index, text] of lines.entries()) {
    let item;
    try { item = JSON.parse(text); } catch (error) { return fail("malformed", index + 1, `not JSON: ${error.message}`); }
    if (item === null || typeof item !== "object" || Array.isArray(item)) return fail("malformed", index + 1, "not a JSON object");
    items.push(item);
  }
  const header = items[0];
  const format = header.record;
  if (format !== "annales.game/1" && format !== "annales.game/2") return fail("malformed", 1, "not an Annales game record");
  for (const [index, item] of items.entries()) {
    const expected = format === "annales.game/2" ? jcs(item) : JSON.stringify(item);
    if (expected !== lines[index]) return fail("malformed", index + 1, "not in canonical form");
  }
  const shape = shapeProblem(items, format);
  if (shape !== null) return { ok: false, ...shape, reason: `${shape.field}: ${shape.reason}` };
  const base64 = (bytes) => Buffer.from(bytes).toString("base64");
  const differs = (line, difference, what) => fail("tampered", line,
    `${difference.path}: the readable ${what} differs from its payload (expected ${JSON.stringify(difference.expected)}, found ${JSON.stringify(difference.found)})`);
  const gameId = header.game_id;
  let prev = GENESIS;
  let seq = 0;
  let command = null;
  let firstOfBatch = false;
  let checked = 0;
  let unchecked = 0;
  let created = null;
  let revealed = null;
  for (const [index, item] of items.slice(1).entries()) {
    const line = index + 2;
    try {
      if (item.type === "command") {
        command = item;
        firstOfBatch = true;
        if (item.idempotency_key !== null && item.idempotency_key_digest !== null && item.idempotency_key_digest !== undefined) {
          const digest = sha256(Buffer.from(gameId, "utf8"), Buffer.from([0]), Buffer.from(item.idempotency_key, "utf8"));
          if (digest !== item.idempotency_key_digest) return fail("tampered", line, "the key digest does not match the key");
        }
        continue;
      }
      if (item.type !== "event" || command === null) return fail("malformed", line, "an event line was expected");
      seq += 1;
      if (item.seq !== seq) return fail("tampered", line, `seq ${item.seq}, expected ${seq}`);
      if (item.prev_hash !== prev) return fail("tampered", line, "prev_hash is not the previous hash");
      prev = item.hash;
      const first = firstOfBatch;
      firstOfBatch = false;
      if (item.payload === null) { unchecked += 1; continue; }
      const payload = b64(item.payload, `line ${line}`);
      const eventDifference = readableDifference(unpack(payload), item.event, item.kind, base64);
      if (eventDifference !== null) return differs(line, eventDifference, "event");
      const hidden = command.hidden || [];
      let commandBytes = null;
      let key = null;
      if (first) {
        const playerCommand = command.seat >= 0;
        if (playerCommand && (command.command === null || hidden.includes("command"))) { unchecked += 1; continue; }
        if (playerCommand) {
          if (command.command_payload === undefined || command.command_payload === null) {
            // format 1: the command's bytes are not in the record; only the rules can rebuild them
            unchecked += 1;
            continue;
          }
          commandBytes = b64(command.command_payload, `line ${line}`);
          const commandDifference = readableDifference(unpack(commandBytes), command.command, "", base64, "$.command");
          if (commandDifference !== null) return differs(line - 1, commandDifference, "command");
        }
        if (command.idempotency_key_digest !== undefined && command.idempotency_key_digest !== null) {
          key = command.idempotency_key_digest;
        } else if (hidden.includes("idempotency_key")) {
          unchecked += 1;
          continue;
        } else {
          key = command.idempotency_key;
        }
      }
      const body = pack([gameId, item.seq, command.command_id, command.seat, item.ruleset,
        item.schema, item.kind, payload, commandBytes, key]);
      const hash = sha256(Buffer.from(item.prev_hash, "ascii"), body);
      if (hash !== item.hash) return fail("tampered", line, `hash ${item.hash}, recomputed ${hash}`);
      checked += 1;
      if (item.kind === "GameCreated") created = unpack(payload);
      if (item.kind === "SeedRevealed") revealed = unpack(payload);
    } catch (error) {
      return fail("malformed", line, error.message);
    }
  }
  if (header.events !== seq) return fail("tampered", 1, "the header's event count differs");
  if (created === null) return fail("tampered", 2, "no verifiable GameCreated event");
  const headerDiff = headerDifference(header, created);
  if (headerDiff !== null) return fail("tampered", 1, `${headerDiff.path}: the header disagrees with the GameCreated event`);
  const scheme = created.seed_commitment_scheme || "sha256-seed";
  let commitment = "secret";
  // the revealed seed and a judge's header seed: each must match the commitment
  const secrets = [revealed, header.seed ? { seed: header.seed, nonce: header.nonce || "" } : null].filter(Boolean);
  for (const secret of secrets) {
    const seed = Buffer.from(secret.seed, "hex");
    const nonce = Buffer.from(secret.nonce || "", "hex");
    if (scheme === "sha256-nonce-seed" && nonce.length !== 32) return fail("tampered", 0, "a salted commitment needs its 32-byte nonce");
    const computed = scheme === "sha256-nonce-seed" ? sha256(nonce, seed) : sha256(seed);
    if (computed !== created.seed_commitment) return fail("tampered", 0, "the seed does not match the commitment");
    commitment = "matches";
  }
  return {
    ok: true,
    outcome: "chain-verified",
    events: seq,
    checkedLinks: checked,
    uncheckedLinks: unchecked,
    seedRevealed: revealed !== null,
    scheme,
    commitment,
  };
}

// run as a program (also through a symbolic link, e.g. an npm bin): one record, one verdict
const invoked = process.argv[1] && existsSync(process.argv[1]) ? realpathSync(process.argv[1]) : "";
if (invoked === realpathSync(fileURLToPath(import.meta.url))) {
  const path = process.argv[2];
  if (!path || !existsSync(path)) {
    process.stderr.write(path ? `cannot read ${path}: no such file\n` : "usage: node verify.js RECORD.jsonl\n");
    process.exit(2);
  }
  const report = verifyRecord(readFileSync(path, "utf8").split("\n"));
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(report.ok ? 0 : 1);
}
