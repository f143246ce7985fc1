/**
 * Deterministic vector transforms of the user-data fixtures. Every operation is done in float64
 * from the float32 source components and rounded to float32 once at the end (Math.fround via
 * Float32Array), using only +, −, ×, ÷ and Math.sqrt (correctly rounded in IEEE 754), so the bytes
 * are the same on every engine. Random draws come from the caller's seeded stream (lib/prng.mjs).
 */

/** ‖v‖₂ in float64. */
export function norm(v) {
  let s = 0;
  for (let i = 0; i < v.length; i += 1) s += v[i] * v[i];
  return Math.sqrt(s);
}

/** float32(v · s): the direction of v with its norm multiplied by s. */
export function scaled(v, s) {
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i += 1) out[i] = v[i] * s;
  return out;
}

/** float32(v · target / ‖v‖): v's direction at norm `target`. */
export function withNorm(v, target) {
  return scaled(v, target / norm(v));
}

/** Log-uniform draw in [lo, hi] from stream `rng`. */
export function logUniform(rng, lo, hi) {
  return lo * Math.pow(hi / lo, rng.next53());
}

/**
 * float32 of (v + ε·‖v‖·g/‖g‖) renormalised to ‖v‖, g a seeded Gaussian direction: the same
 * direction moved by an angle of about ε radians. ε = 0 returns a copy with the same bytes.
 */
export function perturbed(v, eps, rng) {
  if (eps === 0) return Float32Array.from(v);
  const g = Array.from({ length: v.length }, () => rng.gauss());
  const gn = norm(g);
  const vn = norm(v);
  const w = Array.from(v, (x, i) => x + (eps * vn * g[i]) / gn);
  const wn = norm(w);
  return Float32Array.from(w, (x) => (x * vn) / wn);
}

/**
 * A seeded approximately Gaussian `outDim × inDim` matrix (rows of `rng.gauss()`), returned as a
 * function projecting a vector of length inDim to a unit float32 vector of length outDim.
 * By Johnson–Lindenstrauss the angles between the projected vectors stay close to the originals'.
 */
export function projection(rng, inDim, outDim) {
  const m = Array.from({ length: outDim }, () => Float64Array.from({ length: inDim }, () => rng.gauss()));
  return (v) => {
    const out = new Float64Array(outDim);
    for (let r = 0; r < outDim; r += 1) {
      let s = 0;
      const row = m[r];
      for (let j = 0; j < inDim; j += 1) s += row[j] * v[j];
      out[r] = s;
    }
    const n = norm(out);
    return Float32Array.from(out, (x) => x / n);
  };
}

/** float64 canonical score (packages/spec/src/scores.ts referenceScore): cosine, ip, or −‖a−b‖ for l2. */
export function score(metric, a, b) {
  if (metric === 'l2') {
    let s = 0;
    for (let i = 0; i < a.length; i += 1) {
      const d = a[i] - b[i];
      s += d * d;
    }
    return -Math.sqrt(s);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return metric === 'ip' ? dot : dot / Math.sqrt(na * nb);
}
