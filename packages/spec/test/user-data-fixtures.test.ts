import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_DATASET_MEMORIES, MIN_DATASET_QUERIES } from '../src/checks/minimums';
import { parseExpectation } from '../src/expectation';
import { loadGoldenDataset } from '../src/golden/load';

/*
 * The committed user-data fixtures (golden-data/user-data, issue 31; built by
 * golden-data/build/user-fixtures.mjs): each loads with its checksums, is large enough for every
 * check, and carries an oracle expectation recorded for exactly its bytes and metric.
 */
const ROOT = path.join(__dirname, '..', '..', '..', 'golden-data', 'user-data');
const NAMES = readdirSync(ROOT).sort();

test('the six fixtures are there', () => {
  expect(NAMES).toEqual(['ip-nonunit', 'near-duplicates', 'norms-large', 'norms-small', 'odd-strings', 'wide-2048']);
});

describe.each(NAMES)('%s', (name) => {
  const dir = path.join(ROOT, name);
  const d = loadGoldenDataset(dir);
  test('loads, meets the minimums, names its builder and seed', () => {
    expect(d.manifest.name).toBe(name);
    expect(d.memories.length).toBeGreaterThanOrEqual(MIN_DATASET_MEMORIES.count);
    expect(d.queries.length).toBeGreaterThanOrEqual(MIN_DATASET_QUERIES.count);
    expect(d.manifest.provenance.builder).toBe('golden-data/build/user-fixtures.mjs');
    expect(typeof d.manifest.provenance.seed).toBe('number');
  });
  test('its expectation was recorded for these bytes and this metric, one entry per query', () => {
    const file = path.join(dir, 'expected', 'oracle.jsonl');
    const e = parseExpectation(readFileSync(file, 'utf8'), file);
    expect(e.header.datasetSha256).toBe(d.datasetSha256);
    expect(e.header.metric).toBe(d.manifest.metric);
    expect(e.entries.map((x) => x.query)).toEqual(d.queries.map((q) => q.id));
  });
});
