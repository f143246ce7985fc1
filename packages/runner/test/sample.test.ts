/**
 * `memory-matrix sample` end to end against a real PostgreSQL + pgvector (the pgvector@pg17
 * container): a hand-made table with personal details in text, metadata, ids and namespaces;
 * redaction, exact embeddings, reproducibility (same seed → same bytes, other seed → other
 * sample), stratification, bad mappings (exit 2 naming the column; a table of no known layout
 * without a complete --columns), and `memory-matrix run
 * --dataset <sampled>` on the result. Behind the Docker gate (fails under CI=true without Docker).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startTarget, type StartedBackend } from '@memory-matrix/targets';
import { loadGoldenDataset } from '@memory-matrix/spec';
import { describeWithContainers } from './docker-gate';
import { runSampleCli, unitVectors } from './sample-helpers';

const DIM = 16;
const ROWS = 240;
const NAMESPACES = ['team-a', 'team-b', 'team-c', 'carol.jones@example.com'];
const FIRST = ['Alice', 'Robert', 'Maria', 'Peter', 'Susan', 'Thomas'];
const LAST = ['Jones', 'Smith', 'Garcia', 'Miller'];

const run = runSampleCli;

const filesOf = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      if (f.isDirectory()) walk(path.join(d, f.name), `${rel}${f.name}/`);
      else out[`${rel}${f.name}`] = readFileSync(path.join(d, f.name)).toString('base64');
    }
  };
  walk(dir, '');
  return out;
};

describeWithContainers('memory-matrix sample on a real pgvector store', ['pgvector@pg17'], ([pg17]) => {
  let server: StartedBackend;
  let url: string;
  const vecs = unitVectors(ROWS, DIM);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-sample-'));
  const COLS = 'id=id,text=body,embedding=emb,metadata=meta,created_at=created,namespace=ns,kind=kind';
  const sample = (out: string, extra: string[]) =>
    run([
      'sample',
      '--from',
      url.replace('postgres@', 'postgres:hunter2@'),
      '--table',
      'mem',
      '--columns',
      COLS,
      '--n',
      '60',
      '--queries',
      '10',
      '--out',
      path.join(tmp, out),
      '--name',
      out,
      ...extra,
    ]);

  beforeAll(async () => {
    server = await startTarget({ ...pg17 }, { runId: `sample-test-${process.pid}` });
    url = (server as unknown as { connectionString: string }).connectionString;
    const c = new Client({ connectionString: url });
    await c.connect();
    await c.query('CREATE EXTENSION IF NOT EXISTS vector');
    await c.query(`CREATE TABLE mem (id bigint PRIMARY KEY, body text, emb vector(${DIM}), meta jsonb, created timestamptz, ns text, kind text)`);
    for (let i = 0; i < ROWS; i += 1) {
      const name = `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`;
      const body = `Note ${i}: met ${name} at ${100 + i} Oak Street; call +44 20 7946 ${String(1000 + i).slice(-4)} or mail ${name.toLowerCase().replace(' ', '.')}@example.com. Card 4111 1111 1111 1111.`;
      const meta = { author: `${name} <${name.split(' ')[0]!.toLowerCase()}@example.org>`, n: i, pinned: i % 2 === 0, tags: ['x', `phone 555-123-${String(4000 + i)}`] };
      await c.query('INSERT INTO mem VALUES ($1, $2, $3::vector, $4::jsonb, $5, $6, $7)', [
        i + 1,
        body,
        `[${Array.from(vecs[i]!, String).join(',')}]`,
        JSON.stringify(meta),
        new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString(),
        NAMESPACES[i % 10 < 5 ? 0 : i % 10 < 8 ? 1 : i % 10 < 9 ? 2 : 3],
        ['fact', 'episode', 'note'][i % 3],
      ]);
    }
    await c.query(`INSERT INTO mem VALUES (9999, '', '[${Array(DIM).fill(0.25).join(',')}]', '{}', now(), 'team-a', 'fact')`); // empty text: not eligible
    await c.end();
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('redacts text, metadata and personal namespaces; embeddings exactly as stored; run --dataset passes', () => {
    const r = sample('redacted', ['--seed', '11', '--redact']);
    if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stderr}\n${r.stdout}`);
    expect(r.stdout).toMatch(/sampled 60 memories \+ 10 held-out queries from postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres mem \(240 eligible of 241 rows\)/);
    expect(r.stdout + r.stderr).not.toContain('hunter2');
    expect(r.stdout).toMatch(/\| all +\| +\d+ \| +0 \| +0\.00 % \|/);
    const dir = path.join(tmp, 'redacted');
    const text = readFileSync(path.join(dir, 'memories.jsonl'), 'utf8');
    expect(text).not.toMatch(/@example|7946|4111|Oak Street|Jones|Smith|Garcia|Miller|555-123/);
    expect(text).toContain('met [NAME] at [ADDRESS]; call [PHONE] or mail [EMAIL]. Card [CARD].');
    expect(text).toContain('"author":"[NAME] <[EMAIL]>"');
    const ds = loadGoldenDataset(dir);
    expect(ds.manifest).toMatchObject({ dim: DIM, metric: 'cosine', normalization: 'unit', counts: { memories: 60, queries: 10 } });
    expect(ds.memories.some((m) => m.namespace.startsWith('ns-'))).toBe(true);
    expect(ds.memories.every((m) => !m.namespace.includes('@'))).toBe(true);
    for (const m of ds.memories) {
      const i = Number(m.id) - 1;
      expect(Buffer.from(m.embedding.buffer, m.embedding.byteOffset, m.embedding.byteLength)).toEqual(Buffer.from(vecs[i]!.buffer));
      expect(m.kind).toBe(['fact', 'episode', 'episode'][i % 3]);
      if (i % 3 === 2) expect(m.metadata.source_kind).toBe('note');
      expect(m.createdAt).toBe(new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString());
    }
    const prov = JSON.parse(readFileSync(path.join(dir, 'sample-provenance.json'), 'utf8'));
    expect(prov.source).toMatchObject({ table: 'mem', rows: 241, eligibleRows: 240 });
    expect(prov.source.url).not.toContain('hunter2');
    expect(prov.sampledAt).toBe('2025-11-30T00:00:00.000Z');
    expect(prov.redaction.table.find((x: { category: string }) => x.category === 'email')).toMatchObject({ remaining: 0 });
    expect(prov.conversion.pseudonymisedNamespaces).toBeGreaterThan(0);

    const rep = mkdtempSync(path.join(os.tmpdir(), 'mm-sample-report-'));
    const m = run(['run', '--dataset', dir, '--backend', 'pgvector@pglite-pg18', '--check', 'C03', '--report-dir', rep]);
    if (m.status !== 0) throw new Error(`matrix on the sampled dataset: exit ${m.status}\n${m.stderr}\n${m.stdout}`);
  }, 300_000);

  test('same seed → byte-identical dataset; another seed → another sample', () => {
    for (const [out, seed] of [
      ['s1', '5'],
      ['s2', '5'],
      ['s3', '6'],
    ] as const) {
      const r = sample(out, ['--seed', seed, '--redact']);
      if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stderr}`);
    }
    const [a, b, c] = ['s1', 's2', 's3'].map((d) => filesOf(path.join(tmp, d)));
    // Only the name differs between s1 and s2 (it is in manifest.json, the expectation header and the provenance).
    const strip = (f: Record<string, string>) => ({ ...f, 'manifest.json': '', 'expected/oracle.jsonl': '', 'sample-provenance.json': '' });
    expect(strip(a!)).toEqual(strip(b!));
    expect(Object.keys(a!).sort()).toEqual(['expected/oracle.jsonl', 'manifest.json', 'memories.f32', 'memories.jsonl', 'queries.f32', 'queries.jsonl', 'sample-provenance.json']);
    const again = sample('s1', ['--seed', '5', '--redact', '--overwrite']);
    expect(again.status).toBe(0);
    expect(filesOf(path.join(tmp, 's1'))).toEqual(a);
    expect(c!['memories.jsonl']).not.toEqual(a!['memories.jsonl']);
  }, 300_000);

  test('--stratify namespace and age: proportional shares per stratum', () => {
    const r = sample('strat', ['--seed', '3', '--stratify', 'namespace']);
    if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stderr}`);
    // 240 rows: team-a 120, team-b 72, team-c 24, the e-mail namespace 24; 70 rows sampled (--n 60 + --queries 10).
    expect(r.stdout).toContain('stratum team-a: 35 of 120');
    expect(r.stdout).toContain('stratum team-b: 21 of 72');
    expect(r.stdout).toContain('stratum team-c: 7 of 24');
    expect(r.stdout).toContain('stratum carol.jones@example.com: 7 of 24');
    const age = sample('age', ['--seed', '3', '--stratify', 'age']);
    if (age.status !== 0) throw new Error(`exit ${age.status}\n${age.stderr}`);
    expect(age.stdout).toMatch(/stratum age-q1: 18 of 60[\s\S]*stratum age-q4: 17 of 60/);
  }, 300_000);

  test('bad mappings and flags: exit 2 naming the column or flag, nothing written', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--columns', 'id=id,text=body,embedding=vec'], /field "embedding" maps to column "vec", which table mem does not have/],
      [[], /mem: the table matches no known layout \(.*\); its columns: id bigint, body text, emb vector, meta jsonb, created timestamp with time zone, ns text, kind text; closest known layout: /],
      [['--columns', 'text=body,embedding=emb'], /matches no known layout .*Give --columns naming at least id, text and embedding/],
      [['--columns', 'id=id,text=body,embedding=body'], /embedding column "body" of mem is text; expected pgvector/],
      [['--columns', 'txt=body'], /unknown field "txt"/],
      [['--table', 'nosuch'], /table "nosuch" does not exist/],
    ];
    for (const [extra, re] of cases) {
      const r = run(['sample', '--from', url, '--table', 'mem', '--n', '60', '--seed', '1', '--out', path.join(tmp, 'bad'), ...extra]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(re);
    }
    const noKind = sample('bad', ['--seed', '1', '--stratify', 'kind', '--columns', `${COLS},kind=none`]);
    expect(noKind.status).toBe(2);
    expect(noKind.stderr).toMatch(/--stratify kind: no kind column is mapped/);
    const tooMany = sample('bad', ['--seed', '1', '--n', '1000']);
    expect(tooMany.stderr).toMatch(/240 rows with text and embedding, fewer than --n 1000/);
    expect(() => readdirSync(path.join(tmp, 'bad'))).toThrow();
  }, 300_000);
});
