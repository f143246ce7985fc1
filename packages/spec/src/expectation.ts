import { ORDER_SLACK } from './comparator';
import { MemoryMatrixError } from './errors';
import { METRICS, type Metric, type RecallHit } from './types';

/**
 * Recorded expectation files (JSONL, UTF-8, `\n` line ends, deterministic bytes):
 * line 1, the header
 *   {"kind":"memory-matrix-expectation","version":1,"dataset":"…","datasetSha256":"…",
 *    "source":"oracle"|"<backend@version>","metric":"cosine"|"ip"|"l2","tieEpsilon":1e-5}
 * then one line per query, in query order
 *   {"query":"q0001","k":10,"matching":123,"hits":[["m00012",0.8312…],…]}
 * Scores are canonical float64 numbers written with JS's shortest round-trip repr, so a parse
 * gives back the identical doubles. `hits` is non-increasing and may run past k (the oracle's
 * boundary tie group). An entry is an `OracleResult` (it has `hits` and `matching`).
 */
export const EXPECTATION_KIND = 'memory-matrix-expectation';
export const EXPECTATION_VERSION = 1;

/** What a caller supplies for the header; `kind` and `version` are written by the serializer. */
export interface ExpectationMeta {
  dataset: string;
  /** sha256 (64 lowercase hex) of the dataset the expectation was recorded from. */
  datasetSha256: string;
  /** `oracle`, or the `backend@version` target whose results were recorded as a baseline. */
  source: string;
  metric: Metric;
  tieEpsilon: number;
}

export interface ExpectationHeader extends ExpectationMeta {
  kind: typeof EXPECTATION_KIND;
  version: typeof EXPECTATION_VERSION;
}

/** One query's recorded result: top-k (plus boundary ties), rows qualifying, ordered hits. */
export interface ExpectationEntry {
  query: string;
  k: number;
  matching: number;
  hits: RecallHit[];
}

export interface Expectation {
  header: ExpectationHeader;
  entries: ExpectationEntry[];
}

/**
 * Serialize an expectation to JSONL text (header line, one line per entry in the given order,
 * final `\n`). Same input → same bytes. The text is checked with `parseExpectation` before it
 * is returned, so nothing the parser would reject is ever written: throws INVALID_INPUT (naming
 * the entry) for a non-finite score or tieEpsilon, or any rule `parseExpectation` enforces.
 */
export function serializeExpectation(header: ExpectationMeta, entries: ExpectationEntry[]): string {
  const bad = (what: string): never => {
    throw new MemoryMatrixError('INVALID_INPUT', `serializeExpectation (dataset ${header.dataset}): ${what}`);
  };
  if (!Number.isFinite(header.tieEpsilon)) bad(`tieEpsilon ${header.tieEpsilon} is not finite`);
  const lines = [
    JSON.stringify({
      kind: EXPECTATION_KIND,
      version: EXPECTATION_VERSION,
      dataset: header.dataset,
      datasetSha256: header.datasetSha256,
      source: header.source,
      metric: header.metric,
      tieEpsilon: header.tieEpsilon,
    }),
  ];
  for (const e of entries) {
    const hits = e.hits.map((h, i): [string, number] => {
      if (!Number.isFinite(h.score)) bad(`query ${e.query}: hit ${i} (${h.id}) has non-finite score ${h.score}`);
      return [h.id, h.score];
    });
    lines.push(JSON.stringify({ query: e.query, k: e.k, matching: e.matching, hits }));
  }
  const text = lines.join('\n') + '\n';
  try {
    parseExpectation(text, '<serialized>');
  } catch (e) {
    const line = /^<serialized>:(\d+): (.*)$/s.exec((e as Error).message);
    const which = line && Number(line[1]) > 1 ? `query ${entries[Number(line[1]) - 2]!.query}` : 'header';
    throw new MemoryMatrixError('INVALID_INPUT', `serializeExpectation (dataset ${header.dataset}): ${which}: ${line ? line[2] : (e as Error).message}`, { cause: e });
  }
  return text;
}

/**
 * Parse expectation text (see the format above). `fileName` is used in messages.
 * Throws GOLDEN_INVALID naming `file:line` and the field for: invalid JSON, a wrong kind or
 * version, a missing/extra/mistyped field, a bad metric, a non-finite score, an empty or
 * duplicate query id, duplicate hit ids, hits not in non-increasing score order, more hits than
 * `matching`, or a blank line before the end. A trailing `\r` per line is tolerated.
 */
export function parseExpectation(text: string, fileName: string): Expectation {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw invalid(fileName, 1, 'file is empty; expected the header line');
  const header = parseHeader(parseLine(lines[0]!, fileName, 1), fileName);
  const entries: ExpectationEntry[] = [];
  const queryLine = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const lineNo = i + 1;
    const entry = parseEntry(parseLine(lines[i]!, fileName, lineNo), fileName, lineNo);
    const prev = queryLine.get(entry.query);
    if (prev !== undefined) throw invalid(fileName, lineNo, `field "query": ${entry.query} already appears on line ${prev}`);
    queryLine.set(entry.query, lineNo);
    entries.push(entry);
  }
  return { header, entries };
}

function invalid(file: string, line: number, what: string): MemoryMatrixError {
  return new MemoryMatrixError('GOLDEN_INVALID', `${file}:${line}: ${what}`);
}

function parseLine(raw: string, file: string, line: number): Record<string, unknown> {
  const s = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (s.trim() === '') throw invalid(file, line, 'blank line; expected a JSON object');
  let v: unknown;
  try {
    v = JSON.parse(s);
  } catch (e) {
    throw new MemoryMatrixError('GOLDEN_INVALID', `${file}:${line}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(file, line, 'expected a JSON object');
  return v as Record<string, unknown>;
}

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], file: string, line: number): void {
  for (const key of allowed) if (!(key in o)) throw invalid(file, line, `field "${key}" is missing`);
  for (const key of Object.keys(o)) if (!allowed.includes(key)) throw invalid(file, line, `field "${key}" is not part of the format`);
}

function str(o: Record<string, unknown>, key: string, file: string, line: number): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw invalid(file, line, `field "${key}": expected a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function int(o: Record<string, unknown>, key: string, min: number, file: string, line: number): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw invalid(file, line, `field "${key}": expected an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  }
  return v;
}

const HEADER_KEYS = ['kind', 'version', 'dataset', 'datasetSha256', 'source', 'metric', 'tieEpsilon'] as const;

function parseHeader(o: Record<string, unknown>, file: string): ExpectationHeader {
  if (o.kind !== EXPECTATION_KIND) {
    throw invalid(file, 1, `field "kind": expected "${EXPECTATION_KIND}", got ${JSON.stringify(o.kind)}`);
  }
  if (o.version !== EXPECTATION_VERSION) {
    throw invalid(file, 1, `field "version": this build reads version ${EXPECTATION_VERSION}, got ${JSON.stringify(o.version)}`);
  }
  checkKeys(o, HEADER_KEYS, file, 1);
  const sha = str(o, 'datasetSha256', file, 1);
  if (!/^[0-9a-f]{64}$/.test(sha)) throw invalid(file, 1, `field "datasetSha256": expected 64 lowercase hex digits, got "${sha}"`);
  const metric = o.metric;
  if (typeof metric !== 'string' || !(METRICS as readonly string[]).includes(metric)) {
    throw invalid(file, 1, `field "metric": expected one of ${METRICS.join(', ')}, got ${JSON.stringify(metric)}`);
  }
  const eps = o.tieEpsilon;
  if (typeof eps !== 'number' || !Number.isFinite(eps) || eps < 0) {
    throw invalid(file, 1, `field "tieEpsilon": expected a finite number ≥ 0, got ${JSON.stringify(eps)}`);
  }
  return {
    kind: EXPECTATION_KIND,
    version: EXPECTATION_VERSION,
    dataset: str(o, 'dataset', file, 1),
    datasetSha256: sha,
    source: str(o, 'source', file, 1),
    metric: metric as Metric,
    tieEpsilon: eps,
  };
}

const ENTRY_KEYS = ['query', 'k', 'matching', 'hits'] as const;

function parseEntry(o: Record<string, unknown>, file: string, line: number): ExpectationEntry {
  checkKeys(o, ENTRY_KEYS, file, line);
  const query = str(o, 'query', file, line);
  const k = int(o, 'k', 1, file, line);
  const matching = int(o, 'matching', 0, file, line);
  if (!Array.isArray(o.hits)) throw invalid(file, line, `field "hits": expected an array of [id, score] pairs`);
  if (o.hits.length > matching) {
    throw invalid(file, line, `field "hits": ${o.hits.length} hits but only ${matching} rows qualify ("matching")`);
  }
  const hits: RecallHit[] = [];
  const ids = new Set<string>();
  o.hits.forEach((pair: unknown, i: number) => {
    const f = `hits[${i}]`;
    if (!Array.isArray(pair) || pair.length !== 2) throw invalid(file, line, `field "${f}": expected an [id, score] pair, got ${JSON.stringify(pair)}`);
    const [id, score] = pair as [unknown, unknown];
    if (typeof id !== 'string' || id === '') throw invalid(file, line, `field "${f}[0]": expected a non-empty id string, got ${JSON.stringify(id)}`);
    if (typeof score !== 'number' || !Number.isFinite(score)) throw invalid(file, line, `field "${f}[1]": expected a finite score, got ${JSON.stringify(score)}`);
    if (ids.has(id)) throw invalid(file, line, `field "${f}[0]": id ${id} appears twice`);
    const prev = hits[i - 1];
    if (prev && score > prev.score + ORDER_SLACK) {
      throw invalid(file, line, `field "${f}[1]": score ${score} is higher than the previous hit's ${prev.score}; hits must be non-increasing (slack ${ORDER_SLACK})`);
    }
    ids.add(id);
    hits.push({ id, score });
  });
  return { query, k, matching, hits };
}
