// Seeded randomness shared by the scripts (play.js, solo.js): deterministic runs from --seed.

/** mulberry32: a tiny seeded PRNG, uniform floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from text: the number itself when it is one, else FNV-1a of the text. */
export function seedOf(text) {
  if (/^\d+$/.test(text)) return Number(BigInt(text) & 0xffffffffn);
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}
