// In-browser checks of an exported game record. Format annales.game/2 (docs/record-format.md)
// is checked by verify.js, the browser port of clients/node/src/verify.js: RFC 8785 lines, the
// hash chain with every envelope recomputed (commands carry their MessagePack payload), key
// digests and the salted seed commitment. Format annales.game/1 (told apart by the header's
// `record` field) keeps the older checks below: canonical JSON lines, the hash chain's links, the recomputed
// SHA-256 of every envelope whose command bytes the record carries (the setup's, which have
// none), and the seed commitment once the seed is revealed. Nothing is sent anywhere: the
// re-execution is VerifyRecord's job (app.js calls it separately).

const GENESIS = "0".repeat(64);

async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// MessagePack, as msgspec writes it: smallest integer forms, str, bin, nil, array.
function pack(value, out) {
  const enc = new TextEncoder();
  const u = (n, bytes) => { for (let k = bytes - 1; k >= 0; k--) out.push(Number((BigInt(n) >> BigInt(8 * k)) & 0xffn)); };
  if (value === null || value === undefined) out.push(0xc0);
  else if (typeof value === "number") {
    if (value >= 0) {
      if (value < 128) out.push(value);
      else if (value < 256) { out.push(0xcc); u(value, 1); }
      else if (value < 65536) { out.push(0xcd); u(value, 2); }
      else if (value < 2 ** 32) { out.push(0xce); u(value, 4); }
      else { out.push(0xcf); u(value, 8); }
    } else if (value >= -32) out.push(value & 0xff);
    else if (value >= -128) { out.push(0xd0); u(value & 0xff, 1); }
    else if (value >= -32768) { out.push(0xd1); u(value & 0xffff, 2); }
    else { out.push(0xd2); u(value >>> 0, 4); }
  } else if (typeof value === "string") {
    const b = enc.encode(value);
    if (b.length < 32) out.push(0xa0 | b.length);
    else if (b.length < 256) { out.push(0xd9); u(b.length, 1); }
    else if (b.length < 65536) { out.push(0xda); u(b.length, 2); }
    else { out.push(0xdb); u(b.length, 4); }
    out.push(...b);
  } else if (value instanceof Uint8Array) {
    if (value.length < 256) { out.push(0xc4); u(value.length, 1); }
    else if (value.length < 65536) { out.push(0xc5); u(value.length, 2); }
    else { out.push(0xc6); u(value.length, 4); }
    for (const b of value) out.push(b);
  } else if (Array.isArray(value)) {
    if (value.length < 16) out.push(0x90 | value.length);
    else { out.push(0xdc); u(value.length, 2); }
    for (const v of value) pack(v, out);
  } else throw new Error("cannot pack " + typeof value);
  return out;
}

import { verifyRecord } from "./verify.js";

function base64Bytes(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function headerOf(raw) {
  try { return JSON.parse(raw.slice(0, raw.indexOf("\n") >= 0 ? raw.indexOf("\n") : raw.length)); }
  catch { return null; }
}

// Returns { ok, checks: [{ok, text}], firstBad: {line, seq, field, expected, found, why} | null, header }.
export async function checkRecord(raw) {
  const header = headerOf(raw);
  if (header && header.record === "annales.game/1") return checkRecordV1(raw);
  return checkRecordV2(raw);
}

// annales.game/2 (and anything that is not format 1: verify.js names the problem).
async function checkRecordV2(raw) {
  const r = await verifyRecord(raw.split("\n"));
  const checks = [];
  const format = r.format ?? (r.header && r.header.record);
  checks.push({ ok: format === "annales.game/2" || format === "annales.game/1", text: `format ${format}` });
  let firstBad = null;
  if (r.ok) {
    checks.push({ ok: true, text: "every line in canonical form (RFC 8785)" });
    checks.push({ ok: true, text: `${r.events}/${r.events} links prev_hash → hash intact (${r.events} events, as the header says)` });
    checks.push({ ok: true, text: `${r.checkedLinks} envelope hashes recomputed with SHA-256 (command payloads included)` +
      (r.uncheckedLinks ? `; ${r.uncheckedLinks} unchecked (redacted or hidden for this viewer)` : "") });
    if (r.keyDigests) checks.push({ ok: true, text: `${r.keyDigests} idempotency-key digests match their keys` });
    checks.push({ ok: true, text: r.commitment === "matches"
      ? `seed commitment (${r.scheme}) matches the revealed seed${r.scheme === "sha256-nonce-seed" ? " and nonce" : ""}`
      : `seed not revealed yet (game unfinished): commitment (${r.scheme}) not checkable` });
  } else {
    firstBad = { line: r.line, seq: r.seq, field: r.field || "line", expected: r.expected ?? "", found: r.found ?? "", why: r.reason };
    checks.push({ ok: false, text: `${r.outcome}: line ${r.line}${r.field ? `, field ${r.field}` : ""}: ${r.reason}` });
  }
  const digest = await sha256Hex(new TextEncoder().encode(raw));
  checks.push({ ok: true, text: `SHA-256 of the file: ${digest}` });
  return { ok: r.ok, checks, firstBad, header: r.header ?? headerOf(raw) };
}

async function checkRecordV1(raw) {
  const checks = [];
  let firstBad = null;
  const fail = (line, seq, field, expected, found, why) => {
    if (!firstBad) firstBad = { line, seq, field, expected, found, why };
  };
  const lines = raw.split("\n").filter((l) => l.length > 0);
  const items = [];
  lines.forEach((line, n) => {
    try { items.push({ n: n + 1, data: JSON.parse(line), line }); }
    catch (e) { fail(n + 1, null, "line", "JSON", line.slice(0, 60), "not valid JSON"); }
  });
  if (!items.length) return { ok: false, checks: [{ ok: false, text: "empty record" }], firstBad, header: null };
  const header = items[0].data;
  checks.push({ ok: header.record === "annales.game/1", text: `format ${header.record}` });
  if (header.record !== "annales.game/1") fail(1, null, "record", "annales.game/1", header.record, "unknown format");
  // canonical: the same key order and spacing as the exporter (msgspec.json)
  let canonical = 0;
  for (const item of items) {
    if (JSON.stringify(item.data) === item.line) canonical++;
    else fail(item.n, item.data.seq ?? null, "line", "canonical JSON", "altered spacing or order", "line not canonical");
  }
  checks.push({ ok: canonical === items.length, text: `${canonical}/${items.length} lines in canonical form` });
  // the chain
  let prev = GENESIS, seq = 0, command = null, linked = 0, recomputed = 0, events = 0, seed = null;
  for (const item of items.slice(1)) {
    const d = item.data;
    if (d.type === "command") { command = d; continue; }
    if (d.type !== "event") { fail(item.n, null, "type", "command or event", d.type, "unknown line"); continue; }
    events++;
    seq++;
    if (d.seq !== seq) fail(item.n, d.seq, "seq", seq, d.seq, "sequence numbers not contiguous");
    if (d.prev_hash !== prev) fail(item.n, d.seq, "prev_hash", prev, d.prev_hash, "broken link");
    else linked++;
    if (command && command.command === null && command.idempotency_key === null && d.payload) {
      const body = pack([header.game_id, d.seq, command.command_id, command.seat, d.ruleset, d.schema, d.kind,
        base64Bytes(d.payload), null, null], []);
      const bytes = new Uint8Array([...new TextEncoder().encode(d.prev_hash), ...body]);
      const hash = await sha256Hex(bytes);
      if (hash !== d.hash) fail(item.n, d.seq, "hash", hash, d.hash, "hash does not match the envelope");
      else recomputed++;
    }
    if (d.kind === "SeedRevealed" && d.event && d.event.seed) seed = d.event.seed;
    prev = d.hash;
  }
  checks.push({ ok: events === header.events, text: `${events} events (header says ${header.events})` });
  if (events !== header.events) fail(lines.length, null, "events", header.events, events, "event count differs from the header");
  checks.push({ ok: linked === events, text: `${linked}/${events} links prev_hash → hash intact` });
  checks.push({ ok: true, text: `${recomputed} envelope hashes recomputed with SHA-256 (those without command bytes)` });
  if (seed !== null) {
    const seedBytes = Uint8Array.from((seed.match(/../g) || []).map((h) => parseInt(h, 16)));
    const commitment = await sha256Hex(seedBytes); // the seed is revealed as hex
    const ok = commitment === header.seed_commitment;
    checks.push({ ok, text: `seed commitment ${ok ? "matches" : "DOES NOT match"} the revealed seed` });
    if (!ok) fail(1, null, "seed_commitment", commitment, header.seed_commitment, "seed commitment");
  } else checks.push({ ok: true, text: "seed not revealed yet (game unfinished): commitment not checkable" });
  const digest = await sha256Hex(new TextEncoder().encode(raw));
  checks.push({ ok: true, text: `SHA-256 of the file: ${digest}` });
  return { ok: firstBad === null, checks, firstBad, header };
}
