/**
 * Seeded pseudo-random numbers for the golden-data builder. Never Math.random: every draw comes
 * from mulberry32 (Tommy Ettinger's 32-bit generator, public domain), whose state update uses
 * only 32-bit integer operations (Math.imul, shifts, xor), so the sequence is identical on every
 * JavaScript engine and platform.
 */

/** FNV-1a 32-bit hash of a string's UTF-16 code units; used to derive one stream per purpose. */
export function fnv1a32(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i += 1) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A seeded stream: `next()` ∈ [0, 1) with 32-bit resolution, plus helpers.
 * `label` separates streams so that changing how one part draws does not shift another part.
 */
export function stream(seed, label) {
  let a = (seed ^ fnv1a32(label)) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const api = {
    next,
    /** Integer in [0, n). */
    int: (n) => Math.floor(next() * n),
    /** Uniform in [0, 1) with 53-bit resolution (two draws). */
    next53: () => (Math.floor(next() * 2097152) * 4294967296 + Math.floor(next() * 4294967296)) / 9007199254740992,
    /** true with probability p. */
    chance: (p) => next() < p,
    /** One element of `arr`. */
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    /** One value from `[[value, weight], …]`, weights need not sum to 1. */
    weighted: (pairs) => {
      const total = pairs.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [v, w] of pairs) {
        if (r < w) return v;
        r -= w;
      }
      return pairs[pairs.length - 1][0];
    },
    /** Fisher–Yates shuffle in place; returns `arr`. */
    shuffle: (arr) => {
      for (let i = arr.length - 1; i > 0; i -= 1) {
        const j = Math.floor(next() * (i + 1));
        const t = arr[i];
        arr[i] = arr[j];
        arr[j] = t;
      }
      return arr;
    },
    /**
     * Approximately standard normal: Irwin–Hall sum of 12 uniforms minus 6 (mean 0, variance 1).
     * Chosen over Box–Muller because it needs only + and −, so the bytes never depend on libm.
     */
    gauss: () => {
      let s = 0;
      for (let i = 0; i < 12; i += 1) s += next();
      return s - 6;
    },
  };
  return api;
}
