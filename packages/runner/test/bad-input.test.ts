/**
 * Bad input everywhere a user can give it (flags, golden files, expectation, catalog, a backend
 * that does not start, a URL nobody answers): exit 2, a message naming the thing and the place,
 * and nothing started or written — report.json is still written. Cases already covered in
 * cli.test.ts (unknown target, --bogus, --shard, sha256, short .f32, missing expectation) are not
 * repeated here (the closest targets an unknown one names are). With MM_BAD_INPUT_TABLE=<file> every case appends a row to a markdown table.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, copyGolden, recordCase, REPO, rewriteWithManifest, type CliResult } from './cli-helpers';

const PG18 = ['--backend', 'pgvector@pglite-pg18'];

/** Exit 2, the code, every fragment in the message, and (unless a cell was tried) no cell, no start. */
function expectBad(r: CliResult, code: string, fragments: Array<string | RegExp>, opts: { cell?: boolean } = {}): void {
  expect(r.status).toBe(2);
  const e = opts.cell ? r.report?.cells[0]?.error : r.report?.error;
  expect(e?.code).toBe(code);
  for (const f of fragments) expect(e?.message).toMatch(f);
  if (!opts.cell) {
    expect(r.report?.cells).toEqual([]);
    expect(r.stdout).not.toContain('starting');
  }
}

/** A damaged copy of the golden dataset: `edit(dir)` changes it; removed after `fn`. */
function withDamaged(edit: (dir: string) => void, fn: (dir: string) => void): void {
  const dir = copyGolden();
  try {
    edit(dir);
    fn(dir);
  } finally {
    rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

/** Line `n` (1-based) of a dataset's jsonl file, rewritten by `f`, manifest sha256/bytes fixed. */
function editLine(dir: string, file: string, n: number, f: (line: string) => string): void {
  const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
  lines[n - 1] = f(lines[n - 1]!);
  rewriteWithManifest(dir, file, Buffer.from(lines.join('\n')));
}

describe('malformed flags (exit 2, USAGE or commander)', () => {
  test.each([
    ['--repeat 0', ['--repeat', '0'], /--repeat "0": expected an integer from 1 to 20/],
    ['--repeat abc', ['--repeat', 'abc'], /--repeat "abc"/],
    ['--repeat 3 without C05', ['--repeat', '3', '--check', 'C03'], /--repeat 3: only C05 \(ann-recall\) replays its queries n times, and this run does not run C05 \(--check leaves it out\)/],
    ['--check C99 (no such check)', ['--check', 'C99'], /--check "C99": no such check/],
    ['--check C1 (an id without its zero padding: that id)', ['--check', 'C1'], /--check "C1": no such check; did you mean C01 write-read\? checks are C01 write-read, /],
    ['--check topk-exactt (a mistyped name: the closest one)', ['--check', 'topk-exactt'], /--check "topk-exactt": no such check; did you mean C03 topk-exact\? checks are C01 write-read, /],
    ['--profile nope', ['--profile', 'nope'], /unknown profile "nope"; known profiles: default/],
    ['malformed url target', ['--backend', 'pgvector@url=notaurl'], /"notaurl" is not a URL/],
  ])('%s', (name, args, message) => {
    const r = cli(args);
    recordCase(`flag ${name}`, r);
    expectBad(r, 'USAGE', [message]);
  });

  test.each([
    ['--image-source bogus', ['--image-source', 'bogus'], "argument 'bogus' is invalid. Allowed choices are registry, debian, auto"],
    ['--backend without a value', ['--backend'], "option '-b, --backend <target>' argument missing"],
  ])('%s (commander)', (name, args, message) => {
    const r = cli(args);
    recordCase(`flag ${name}`, r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });

  test.each([
    ['a mistyped version', 'pgvector@pg99', 'did you mean pgvector@pg17, pgvector@pg18, pgvector@pg16 or pgvector@pg15? known targets: pgvector@pglite-pg16, '],
    ['a backend without a version', 'chroma', 'chroma is a backend; name one of its targets: chroma@1.0, chroma@1.4; known targets: pgvector@pglite-pg16, '],
  ])('--backend with %s names the closest targets', (name, target, hint) => {
    const r = cli(['--backend', target]);
    recordCase(`unknown target ${target} (${name})`, r);
    expectBad(r, 'UNKNOWN_TARGET', [`unknown target "${target}" (not in matrix/targets.yaml); ${hint}`]);
  });

  test('a word that is not a command (run is the default command) names it and the commands', () => {
    const r = cli(['frobnicate']);
    recordCase('unknown command frobnicate', r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('memory-matrix: USAGE: unknown command "frobnicate"; the commands are run, bench, merge');
    expect(r.stderr).not.toContain('too many arguments');
  });

  test.each([
    [['--backend', '--check', 'C01'], "option '-b, --backend <target>' argument '--check' is invalid. it needs a value right after it, and --check is an option"],
    [['merge', '-r', '-x'], "option '-r, --report-dir <dir>' argument '-x' is invalid. it needs a value right after it, and -x is an option"],
    [['--backend', 'pgvector@pglite-pg18', '--chek', 'C01'], "error: unknown option '--chek'\n(Did you mean --check?)"],
    [['--report-dir', '', '--backend', 'pgvector@pglite-pg18'], "option '-r, --report-dir <dir>' argument '' is invalid. empty value (give one, or leave the option out for its default)"],
  ])('an option given instead of a value, a mistyped option or an empty value (%j) names the option, not an unknown command', (args, message) => {
    const r = cli(args);
    recordCase(`option as value ${args.join(' ')}`, r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain('unknown command');
  });
});

describe('unreadable or malformed golden files (exit 2 before any backend starts)', () => {
  test('dataset folder missing', () => {
    const r = cli([...PG18, '--dataset', '/nonexistent/golden']);
    recordCase('dataset folder missing', r);
    expectBad(r, 'GOLDEN_MISSING', ['golden dataset folder /nonexistent/golden is missing']);
  });

  test.each([
    ['nonexist', ''],
    ['agent-memory', 'did you mean agent-memories? '],
  ])('--dataset %s (no dataset of that name) lists the datasets there', (name, hint) => {
    const r = cli([...PG18, '--dataset', name]);
    recordCase(`dataset name unknown (--dataset ${name})`, r);
    const dir = path.join(REPO, 'golden-data');
    expectBad(r, 'GOLDEN_MISSING', [`golden dataset folder ${path.join(dir, name)} is missing; ${hint}the datasets in ${dir} are agent-memories, email-sample`]);
  });

  test('a data file that cannot be read (a directory in its place)', () =>
    withDamaged(
      (d) => {
        rmSync(path.join(d, 'queries.jsonl'));
        mkdirSync(path.join(d, 'queries.jsonl'));
      },
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('data file unreadable (queries.jsonl is a directory)', r);
        expectBad(r, 'GOLDEN_MISSING', [`${path.join(d, 'queries.jsonl')} cannot be read: EISDIR`]);
      },
    ));

  test('a line that is not JSON names file and line', () =>
    withDamaged(
      (d) => editLine(d, 'memories.jsonl', 7, (l) => l.slice(0, 40)),
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('bad JSON line (memories.jsonl:7 cut short)', r);
        expectBad(r, 'GOLDEN_INVALID', ['memories.jsonl:7']);
      },
    ));

  test('a missing field names file, line and field', () =>
    withDamaged(
      (d) => editLine(d, 'memories.jsonl', 3, (l) => l.replace(/"kind":"[a-z]+",/, '')),
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('missing field (memories.jsonl:3 without "kind")', r);
        expectBad(r, 'GOLDEN_INVALID', ['memories.jsonl:3', 'kind']);
      },
    ));

  test('NaN in a vector names the line and the id', () =>
    withDamaged(
      (d) => {
        const buf = Buffer.from(readFileSync(path.join(d, 'memories.f32')));
        buf.writeFloatLE(Number.NaN, (4 * 384 + 3) * 4); // row 5 (line 5), component 3
        rewriteWithManifest(d, 'memories.f32', buf);
      },
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('NaN in a vector (memories.f32 row 5, manifest fixed)', r);
        expectBad(r, 'GOLDEN_INVALID', [/memories\.(jsonl|f32).*:5/, /NaN/]);
      },
    ));

  test('manifest dim that the vector files do not have', () =>
    withDamaged(
      (d) => {
        const m = JSON.parse(readFileSync(path.join(d, 'manifest.json'), 'utf8'));
        writeFileSync(path.join(d, 'manifest.json'), JSON.stringify({ ...m, dim: 383 }, null, 2) + '\n');
      },
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('manifest dim 383 ≠ the 384-d vectors', r);
        expectBad(r, 'GOLDEN_INVALID', [/memories\.f32/]);
      },
    ));

  test('manifest metric other than the recorded expectation', () =>
    withDamaged(
      (d) => {
        const m = JSON.parse(readFileSync(path.join(d, 'manifest.json'), 'utf8'));
        writeFileSync(path.join(d, 'manifest.json'), JSON.stringify({ ...m, metric: 'ip' }, null, 2) + '\n');
      },
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('manifest metric ip ≠ expectation recorded under cosine', r);
        expectBad(r, 'GOLDEN_INVALID', ['oracle.jsonl:1', 'metric "cosine"', '"ip"', '--update-golden']);
      },
    ));

  test('an expectation line that is not JSON names file and line', () =>
    withDamaged(
      (d) => {
        const f = path.join(d, 'expected', 'oracle.jsonl');
        const lines = readFileSync(f, 'utf8').split('\n');
        lines[4] = '{"query":"q-0004",';
        writeFileSync(f, lines.join('\n'));
      },
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('malformed expectation (oracle.jsonl:5 cut short)', r);
        expectBad(r, 'GOLDEN_INVALID', ['oracle.jsonl:5']);
      },
    ));

  test('an expectation recorded for another version of the data', () =>
    withDamaged(
      (d) => editLine(d, 'memories.jsonl', 2, (l) => l.replace(/"text":"/, '"text":"edited: ')),
      (d) => {
        const r = cli([...PG18, '--dataset', d]);
        recordCase('expectation for another data version (memories.jsonl:2 edited, manifest fixed)', r);
        expectBad(r, 'GOLDEN_INVALID', ['oracle.jsonl:1', 'another version', '--update-golden']);
      },
    ));
});

describe('catalog and backends (exit 2)', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-catalog-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const catalogWith = (name: string, edit: (yaml: string) => string): string => {
    const f = path.join(tmp, name);
    writeFileSync(f, edit(readFileSync(path.join(REPO, 'matrix', 'targets.yaml'), 'utf8')));
    return f;
  };

  test('MM_CATALOG naming a file that does not exist', () => {
    const r = cli(PG18, { env: { MM_CATALOG: path.join(tmp, 'nope.yaml') } });
    recordCase('MM_CATALOG file missing', r);
    expectBad(r, 'USAGE', [`cannot read target catalog ${path.join(tmp, 'nope.yaml')}`]);
  });

  test('MM_CATALOG with a schema error names file, line and field', () => {
    const f = catalogWith('bad.yaml', (y) => y.replace('engine: pglite-0.5', 'engine: pglite-0.5\n    index: { type: hnsw, m: 1, efConstruction: 8, efSearch: 10 }'));
    const r = cli(PG18, { env: { MM_CATALOG: f } });
    recordCase('catalog schema error (index.m 1)', r);
    expectBad(r, 'USAGE', [new RegExp(`${f}:\\d+: targets\\.pgvector@pglite-pg18\\.index\\.m`)]);
  });

  test('a backend that does not start (expected version mismatch): the cell says why, every check is listed as not run', () => {
    const f = catalogWith('mismatch.yaml', (y) => y.replace('expect: { postgres: "18.6", pgvector: "0.8.7" }', 'expect: { postgres: "18.5", pgvector: "0.8.7" }'));
    const r = cli([...PG18, '--check', 'C01', '--check', 'C24'], { env: { MM_CATALOG: f } });
    recordCase('backend does not start (pglite-pg18 expected postgres 18.5)', r);
    expectBad(r, 'TARGET_UNAVAILABLE', ['pgvector@pglite-pg18', '18.5', '18.6'], { cell: true });
    expect(r.report?.cells[0]?.checks.map((c) => [c.id, c.status, c.error?.code])).toEqual([
      ['C01', 'failed', 'NOT_RUN'],
      ['C24', 'failed', 'NOT_RUN'],
    ]);
    expect(r.report?.summary).toMatchObject({ passed: 0, failed: 0, notRun: 2, cellErrors: 1 });
    expect(r.stdout).toContain('0 passed, 0 failed, 0 known, 0 skipped, 2 not run, 1 cell(s) could not run');
    expect(r.stdout).toMatch(/C01 write-read\s*│\s*NOT RUN/); // the table says what the summary counts (was FAIL (error))
    expect(r.stdout).not.toContain('FAIL (error)');
    expect(r.stdout).toContain('pgvector@pglite-pg18: 2 check(s) not run (C01, C24)'); // the start error once, not once per check
  }, 120_000);

  test('a URL target nobody answers', () => {
    const r = cli(['--backend', 'pgvector@url=postgres://mm:secret@127.0.0.1:9/postgres', '--check', 'C01']);
    recordCase('url target unreachable (127.0.0.1:9)', r);
    expectBad(r, 'TARGET_UNAVAILABLE', ['pgvector@url(127.0.0.1:9/postgres)', 'ECONNREFUSED'], { cell: true });
    expect(r.stdout + JSON.stringify(r.report)).not.toContain('secret');
  });
});
