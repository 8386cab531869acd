// The browser port of clients/node/src/verify.js (an independent verifier of Annales game
// records, written from docs/record-format.md): canonical lines (RFC 8785 for annales.game/2,
// msgspec's compact form for annales.game/1), the SHA-256 hash chain over MessagePack
// envelopes, idempotency-key digests, and the seed commitment (SHA-256(nonce ‖ seed), or
// SHA-256(seed) for old records). Same logic, with Uint8Array instead of Buffer and WebCrypto
// (async) instead of node:crypto; a failure also names the field, what was expected and what
// was found, for the judge page. It does not re-execute the game (VerifyRecord does).

import { headerDifference, readableDifference, shapeProblem } from "./recordshape.js";

const GENESIS = "0".repeat(64);
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

// ---- RFC 8785 (JCS) -------------------------------------------------------------------------
export function jcs(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(",")}]`;
  const keys = Object.keys(value).sort(); // UTF-16 code unit order, as RFC 8785 says
  return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs(value[k])}`).join(",")}}`;
}

// ---- bytes ----------------------------------------------------------------------------------
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function be(n, width) { // unsigned big-endian, width bytes (n a Number or BigInt)
  const out = new Uint8Array(width);
  let v = BigInt.asUintN(8 * width, BigInt(n));
  for (let k = width - 1; k >= 0; k--) { out[k] = Number(v & 0xffn); v >>= 8n; }
  return out;
}

function hexBytes(text) {
  if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) throw new Error("not hex");
  return Uint8Array.from(text.match(/../g) || [], (h) => parseInt(h, 16));
}

async function sha256(...parts) {
  const digest = await crypto.subtle.digest("SHA-256", concat(parts));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function b64(text, where) {
  if (typeof text !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new Error(`${where}: not base64`);
  }
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

// ---- MessagePack: the subset the envelopes use (smallest encodings, as the spec says) -------
function packInt(n) {
  if (n >= 0) {
    if (n < 128) return Uint8Array.of(n);
    if (n < 256) return Uint8Array.of(0xcc, n);
    if (n < 65536) return Uint8Array.of(0xcd, n >> 8, n & 0xff);
    if (n < 2 ** 32) return concat([Uint8Array.of(0xce), be(n, 4)]);
    return concat([Uint8Array.of(0xcf), be(n, 8)]);
  }
  if (n >= -32) return Uint8Array.of(n & 0xff);
  if (n >= -128) return Uint8Array.of(0xd0, n & 0xff);
  if (n >= -32768) return concat([Uint8Array.of(0xd1), be(n, 2)]);
  if (n >= -(2 ** 31)) return concat([Uint8Array.of(0xd2), be(n, 4)]);
  return concat([Uint8Array.of(0xd3), be(n, 8)]);
}

function packLength(n, small, codes) {
  if (small !== null && n < 32) return Uint8Array.of(small | n);
  if (codes[0] !== null && n < 256) return Uint8Array.of(codes[0], n);
  if (n < 65536) return Uint8Array.of(codes[1], n >> 8, n & 0xff);
  return concat([Uint8Array.of(codes[2]), be(n, 4)]);
}

export function pack(value) {
  if (value === null || value === undefined) return Uint8Array.of(0xc0);
  if (typeof value === "boolean") return Uint8Array.of(value ? 0xc3 : 0xc2);
  if (typeof value === "number") return packInt(value);
  if (typeof value === "string") {
    const bytes = utf8.encode(value);
    return concat([packLength(bytes.length, 0xa0, [0xd9, 0xda, 0xdb]), bytes]);
  }
  if (value instanceof Uint8Array) return concat([packLength(value.length, null, [0xc4, 0xc5, 0xc6]), value]);
  if (Array.isArray(value)) {
    const head = value.length < 16 ? Uint8Array.of(0x90 | value.length)
      : packLength(value.length, null, [null, 0xdc, 0xdd]);
    return concat([head, ...value.map(pack)]);
  }
  throw new Error(`cannot pack ${typeof value}`);
}

// A small MessagePack decoder — enough to read the GameCreated and SeedRevealed payloads.
export function unpack(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n) => { if (at + n > bytes.length) throw new Error("truncated MessagePack"); };
  const take = (n) => { need(n); const part = bytes.subarray(at, at + n); at += n; return part; };
  const num = (n, get) => { need(n); const v = get(at); at += n; return v; };
  const u8 = () => num(1, (i) => view.getUint8(i));
  const u16 = () => num(2, (i) => view.getUint16(i));
  const u32 = () => num(4, (i) => view.getUint32(i));
  const str = (n) => fromUtf8.decode(take(n));
  const read = () => {
    const byte = u8();
    if (byte < 0x80) return byte;
    if (byte >= 0xe0) return byte - 256;
    if ((byte & 0xf0) === 0x80) return map(byte & 0x0f);
    if ((byte & 0xf0) === 0x90) return array(byte & 0x0f);
    if ((byte & 0xe0) === 0xa0) return str(byte & 0x1f);
    switch (byte) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return take(u8());
      case 0xc5: return take(u16());
      case 0xc6: return take(u32());
      case 0xca: return num(4, (i) => view.getFloat32(i));
      case 0xcb: return num(8, (i) => view.getFloat64(i));
      case 0xcc: return u8();
      case 0xcd: return u16();
      case 0xce: return u32();
      case 0xcf: return Number(num(8, (i) => view.getBigUint64(i)));
      case 0xd0: return num(1, (i) => view.getInt8(i));
      case 0xd1: return num(2, (i) => view.getInt16(i));
      case 0xd2: return num(4, (i) => view.getInt32(i));
      case 0xd3: return Number(num(8, (i) => view.getBigInt64(i)));
      case 0xd9: return str(u8());
      case 0xda: return str(u16());
      case 0xdb: return str(u32());
      case 0xdc: return array(u16());
      case 0xdd: return array(u32());
      case 0xde: return map(u16());
      case 0xdf: return map(u32());
      default: throw new Error(`unsupported MessagePack byte 0x${byte.toString(16)}`);
    }
  };
  const array = (n) => Array.from({ length: n }, read);
  const map = (n) => { const out = {}; for (let i = 0; i < n; i++) { const k = read(); out[k] = read(); } return out; };
  const value = read();
  if (at !== bytes.length) throw new Error("trailing bytes after MessagePack value");
  return value;
}

/**
 * Verify a record's lines (strings without newlines), as clients/node/src/verify.js does.
 * Returns { ok: true, outcome: "chain-verified", format, header, events, checkedLinks,
 * uncheckedLinks, keyDigests, seedRevealed, scheme, commitment } or { ok: false, outcome,
 * format, header, line, seq, field, expected, found, reason } for the first problem.
 */
export async function verifyRecord(lines) {
  lines = [...lines];
  let header = null;
  let format = null;
  const fail = (outcome, line, reason, extra = {}) => (
    { ok: false, outcome, format, header, line, reason, seq: null, field: null, expected: null, found: null, ...extra });
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  if (!lines.length) return fail("malformed", 0, "the record is empty");
  const items = [];
  for (const [index, text] of lines.entries()) {
    let item;
    try { item = JSON.parse(text); } catch (error) {
      return fail("malformed", index + 1, `not JSON: ${error.message}`, { field: "line", expected: "JSON", found: text.slice(0, 60) });
    }
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      return fail("malformed", index + 1, "not a JSON object", { field: "line", expected: "a JSON object", found: text.slice(0, 60) });
    }
    items.push(item);
  }
  header = items[0];
  format = header.record;
  if (format !== "annales.game/1" && format !== "annales.game/2") {
    return fail("malformed", 1, "not an Annales game record", { field: "record", expected: "annales.game/2", found: String(format) });
  }
  for (const [index, item] of items.entries()) {
    const expected = format === "annales.game/2" ? jcs(item) : JSON.stringify(item);
    if (expected !== lines[index]) {
      return fail("malformed", index + 1, "not in canonical form", {
        seq: item.seq ?? null, field: "line", expected: expected.slice(0, 120), found: lines[index].slice(0, 120) });
    }
  }
  const shape = shapeProblem(items, format);
  if (shape !== null) {
    return fail("malformed", shape.line, shape.reason, { seq: items[shape.line - 1].seq ?? null, field: shape.field, expected: "the format's keys", found: shape.reason });
  }
  const base64 = (bytes) => btoa(String.fromCharCode(...bytes));
  const differs = (line, difference, what) => fail("tampered", line, `the readable ${what} differs from its payload`,
    { field: difference.path, expected: JSON.stringify(difference.expected), found: JSON.stringify(difference.found) });
  const gameId = header.game_id;
  let prev = GENESIS;
  let seq = 0;
  let command = null;
  let firstOfBatch = false;
  let checked = 0;
  let unchecked = 0;
  let keyDigests = 0;
  let created = null;
  let revealed = null;
  let revealedLine = 1; // where the secret shows: the SeedRevealed line, or a judge's header
  for (const [index, item] of items.slice(1).entries()) {
    const line = index + 2;
    try {
      if (item.type === "command") {
        command = item;
        firstOfBatch = true;
        if (item.idempotency_key !== null && item.idempotency_key_digest !== null && item.idempotency_key_digest !== undefined) {
          const digest = await sha256(utf8.encode(gameId), Uint8Array.of(0), utf8.encode(item.idempotency_key));
          if (digest !== item.idempotency_key_digest) {
            return fail("tampered", line, "the key digest does not match the key",
              { field: "idempotency_key_digest", expected: digest, found: item.idempotency_key_digest });
          }
          keyDigests += 1;
        }
        continue;
      }
      if (item.type !== "event" || command === null) {
        return fail("malformed", line, "an event line was expected", { field: "type", expected: "event", found: String(item.type) });
      }
      seq += 1;
      if (item.seq !== seq) return fail("tampered", line, `seq ${item.seq}, expected ${seq}`, { seq: item.seq, field: "seq", expected: seq, found: item.seq });
      if (item.prev_hash !== prev) {
        return fail("tampered", line, "prev_hash is not the previous hash", { seq, field: "prev_hash", expected: prev, found: item.prev_hash });
      }
      prev = item.hash;
      const first = firstOfBatch;
      firstOfBatch = false;
      if (item.payload === null) { unchecked += 1; continue; }
      const payload = b64(item.payload, `line ${line}`);
      const eventDifference = readableDifference(unpack(payload), item.event, item.kind, base64);
      if (eventDifference !== null) return differs(line, { ...eventDifference }, "event");
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
      const hash = await sha256(utf8.encode(item.prev_hash), body);
      if (hash !== item.hash) {
        return fail("tampered", line, "the hash does not match the envelope", { seq, field: "hash", expected: hash, found: item.hash });
      }
      checked += 1;
      if (item.kind === "GameCreated") created = unpack(payload);
      if (item.kind === "SeedRevealed") { revealed = unpack(payload); revealedLine = line; }
    } catch (error) {
      return fail("malformed", line, error.message, { seq: item.seq ?? null, field: "line", expected: "a readable line", found: error.message });
    }
  }
  if (header.events !== seq) {
    return fail("tampered", 1, "the header's event count differs", { field: "events", expected: seq, found: header.events });
  }
  if (created === null) return fail("tampered", 2, "no verifiable GameCreated event", { field: "GameCreated", expected: "a checked GameCreated event", found: "none" });
  const headerDiff = headerDifference(header, created);
  if (headerDiff !== null) {
    return fail("tampered", 1, "the header disagrees with the GameCreated event",
      { field: headerDiff.path, expected: JSON.stringify(headerDiff.expected), found: JSON.stringify(headerDiff.found) });
  }
  const scheme = created.seed_commitment_scheme || "sha256-seed";
  let commitment = "secret";
  // the revealed seed and a judge's header seed: each must match the commitment
  const secrets = [];
  if (revealed !== null) secrets.push([revealed, revealedLine]);
  if (header.seed) secrets.push([{ seed: header.seed, nonce: header.nonce || "" }, 1]);
  for (const [secret, secretLine] of secrets) {
    const revealedLine = secretLine;
    let seedBytes;
    let nonce;
    try { seedBytes = hexBytes(secret.seed); nonce = hexBytes(secret.nonce || ""); } catch (error) {
      return fail("malformed", revealedLine, `the revealed seed or nonce is ${error.message}`, { field: "seed", expected: "hex", found: String(secret.seed) });
    }
    if (scheme === "sha256-nonce-seed" && nonce.length !== 32) {
      return fail("tampered", revealedLine, "a salted commitment needs its 32-byte nonce", { field: "nonce", expected: "32 bytes", found: `${nonce.length} bytes` });
    }
    const computed = scheme === "sha256-nonce-seed" ? await sha256(nonce, seedBytes) : await sha256(seedBytes);
    if (computed !== created.seed_commitment) {
      return fail("tampered", revealedLine, "the seed does not match the commitment", {
        field: scheme === "sha256-nonce-seed" ? "seed / nonce" : "seed",
        expected: `SHA-256 = ${created.seed_commitment} (the commitment)`, found: `SHA-256 = ${computed}` });
    }
    commitment = "matches";
  }
  return {
    ok: true,
    outcome: "chain-verified",
    format,
    header,
    events: seq,
    checkedLinks: checked,
    uncheckedLinks: unchecked,
    keyDigests,
    seedRevealed: revealed !== null,
    scheme,
    commitment,
  };
}
