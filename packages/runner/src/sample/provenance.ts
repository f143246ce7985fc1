/**
 * The provenance of a sampled dataset (`sample-provenance.json` beside manifest.json, which the
 * golden format keeps closed): source without password (the source's `safeUrl`), table, column
 * mapping and types, server and component versions, row counts, seed, strata, the redaction table,
 * conversion counters, tool version and date.
 */
import type { SampleSourceInfo } from '@memory-matrix/spec';
import type { RedactionTally, redactionTable } from './redact';
import type { ConversionStats } from './records';
import type { SampleOptions } from './options';

/** sample-provenance.json (see the file comment). `sampledAt` is SOURCE_DATE_EPOCH when set, else now. */
export interface SampleProvenance {
  kind: 'memory-matrix-sample';
  tool: string;
  sampledAt: string;
  /** In this key order; the source's component versions (`SampleSourceInfo.components`) come right after `server`. */
  source: {
    url: string;
    table: string;
    columns: Record<string, string | null>;
    columnTypes: Record<string, string>;
    server: string;
    rows: number;
    eligibleRows: number;
    eligibility: string;
    [component: string]: unknown;
  };
  sample: {
    seed: number;
    n: number;
    memories: number;
    queries: number;
    k: number;
    stratify: string | null;
    ageCutpoints?: string[];
    strata: Array<{ stratum: string; rows: number; sampled: number }>;
    method: string;
  };
  redaction: null | {
    categories: Record<string, string>;
    nameList: string;
    table: ReturnType<typeof redactionTable>;
    strings: number;
    stringsChanged: number;
    embeddings: string;
  };
  conversion: ConversionStats & { notes: string[] };
}

/**
 * The content of sample-provenance.json (the writer adds `datasetSha256`): `label` is the source
 * URL without password, `info` what the snapshot reported, `mapping` from `describeMapping`.
 * Pure apart from reading SOURCE_DATE_EPOCH; throws nothing.
 */
export function buildProvenance(a: {
  o: SampleOptions;
  label: string;
  info: SampleSourceInfo;
  mapping: Record<string, string | null>;
  strata: Array<{ stratum: string; rows: number; chosen: string[] }>;
  memories: number;
  queries: number;
  dim: number;
  table: ReturnType<typeof redactionTable> | null;
  tally: RedactionTally;
  stats: ConversionStats;
  nameList: string;
  toolVersion: string;
}): SampleProvenance {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const sampledAt = epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000).toISOString() : new Date().toISOString();
  return {
    kind: 'memory-matrix-sample',
    tool: `memory-matrix ${a.toolVersion}`,
    sampledAt,
    source: {
      url: a.label,
      table: a.info.table,
      columns: a.mapping,
      columnTypes: a.info.columnTypes,
      server: a.info.serverVersion,
      ...a.info.components,
      rows: a.info.rows,
      eligibleRows: a.info.eligibleRows,
      eligibility: 'text not null and not empty, embedding not null',
    },
    sample: {
      seed: a.o.seed,
      n: a.o.n,
      memories: a.memories,
      queries: a.queries,
      k: Math.min(a.o.k, a.memories),
      stratify: a.o.stratify ?? null,
      ...(a.info.ageCutpoints ? { ageCutpoints: a.info.ageCutpoints } : {}),
      strata: a.strata.map((s) => ({ stratum: s.stratum, rows: s.rows, sampled: s.chosen.length })),
      method:
        'bottom-k by key = first 48 bits of sha256("<seed>\\0sample\\0<id>") per stratum, proportional largest-remainder allocation; queries = the --queries sampled rows with the smallest sha256("<seed>\\0query\\0<id>") key, held out (not stored); every second query filtered to its namespace',
    },
    redaction: a.table
      ? {
          categories: {
            email: '[EMAIL]',
            card: '[CARD] (13-19 digits, Luhn-valid)',
            phone: '[PHONE] (NANP and +/00 international)',
            address: '[ADDRESS] (number + street-type word, P.O. Box)',
            name: '[NAME] (listed first name + surname, e-mail display names, titles, greetings, signatures)',
          },
          nameList: a.nameList,
          table: a.table,
          strings: a.tally.strings,
          stringsChanged: a.tally.changed,
          embeddings: 'unchanged: stored vectors are copied as they are (they were computed from the unredacted text)',
        }
      : null,
    conversion: {
      ...a.stats,
      notes: [
        'kind: a source value other than fact|preference|episode|summary (or none) becomes "episode", the value kept as metadata.source_kind',
        'createdAt: a row without one gets 1970-01-01T00:00:00.000Z',
        'metadata: nested objects flattened to dotted keys, arrays stored as JSON text',
        'ids / namespaces containing a detectable personal detail are replaced by mem-/ns-<12 hex of sha256(seed, value)>',
      ],
    },
  };
}
